"""A finished game's stored result per seat is as rated (issue 34): a seat whose human left or
timed out (an AI finished for them) places last, sharing last place with any other such
seat, and never wins; the others place by their points among themselves, and the best of
them win. A kicked seat (not rated, not counted for its player) comes after everyone."""

from __future__ import annotations

from hosting.hosted import Seat
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.results import Departure, final_results, final_standings, places_as_rated


def seats(*left: bool, kicked: int | None = None) -> list[Seat]:
    return [Seat(i, f"P{i}", 100 + i, "normal" if gone else None, left=gone,
                 kicked=i == kicked) for i, gone in enumerate(left)]


def test_a_leaver_with_the_fewest_points_places_last_and_the_best_stayer_wins():
    result = final_results(seats(False, True, False), [25, 7, 30], events=[])
    assert [(s.place, s.won) for s in result.seats] == [(1, True), (3, False), (2, False)]


def test_leavers_share_the_last_place_whatever_their_points():
    result = final_results(seats(True, False, True, False), [3, 20, 50, 20], [])
    assert [s.place for s in result.seats] == [3, 1, 3, 1]
    assert [s.won for s in result.seats] == [False, True, False, True]


def test_a_kicked_seat_places_after_the_leavers_and_sets_no_one_elses_place():
    result = final_results(seats(False, True, True, False, kicked=2), [30, 40, 1, 10], [])
    assert [s.place for s in result.seats] == [2, 3, 4, 1]
    assert [s.won for s in result.seats] == [False, False, False, True]


def test_without_leavers_places_are_by_points_and_shared_on_equal_points():
    assert places_as_rated([12, 40, 12], [False] * 3, [False] * 3) == [1, 3, 1]


def test_when_everyone_left_they_share_the_first_place_and_nobody_wins():
    result = final_results(seats(True, True), [5, 9], [])
    assert [(s.place, s.won) for s in result.seats] == [(1, False), (1, False)]


def test_the_final_order_lists_the_seats_as_rated_and_says_why_a_seat_is_last():
    """The one final order every list of a finished game's places shows (game over, the
    replays, the Activity): Carol's AI finished with the fewest points, but she timed out."""
    table = seats(False, True, False, True, kicked=3)
    table[1].timeouts_in_a_row = TIMEOUTS_BEFORE_AI
    final = final_standings(table, [25, 7, 30, 2])
    assert [(s.seat, s.place, s.score, s.departure) for s in final.standings] == [
        (0, 1, 25, None), (2, 2, 30, None), (1, 3, 7, Departure.TIMED_OUT),
        (3, 4, 2, Departure.KICKED)]
    assert final.winners == (0,)
    assert [s.note for s in final.standings] == [
        None, None, "game.timed_out_counts_as_last", "game.kicked_not_rated"]
    assert [s.ranked for s in final.standings] == [True, True, True, False]


def test_a_seat_left_without_time_outs_says_it_left_and_equal_points_share_the_win():
    final = final_standings(seats(False, True, False), [12, 3, 12])
    assert [(s.seat, s.place, s.departure) for s in final.standings] == [
        (0, 1, None), (2, 1, None), (1, 3, Departure.LEFT)]
    assert final.winners == (0, 2)
    assert final.standings[-1].note == "game.left_counts_as_last"
