"""The "Game over" post tells the truth (issue 34): seats are listed as they are rated, a seat
whose human left or timed out (an AI finished for them) last whatever its points, each with a
note that says which of the two happened; the headline names who the list puts first."""

from __future__ import annotations

import pytest

from cogs.embeds import game_end_embed
from cogs.notices import notice_text
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.views import GameOptions, GameView, Notice, NoticeKind, SeatView, Status
from tests.support.e2e import without_isolates

ALICE, BOB, CAROL = 101, 102, 103


def finished(*seats: SeatView, winners: tuple[int, ...]) -> GameView:
    return GameView(
        game_id=9, guild_id=1, channel_id=2, host_id=ALICE, status=Status.FINISHED,
        options=GameOptions(target=40), seats=seats, round_number=4, winners=winners)


def carol_timed_out_and_her_ai_has_fewest_points() -> GameView:
    """Alice 25, Bob 30; Carol ran out of time three times in a row, and the AI that took her
    seat finished with 7: the fewest points (so the engine's winner), but rated last."""
    return finished(
        SeatView(0, "Alice", ALICE, None, score=25),
        SeatView(1, "Carol", CAROL, "normal", score=7, left=True, left_after_seq=30,
                 timed_out_of_game=True),
        SeatView(2, "Bob", BOB, None, score=30),
        winners=(1,))


def standings(view: GameView, locale: str) -> list[str]:
    embed = game_end_embed(view, locale)
    (field,) = embed.fields
    return without_isolates(field.value).splitlines()


def headline(view: GameView, locale: str) -> str:
    return without_isolates(game_end_embed(view, locale).description or "")


TIMED_OUT = {
    "en": "3. 🤖 Carol: 7 points · timed out 3× — an AI finished the game; counts as last place",
    "cs": "3. 🤖 Carol: 7 bodů · 3× vypršel čas — hru dohrála AI; počítá se jako poslední místo",
    "es": "3. 🤖 Carol: 7 puntos · se le acabó el tiempo 3 veces — una IA terminó la partida; "
          "cuenta como último puesto",
}
LEFT = {
    "en": "3. 🤖 Carol: 7 points · left — an AI finished the game; counts as last place",
    "cs": "3. 🤖 Carol: 7 bodů · odchod ze hry — hru dohrála AI; počítá se jako poslední místo",
    "es": "3. 🤖 Carol: 7 puntos · abandonó — una IA terminó la partida; cuenta como último "
          "puesto",
}
FIRST = {"en": ("1. Alice: 25 points", "2. Bob: 30 points"),
         "cs": ("1. Alice: 25 bodů", "2. Bob: 30 bodů"),
         "es": ("1. Alice: 25 puntos", "2. Bob: 30 puntos")}
WINNER = {"en": "Alice wins with 25 points!", "cs": "Vítězí Alice (25 bodů)!",
          "es": "¡Gana Alice con 25 puntos!"}


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
def test_a_seat_taken_over_after_time_outs_is_listed_last_and_says_it_timed_out(locale):
    assert TIMEOUTS_BEFORE_AI == 3
    view = carol_timed_out_and_her_ai_has_fewest_points()
    assert standings(view, locale) == [*FIRST[locale], TIMED_OUT[locale]]
    assert headline(view, locale) == WINNER[locale]


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
def test_a_seat_whose_player_left_is_listed_last_and_says_they_left(locale):
    carol = SeatView(1, "Carol", CAROL, "normal", score=7, left=True, left_after_seq=30)
    view = finished(SeatView(0, "Alice", ALICE, None, score=25), carol,
                    SeatView(2, "Bob", BOB, None, score=30), winners=(1,))
    assert standings(view, locale) == [*FIRST[locale], LEFT[locale]]
    assert headline(view, locale) == WINNER[locale]


def test_seats_that_stayed_share_a_place_on_equal_points_and_leavers_share_the_last():
    view = finished(
        SeatView(0, "Alice", ALICE, None, score=25),
        SeatView(1, "Carol", CAROL, "normal", score=3, left=True, timed_out_of_game=True),
        SeatView(2, "Bob", BOB, None, score=25),
        SeatView(3, "Dan", 104, "normal", score=50, left=True),
        winners=(1,))
    ranks = [line.split(" ", 1)[0] for line in standings(view, "en")]
    names = [line.split(":", 1)[0].split(" ", 1)[1] for line in standings(view, "en")]
    assert ranks == ["1.", "1.", "3.", "3."]
    assert names == ["Alice", "Bob", "🤖 Carol", "🤖 Dan"]
    assert headline(view, "en") == "Alice and Bob share the win with 25 points each!"


def test_a_kicked_seat_is_listed_after_everyone_rated_and_without_a_place():
    view = finished(
        SeatView(0, "Alice", ALICE, None, score=25),
        SeatView(1, "Bob", BOB, "normal", score=3, left=True, kicked=True),
        SeatView(2, "Llama-bot 3", None, "normal", score=30, ai_number=3),
        winners=(1,))
    lines = standings(view, "en")
    assert lines[:2] == ["1. Alice: 25 points", "2. 🤖 Llama-bot 3: 30 points"]
    assert lines[2].startswith("– 🤖 Bob: 3 points · removed from the game"), lines
    assert headline(view, "en") == "Alice wins with 25 points!"


def test_a_game_without_leavers_reads_as_before():
    view = finished(SeatView(0, "Alice", ALICE, None, score=41),
                    SeatView(1, "Bob", BOB, None, score=12), winners=(1,))
    assert standings(view, "en") == ["1. Bob: 12 points", "2. Alice: 41 points"]
    assert headline(view, "en") == "Bob wins with 12 points!"


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
def test_the_time_out_that_hands_a_seat_to_an_ai_names_the_player_not_the_ai(locale):
    """The third time-out's line comes before the takeover's: the seat is already the AI's
    when both are told, but the time-out was still the player's."""
    view = carol_timed_out_and_her_ai_has_fewest_points()
    text = without_isolates(notice_text(view, Notice(NoticeKind.TIMED_OUT, 1, CAROL), locale))
    assert "🤖" not in text and "Carol" in text, text
