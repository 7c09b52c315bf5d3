"""The Activity's routes, under /activity/ on the bot's web site (Discord's proxy maps the
Activity's URL to WEB_PUBLIC_URL/activity/): the page, its files, the card pictures, sign-in
and the live socket. An application of its own (an aiohttp sub-application), with its own
security headers: it is framed by Discord (`frame-ancestors` Discord's origins, no
X-Frame-Options), and loads nothing but from itself (`default-src 'none'`; scripts, styles,
images, the socket: 'self' only; `data:` images too).

    GET  /activity/                      index.html of the built app (web/static/activity/)
    GET  /activity/<file>                the app's other built files
    GET  /activity/cards/<variant>/<locale>/<card>.png    a card's picture (cardart)
    GET  /activity/api/config            what the page needs before it signs in
    POST /activity/api/session           {"code", "instance_id"[, "locale"]} → a session
    GET  /activity/api/live?session=…&instance_id=…[&locale=…]    the WebSocket
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

import i18n
from hosting import GameService, Preferences, Presence
from hosting.clock import Clock

from .. import cards
from ..context import STATIC
from .actions import Actions, ShowLobby
from .live import LiveHub
from .refusals import PlaceName
from .sessions import LIFETIME_S, Refusal, Session, SessionKeys, SessionRefused
from .signin import Credentials, DiscordSignIn, SignInProblem, SignInRefused
from .words import boot_words

log = logging.getLogger(__name__)

APP_FILES = STATIC / "activity"  # what `make` builds from activity/ (the app's sources)
# Where Discord shows Activities: its web and desktop clients and the Activities' own proxy.
DISCORD_FRAME_ANCESTORS = ("https://discord.com", "https://*.discord.com",
                           "https://*.discordsays.com")
LONGEST_FIELD = 256  # characters of a code or an instance id the sign-in reads
# What each refusal's `error` code says (the page shows `message`; it may act on `error`).
ERROR_KEYS = {"bad_request": "error.bad_request", "sign_in": "error.sign_in",
              "not_in_instance": "error.not_in_instance",
              "unavailable": "error.discord_unavailable", "session": "error.session_invalid",
              "expired": "error.session_expired",
              "other_instance": "error.session_other_instance"}
SIGN_IN_STATUS = {SignInProblem.NOT_CONFIRMED: 401, SignInProblem.NOT_IN_INSTANCE: 403,
                  SignInProblem.UNAVAILABLE: 503}


@dataclass(frozen=True)
class ActivityDeps:
    """What the Activity needs from the bot (handed in by the composition root)."""

    service: GameService
    preferences: Preferences
    credentials: Credentials
    show_lobby: ShowLobby  # posts a lobby opened from the Activity in its channel
    place_name: PlaceName  # a channel's "#name", for refusals that name one
    clock: Clock
    presence: Presence  # told who has the Activity open on a game (the renderer asks it)
    frame_ancestors: tuple[str, ...] = DISCORD_FRAME_ANCESTORS
    poll_every: float | None = None  # seconds between polls of other processes' commits


@dataclass(frozen=True)
class Parts:
    deps: ActivityDeps
    keys: SessionKeys
    signin: DiscordSignIn
    hub: LiveHub


PARTS = web.AppKey("activity", Parts)


def security_headers(frame_ancestors: tuple[str, ...]) -> dict[str, str]:
    return {
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            f"frame-ancestors {' '.join(frame_ancestors)}"),
        "Cross-Origin-Resource-Policy": "same-origin",
    }


def build_activity_app(deps: ActivityDeps) -> web.Application:
    app = web.Application()
    hub = LiveHub(deps.service, Actions(deps.service, deps.show_lobby), deps.place_name,
                  deps.clock, deps.presence)
    if deps.poll_every is not None:
        hub.poll_every = deps.poll_every
    parts = Parts(deps, SessionKeys(deps.credentials.client_secret),
                  DiscordSignIn(deps.credentials), hub)
    app[PARTS] = parts
    headers = security_headers(deps.frame_ancestors)

    async def secure(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(headers)  # after the site's own: these win
        response.headers.popall("X-Frame-Options", None)  # framed by Discord

    async def shutdown(app: web.Application) -> None:
        await hub.close()

    async def cleanup(app: web.Application) -> None:
        await parts.signin.close()

    app.on_response_prepare.append(secure)
    app.on_shutdown.append(shutdown)
    app.on_cleanup.append(cleanup)
    app.router.add_get("/", index)
    app.router.add_get("/api/config", config)
    app.router.add_post("/api/session", session)
    app.router.add_get("/api/live", live)
    app.router.add_get("/cards/{variant:[a-z]{1,12}}/{locale:[a-z]{2}}/{card:[1-6]p?|[LP]}.png",
                       cards.card)
    app.router.add_get("/{path:[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*}", app_file)
    return app


async def index(request: web.Request) -> web.StreamResponse:
    return _file(APP_FILES / "index.html")


async def app_file(request: web.Request) -> web.StreamResponse:
    return _file(APP_FILES / request.match_info["path"])


def _file(path: Path) -> web.StreamResponse:
    """One built file of the app; nothing outside its folder (no `..`: the route's pattern
    allows none, and the resolved path is checked again)."""
    resolved = path.resolve()
    if not resolved.is_relative_to(APP_FILES.resolve()) or not resolved.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(resolved, headers={"Cache-Control": "no-cache"})


async def config(request: web.Request) -> web.Response:
    """Before signing in: the application's id (the SDK's client id) and the words shown
    meanwhile, in every language (the user's is not known yet)."""
    application_id = request.app[PARTS].deps.credentials.application_id()
    return web.json_response({"client_id": str(application_id), "boot_words": dict(boot_words())},
                             headers={"Cache-Control": "no-cache"})


def _refusal(status: int, error: str, locale: str) -> web.Response:
    text = i18n.translate(ERROR_KEYS[error], locale)
    return web.json_response({"error": error, "message": text}, status=status)


async def session(request: web.Request) -> web.Response:
    """Sign a player in: Discord confirms who they are and that they are in the instance;
    the page gets the user's access token (for the SDK's `authenticate`) and a session."""
    parts = request.app[PARTS]
    try:
        body: Any = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return _refusal(400, "bad_request", "en")
    locale = i18n.resolve_locale(body.get("locale") if isinstance(body.get("locale"), str)
                                 else None)
    code, instance_id = body.get("code"), body.get("instance_id")
    if not (isinstance(code, str) and isinstance(instance_id, str)
            and 0 < len(code) <= LONGEST_FIELD and 0 < len(instance_id) <= LONGEST_FIELD):
        return _refusal(400, "bad_request", locale)
    try:
        signed = await parts.signin.sign_in(code, instance_id)
    except SignInRefused as refused:
        return _refusal(SIGN_IN_STATUS[refused.problem], refused.problem.value, locale)
    user, instance, deps = signed.user, signed.instance, parts.deps
    await deps.preferences.load_user_choice(user.id)
    locale = deps.preferences.reader_locale(user.id, user.locale or locale)
    expires = deps.clock.now() + LIFETIME_S
    made = Session(user.id, instance.id, instance.channel_id, instance.guild_id, user.name,
                   locale, expires)
    return web.json_response({
        "access_token": signed.access_token, "session": parts.keys.sign(made),
        "user": {"id": str(user.id), "name": user.name, "avatar_url": None},
        "locale": locale, "expires_at": expires,
    }, headers={"Cache-Control": "no-store"})


async def live(request: web.Request) -> web.WebSocketResponse:
    """The live socket of a session, for the instance it was signed in for."""
    parts = request.app[PARTS]
    ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=4096)
    await ws.prepare(request)
    query = request.query
    try:
        verified = parts.keys.verify(query.get("session", ""), parts.deps.clock.now(),
                                     query.get("instance_id", ""))
    except SessionRefused as refused:
        locale = i18n.resolve_locale(query.get("locale"))
        if refused.reason is Refusal.EXPIRED:
            await ws.send_json({"type": "expired"})
        else:
            text = i18n.translate(ERROR_KEYS[refused.reason.value], locale)
            await ws.send_json({"type": "refused", "request_id": None,
                                "error": refused.reason.value, "message": text})
        await ws.close(code=4401 if refused.reason is Refusal.EXPIRED else 4403,
                       message=refused.reason.value.encode())
        return ws
    await parts.hub.serve(ws, verified)
    return ws
