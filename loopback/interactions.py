"""Interaction callbacks and the interaction webhook (follow-ups, @original), with Discord's rules:
answer within 3 s, answer once, the token lives 15 minutes, response types fit the interaction.
"""

from __future__ import annotations

import time
from typing import Any

from . import limits
from .messages import announce, apply_edit, delete, new_message
from .model import EPHEMERAL, LOADING, FakeMessage
from .records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    DiscordError,
    InteractionRecord,
    RestCall,
    unknown,
)
from .rest import REFUSAL_HOOKS, Reply, handles
from .world import World

REPLY, DEFER, DEFER_UPDATE, UPDATE, CHOICES, MODAL, LAUNCH = 4, 5, 6, 7, 8, 9, 12
ALLOWED_RESPONSES = {
    APPLICATION_COMMAND: {REPLY, DEFER, MODAL, LAUNCH},
    MESSAGE_COMPONENT: {REPLY, DEFER, DEFER_UPDATE, UPDATE, MODAL, LAUNCH},
    AUTOCOMPLETE: {CHOICES},
    MODAL_SUBMIT: {REPLY, DEFER, DEFER_UPDATE, UPDATE, LAUNCH},
}
TOKEN_LIFETIME = 15 * 60


def _record(fake: World, call: RestCall, *, id_param: str | None) -> InteractionRecord:
    token = call.params.get("interaction_token") or call.params["webhook_token"]
    record = fake.interactions_by_token.get(token)
    if record is None or (id_param and str(record.id) != call.params[id_param]):
        fake.record_error("unknown_interaction", f"{call.route}: no such interaction token", call)
        raise unknown("interaction", 10062) if id_param else unknown("Webhook", 10015)
    return record


def _note_refusal(record: InteractionRecord, error: DiscordError) -> None:
    """The bot's first answer was refused: the driver stops waiting and reports it."""
    if record.response_type is None and record.refused is None:
        record.refused = error
        record.answered_after = time.perf_counter() - record.started
        record.touch()


def _refuse(
    fake: World, record: InteractionRecord, call: RestCall, kind: str, error: DiscordError
) -> DiscordError:
    fake.record_error(kind, f"{call.route}: {error.message}", call)
    _note_refusal(record, error)
    return error


def _refused_by_validation(fake: World, call: RestCall, error: DiscordError) -> None:
    record = fake.interactions_by_token.get(call.params["interaction_token"])
    if record is not None:
        _note_refusal(record, error)


REFUSAL_HOOKS["create_interaction_response"] = _refused_by_validation


@handles("create_interaction_response")
async def create_interaction_response(fake: World, call: RestCall) -> Any:
    record = _record(fake, call, id_param="interaction_id")
    body = call.body or {}
    kind, data = body.get("type"), body.get("data") or {}
    if record.response_type is not None:
        raise _refuse(fake, record, call, "double_response",
                      DiscordError(400, 40060, "Interaction has already been acknowledged."))
    age = fake.clock() - record.created_at
    if age > fake.response_deadline:
        raise _refuse(fake, record, call, "late_response", DiscordError(
            404, 10062, f"Unknown interaction (answered after {age:.2f} s)"))
    if kind == LAUNCH and not fake.activities.enabled:
        raise _refuse(fake, record, call, "invalid_response_type", DiscordError(
            400, 50035, "Invalid Form Body",
            {"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                   "message": "the application has no Activities"}]}}))
    if kind not in ALLOWED_RESPONSES[record.type]:
        raise _refuse(fake, record, call, "invalid_response_type", DiscordError(
            400, 50035, "Invalid Form Body",
            {"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                   "message": f"type {kind} cannot answer interaction type "
                                              f"{record.type}"}]}}))
    problems = (limits.autocomplete_problems(data) if kind == CHOICES
                else limits.message_problems(data) if kind in (REPLY, UPDATE) else [])
    if kind in (REPLY, UPDATE):
        problems += limits.emoji_problems(data, fake.application_emojis)
    if problems:
        prefixed = [type(p)(("data", *p.path), p.message) for p in problems]
        error = DiscordError(400, 50035, "Invalid Form Body",
                             limits.discord_error_body(prefixed)["errors"])
        raise _refuse(fake, record, call, "invalid_body", error)

    message = await _perform(fake, record, kind, data, call)
    record.response_type = kind
    record.edits_at_answer = record.original.edits if record.original else 0
    record.answered_after = time.perf_counter() - record.started
    record.touch()
    if call.query.get("with_response") not in ("1", "true", "True"):
        return None
    interaction = {"id": str(record.id), "type": record.type,
                   "response_message_loading": kind == DEFER,
                   "response_message_ephemeral": bool(message and message.ephemeral)}
    if record.activity_instance is not None:
        instance_id = record.activity_instance.id
        interaction["activity_instance_id"] = instance_id
        return {"interaction": interaction,
                "resource": {"type": LAUNCH, "activity_instance": {"id": instance_id}}}
    if message is None:
        return {"interaction": interaction}
    interaction["response_message_id"] = str(message.id)
    return {"interaction": interaction,
            "resource": {"type": kind, "message": message.to_json()}}


