"""Threads, as Discord has them: started from a message or in a channel, messages in them,
archived (and reopened) by PATCH, announced with THREAD_CREATE / THREAD_UPDATE.

Facts kept: a thread started from a message has that message's id and the message then
carries it (`thread`, flag HAS_THREAD); one thread per message (160004); a thread started
without a message leaves a THREAD_CREATED system message in its channel; a thread has its
parent's permissions (creating one needs CREATE_PUBLIC_THREADS, sending in it
SEND_MESSAGES_IN_THREADS); its creator may archive it, anyone else needs MANAGE_THREADS;
sending a message to an archived, unlocked thread reopens it; an interaction used inside a
thread carries the thread's channel_id (see driver.py).
"""

from __future__ import annotations

from typing import Any

import discord

from .gateway import INTENT_GUILDS
from .ids import iso_now
from .model import FakeMessage
from .places import FakeChannel, ThreadState
from .records import DiscordError, RestCall, unknown
from .rest import handles
from .world import World

PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
HAS_THREAD = 1 << 5
THREAD_CREATED = 18  # the system message a thread without a starter message leaves
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
MISSING_PERMISSIONS = DiscordError(403, 50013, "Missing Permissions")


def _parent(fake: World, call: RestCall) -> FakeChannel:
    channel = fake.channel_or_404(call.params["channel_id"])
    if channel.is_dm or channel.is_thread:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    allowed = discord.Permissions(fake.guild_of(channel).channel_permissions(fake.bot, channel))
    if not (allowed.view_channel and allowed.create_public_threads):
        raise MISSING_PERMISSIONS
    return channel


def _checked_name(fake: World, call: RestCall) -> str:
    name = (call.body or {}).get("name") or ""
    if not 1 <= len(name) <= 100:
        fake.record_error("invalid_body", f"{call.route}: thread name of {len(name)} chars", call)
        raise DiscordError(400, 50035, "Invalid Form Body")
    return name


def _new_thread(
    fake: World, parent: FakeChannel, thread_id: int, name: str, body: dict[str, Any],
    kind: int = PUBLIC_THREAD,
) -> FakeChannel:
    duration = body.get("auto_archive_duration") or 1440
    if duration not in ARCHIVE_DURATIONS:
        raise DiscordError(400, 50035, "Invalid Form Body")
    thread = FakeChannel(
        thread_id, name, kind, guild_id=parent.guild_id,
        thread=ThreadState(parent, fake.bot.id, auto_archive_duration=duration),
    )
    fake.guild_of(parent).channels[thread.id] = fake.channels[thread.id] = thread
    return thread


async def _announce(fake: World, event: str, thread: FakeChannel, **extra: Any) -> None:
    await fake.gateway.broadcast(event, {**thread.to_json(), **extra}, intent=INTENT_GUILDS,
                                 guild_id=thread.guild_id)


@handles("create_thread_from_message")
async def create_thread_from_message(fake: World, call: RestCall) -> Any:
    parent = _parent(fake, call)
    wanted = int(call.params["message_id"])
    starter = next((m for m in parent.messages
                    if m.id == wanted and not m.deleted and not m.ephemeral), None)
    if starter is None:
        raise unknown("Message", 10008)
    if starter.started_thread is not None:
        raise DiscordError(400, 160004, "A thread has already been created for this message")
    thread = _new_thread(fake, parent, starter.id, _checked_name(fake, call), call.body)
    starter.started_thread, starter.flags = thread, starter.flags | HAS_THREAD
    await _announce(fake, "THREAD_CREATE", thread, newly_created=True)
    return thread.to_json()


@handles("create_thread")
async def create_thread(fake: World, call: RestCall) -> Any:
    parent = _parent(fake, call)
    body = call.body or {}
    kind = body.get("type", PRIVATE_THREAD)  # Discord's default, for historical reasons
    if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise DiscordError(400, 50035, "Invalid Form Body")
    name = _checked_name(fake, call)
    thread = _new_thread(fake, parent, fake.snowflakes.next(), name, body, kind)
    await _announce(fake, "THREAD_CREATE", thread, newly_created=True)
    if kind == PUBLIC_THREAD:
        notice = FakeMessage(fake.snowflakes.next(), parent.id, fake.bot, content=name,
                             type=THREAD_CREATED, guild_id=parent.guild_id,
                             started_thread=thread)
        parent.messages.append(notice)
    return thread.to_json()


@handles("update_channel")
async def update_channel(fake: World, call: RestCall) -> Any:
    channel = fake.channel_or_404(call.params["channel_id"])
    if channel.thread is None:
        raise MISSING_PERMISSIONS  # the bot manages no channels, only its threads
    state, body = channel.thread, call.body or {}
    allowed = discord.Permissions(fake.guild_of(channel).channel_permissions(fake.bot, channel))
    creator_may = set(body) <= {"name", "archived", "auto_archive_duration"}
    if not (allowed.manage_threads or (state.owner_id == fake.bot.id and creator_may)):
        raise MISSING_PERMISSIONS
    if state.archived and body.get("archived") is not False and set(body) - {"archived"}:
        raise DiscordError(400, 50083, "Thread is archived")
    if "name" in body:
        channel.name = _checked_name(fake, call)
    if "archived" in body and body["archived"] != state.archived:
        state.archived, state.archived_at = bool(body["archived"]), iso_now()
    state.locked = bool(body.get("locked", state.locked))
    state.auto_archive_duration = body.get("auto_archive_duration", state.auto_archive_duration)
    await _announce(fake, "THREAD_UPDATE", channel)
    return channel.to_json()


async def reopen_for_message(fake: World, channel: FakeChannel) -> None:
    """Sending to an archived thread reopens it (a locked one refuses: see messages.py)."""
    if channel.thread is not None and channel.thread.archived:
        channel.thread.archived, channel.thread.archived_at = False, iso_now()
        await _announce(fake, "THREAD_UPDATE", channel)
