"""A page that connects just after its channel's game ended (a reload, a dropped socket, a
player opening the Activity a few seconds after the last move) is shown that game's end, the
very state a page that watched it end has: the standings with their rating changes, "Game
over", the last round's result, Rematch for its players. A new lobby in the channel takes over
(and once one opened there, even cancelled, the old end is not shown again); after
`FINAL_SCREEN_S` the channel shows no game again."""

from __future__ import annotations

from typing import Any

import pytest

from hosting import FakeClock
from tests.support.activity import quit_to_the_end, two_players
from web.activity.live import FINAL_SCREEN_S


def shown(view: dict[str, Any]) -> dict[str, Any]:
    """What a page draws of a view: all of it but the server's time it was sent at."""
    return {key: value for key, value in view.items() if key != "now"}


async def test_a_page_connecting_right_after_the_last_move_sees_the_games_end(
        fake_discord, page):
    fake = fake_discord
    pages = await two_players(fake, page)
    dave = await page(fake.user("dave"))  # watching, in no seat
    watched = await quit_to_the_end([*pages, dave])
    late = await page(fake.user("carol"))  # opens the Activity right after the last move
    reloaded = await page(pages[1].user)  # Bob reloads his page
    await pages[0].reconnect()  # Alice's socket dropped and came back
    assert shown(late.view) == shown(dave.view)  # as a spectator who watched it end
    assert shown(reloaded.view) == shown(pages[1].view)  # as Bob's page that watched it
    assert shown(pages[0].view) == shown(watched)
    view = reloaded.view
    assert view["status"] == "finished" and view["game_id"] == watched["game_id"]
    places = view["game_over"]["places"]
    assert {p["name"] for p in places} == {"Alice", "Bob"} and places[0]["rank"] == 1
    assert all(p["rating_change"] is not None for p in places)  # rated: each one's change
    assert view["round_result"]["lines"][0] == "Everyone quit."  # the last round's result
    assert view["words"]["game.over"] == "Game over"
    assert view["can"]["rematch"] and not late.view["can"]["rematch"]  # for its players
    assert (await reloaded.request("rematch"))["type"] == "ok"  # pressed on the end shown
    rematch = await late.state(lambda v: v["status"] == "lobby")
    assert rematch["game_id"] > view["game_id"] and len(rematch["seats"]) == 2


async def test_a_new_lobby_takes_over_and_once_one_opened_the_old_end_stays_gone(
        fake_discord, page):
    fake = fake_discord
    pages = await two_players(fake, page)
    over = await quit_to_the_end(pages)
    late = await page(fake.user("carol"))
    assert late.view["game_id"] == over["game_id"]
    await fake.slash(fake.user("dave"), "lama", "lama new")
    lobby = await late.state(lambda v: v["status"] == "lobby")  # the end's page follows it
    assert lobby["game_id"] > over["game_id"] and lobby["can"]["join"]
    opened = await page(pages[0].user)  # Alice opens the Activity again
    assert opened.view["game_id"] == lobby["game_id"] and opened.view["status"] == "lobby"
    await fake.slash(fake.user("dave"), "lama", "lama cancel")
    await late.state(lambda v: v["status"] == "none")
    after = await page(pages[1].user)  # not the game before the cancelled lobby
    assert after.view["status"] == "none" and after.view["can"]["open_lobby"]


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_after_a_while_the_channel_shows_no_game_again(fake_discord, page, bot_clock):
    fake = fake_discord
    pages = await two_players(fake, page)
    over = await quit_to_the_end(pages)
    bot_clock.advance(FINAL_SCREEN_S - 2)
    still = await page(fake.user("carol"))
    assert still.view["status"] == "finished" and still.view["game_id"] == over["game_id"]
    bot_clock.advance(3)
    later = await page(fake.user("dave"))
    assert later.view["status"] == "none" and later.view["game_id"] is None
    assert later.view["can"]["open_lobby"]
