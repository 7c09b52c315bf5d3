"""At most `PER_CLIENT` requests of one client address in progress at once; the next is a
polite 429 page with Retry-After, made without a read of the store (issue 33).

A page address is all a flood needs, and the pages run on the bot's event loop: one client
must not hold every read connection (store/sqlite_reads.py) while players wait on Discord. A
browser opens at most 6 connections to a site, so one reader never meets the limit.

The client address is `request.remote`, the peer of the connection: the site trusts no
forwarding header (a client could write any). Behind a reverse proxy every request comes
from the proxy's address, so they all share one limit there; the proxy should hold a limit
per client of its own (docs/web.md).

The 429 page speaks the language of the server the address names, if this site served one
of its pages lately (no read of the store for it), else the reader's browser language
(Accept-Language), else English.
"""

from __future__ import annotations

from collections import OrderedDict

from aiohttp import web
from aiohttp.typedefs import Handler

import i18n

from .context import LOCALE, render

PER_CLIENT = 6
RETRY_AFTER_S = 2
LOCALES_KEPT = 1024  # page keys whose server's language is remembered for the 429 page


class ClientLimit:
    """The middleware (`build_app`), first in line: a request over the limit costs a few
    dictionary look-ups and a small page."""

    def __init__(self, per_client: int = PER_CLIENT) -> None:
        self.per_client = per_client
        self._active: dict[str, int] = {}
        self._locales: OrderedDict[str, str] = OrderedDict()  # page key -> its language

    def active(self, client: str) -> int:
        """How many of the client's requests are in progress now."""
        return self._active.get(client, 0)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        client = request.remote or ""
        active = self._active.get(client, 0)
        if active >= self.per_client:
            return self._too_many(request)
        self._active[client] = active + 1
        try:
            return await handler(request)
        finally:
            self._done(client)
            self._learn_locale(request)

    def _done(self, client: str) -> None:
        left = self._active[client] - 1
        if left:
            self._active[client] = left
        else:
            del self._active[client]

    def _learn_locale(self, request: web.Request) -> None:
        key = request.match_info.get("key")
        if key is not None and LOCALE in request:  # a page of a server was served
            self._locales[key] = request[LOCALE]
            self._locales.move_to_end(key)
            if len(self._locales) > LOCALES_KEPT:
                self._locales.popitem(last=False)

    def _too_many(self, request: web.Request) -> web.Response:
        key = request.match_info.get("key")
        known = self._locales.get(key) if key is not None else None
        request[LOCALE] = known or browser_locale(request.headers.get("Accept-Language", ""))
        response = render(request, "error.html", status=429, code=429)
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        return response


def browser_locale(header: str) -> str:
    """The first language of an Accept-Language header the bot speaks, by its weight."""
    weighed: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")[:20]):
        tag, _, options = part.strip().partition(";")
        weight = 1.0
        if options.strip().startswith("q="):
            try:
                weight = float(options.strip()[2:])
            except ValueError:
                continue
        language = tag.strip().lower().split("-")[0]
        if language in i18n.SUPPORTED_LOCALES and weight > 0:
            weighed.append((-weight, position, language))
    return min(weighed)[2] if weighed else i18n.DEFAULT_LOCALE
