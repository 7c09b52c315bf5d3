"""The web leaderboard kept as rendered (issue 33, hosting/board_cache.py), read over HTTP: the
same page until a game finishes in its server or a few seconds pass, per address and language.

Results written behind the site's back (store.bulk, as another process would) show whether a
page was kept; games finish through the game service, as in the bot."""

from __future__ import annotations

import aiohttp
import pytest

from hosting.board_cache import KEPT_AT_LEAST_S, TTL_S
from store.bulk import BulkGame, BulkSeat, insert_finished_games
from tests.support.web import GUILD, OTHER_GUILD, open_world, play_game, serving
from web import Paths, context
from web.pages import PAGE_LASTS_S

ALICE, BOB, CAROL = (1, "Alice"), (2, "Bob"), (3, "Carol")
NEWCOMER = "Newcomer"


@pytest.fixture
async def world(db_location):
    w = await open_world(db_location)
    await play_game(w, [ALICE, BOB])
    await play_game(w, [ALICE, CAROL], guild=OTHER_GUILD)
    await w.site.update_access(OTHER_GUILD, public=True)
    yield w
    await w.store.close()


@pytest.fixture
async def site(world):
    async with serving(world) as base, aiohttp.ClientSession(base) as http:
        yield http


async def won_behind_its_back(world, guild: int, user: tuple[int, str] = (77, NEWCOMER)
                              ) -> None:
    seats = [BulkSeat(*user, 0, 1, True, 0, 2), BulkSeat(78, "Other", 30, 2, False, 30, 0)]
    await insert_finished_games(world.store.db, [BulkGame(
        guild, guild + 1, "classic", 40, 3, int(world.clock.now()) - 60, seats)])


async def finish_at_once(world, players, guild: int = GUILD) -> None:
    """A game played to its end with the clock put back where it was: only the finish, not
    the time its moves took, can make a page anew."""
    now = world.clock.now()
    await play_game(world, players, guild=guild)
    world.clock.set(now)


async def page(site, path: str) -> str:
    async with site.get(path) as response:
        assert response.status == 200, path
        return await response.text()


async def boards(world) -> tuple[str, str]:
    """This server's board by its secret link, and the other (public) server's by its id."""
    return (Paths((await world.site.access(GUILD)).secret).leaderboard(),
            Paths(str(OTHER_GUILD)).leaderboard())


async def test_a_page_is_kept_until_a_game_finishes_in_its_server(world, site):
    mine, _ = await boards(world)
    first = await page(site, mine)
    await won_behind_its_back(world, GUILD)
    assert await page(site, mine) == first  # kept: the newcomer is not on it yet
    await finish_at_once(world, [BOB, CAROL])
    fresh = await page(site, mine)
    assert NEWCOMER in fresh and "Carol" in fresh


async def test_a_kept_page_keeps_its_names_too(world, site):
    """The whole page is kept, not only its board: Alice's name as of her last game is read
    with the board, and renamed behind the site's back she keeps her old name meanwhile."""
    mine, _ = await boards(world)
    assert "Alice" in await page(site, mine)
    await won_behind_its_back(world, GUILD, (ALICE[0], "Alicia"))
    assert "Alicia" not in await page(site, mine)
    await finish_at_once(world, [BOB, CAROL])
    assert "Alicia" in await page(site, mine)


async def test_a_game_finished_elsewhere_leaves_the_page_kept(world, site):
    mine, theirs = await boards(world)
    kept, other = await page(site, mine), await page(site, theirs)
    await won_behind_its_back(world, GUILD)
    await won_behind_its_back(world, OTHER_GUILD)
    await finish_at_once(world, [BOB, CAROL], guild=OTHER_GUILD)
    assert await page(site, mine) == kept
    assert NEWCOMER in await page(site, theirs) != other


async def test_a_page_is_kept_a_few_seconds_at_most(world, site):
    mine, _ = await boards(world)
    await page(site, mine)
    await won_behind_its_back(world, GUILD)
    world.clock.advance(KEPT_AT_LEAST_S - 0.1)  # each page lasts between the two
    assert NEWCOMER not in await page(site, mine)
    world.clock.advance(TTL_S - KEPT_AT_LEAST_S + 0.2)
    assert NEWCOMER in await page(site, mine)


async def test_a_page_is_made_again_only_when_its_board_changed(world, site, monkeypatch):
    """Past the board's few seconds the board is ranked again; its page is rendered again
    only if that board differs (or after a minute)."""
    rendered = []
    real = context.render_in_slices

    async def counted(*args, **kwargs):
        rendered.append(args[1])
        return await real(*args, **kwargs)

    monkeypatch.setattr(context, "render_in_slices", counted)
    mine, _ = await boards(world)
    first = await page(site, mine)
    world.clock.advance(TTL_S + 0.2)  # the board ranked again: the same
    assert await page(site, mine) == first and len(rendered) == 1
    await won_behind_its_back(world, GUILD)
    world.clock.advance(TTL_S + 0.2)
    assert NEWCOMER in await page(site, mine) and len(rendered) == 2
    world.clock.advance(PAGE_LASTS_S + 0.2)
    await page(site, mine)
    assert len(rendered) == 3


async def test_each_address_and_language_has_its_own_page(world, site):
    mine, _ = await boards(world)
    await world.site.update_access(GUILD, public=True)
    by_id = Paths(str(GUILD)).leaderboard()
    secret = Paths((await world.site.access(GUILD)).secret).root
    assert secret not in await page(site, by_id)  # the public page never shows the secret
    assert secret in await page(site, mine)
    english = await page(site, mine)
    world.locale = "cs"
    czech = await page(site, mine)
    assert czech != english and 'lang="cs"' in czech


async def test_a_retired_link_is_refused_though_its_page_was_kept(world, site):
    mine, _ = await boards(world)
    await page(site, mine)
    await world.site.update_access(GUILD, new_link=True)
    async with site.get(mine) as response:
        assert response.status == 404
