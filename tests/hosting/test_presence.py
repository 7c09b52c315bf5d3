"""Presence: a player at a game's table in the Activity, as the Activity reports it, on a fake
clock. Game 7, player 100 throughout; "a minute ago" is what the renderer asks about."""

from __future__ import annotations

from hosting import FakeClock, Presence
from hosting.presence import KEPT_FOR

GAME, USER = 7, 100
MINUTE = 60.0


def a_minute_ago(clock: FakeClock) -> float:
    return clock.now() - MINUTE


def test_a_player_never_seen_is_not_present():
    clock = FakeClock()
    assert not Presence(clock).seen_since(GAME, USER, a_minute_ago(clock))


def test_an_open_window_counts_however_long_it_stays_open():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    clock.advance(2 * KEPT_FOR)
    presence.opened(GAME, 200)  # someone else's window: a prune passes by
    assert presence.seen_since(GAME, USER, a_minute_ago(clock))
    assert presence.seen_since(GAME, USER, clock.now())  # open now, not just lately


def test_a_window_left_counts_for_the_time_asked_about_then_no_more():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    clock.advance(300)
    presence.left(GAME, USER)
    assert not presence.seen_since(GAME, USER, clock.now())  # not open any more
    clock.advance(MINUTE - 1)
    assert presence.seen_since(GAME, USER, a_minute_ago(clock))
    clock.advance(1)
    assert not presence.seen_since(GAME, USER, a_minute_ago(clock))


def test_a_move_made_in_a_window_counts_from_when_it_was_made():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    presence.left(GAME, USER)
    clock.advance(MINUTE)
    presence.acted(GAME, USER)  # a socket still open elsewhere (another tab's request)
    clock.advance(MINUTE - 1)
    assert presence.seen_since(GAME, USER, a_minute_ago(clock))
    clock.advance(1)
    assert not presence.seen_since(GAME, USER, a_minute_ago(clock))


def test_one_of_two_windows_closed_leaves_the_player_present():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    presence.opened(GAME, USER)
    presence.left(GAME, USER)
    clock.advance(10 * MINUTE)
    assert presence.seen_since(GAME, USER, a_minute_ago(clock))
    presence.left(GAME, USER)
    clock.advance(MINUTE)
    assert not presence.seen_since(GAME, USER, a_minute_ago(clock))


def test_a_window_counts_for_its_own_game_and_player_only():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    assert not presence.seen_since(GAME + 1, USER, a_minute_ago(clock))
    assert not presence.seen_since(GAME, USER + 1, a_minute_ago(clock))


def test_a_window_that_went_on_to_the_next_game_is_there_and_not_at_the_old_one():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    presence.left(GAME, USER)  # a rematch: the window follows the new game
    presence.opened(GAME + 1, USER)
    clock.advance(MINUTE)
    assert presence.seen_since(GAME + 1, USER, a_minute_ago(clock))
    assert not presence.seen_since(GAME, USER, a_minute_ago(clock))


def test_what_was_left_long_ago_is_forgotten():
    clock = FakeClock()
    presence = Presence(clock)
    presence.opened(GAME, USER)
    presence.left(GAME, USER)
    clock.advance(KEPT_FOR)
    presence.acted(GAME + 1, USER)  # the next note prunes
    assert not presence.seen_since(GAME, USER, clock.now() - 2 * KEPT_FOR)