async def _perform(
    fake: World, record: InteractionRecord, kind: int, data: dict[str, Any], call: RestCall
) -> FakeMessage | None:
    if kind in (REPLY, DEFER):
        flags = (data.get("flags") or 0) & EPHEMERAL
        body = data if kind == REPLY else {"flags": flags}
        message = new_message(
            fake, call, record.channel, body, call.files, type=record.message_type,
            application_id=fake.application_id, interaction=_metadata(fake, record),
            flags=LOADING if kind == DEFER else 0,
        )
        record.original = message
        await announce(fake, "MESSAGE_CREATE", message)
        return message
    if kind in (DEFER_UPDATE, UPDATE):
        record.original = record.source_message
        if kind == UPDATE and record.source_message is not None:
            apply_edit(fake, call, record.source_message, data, call.files)
            await announce(fake, "MESSAGE_UPDATE", record.source_message)
        return record.source_message if kind == UPDATE else None
    if kind == LAUNCH:  # the user is taken into the channel's Activity
        record.activity_instance = fake.activities.launch(
            record.user, record.channel, fake.snowflakes.next())
    elif kind == CHOICES:
        record.choices = data.get("choices") or []
    elif kind == MODAL:
        record.modal = data
    return None


def _metadata(fake: World, record: InteractionRecord) -> dict[str, Any]:
    owners = ({"0": str(record.channel.guild_id)} if record.channel.guild_id
              else {"1": str(record.user.id)})
    metadata = {"id": str(record.id), "type": record.type, "user": record.user.to_json(),
                "authorizing_integration_owners": owners}
    if record.type == MESSAGE_COMPONENT and record.source_message is not None:
        metadata["interacted_message_id"] = str(record.source_message.id)
    return metadata


def _webhook_record(fake: World, call: RestCall) -> InteractionRecord:
    if int(call.params["webhook_id"]) != fake.application_id:
        raise unknown("Webhook", 10015)
    record = _record(fake, call, id_param=None)
    if fake.clock() - record.created_at > TOKEN_LIFETIME:
        fake.record_error("expired_token", f"{call.route}: the 15-minute token expired", call)
        raise DiscordError(401, 50027, "Invalid Webhook Token")
    if record.response_type is None:
        fake.record_error("not_acknowledged", f"{call.route} before any initial response", call)
        raise unknown("Webhook", 10015)
    return record


def _webhook_message(fake: World, call: RestCall) -> tuple[InteractionRecord, FakeMessage]:
    record = _webhook_record(fake, call)
    message_id = call.params.get("message_id")
    candidates = [record.original] if message_id is None else [
        m for m in [record.original, *record.followups] if m and str(m.id) == message_id]
    message = candidates[0] if candidates else None
    if message is None or message.deleted:
        raise unknown("Message", 10008)
    return record, message


@handles("execute_webhook")
async def execute_webhook(fake: World, call: RestCall) -> Any:
    record = _webhook_record(fake, call)
    body = call.body or {}
    original = record.original
    if (record.response_type == DEFER and original is not None and original.loading
            and not original.deleted):
        # The first follow-up after a "thinking" defer replaces the loading message (and
        # keeps its visibility); once that message is deleted, a follow-up is a new message.
        apply_edit(fake, call, original, body, call.files)
        message = original
        await announce(fake, "MESSAGE_UPDATE", message)
    else:
        message = new_message(fake, call, record.channel, body, call.files,
                              type=record.message_type,
                              application_id=fake.application_id,
                              interaction=_metadata(fake, record))
        await announce(fake, "MESSAGE_CREATE", message)
    record.followups.append(message)
    record.touch()
    wait = call.query.get("wait") in ("1", "true", "True")
    return message.to_json() if wait else None


@handles("get_original_webhook_message", "get_webhook_message")
async def get_webhook_message(fake: World, call: RestCall) -> Any:
    return _webhook_message(fake, call)[1].to_json()


@handles("update_original_webhook_message", "update_webhook_message")
async def update_webhook_message(fake: World, call: RestCall) -> Any:
    record, message = _webhook_message(fake, call)
    apply_edit(fake, call, message, call.body, call.files)
    await announce(fake, "MESSAGE_UPDATE", message)
    record.touch()
    return message.to_json()


@handles("delete_original_webhook_message", "delete_webhook_message")
async def delete_webhook_message(fake: World, call: RestCall) -> Any:
    record, message = _webhook_message(fake, call)
    await delete(fake, message)
    record.touch()
    return Reply(204)
