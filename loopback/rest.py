"""REST under /api/v10: matching against the OpenAPI document, auth, faults, validation.

Handlers register by the spec's ``operationId`` (see :func:`handles`); a route the spec does
not know, or one no handler implements, is recorded as an error and answered 404, so a test
whose bot wanders off the map fails loudly.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

import orjson
from aiohttp import hdrs, web

from . import limits, ratelimits
from .records import DiscordError, HeldCall, RestCall, UploadedFile
from .spec import Operation
from .world import World

API_PREFIX = "/api/v10"
JSON = "application/json"  # exactly: discord.py parses nothing else as JSON


DROPPED = 0  # a fault's status: the connection closes instead of any reply


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[World, RestCall], Awaitable[Any]]
HANDLERS: dict[str, Handler] = {}
# Told when a request is refused before its handler runs (e.g. an invalid interaction reply).
REFUSAL_HOOKS: dict[str, Callable[[World, RestCall, DiscordError], None]] = {}

# Routes authenticated by the token in the path instead of the Authorization header.
_TOKEN_ROUTES = ("/interactions/", "/webhooks/")
# Operations whose body is a message (reply, follow-up, edit) and gets Discord's extra limits.
MESSAGE_BODIES = {
    "create_message", "update_message", "execute_webhook", "update_webhook_message",
    "update_original_webhook_message",
}


def handles(*operation_ids: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for operation_id in operation_ids:
            HANDLERS[operation_id] = handler
        return handler

    return register


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    if status == 204 or body is None:
        return web.Response(status=204 if status < 300 else status, headers=headers)
    if isinstance(body, str):  # not Discord's answer: a proxy's page
        return web.Response(status=status, text=body, content_type="text/html", headers=headers)
    return web.Response(
        status=status, body=orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS),
        content_type=JSON, headers=headers
    )


def _path_params(template: str, path: str) -> dict[str, str]:
    return {
        name[1:-1]: value
        for name, value in zip(template.split("/"), path.split("/"), strict=True)
        if name.startswith("{")
    }


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        return form_parts(await request.read(), request.headers[hdrs.CONTENT_TYPE])
    text = await request.text()
    return (orjson.loads(text) if text else None), []


def form_parts(raw: bytes, content_type: str) -> tuple[Any, list[UploadedFile]]:
    """A multipart/form-data body, read whole, split by the standard library's MIME parser:
    its JSON payload and its files. (aiohttp's reader, handed a part in pieces smaller than
    its boundary, used a deprecated call of its stream: a DeprecationWarning now and then.)"""
    head = f"{hdrs.CONTENT_TYPE}: {content_type}\r\n\r\n".encode()
    message = BytesParser(policy=HTTP).parsebytes(head + raw)
    body, files = None, []
    for part in message.iter_parts():  # discord.py nests no multipart
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True)
        data = data if isinstance(data, bytes) else b""  # a leaf part's payload is its bytes
        if name == "payload_json":
            body = orjson.loads(data)
        else:
            files.append(UploadedFile(str(name or ""), part.get_filename() or "", data,
                                      part.get(hdrs.CONTENT_TYPE)))
    return body, files


def _fault_reply(fault: dict[str, Any], route: str) -> Reply:
    if fault["status"] == DROPPED:
        return Reply(DROPPED)
    if fault["status"] == 429 and not fault.get("from_discord", True):
        return Reply(429, "<html><body>429 Too Many Requests</body></html>", {})
    if fault["status"] == 429:
        scope = "global" if fault["global"] else "user"
        hit = ratelimits.Hit(route, scope, fault["retry_after"], time.monotonic())
        body, headers = ratelimits.too_many(hit)
        return Reply(429, body, headers)
    return Reply(fault["status"], {"message": "500: Internal Server Error", "code": 0})


async def dispatch(fake: World, request: web.Request) -> web.Response:
    path = request.path[len(API_PREFIX):] or "/"
    operation: Operation | None = fake.spec.match(request.method, path)
    body, files = await read_body(request)
    call = RestCall(
        request.method, operation.route if operation else f"{request.method} {path}", path,
        _path_params(operation.template, path) if operation else {}, dict(request.query),
        body, files, fake.clock(),
    )
    fake.calls.append(call)
    limit_headers: dict[str, str] = {}
    reply = await _answer(fake, request, operation, call, limit_headers)
    if reply.status == DROPPED and request.transport is not None:
        request.transport.close()  # no reply at all: the caller cannot tell what happened
    call.status = reply.status
    headers = {**limit_headers, **reply.headers}
    return json_response(reply.status, reply.body, headers)


async def _answer(
    fake: World, request: web.Request, operation: Operation | None, call: RestCall,
    limit_headers: dict[str, str],
) -> Reply:
    if operation is None:
        what = "no such route in Discord's API" if not fake.spec.path_exists(call.path) else (
            "method not allowed by Discord's API")
        fake.record_error("unknown_route", f"{call.method} {call.path}: {what}")
        return Reply(404, {"message": "404: Not Found", "code": 0})
    if not call.path.startswith(_TOKEN_ROUTES):
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):  # a user's OAuth2 token, for what its scopes allow
            grant = fake.activities.bearer(auth[7:], fake.clock())
            if grant is None or not set(grant.scopes) & set(operation.oauth2_scopes):
                return Reply(401, {"message": "401: Unauthorized", "code": 0})
            call.bearer = grant
        elif not (auth.startswith("Bot ") and fake.token_ok(auth[4:])):
            return Reply(401, {"message": "401: Unauthorized", "code": 0})
    fault = fake.take_fault(call)
    held: HeldCall | None = fault.pop("held", None) if fault is not None else None
    if held is not None:
        fault = None
        if not held.after_work and not await held.hold(call):
            return Reply(DROPPED)  # the bot died before Discord took it: nothing was done
    elif fault is not None and not fault.get("after_work"):
        return _fault_reply(fault, call.route)
    headers, hit = fake.ratelimits.check(call.route, call.path, call.params)
    if hit is not None:
        body, too_many_headers = ratelimits.too_many(hit)
        return Reply(429, body, too_many_headers)
    limit_headers.update(headers)
    problems = fake.spec.body_problems(operation, call.body) if fake.validate else []
    if fake.validate and operation.operation_id in MESSAGE_BODIES:
        problems += limits.message_problems(call.body)
        problems += limits.emoji_problems(call.body, fake.application_emojis)
    if problems:
        fake.record_error("invalid_body", f"{call.route}: {problems}", call)
        body = limits.discord_error_body(problems)
        hook = REFUSAL_HOOKS.get(operation.operation_id)
        if hook is not None:
            hook(fake, call, DiscordError(400, 50035, body["message"], body["errors"]))
        return Reply(400, body)
    handler = HANDLERS.get(operation.operation_id)
    if handler is None:
        fake.record_error("unimplemented_route", f"{call.route} ({operation.operation_id})")
        return Reply(404, {"message": "404: Not Found", "code": 0})
    try:
        result = await handler(fake, call)
    except DiscordError as error:
        return Reply(error.status, error.body())
    finally:
        if held is not None and held.after_work:
            await held.hold(call)  # done; the answer waits (the bot may die meanwhile)
    if fault is not None:  # done, but the answer is lost on its way back
        return _fault_reply(fault, call.route)
    if isinstance(result, Reply):
        return result
    return Reply(204 if result is None else 200, result)
