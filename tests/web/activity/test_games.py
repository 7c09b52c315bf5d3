"""Whole games from the Activity: players quit round after round from their pages until the
game is over (its places and rating changes shown), then a rematch from the Activity opens
the next lobby, shown in the channel too; a player's refusals in their own language."""

from __future__ import annotations

import pytest

from tests.support.activity import quit_to_the_end, two_players
from tests.support.e2e import without_isolates


def lobbies(fake) -> list:
    return [m for m in fake.public_messages("lama")
            if any(e.get("title", "").startswith("Lobby") for e in m.embeds)]


async def test_a_game_quit_to_its_end_then_a_rematch_from_the_activity(fake_discord, lamabot,
                                                                     page):
    fake = fake_discord
    pages = await two_players(fake, page)
    assert pages[0].view["turn_deadline"] is not None  # a human's turn runs out
    await quit_to_the_end(pages)
    over = pages[1].view
    places = over["game_over"]["places"]
    assert {p["name"] for p in places} == {"Alice", "Bob"} and any(p["winner"] for p in places)
    assert places[0]["rank"] == 1 and [p["you"] for p in places].count(True) == 1
    result = over["round_result"]
    assert result["seats"][0]["hand"]  # the last round's hands, revealed
    assert result["title"] == f"Round {result['round']} is over"
    assert result["lines"][0] == "Everyone quit." and len(result["lines"]) == 3
    assert over["can"]["rematch"] and over["hand"] is None
    await lamabot.renderer.flush_all()
    lobbies_before = len(lobbies(fake))
    assert (await pages[1].request("rematch"))["type"] == "ok"
    lobby = await pages[0].state(lambda v: v["status"] == "lobby")
    assert lobby["game_id"] > over["game_id"] and len(lobby["seats"]) == 2
    await lamabot.renderer.flush_all()
    assert len(lobbies(fake)) == lobbies_before + 1  # the rematch's, posted by the bot


@pytest.mark.parametrize("locale", ["cs", "es-ES"])
async def test_a_refusal_speaks_the_players_language(fake_discord, page, locale):
    fake = fake_discord
    pages = await two_players(fake, page, locale=locale)
    waiting = next(p for p in pages if not p.view["can"]["quit"])
    refused = await waiting.request("draw")
    slash = await fake.slash(waiting.user, "lama", "draw")
    assert without_isolates(refused["message"]) == without_isolates(slash.text)
    assert refused["message"] != (await fake.slash(fake.user("carol"), "lama", "draw")).text
