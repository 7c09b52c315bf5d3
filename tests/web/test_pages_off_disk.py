"""A page is made from memory: once the process has served it, making it again (a board
changed, another page of the same kind) opens, reads and stats no file. The pages are made
on the event loop's watch, and a file touched there under load (a burst of pages after a game
finished, with the disk busy) kept the moves waiting (issue 33's flood over every board)."""

from __future__ import annotations

import builtins
import io
import os

import pytest
import pytest_asyncio

from store import LeaderboardSort
from tests.support.web import public_world
from web.context import templates

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await public_world(tmp_path_factory.mktemp("off_disk") / "lama.sqlite3")
    yield w
    await w.store.close()


class FilesTouched:
    """Every file opened or looked at (stat, lstat) while it counts."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.names: list[str] = []
        for module, name in ((os, "stat"), (os, "lstat"), (io, "open"), (builtins, "open")):
            monkeypatch.setattr(module, name, self._counted(getattr(module, name)))

    def _counted(self, call):
        def counted(path, *args, **kwargs):
            self.names.append(os.fspath(path) if isinstance(path, os.PathLike | str) else path)
            return call(path, *args, **kwargs)
        return counted


async def page(site, path: str) -> str:
    async with site.get(path) as response:
        assert response.status == 200, path
        return await response.text()


async def test_a_page_made_again_touches_no_file(site, world, monkeypatch):
    await page(site, "/")  # the first page hashes the style sheet
    touched = FilesTouched(monkeypatch)
    text = await page(site, "/")  # the home page is made anew for every request
    assert "/static/site.css?v=" in text
    assert touched.names == []


async def test_a_leaderboard_page_made_for_another_board_touches_no_file(site, world,
                                                                          monkeypatch):
    await page(site, world.paths.leaderboard())
    await page(site, world.paths.games())
    touched = FilesTouched(monkeypatch)
    await page(site, world.paths.leaderboard(LeaderboardSort.GAMES))  # a page made anew
    await page(site, world.paths.games())
    assert touched.names == []


async def test_every_template_is_compiled_before_the_first_page(monkeypatch):
    """A template compiled at the first page of its kind held the event loop 10-40 ms."""
    env = templates()
    compiled: list[str | None] = []
    real_compile = env.compile

    def counted(source, name=None, *args, **kwargs):
        compiled.append(name)
        return real_compile(source, name, *args, **kwargs)

    monkeypatch.setattr(env, "compile", counted)
    names = env.list_templates(extensions=("html",))
    for name in names:
        env.get_template(name)
    assert "leaderboard.html" in names and compiled == []
