"""The web site's aiohttp application: routes, templates, security headers and error pages.

Safe by construction:
- read-only: every handler is a GET (HEAD) over hosting's read methods; no forms post anything;
- Jinja2 autoescapes every value (a player named <script> is text), StrictUndefined turns a
  template typo into an error instead of an empty string;
- route patterns accept ASCII digits where ids go, so a bad id is a 404 before any handler
  runs, and ids beyond SQLite's integer range are 404 too; so are page numbers in the query
  that are anything but ASCII digits ("²", "５", "٣", "-1", " 1"), with nothing logged;
- at most a few requests of one client address at once, the next a polite 429 page, and one
  new request per turn of the event loop for everyone together (limits.py): no reader can
  hold every read connection of the store, nor a crowd the games' event loop;
- static files without directory listing, and a missing one is the site's 404 page too;
  nothing under /s/ (where a secret may be in the address) is stored by any cache,
  redirects included; a Content-Security-Policy that allows no inline script or style,
  no framing and no other origin; no referrer (private links hold a secret).
"""

from __future__ import annotations

import asyncio
import logging
import time

from aiohttp import web
from aiohttp.typedefs import Handler

from . import cards, pages, replay
from .activity import ActivityDeps, build_activity_app
from .context import (
    DEPS,
    PAGE_TURNS,
    STATIC,
    STATIC_URLS,
    TEMPLATES,
    SiteDeps,
    StaticUrls,
    render,
    templates,
)
from .limits import LIMITS, RequestLimits

log = logging.getLogger(__name__)
STATIC_FILES = web.AppKey("static_files", frozenset)  # what /static/ serves, by name

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}


@web.middleware
async def server_timing(request: web.Request, handler: Handler) -> web.StreamResponse:
    """How long the page took to make (reads and rendering), in the standard Server-Timing
    header: what `make bench` measures, and what a browser's developer tools show."""
    start = time.perf_counter()
    response = await handler(request)
    response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - start) * 1000:.2f}"
    return response


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every failure is a small page in the site's look: 404 for what does not exist (or is
    private), 405 for anything but reading, 500 (logged, details never shown) for bugs."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        # 403 is what aiohttp answers for a static folder: say "not found", list nothing.
        status = 404 if error.status == 403 else error.status
        response = render(request, "error.html", status=status, code=status)
        if isinstance(error, web.HTTPMethodNotAllowed):
            response.headers["Allow"] = ", ".join(sorted(error.allowed_methods))
        return response
    except Exception:
        log.exception("web page %s failed", request.path)
        return render(request, "error.html", status=500, code=500)


@web.middleware
async def missing_static(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A static file that is not there is the site's 404 page. (aiohttp finds out only while
    sending the file, too late for error_pages, and answers with an empty 404 of its own.)"""
    known = request.app[STATIC_FILES]
    if request.match_info.route.name == "static" and request.match_info["filename"] not in known:
        raise web.HTTPNotFound()
    return await handler(request)


def static_files() -> frozenset[str]:
    return frozenset(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file())


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)
    if response.content_type == "text/html" or request.path.startswith("/s/"):
        # Pages change with every game, and an address under /s/ may hold a server's secret:
        # no browser or proxy may keep it (the redirect that carries it included).
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Robots-Tag"] = "noindex, nofollow"


def build_app(deps: SiteDeps, activity: ActivityDeps | None = None,
              limits: RequestLimits | None = None) -> web.Application:
    """The site; with `activity`, the Activity's routes under /activity/ too. `limits`: how
    much of the process its requests may take (limits.py)."""
    limits = limits or RequestLimits()
    app = web.Application(
        middlewares=[limits.middleware, server_timing, error_pages, missing_static])
    app[DEPS] = deps
    app[LIMITS] = limits
    app[TEMPLATES] = templates()
    app[STATIC_URLS] = StaticUrls(app)
    app[PAGE_TURNS] = asyncio.Lock()
    app[STATIC_FILES] = static_files()
    app.on_response_prepare.append(_secure)
    add = app.router.add_get
    # Numbers are [0-9], never \d: a regular expression's \d matches "٣" and "５" as well.
    add("/", pages.home)
    add("/s/{key:[A-Za-z0-9_-]{1,40}}", pages.site_root)
    add("/s/{key:[A-Za-z0-9_-]{1,40}}/", pages.site_root)
    # A board nobody kept is made in a read turn: past the deadline its page is "busy".
    add("/s/{key:[A-Za-z0-9_-]{1,40}}/leaderboard", limits.in_time(pages.leaderboard))
    # The pages read anew (a player's statistics, the recent games, a replay) read in turns,
    # in the store's reader processes, so a crowd of them leaves the cores to the games and
    # the read connections to Discord (limits.py).
    reads_in_turn = limits.reads_in_turn
    add("/s/{key:[A-Za-z0-9_-]{1,40}}/players/{user_id:[0-9]{1,20}}", reads_in_turn(pages.player))
    add("/s/{key:[A-Za-z0-9_-]{1,40}}/games", reads_in_turn(pages.games))
    add("/s/{key:[A-Za-z0-9_-]{1,40}}/games/{game_id:[0-9]{1,20}}", reads_in_turn(replay.replay))
    add("/s/{key:[A-Za-z0-9_-]{1,40}}/games/{game_id:[0-9]{1,20}}/{step:[0-9]{1,6}}",
        reads_in_turn(replay.replay))
    add("/cards/back.png", cards.back)
    add("/cards/{variant:[a-z]{1,12}}/{locale:[a-z]{2}}/{card:[1-6]p?|[LP]}.png", cards.card)
    app.router.add_static("/static", STATIC, name="static", show_index=False,
                          follow_symlinks=False, append_version=True)
    if activity is not None:
        app.add_subapp("/activity", build_activity_app(activity))
    return app
