"""Discord's Activity proxy (https://<app_id>.discordsays.com), as the tests need it.

Discord serves an Activity from its own origin and maps the Activity's URL mapping `/` to the
application's server, here `WEB_PUBLIC_URL/activity/`; requests under `/.proxy/` are mapped
the same way. So the app runs at `/`, not `/activity/`, and every address it uses must be
relative: this proxy makes the tests see exactly that. Its `cut()` is a network drop between
the player and the bot: every socket closes and nothing gets through until `mend()`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import aiohttp
from aiohttp import WSMsgType, web

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "host",
              "content-length", "content-encoding", "proxy-connection", "te", "trailer"}


class ActivityProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/") + "/activity/"
        self.down = False
        self._sockets: set[web.WebSocketResponse] = set()
        self._session: aiohttp.ClientSession | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self.forward)
        app.on_startup.append(self._open)
        app.on_cleanup.append(self._close)
        return app

    async def cut(self) -> None:
        self.down = True
        for socket in list(self._sockets):
            await socket.close(code=aiohttp.WSCloseCode.GOING_AWAY)

    def mend(self) -> None:
        self.down = False

    async def _open(self, app: web.Application) -> None:
        self._session = aiohttp.ClientSession(auto_decompress=False)

    async def _close(self, app: web.Application) -> None:
        if self._session is not None:
            await self._session.close()

    def _target(self, request: web.Request) -> str:
        path = request.match_info["path"].removeprefix(".proxy/")
        query = f"?{request.query_string}" if request.query_string else ""
        return self.upstream + path + query

    async def forward(self, request: web.Request) -> web.StreamResponse:
        if self.down:
            raise web.HTTPBadGateway()
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._relay(request)
        assert self._session is not None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        async with self._session.request(request.method, self._target(request), headers=headers,
                                         data=await request.read(),
                                         allow_redirects=False) as upstream:
            body = await upstream.read()
            out = {k: v for k, v in upstream.headers.items() if k.lower() not in HOP_BY_HOP}
            if "Content-Encoding" in upstream.headers:
                out["Content-Encoding"] = upstream.headers["Content-Encoding"]
            return web.Response(status=upstream.status, body=body, headers=out)

    async def _relay(self, request: web.Request) -> web.WebSocketResponse:
        assert self._session is not None
        target = self._target(request).replace("http://", "ws://", 1)
        try:
            upstream = await self._session.ws_connect(target, autoping=True)
        except (aiohttp.ClientError, OSError):
            raise web.HTTPBadGateway() from None
        client = web.WebSocketResponse()
        await client.prepare(request)
        self._sockets.add(client)
        try:
            await asyncio.gather(_pipe(upstream, client), _pipe(client, upstream))
        finally:
            self._sockets.discard(client)
            with suppress(Exception):
                await upstream.close()
        return client


async def _pipe(source, sink) -> None:
    """Copy text frames from one socket to the other; when one side closes, close the other
    with its code (an expired session's 4401 reaches the browser as it was sent)."""
    async for message in source:
        if message.type == WSMsgType.TEXT and not sink.closed:
            await sink.send_str(message.data)
    if not sink.closed:
        code = source.close_code if source.close_code and source.close_code >= 3000 else 1001
        await sink.close(code=code)


@asynccontextmanager
async def proxied(upstream: str) -> AsyncIterator[tuple[str, ActivityProxy]]:
    """The proxy on a free loopback port: yields (its base URL, the proxy)."""
    proxy = ActivityProxy(upstream)
    runner = web.AppRunner(proxy.app(), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}", proxy
    finally:
        await proxy.cut()
        await runner.cleanup()
