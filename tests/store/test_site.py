"""The store's reads for the web pages, and a server's web access (migration web_sites)."""

from __future__ import annotations

import pytest

from store import SiteAccess
from tests.support.web import GUILD, OTHER_GUILD, open_world, play_game


@pytest.fixture
async def world(db_location):
    w = await open_world(db_location)
    yield w
    await w.store.close()


async def test_a_server_has_no_access_row_until_its_link_is_made(world):
    site = world.store.site
    assert await site.access(GUILD) is None
    made = await site.ensure_access(GUILD, "first-secret-aaaaaaaaa", now=1)
    again = await site.ensure_access(GUILD, "second-secret-bbbbbbbb", now=2)
    assert made == again == SiteAccess(GUILD, False, "first-secret-aaaaaaaaa")
    assert await site.guild_of_secret("first-secret-aaaaaaaaa") == GUILD
    assert await site.guild_of_secret("second-secret-bbbbbbbb") is None


async def test_saved_access_replaces_public_flag_and_secret(world):
    site = world.store.site
    await site.save_access(SiteAccess(GUILD, True, "s1"), now=1)
    await site.save_access(SiteAccess(GUILD, False, "s2"), now=2)
    assert await site.access(GUILD) == SiteAccess(GUILD, False, "s2")
    assert await site.guild_of_secret("s1") is None


async def test_a_players_name_is_the_one_of_their_latest_game_here(world):
    await play_game(world, [(1, "Old name"), (2, "Bea")])
    await play_game(world, [(1, "New name"), (3, "Cy")])
    await play_game(world, [(1, "Elsewhere"), (3, "Cy")], guild=OTHER_GUILD)
    names = await world.store.site.player_names(GUILD, [1, 2, 3, 99])
    assert names == {1: "New name", 2: "Bea", 3: "Cy"}


async def test_opponents_count_games_wins_and_places_together(world):
    for _ in range(3):
        await play_game(world, [(1, "A"), (2, "B")], target=10)
    await play_game(world, [(1, "A"), (3, "C")], ai_seats=1)
    rivals = await world.store.site.opponents(GUILD, 1, limit=10)
    assert [(h.user_b, h.games) for h in rivals] == [(2, 3), (3, 1)]
    versus_b = await world.stats.head_to_head(GUILD, 1, 2)
    assert rivals[0] == versus_b


async def test_forgotten_players_have_no_name_and_are_nobodys_opponent(world):
    await play_game(world, [(1, "A"), (2, "B")])
    await world.stats.forget(2)
    assert await world.store.site.player_names(GUILD, [2]) == {}
    assert await world.store.site.opponents(GUILD, 1, limit=10) == []


async def test_finished_games_are_counted_per_server(world):
    await play_game(world, [(1, "A"), (2, "B")])
    await play_game(world, [(1, "A"), (2, "B")], guild=OTHER_GUILD)
    await play_game(world, [(3, "C"), (4, "D")], finish=False)
    assert await world.store.site.count_finished(GUILD) == 1
