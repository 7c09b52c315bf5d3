"""A tournament's standings while a round is being played (hosting/tournament_results.py).

Points count finished games only, so mid-round an entrant whose table is still playing has one
game fewer in their total score: that must not lift them above an entrant on equal points who
finished the round. They rank after such entrants and are marked as playing; once every table
of the round is over (the moment the next round is seated, and the final standings) nobody is,
and the order is the plain Swiss one.
"""

from __future__ import annotations

from hosting.swiss import standings
from hosting.tournament_results import standings_of, table_results
from store.tournaments import Entry, TableOutcome, TableRecord, Tournament, TournamentStatus

ENTRIES = tuple(Entry(n, 100 + n, None, f"P{n}") for n in range(1, 7))


def cup(round_: int, status: TournamentStatus = TournamentStatus.RUNNING) -> Tournament:
    return Tournament(1, 1, 2, 101, "Cup", 2, 3, "classic", status, round_, None, ENTRIES)


def finished(round_: int, table: int, entries: tuple[int, ...],
             results: tuple[tuple[int, int], ...]) -> TableOutcome:
    """A finished table of three: per seat (place, final score)."""
    seats = range(len(entries))
    return TableOutcome(TableRecord(round_, table, entries, 0, 100 * round_ + table),
                        "finished", {s: results[s][0] for s in seats},
                        {s: results[s][1] for s in seats}, dict.fromkeys(seats, False),
                        dict.fromkeys(seats, False))


def unfinished(round_: int, table: int, entries: tuple[int, ...],
               status: str | None = "running") -> TableOutcome:
    game_id = None if status is None else 100 * round_ + table
    return TableOutcome(TableRecord(round_, table, entries, 0, game_id), status, {}, {}, {}, {})


# Round 1: table 1 (entrants 1, 2, 3) is over, 3 last with 25 penalty points; table 2
# (entrants 4, 5, 6) is still being played.
TABLE_1_OVER = finished(1, 1, (1, 2, 3), ((1, 0), (2, 12), (3, 25)))


def test_mid_round_a_finished_entrant_ranks_above_one_still_playing_on_equal_points():
    rows = standings_of(cup(1), [TABLE_1_OVER, unfinished(1, 2, (4, 5, 6))])
    assert [(r.entry, r.points) for r in rows] == [
        (1, 24), (2, 12), (3, 0), (4, 0), (5, 0), (6, 0)]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 4, 4]


def test_mid_round_the_entrants_whose_table_is_still_playing_are_marked():
    rows = standings_of(cup(1), [TABLE_1_OVER, unfinished(1, 2, (4, 5, 6))])
    assert [r.entry for r in rows if r.playing] == [4, 5, 6]


def test_a_table_not_opened_yet_counts_as_still_playing():
    """Where tables play one after another in the channel, a table waits for its turn."""
    rows = standings_of(cup(1), [TABLE_1_OVER, unfinished(1, 2, (4, 5, 6), status=None)])
    assert [r.entry for r in rows if r.playing] == [4, 5, 6]
    assert [r.entry for r in rows][:3] == [1, 2, 3]


def test_mid_round_points_still_rank_first():
    """An entrant still playing keeps the place their points from finished games give."""
    round_1 = [TABLE_1_OVER, finished(1, 2, (4, 5, 6), ((1, 0), (2, 8), (3, 30)))]
    round_2 = [finished(2, 1, (2, 3, 6), ((1, 0), (2, 10), (3, 20))),
               unfinished(2, 2, (1, 4, 5))]
    rows = standings_of(cup(2), round_1 + round_2)
    assert [(r.entry, r.points, r.playing) for r in rows] == [
        (2, 36, False), (1, 24, True), (4, 24, True), (3, 12, False), (5, 12, True),
        (6, 0, False)]
    assert [r.rank for r in rows] == [1, 2, 2, 4, 5, 6]


def test_once_every_table_is_over_nobody_is_playing_and_the_order_is_the_swiss_one():
    """What seats the next round and makes the final standings: the plain Swiss order."""
    outcomes = [TABLE_1_OVER, finished(1, 2, (4, 5, 6), ((1, 0), (2, 8), (3, 30)))]
    for status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        tournament = cup(1, status)
        rows = standings_of(tournament, outcomes)
        assert not any(r.playing for r in rows)
        plain = standings([e.entry for e in ENTRIES], table_results(tournament, outcomes))
        assert rows == plain


def test_a_cancelled_tournament_shows_nobody_playing():
    rows = standings_of(cup(1, TournamentStatus.CANCELLED),
                        [TABLE_1_OVER, unfinished(1, 2, (4, 5, 6))])
    assert not any(r.playing for r in rows)


def test_a_leaver_scores_nothing_and_the_others_place_among_the_seats_that_stayed():
    """Entrant 2 left (an AI finished for them with the fewest points); table 1 was three
    entrants: 1 and 3 are first and second of those who stayed."""
    left = TableOutcome(TableRecord(1, 1, (1, 2, 3), 0, 101), "finished",
                        {0: 2, 1: 1, 2: 3}, {0: 20, 1: 5, 2: 30},
                        {0: False, 1: True, 2: False}, dict.fromkeys(range(3), False))
    (result,) = table_results(cup(1), [left])
    assert {e: result.points(e) for e in (1, 2, 3)} == {1: 24, 3: 12, 2: 0}


def test_an_ai_filling_a_table_takes_a_place_and_its_points_count_for_nobody():
    """Two entrants and an AI seat: the AI finished between them, on equal points with 2."""
    short = TableOutcome(TableRecord(1, 1, (1, 2), 1, 101), "finished",
                         {0: 1, 1: 2, 2: 2}, {0: 5, 1: 20, 2: 20},
                         dict.fromkeys(range(3), False), {0: False, 1: False, 2: True})
    (result,) = table_results(cup(1), [short])
    assert (result.points(1), result.points(2)) == (24, 6)  # 2 shares places 2–3 with the AI
