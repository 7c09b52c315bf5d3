"""What names and numbers look like in the pages' markup, over HTTP.

A name is the member's own text: it may hold U+202E (RIGHT-TO-LEFT OVERRIDE), which reverses
everything after it up to the end of its paragraph, unless the name is isolated. Every name is
in a <bdi> element, or between U+2068 and U+2069 (FIRST STRONG ISOLATE ... POP DIRECTIONAL
ISOLATE) where it is part of a sentence, an attribute or the <title>, which holds no elements.
(How it looks in a browser: tests/web/test_browser_names.py.)
"""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pytest
import pytest_asyncio

from store.rating_records import PlayerRating, Season
from tests.support.web import GUILD, open_world, play_game
from web import Paths
from web.words import Words

pytestmark = pytest.mark.asyncio(loop_scope="module")

RLO = "\u202e"
SERVER = f"{RLO}Lama Klub"
PLAYER = (7, f"{RLO}Simon <b>")
FRIEND, OTHER = (8, "Zoe"), (9, "Yan")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await open_world(tmp_path_factory.mktemp("names") / "lama.sqlite3")
    w.server_name = SERVER
    w.game = await play_game(w, [PLAYER, FRIEND, OTHER], ai_seats=1)
    await play_game(w, [FRIEND, PLAYER])
    w.paths = Paths((await w.site.access(GUILD)).secret)
    yield w
    await w.store.close()


async def get(http, path: str) -> str:
    async with http.get(path) as response:
        assert response.status == 200, path
        return await response.text()


def unisolated(page: str, name: str) -> tuple[int, list[str]]:
    """How often `name` is on the page, and where it is not isolated."""
    shown = [re.escape(html.escape(name, quote=q)) for q in (False, True)]
    found = list(re.finditer("|".join(shown), page))
    bare = []
    for match in found:
        before, after = page[:match.start()], page[match.end():]
        if re.search(r"<bdi[^>]*>$", before) and after.startswith("</bdi>"):
            continue
        if before.endswith("\u2068") and after.startswith("\u2069"):
            continue
        bare.append(page[max(0, match.start() - 50):match.end() + 20])
    return len(found), bare


async def test_every_name_on_every_page_is_isolated(world, site):
    paths = world.paths
    film = await world.site.film(GUILD, world.game)
    pages = [paths.leaderboard(), paths.player(PLAYER[0]), paths.player(FRIEND[0]),
             paths.games(), *(paths.replay(world.game, step) for step in range(len(film.frames)))]
    for path in pages:
        page = await get(site, path)
        for name in (SERVER, PLAYER[1]):
            count, bare = unisolated(page, name)
            assert count, (path, name)
            assert not bare, (path, bare)


async def test_a_name_in_the_title_is_isolated_with_characters(world, site):
    page = await get(site, world.paths.player(PLAYER[0]))
    title = re.search("<title>(.*)</title>", page, re.S)
    assert title is not None
    assert title.group(1) == f"\u2068{html.escape(PLAYER[1], quote=False)}\u2069 · LamaBot"


async def test_the_server_name_is_isolated_in_the_header(world, site):
    page = await get(site, world.paths.games())
    assert f'<span class="server">· <bdi>{html.escape(SERVER)}</bdi></span>' in page


# --- numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
async def test_the_rating_is_written_like_the_best_rating(world, site, locale):
    """'1,234' as 'Best rating' shows its number (CLDR's grouping), not '1234'."""
    world.locale = locale
    report = await world.stats.player(GUILD, FRIEND[0])
    season = Season(GUILD, 3, "monthly", 0, None, None, None)
    rated = replace(report, season=season, rating=PlayerRating(
        season=3, rating=12345, provisional=True, games=9, change_recent=4, recent_games=5,
        best=23456, rank=1234))
    real = world.stats.player

    async def player(guild_id, user_id, **kw):
        return rated

    world.stats.player = player
    try:
        page = await get(site, world.paths.player(FRIEND[0]))
    finally:
        world.stats.player, world.locale = real, "en"
    words = Words(locale)
    values = re.findall(r"<dd>([^<]*)</dd>", page)
    assert html.escape(words.number(23456)) in values  # the best rating, as it was
    assert html.escape(words.number(12345)) + "?" in values  # provisional
    assert html.escape(words.t("stats.rating.rank", rank=words.number(1234))) in page
    assert "12345" not in page
