"""Pages made together take turns on the event loop (web/context.py `render_in_turn`): what
became ready while one was made (a move's next step) runs before the next page is made, so a
burst of pages (every board of a server made anew after a game finished, under a flood) holds
a move up by one page at most, not by all of them (issue 33)."""

from __future__ import annotations

import asyncio

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

    def render_text(request, template, **_):
        if template == "first.html":
            asyncio.get_running_loop().call_soon(made.append, "a move's next step")
        made.append(template)
        return template

    monkeypatch.setattr(context, "render_text", render_text)
    pages = [asyncio.create_task(context.render_in_turn(request_to(app), name))
             for name in ("first.html", "second.html")]
    assert await asyncio.gather(*pages) == ["first.html", "second.html"]
    assert made == ["first.html", "a move's next step", "second.html"]
