"""A finished game's stored result per seat is as rated (issue 34): a seat whose human left or
timed out (an AI finished for them) places last, sharing last place with any other such
seat, and never wins; the others place by their points among themselves, and the best of
them win. A kicked seat (not rated, not counted for its player) comes after everyone."""

from __future__ import annotations

from hosting.hosted import Seat
from hosting.results import final_results, places_as_rated


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
