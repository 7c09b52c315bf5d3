"""The Activity's last screen lists the places as the "Game over" post does and as the game
is rated: a player whose seat an AI finished after time-outs, or who left, comes after
everyone who stayed, whatever the AI's points, saying why in the post's words; a kicked one
last without a place; the winner is the one listed first (the screen ranked by points alone,
the seat rated last first)."""

from __future__ import annotations

import pytest

import i18n
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.views import GameOptions, GameView, SeatRating, SeatView, Status
from web.activity.results import game_over

ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105


def finished() -> GameView:
    """Alice 25, Bob 30; Carol ran out of time three times in a row and the AI that took her
    seat finished with 7, Erin left and hers with 25, Dave was kicked and his with 2: the
    engine's winner is Dave's seat, by points alone."""
    return GameView(
        game_id=9, guild_id=1, channel_id=2, host_id=ALICE, status=Status.FINISHED,
        options=GameOptions(target=40), round_number=4, winners=(3,),
        seats=(SeatView(0, "Alice", ALICE, None, score=25),
               SeatView(1, "Carol", CAROL, "normal", score=7, left=True, left_after_seq=30,
                        timed_out_of_game=True),
               SeatView(2, "Bob", BOB, None, score=30),
               SeatView(3, "Dave", DAVE, "normal", score=2, left=True, kicked=True),
               SeatView(4, "Erin", ERIN, "normal", score=25, left=True)),
        ratings=(SeatRating(0, 1040, 12, True), SeatRating(2, 1010, 3, True),
                 SeatRating(1, 990, -9, True), SeatRating(4, 985, -10, True)))


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
def test_the_places_are_as_rated_and_say_why_a_seat_is_last(locale):
    places = game_over(finished(), CAROL, locale)["places"]
    timed_out = i18n.t("game.timed_out_counts_as_last", locale, count=TIMEOUTS_BEFORE_AI)
    left = i18n.t("game.left_counts_as_last", locale)
    kicked = i18n.t("game.kicked_not_rated", locale)
    assert [(p["name"], p["points"], p["rank"], p["note"]) for p in places] == [
        ("Alice", 25, 1, None), ("Bob", 30, 2, None), ("🤖 Carol", 7, 3, timed_out),
        ("🤖 Erin", 25, 3, left), ("🤖 Dave", 2, None, kicked)]
    assert [p["winner"] for p in places] == [True, False, False, False, False]
    assert [p["rating_change"] for p in places] == [12, 3, -9, -10, None]
    assert not any(p["you"] for p in places)  # Carol's seat is an AI's now
