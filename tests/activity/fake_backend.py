"""A stand-in for the bot's Activity backend that speaks the contract (docs/activity.md) and
nothing more, for the app's own browser tests: it serves the built app, signs users in from the
test host's codes, and lets a test push any `view` to any user and answer requests as it likes.

The whole-game tests run against the real backend (the bot's web server) instead.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, web
from PIL import Image

from i18n.activity import activity_boot_words
from web.cards import back_png, card_png, code_of

CLIENT_ID = "1234567890123456789"
BUILD = Path(__file__).resolve().parents[2] / "web" / "static" / "activity"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com")
EXPIRED, REFUSED = 4401, 4403


@dataclass
class Request:
    user_id: str
    message: dict[str, Any]


@dataclass
class FakeBackend:
    """The contract's server side. `views[user_id]` is what that user is shown on connect;
    `answer(request)` returns None (ok) or a refusal text."""

    views: dict[str, dict[str, Any]] = field(default_factory=dict)
    locales: dict[str, str] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    sessions: dict[str, tuple[str, str]] = field(default_factory=dict)  # -> (user, instance)
    forged: set[str] = field(default_factory=set)  # sessions the server says are not its own
    sign_ins: list[str] = field(default_factory=list)
    connects: list[str] = field(default_factory=list)
    answer: Callable[[Request], str | None] = lambda request: None
    refuse_sign_in: str | None = None
    missing_art: bool = False  # card pictures answer 404
    sockets: dict[str, set[web.WebSocketResponse]] = field(default_factory=dict)
    url: str = ""  # the app's address through Discord's proxy (set by the fixture)
    proxy: Any = None
    _versions: itertools.count = field(default_factory=lambda: itertools.count(1))

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/activity/", self.index)
        app.router.add_get("/activity/api/config", self.config)
        app.router.add_post("/activity/api/session", self.session)
        app.router.add_get("/activity/api/live", self.live)
        app.router.add_get("/activity/cards/back.png", self.back)
        app.router.add_get("/activity/cards/{variant}/{locale}/{card}.png", self.card)
        app.router.add_get("/activity/avatars/{user_id}", self.avatar)
        app.router.add_get("/activity/{name}", self.static)
        app.on_response_prepare.append(self._headers)
        return app

    # --- what a test does -----------------------------------------------------------------

    async def push(self, user_id: str, view: dict[str, Any]) -> None:
        """Show `view` to `user_id` now (and on their next connect)."""
        self.views[user_id] = view
        for socket in list(self.sockets.get(user_id, ())):
            await self._send_state(socket, user_id)

    async def drop(self) -> None:
        """Every socket closes at once, as when the network or the bot goes away."""
        for sockets in self.sockets.values():
            for socket in list(sockets):
                await socket.close(code=WSCloseCode.GOING_AWAY)

    def expire(self) -> None:
        """Every session stops being good, as when they time out."""
        self.sessions.clear()

    # --- handlers -------------------------------------------------------------------------

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(BUILD / "index.html")

    async def static(self, request: web.Request) -> web.FileResponse:
        path = BUILD / request.match_info["name"]
        if path.parent != BUILD or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": CLIENT_ID, "boot_words": activity_boot_words()})

    async def session(self, request: web.Request) -> web.Response:
        body = await request.json()
        code, instance = body.get("code", ""), body.get("instance_id", "")
        if self.refuse_sign_in is not None:
            return web.json_response({"error": "refused", "message": self.refuse_sign_in},
                                     status=403)
        if not code.startswith("code-") or not instance:
            return web.json_response({"error": "bad_code", "message": "bad code"}, status=400)
        user_id = code.removeprefix("code-").split(":")[0]
        self.sign_ins.append(user_id)
        token = f"s-{user_id}-{len(self.sign_ins)}"
        self.sessions[token] = (user_id, instance)
        return web.json_response({
            "access_token": f"token-{user_id}", "session": token,
            "user": {"id": user_id, "name": f"user {user_id}", "avatar_url": None},
            "locale": self.locales.get(user_id, "en"),
        })

    async def live(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=10)
        await socket.prepare(request)
        session = request.query.get("session", "")
        signed = self.sessions.get(session)
        if session in self.forged or (signed and signed[1] != request.query.get("instance_id")):
            await socket.send_json({"type": "refused", "request_id": None, "error": "session",
                                    "message": "This session is not valid."})
            await socket.close(code=REFUSED)
            return socket
        if signed is None:
            await socket.send_json({"type": "expired"})
            await socket.close(code=EXPIRED)
            return socket
        user_id = signed[0]
        self.connects.append(user_id)
        self.sockets.setdefault(user_id, set()).add(socket)
        try:
            await self._send_state(socket, user_id)
            async for message in socket:
                await self._request(socket, user_id, json.loads(message.data))
        finally:
            self.sockets[user_id].discard(socket)
        return socket

    async def _request(self, socket, user_id: str, message: dict[str, Any]) -> None:
        request = Request(user_id, message)
        self.requests.append(request)
        refusal = self.answer(request)
        request_id = message.get("request_id")
        if refusal is None:
            await socket.send_json({"type": "ok", "request_id": request_id})
        else:
            await socket.send_json({"type": "refused", "request_id": request_id,
                                    "message": refusal})

    async def _send_state(self, socket: web.WebSocketResponse, user_id: str) -> None:
        view = self.views.get(user_id)
        if view is not None and not socket.closed:
            await socket.send_json({"type": "state", "version": next(self._versions),
                                    "view": view})

    async def card(self, request: web.Request) -> web.Response:
        if self.missing_art:
            raise web.HTTPNotFound()
        info = request.match_info
        data = await asyncio.to_thread(card_png, code_of(info["card"]), info["variant"],
                                       info["locale"])
        return web.Response(body=data, content_type="image/png")

    async def back(self, request: web.Request) -> web.Response:
        if self.missing_art:
            raise web.HTTPNotFound()
        return web.Response(body=back_png(), content_type="image/png")

    async def avatar(self, request: web.Request) -> web.Response:
        shade = int(request.match_info["user_id"][-2:] or 0) * 37 % 200
        out = io.BytesIO()
        Image.new("RGB", (64, 64), (shade, 90, 200 - shade)).save(out, "PNG")
        return web.Response(body=out.getvalue(), content_type="image/png")


@asynccontextmanager
async def serving(app: web.Application) -> AsyncIterator[str]:
    """`app` on a free loopback port; yields its base URL. (Sockets still open at the end are
    cut after a second, not aiohttp's default minute.)"""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()
