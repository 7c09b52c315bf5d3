"""Activities: their instances, the OAuth2 sign-in an Activity's backend makes, and the rules
Discord keeps for an application with Activities (its Entry Point command).

What Discord does here, as its documentation and its OpenAPI document describe it:
- an application has Activities only once enabled in the Developer Portal (its EMBEDDED
  flag; `fake.activities.enabled`, off by default). Enabling them creates the default Entry
  Point command (`PRIMARY_ENTRY_POINT`, type 4, "launch", handler 2: Discord launches the
  Activity itself), and from then on a bulk overwrite of the global commands that leaves it
  out is refused (400, code 50240); a type 4 command or a `handler` is refused without
  Activities, a type 4 command in a server's scope always, and a second one too;
- a user in a channel starts (or joins) the channel's Activity instance: from the App
  Launcher or the Entry Point command, or through an app's interaction answered with
  `LAUNCH_ACTIVITY` (callback type 12, interactions.py);
- in the Activity, the Embedded App SDK's `authorize` gives the app an authorization code for
  the user (`fake.activities.authorize(user)` here: what the Discord client hands the iframe);
  the app's backend trades it at `POST /oauth2/token` (form-encoded, with the application's
  client id and secret; one use, ten minutes) for a Bearer token, reads the user with it at
  `GET /users/@me` (scope `identify`), and asks, with its bot token, who is in the instance
  (`GET /applications/{application_id}/activity-instances/{instance_id}`).

`/oauth2/token` is not in the OpenAPI document (it is OAuth2's, not the REST API's): its form
is checked here against Discord's OAuth2 documentation instead, and every call is recorded
like the others (route "POST /oauth2/token").
"""

from __future__ import annotations

import base64
import secrets
from typing import Any

from aiohttp import web

from .activity_state import TOKEN_LIFETIME, Grant
from .records import DiscordError, RestCall
from .rest import handles, json_response
from .world import World

PRIMARY_ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2  # an Entry Point handler: Discord launches, the app hears nothing
APP_HANDLER = 1  # an Entry Point handler: the app gets the interaction and launches (type 12)
TOKEN_ROUTE = "POST /oauth2/token"
ENTRY_POINT_KEPT = 50240  # "You cannot remove this app's Entry Point command in a bulk update"


async def oauth_token(fake: World, request: web.Request) -> web.Response:
    """`POST /oauth2/token`, grant_type authorization_code: a code for an access token."""
    form = dict(await request.post()) if request.can_read_body else {}
    call = RestCall("POST", TOKEN_ROUTE, "/oauth2/token", {}, dict(request.query),
                    {k: str(v) for k, v in form.items()}, [], fake.clock())
    fake.calls.append(call)
    fake.activities.exchanges.append(call)
    fault = fake.take_fault(call)
    if fault is not None:  # Discord's OAuth2 server failing, or a proxy in front of it
        status, body = fault["status"], {"error": "server_error"}
    else:
        status, body = _exchange(fake, request, call)
    call.status = status
    return json_response(status, body)


def _exchange(fake: World, request: web.Request, call: RestCall) -> tuple[int, dict[str, Any]]:
    form: dict[str, str] = call.body
    if request.content_type != "application/x-www-form-urlencoded":
        fake.record_error("invalid_body", f"{TOKEN_ROUTE}: not a form ({request.content_type})",
                          call)
        return 400, {"error": "invalid_request"}
    client_id, secret = form.get("client_id"), form.get("client_secret")
    if request.headers.get("Authorization", "").startswith("Basic "):
        pair = base64.b64decode(request.headers["Authorization"][6:]).decode()
        client_id, _, secret = pair.partition(":")
    if client_id != str(fake.application_id) or secret != fake.activities.client_secret:
        return 401, {"error": "invalid_client"}
    if form.get("grant_type") != "authorization_code" or not form.get("code"):
        fake.record_error("invalid_body", f"{TOKEN_ROUTE}: {sorted(form)}", call)
        return 400, {"error": "unsupported_grant_type" if form.get("code") else "invalid_request"}
    grant = fake.activities.codes.get(form["code"])
    if grant is None or grant.used or fake.clock() > grant.expires_at:
        return 400, {"error": "invalid_grant",
                     "error_description": 'Invalid "code" in request.'}
    grant.used = True
    token = secrets.token_urlsafe(22)
    fake.activities.tokens[token] = Grant(grant.user, grant.scopes,
                                          fake.clock() + TOKEN_LIFETIME)
    return 200, {"access_token": token, "token_type": "Bearer", "expires_in": TOKEN_LIFETIME,
                 "refresh_token": secrets.token_urlsafe(22), "scope": " ".join(grant.scopes)}


@handles("applications_get_activity_instance")
async def get_activity_instance(fake: World, call: RestCall) -> Any:
    if int(call.params["application_id"]) != fake.application_id:
        raise DiscordError(403, 50001, "Missing Access")
    instance = fake.activities.instances.get(call.params["instance_id"])
    if instance is None:
        raise DiscordError(404, 0, "404: Not Found")
    return instance.to_json(fake.application_id)


def me_as_bearer(grant: Grant) -> dict[str, Any]:
    """`GET /users/@me` read with a user's token: that user, as scope `identify` shows them."""
    return {**grant.user.to_json(), "locale": grant.user.locale, "mfa_enabled": False,
            "premium_type": 0}


def entry_point_refusal(
    fake: World, commands: list[dict[str, Any]], guild_id: int | None, *, bulk: bool,
) -> DiscordError | None:
    """Why Discord refuses these commands for their scope, as far as Entry Points go."""
    entry_points = [c for c in commands if c.get("type") == PRIMARY_ENTRY_POINT]
    if any("handler" in c and c.get("type") != PRIMARY_ENTRY_POINT for c in commands):
        return _invalid("handler", "Only PRIMARY_ENTRY_POINT commands have a handler")
    if entry_points and not fake.activities.enabled:
        return _invalid("type", "Entry Point commands need Activities enabled")
    if entry_points and guild_id is not None:
        return _invalid("type", "Entry Point commands are global only")
    if len(entry_points) > 1:
        return _invalid("type", "An application has one Entry Point command")
    had = [c for c in fake.commands.get(None, []) if c.get("type") == PRIMARY_ENTRY_POINT]
    if bulk and guild_id is None and had and not entry_points:
        return DiscordError(400, ENTRY_POINT_KEPT, "You cannot remove this app's Entry Point "
                            "command in a bulk update operation. Please include the Entry "
                            "Point command in your update request or delete it separately.")
    return None


def _invalid(field_: str, message: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", {field_: {"_errors": [
        {"code": "APPLICATION_COMMAND_INVALID", "message": message}]}})


def default_entry_point() -> dict[str, Any]:
    """The Entry Point command Discord creates when Activities are enabled."""
    return {"type": PRIMARY_ENTRY_POINT, "name": "launch", "description": "",
            "handler": DISCORD_LAUNCH_ACTIVITY, "integration_types": [0, 1],
            "contexts": [0, 1, 2]}
