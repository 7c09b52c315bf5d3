"""Running the site inside the bot's process, on the bot's event loop."""

from __future__ import annotations

import logging

from aiohttp import web

from .activity import ActivityDeps
from .app import build_app
from .context import SiteDeps
from .limits import RequestLimits

log = logging.getLogger(__name__)


class WebServer:
    """The site on one port: `await start()`, then `await stop()`. Port 0 picks a free port
    (tests); `port` tells which after the start."""

    def __init__(self, deps: SiteDeps, *, host: str, port: int,
                 activity: ActivityDeps | None = None,
                 limits: RequestLimits | None = None) -> None:
        self._app = build_app(deps, activity, limits)
        self._host, self._port = host, port
        self._runner: web.AppRunner | None = None

    @property
    def port(self) -> int:
        return self._port

    async def start(self) -> None:
        runner = self._runner = web.AppRunner(self._app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self._host, self._port)
        await site.start()  # OSError when the port is taken: stop() still cleans up
        if runner.addresses:  # the sockets' (host, port, …): the port 0 became
            self._port = runner.addresses[0][1]
        log.info("Web pages served on http://%s:%d", self._host, self._port)

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
