"""Pages made together take turns on the event loop (web/context.py `render_in_turn`): what
became ready while one was made (a move's next step) runs before the next page is made, so a
burst of pages (every board of a server made anew after a game finished, under a flood) holds
a move up by one page at most, not by all of them (issue 33); and a page is made in slices,
what became ready meanwhile going first after each, so a move waits for one slice at most."""

from __future__ import annotations

import asyncio

import jinja2
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from web import context
from web.app import build_app


def request_to(app):
    return make_mocked_request("GET", "/", app=app)


async def test_a_move_ready_meanwhile_goes_before_the_next_page(monkeypatch):
    """Both pages are waiting to be made; a move becomes ready while the first is made (as a
    commit lands): it runs before the second, not after every page waiting."""
    app = build_app(None)  # type: ignore[arg-type]  # the pages' dependencies are not used
    made: list[str] = []

    async def render_in_slices(request, template, _context):
        if template == "first.html":
            asyncio.get_running_loop().call_soon(made.append, "a move's next step")
        made.append(template)
        return template

    monkeypatch.setattr(context, "render_in_slices", render_in_slices)
    pages = [asyncio.create_task(context.render_in_turn(request_to(app), name))
             for name in ("first.html", "second.html")]
    assert await asyncio.gather(*pages) == ["first.html", "second.html"]
    assert made == ["first.html", "a move's next step", "second.html"]


def app_with(template: str) -> web.Application:
    app = web.Application()
    app[context.TEMPLATES] = jinja2.Environment(loader=jinja2.DictLoader({"page.html": template}),
                                                autoescape=True)
    app[context.STATIC_URLS] = context.StaticUrls(app)
    app[context.PAGE_TURNS] = asyncio.Lock()
    return app


async def test_a_move_ready_while_a_page_is_made_goes_before_the_rest_of_the_page(monkeypatch):
    """The page's first part makes a move ready (as a commit lands); its last part says what
    has run by then: the move, though the page was not done."""
    monkeypatch.setattr(context, "SLICE_S", 0.0)  # a slice as short as can be
    made: list[str] = []

    def ready() -> str:
        asyncio.get_running_loop().call_soon(made.append, "a move")
        return "first part"

    page = await context.render_in_turn(
        request_to(app_with("{{ ready() }}, {{ has_run() }}")), "page.html",
        ready=ready, has_run=lambda: " and ".join(made))
    assert page == "first part, a move"


async def test_a_page_made_in_slices_reads_as_one_made_at_once(monkeypatch):
    monkeypatch.setattr(context, "SLICE_S", 0.0)  # a turn of the loop after every part
    app = build_app(None)  # type: ignore[arg-type]  # the error page needs no dependencies
    for code in (404, 500, 503):
        at_once = context.render_text(request_to(app), "error.html", code=code)
        assert await context.render_in_turn(request_to(app), "error.html", code=code) == at_once
