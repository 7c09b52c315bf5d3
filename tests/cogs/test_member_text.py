"""A name a member chose sits in the bot's sentences isolated (U+2068 … U+2069) and cut to a
length: a right-to-left override in it (U+202E) cannot turn the sentence around, and a stray
pop cannot close the isolate early."""

from __future__ import annotations

from cogs.text import NAME_SHOWN, fit, member_text, seat_name
from hosting.views import SeatView
from tests.support.e2e import assert_isolates_balanced as assert_balanced
from tests.support.e2e import isolate_depths

FSI, PDI, RLI, RLO = "\u2068", "\u2069", "\u2067", "\u202e"


def test_a_right_to_left_override_stays_inside_the_name() -> None:
    name = member_text(f"{RLO}Lama Lukas")
    assert name == f"{FSI}{RLO}Lama Lukas{PDI}"
    sentence = f"{name} drew a card"
    assert_balanced(sentence)
    depths = isolate_depths(sentence)
    assert depths[sentence.index(RLO)] == 1 and depths[sentence.index(" drew")] == 0


def test_a_stray_pop_in_a_name_cannot_close_the_isolate_early() -> None:
    name = member_text(f"x{PDI}{RLO}y")
    assert name == f"{FSI}x{RLO}y{PDI}"
    assert_balanced(name)


def test_an_isolate_the_name_opens_is_closed_inside_ours() -> None:
    name = member_text(f"{RLI}abc")
    assert name == f"{FSI}{RLI}abc{PDI}{PDI}"
    assert_balanced(name)


def test_a_long_name_is_cut_with_an_ellipsis_and_stays_isolated() -> None:
    long = RLO + "Lukas" * 12
    name = member_text(long)
    assert name == f"{FSI}{long[:NAME_SHOWN - 1]}…{PDI}"
    assert len(name) == NAME_SHOWN + 2
    assert member_text("Ana") == f"{FSI}Ana{PDI}"  # a short one as it is


def test_markdown_is_escaped_inside_the_isolate_unless_plain_text_is_asked() -> None:
    assert member_text("*star*") == f"{FSI}\\*star\\*{PDI}"
    assert member_text("*star*", markdown=False) == f"{FSI}*star*{PDI}"


def test_a_seat_is_named_isolated_and_an_ai_in_a_players_seat_too() -> None:
    human = SeatView(0, f"{RLO}Ana", 101, None)
    taken = SeatView(1, f"{RLO}Bob", 102, "normal")  # an AI plays for Bob now
    assert seat_name(human, "en") == f"{FSI}{RLO}Ana{PDI}"
    assert seat_name(taken, "en") == f"🤖 {FSI}{RLO}Bob{PDI}"


def test_a_text_fitted_to_a_limit_closes_what_the_cut_leaves_open() -> None:
    thread = f"{member_text(RLO + 'x' * 60, limit=60)} · round 1 · table 1"
    for limit in range(20, 70):
        fitted = fit(thread, limit)
        assert len(fitted) <= limit and fitted.count("…") >= 1, (limit, fitted)
        assert_balanced(fitted)
    assert fit("short", 10) == "short"
