"""Channel messages and DMs: create (JSON or multipart with files), edit, delete, fetch."""

from __future__ import annotations

import copy
import mimetypes
import time
from typing import Any

import discord

from . import limits, pings, threads
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES
from .ids import iso_now
from .model import EPHEMERAL, IS_COMPONENTS_V2, LOADING, FakeAttachment, FakeMessage
from .places import FakeChannel
from .records import DiscordError, RestCall, UploadedFile, unknown
from .rest import handles
from .world import World

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12

_SETTABLE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

CANNOT_DM = DiscordError(403, 50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = DiscordError(403, 50013, "Missing Permissions")
MISSING_ACCESS = DiscordError(403, 50001, "Missing Access")
NONCE_WINDOW = 120.0  # seconds Discord remembers an enforced nonce ("a few minutes")


def _attachments(
    fake: World, channel: FakeChannel, body: dict[str, Any], files: list[UploadedFile]
) -> list[FakeAttachment]:
    """New attachments: ``files[n]`` parts, described by ``attachments[{id: n, ...}]``."""
    described = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
    made = []
    for upload in files:
        index = upload.field.removeprefix("files[").removesuffix("]")
        meta = described.get(index, {})
        filename = meta.get("filename") or upload.filename
        attachment_id = fake.snowflakes.next()
        made.append(FakeAttachment(
            attachment_id, filename, upload.data,
            f"{fake.base_url}/attachments/{channel.id}/{attachment_id}/{filename}",
            upload.content_type or mimetypes.guess_type(filename)[0], meta.get("description"),
        ))
    return made


def _uploaded_names(body: dict[str, Any], files: list[UploadedFile]) -> set[str]:
    described = {str(a.get("id")): a for a in body.get("attachments") or [] if isinstance(a, dict)}
    names = set()
    for upload in files:
        meta = described.get(upload.field.removeprefix("files[").removesuffix("]"), {})
        names.add(meta.get("filename") or upload.filename)
    return names


def check_components_v2(
    fake: World, body: dict[str, Any], files: list[UploadedFile],
    existing: FakeMessage | None = None,
) -> None:
    """Refuse (400, 50035) what Discord refuses about Components V2 messages."""
    names = _uploaded_names(body, files)
    was_v2 = bool(existing and existing.flags & IS_COMPONENTS_V2)
    if existing is not None:
        kept = existing.attachments
        if body.get("attachments") is not None:
            ids = {str(a.get("id")) for a in body["attachments"] if isinstance(a, dict)}
            kept = [a for a in kept if str(a.id) in ids]
        names |= {a.filename for a in kept}
    flags = body.get("flags") or 0
    if not fake.validate:
        return
    problems = limits.components_v2_problems(body, flags, was_v2, names)
    if problems:
        fake.record_error("invalid_body", f"Components V2: {problems}")
        error_body = limits.discord_error_body(problems)
        raise DiscordError(400, 50035, "Invalid Form Body", error_body["errors"])


def new_message(
    fake: World, call: RestCall, channel: FakeChannel, body: dict[str, Any],
    files: list[UploadedFile], **extra: Any,
) -> FakeMessage:
    """A message `call` made from `body`, its mentions resolved (pings.py)."""
    check_components_v2(fake, body, files)
    flags = (body.get("flags") or 0) & _SETTABLE_FLAGS
    message = FakeMessage(
        id=fake.snowflakes.next(), channel_id=channel.id, author=fake.bot,
        content=body.get("content") or "", embeds=_embeds(body.get("embeds")),
        components=body.get("components") or [], guild_id=channel.guild_id,
        attachments=_attachments(fake, channel, body, files), flags=flags | extra.pop("flags", 0),
        **extra,
    )
    channel.messages.append(message)
    pings.resolve(fake, call, message, body, created=True)
    return message


def _embeds(embeds: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [{"type": "rich", **e} for e in embeds or []]


def apply_edit(
    fake: World, call: RestCall, message: FakeMessage, body: dict[str, Any],
    files: list[UploadedFile],
) -> None:
    """Discord's PATCH semantics: fields present replace, absent ones stay; an edit of the
    text resolves its mentions anew (pings.py)."""
    body = body or {}
    check_components_v2(fake, body, files, message)
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = _embeds(body["embeds"])
    if "components" in body:
        message.components = body["components"] or []
    if "flags" in body and body["flags"] is not None:
        keep = message.flags & (EPHEMERAL | IS_COMPONENTS_V2)
        message.flags = keep | (body["flags"] & SUPPRESS_EMBEDS)
    channel = fake.channels[message.channel_id]
    if "attachments" in body and body["attachments"] is not None:
        keep_ids = {str(a.get("id")) for a in body["attachments"] if isinstance(a, dict)}
        message.attachments = [a for a in message.attachments if str(a.id) in keep_ids]
    message.attachments += _attachments(fake, channel, body, files)
    message.flags &= ~LOADING
    message.edited_timestamp = iso_now()
    message.edits += 1
    pings.resolve(fake, call, message, body, created=False)


def _event(fake: World, message: FakeMessage) -> tuple[dict[str, Any], int]:
    data = message.to_json(with_guild=True)
    if message.guild_id is not None:
        member = fake.guilds[message.guild_id].member_json(message.author)
        member.pop("user")
        data["member"] = member
        return data, INTENT_GUILD_MESSAGES
    return data, INTENT_DIRECT_MESSAGES


async def announce(fake: World, event: str, message: FakeMessage) -> None:
    """MESSAGE_CREATE/UPDATE to the bot; ephemeral messages are never dispatched."""
    if message.ephemeral:
        return
    data, intent = _event(fake, message)
    await fake.gateway.broadcast(event, data, intent=intent, guild_id=message.guild_id)


def _sendable(fake: World, channel: FakeChannel, files: list[UploadedFile]) -> None:
    if channel.is_dm:
        assert channel.recipient is not None
        if not channel.recipient.dms_open:
            raise CANNOT_DM
        return
    allowed = discord.Permissions(fake.guild_of(channel).channel_permissions(fake.bot, channel))
    may_send = allowed.send_messages_in_threads if channel.is_thread else allowed.send_messages
    if not (allowed.view_channel and may_send):
        raise MISSING_PERMISSIONS
    if channel.thread is not None and channel.thread.locked and not allowed.manage_threads:
        raise MISSING_PERMISSIONS
    if files and not allowed.attach_files:
        raise MISSING_PERMISSIONS


@handles("create_dm")
async def create_dm(fake: World, call: RestCall) -> Any:
    user = fake.users_by_id.get(int(call.body.get("recipient_id") or 0))
    if user is None:
        raise unknown("User", 10013)
    if user.bot:
        raise CANNOT_DM
    return fake.dm_channel(user).to_json()


@handles("create_message")
async def create_message(fake: World, call: RestCall) -> Any:
    channel = fake.channel_or_404(call.params["channel_id"])
    _sendable(fake, channel, call.files)
    body = call.body or {}
    if not (body.get("content") or body.get("embeds") or body.get("components")
            or call.files or body.get("sticker_ids") or body.get("poll")):
        fake.record_error("invalid_body", f"{call.route}: empty message", call)
        raise DiscordError(400, 50006, "Cannot send an empty message")
    if (body.get("flags") or 0) & EPHEMERAL:
        fake.record_error("invalid_body", f"{call.route}: ephemeral outside interactions", call)
        raise DiscordError(400, 50035, "Invalid Form Body")
    sent = _sent_with_nonce(fake, channel, body)
    if sent is not None:
        return sent
    await threads.reopen_for_message(fake, channel)
    message = new_message(fake, call, channel, body, call.files)
    posted = message.to_json()
    if body.get("enforce_nonce") and body.get("nonce") is not None:
        fake.nonces[(channel.id, str(body["nonce"]))] = (time.monotonic(), message,
                                                         copy.deepcopy(posted))
    await announce(fake, "MESSAGE_CREATE", message)
    return posted


def _sent_with_nonce(
    fake: World, channel: FakeChannel, body: dict[str, Any]
) -> dict[str, Any] | None:
    """Discord's `enforce_nonce`: a message created with the same nonce in the last few
    minutes is returned instead of creating another (a retried send posts once), as it was
    first posted: not the body sent now, nor the edits it had since."""
    if not body.get("enforce_nonce") or body.get("nonce") is None:
        return None
    now = time.monotonic()
    if len(fake.nonces) > 10_000:
        fake.nonces = {k: v for k, v in fake.nonces.items() if v[0] > now - NONCE_WINDOW}
    sent = fake.nonces.get((channel.id, str(body["nonce"])))
    if sent is None or sent[0] <= now - NONCE_WINDOW or sent[1].deleted:
        return None
    return copy.deepcopy(sent[2])


def _message(fake: World, call: RestCall) -> tuple[FakeChannel, FakeMessage]:
    channel = fake.channel_or_404(call.params["channel_id"])
    wanted = int(call.params["message_id"])
    for message in channel.messages:
        if message.id == wanted and not message.deleted and not message.ephemeral:
            return channel, message
    raise unknown("Message", 10008)


@handles("get_message")
async def get_message(fake: World, call: RestCall) -> Any:
    """In a server, Discord shows a message only to who may see the channel and read its
    history (else 403: 50001 Missing Access, 50013 Missing Permissions)."""
    channel, message = _message(fake, call)
    if not channel.is_dm:
        allowed = discord.Permissions(fake.guild_of(channel).channel_permissions(fake.bot, channel))
        if not allowed.view_channel:
            raise MISSING_ACCESS
        if not allowed.read_message_history:
            raise MISSING_PERMISSIONS
    return message.to_json()


@handles("list_messages")
async def list_messages(fake: World, call: RestCall) -> Any:
    channel = fake.channel_or_404(call.params["channel_id"])
    messages = channel.visible_messages()
    if "before" in call.query:
        messages = [m for m in messages if m.id < int(call.query["before"])]
    if "after" in call.query:
        messages = [m for m in messages if m.id > int(call.query["after"])]
    limit = int(call.query.get("limit", 50))
    return [m.to_json() for m in reversed(messages)][:limit]


@handles("update_message")
async def update_message(fake: World, call: RestCall) -> Any:
    _, message = _message(fake, call)
    if message.author.id != fake.bot.id:
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    apply_edit(fake, call, message, call.body, call.files)
    await announce(fake, "MESSAGE_UPDATE", message)
    return message.to_json()


@handles("delete_message")
async def delete_message(fake: World, call: RestCall) -> Any:
    channel, message = _message(fake, call)
    if message.author.id != fake.bot.id and channel.is_dm:
        raise DiscordError(403, 50003, "Cannot execute action on a DM channel")
    await delete(fake, message)


async def delete(fake: World, message: FakeMessage) -> None:
    message.deleted = True
    if message.ephemeral:
        return
    data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
    if message.guild_id is not None:
        data["guild_id"] = str(message.guild_id)
    intent = INTENT_GUILD_MESSAGES if message.guild_id else INTENT_DIRECT_MESSAGES
    await fake.gateway.broadcast("MESSAGE_DELETE", data, intent=intent,
                                 guild_id=message.guild_id)
