"""What every page handler shares: the site's dependencies, templates, and rendering."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from hosting.site import SiteService
from hosting.stats import StatsService

from .links import Paths
from .words import Words

HERE = Path(__file__).parent
STATIC = HERE / "static"


@dataclass(frozen=True)
class GuildProfile:
    """What the site shows of a server besides its games: its name, and its language."""

    name: str | None
    locale: str


GuildProfiles = Callable[[int], Awaitable[GuildProfile]]


@dataclass(frozen=True)
class SiteDeps:
    """What the pages read: the statistics, the site's own reads, and server profiles."""

    stats: StatsService
    site: SiteService
    profile: GuildProfiles


class StaticUrls:
    """A static file's address with its version (`?v=` and a hash of its content), made once
    per file: aiohttp's `url_for` opens, reads and hashes the file on every call, which put
    file reads on the event loop for every page rendered (under a flood that makes many pages
    at once, the moves waited tens of ms for them). The files do not change while the process
    runs (a deploy restarts it)."""

    def __init__(self, app: web.Application) -> None:
        self._app = app
        self._urls: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        url = self._urls.get(name)
        if url is None:
            url = self._urls[name] = str(self._app.router["static"].url_for(filename=name))
        return url


DEPS = web.AppKey("deps", SiteDeps)
TEMPLATES = web.AppKey("templates", jinja2.Environment)
STATIC_URLS = web.AppKey("static_urls", StaticUrls)
PAGE_TURNS = web.AppKey("page_turns", asyncio.Lock)
# The longest stretch of the event loop a page's template takes before what became ready
# meanwhile (a move) goes first: a quarter of a quiet move's p99 (1.1-1.5 ms) or less.
SLICE_S = 0.0003
LOCALE = web.RequestKey("locale", str)  # the language the error page should speak


def templates() -> jinja2.Environment:
    """Every page's template, compiled now. Jinja compiles a template when it is first asked
    for: parsed, made into Python and compiled, 10-40 ms of the event loop that the first
    page of each kind after a start paid while games moved (a flood's first board page held
    a move 36 ms, issue 33). At start-up it is paid before the site serves anyone."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # A template is read once: checking its file (and its parent's) for changes before
        # every page was file I/O on the event loop; templates change only with a deploy.
        auto_reload=False,
    )
    for name in env.list_templates(extensions=("html",)):
        env.get_template(name)
    return env


def render(request: web.Request, template: str, status: int = 200, **context: Any) -> web.Response:
    return html_response(render_text(request, template, **context), status)


def render_text(request: web.Request, template: str, **context: Any) -> str:
    """The page as text: in the site's language (`site`), else the request's (LOCALE)."""
    return request.app[TEMPLATES].get_template(template).render(_filled(request, context))


def _filled(request: web.Request, context: dict[str, Any]) -> dict[str, Any]:
    """What every template has: its words and the static files' addresses."""
    site = context.get("site")
    context.setdefault("words", site.words if site else Words(request.get(LOCALE, "en")))
    return {"static": request.app[STATIC_URLS], **context}


async def render_in_turn(request: web.Request, template: str, **context: Any) -> str:
    """A page made on the event loop, one page at a time, a slice at a time.
    When a game finishes, every board of its server is made anew as it is asked for: under a
    flood over every board that is some 140 pages (~2 ms of templates each) asked at once.
    Made side by side in worker threads they fought the loop and the writer's thread for the
    GIL, and made back to back on the loop they held it for tens of ms; taking turns, a move
    that became ready meanwhile waits for one page at most (issue 33). And a player's page
    (1-2 ms of template) held every move that became ready meanwhile for all of it: made in
    slices of `SLICE_S`, a move waits for one slice at most."""
    async with request.app[PAGE_TURNS]:
        await asyncio.sleep(0)  # what became ready while this page waited goes first
        return await render_in_slices(request, template, context)


async def render_in_slices(request: web.Request, template: str, context: dict[str, Any]
                            ) -> str:
    """`render_text`, letting what became ready go first after each `SLICE_S` of it."""
    parts: list[str] = []
    clock = time.perf_counter
    until = clock() + SLICE_S
    for part in request.app[TEMPLATES].get_template(template).generate(
            _filled(request, context)):
        parts.append(part)
        if clock() >= until:
            await asyncio.sleep(0)
            until = clock() + SLICE_S
    return "".join(parts)


def html_response(html: str, status: int = 200) -> web.Response:
    return web.Response(text=html, status=status, content_type="text/html", charset="utf-8")


MAX_ID = 2**63 - 1  # SQLite's largest integer; a longer id names nothing
MAX_PAGE = 1_000_000
# Numbers in addresses are ASCII digits and nothing else: str.isdigit() takes "²", which
# int() refuses, and int() takes "５" or "٣". The routes' patterns say the same for the path.
DIGITS = re.compile(r"[0-9]{1,20}")


@dataclass(frozen=True)
class Site:
    """The server a page belongs to, as the page needs it."""

    guild_id: int
    name: str | None
    words: Words
    paths: Paths


async def site_of(request: web.Request) -> Site:
    """The server the address names, or 404: unknown, private without its secret, or
    malformed all look the same from outside."""
    deps = request.app[DEPS]
    key = request.match_info["key"]
    guild_id = await deps.site.guild_for(key)
    if guild_id is None:
        raise web.HTTPNotFound()
    profile = await deps.profile(guild_id)
    request[LOCALE] = profile.locale
    return Site(guild_id, profile.name, Words(profile.locale), Paths(key))


def number(raw: str, low: int, high: int) -> int:
    """An address's number in [low, high], or 404 (odd digits, a sign, spaces, too long)."""
    if not DIGITS.fullmatch(raw) or not low <= int(raw) <= high:
        raise web.HTTPNotFound()
    return int(raw)


def path_id(request: web.Request, name: str) -> int:
    return number(request.match_info[name], 0, MAX_ID)


def query_page(request: web.Request) -> int:
    """?page=N (1-based in the address) as a 0-based page; a malformed one is a 404."""
    return number(request.query.get("page", "1"), 1, MAX_PAGE) - 1
