"""Swiss seating and standings (hosting/swiss.py): pure, property-tested."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from hosting.swiss import (
    MIN_SEATS,
    TableResult,
    pairs_of,
    seat_round,
    standings,
    table_sizes,
)

sizes = st.integers(3, 5)


@st.composite
def fields(draw, low=2, high=24):
    """Entrants best first, and who has met whom in earlier rounds."""
    n = draw(st.integers(low, high))
    entries = draw(st.permutations(range(1, n + 1)))
    met_pairs = draw(st.lists(st.sampled_from(sorted(
        tuple(sorted(p)) for p in itertools.combinations(entries, 2))), max_size=3 * n))
    return list(entries), Counter(frozenset(p) for p in met_pairs)


def repeats(tables, met) -> int:
    return sum(met.get(p, 0) for t in tables for p in pairs_of(t))


@settings(deadline=None)  # a timing limit is a benchmark's job, not a test's
@given(fields(), sizes)
def test_every_entrant_is_seated_exactly_once_per_round(field, table_size):
    entries, met = field
    seated = [e for t in seat_round(entries, table_size, met) for e in t.entries]
    assert sorted(seated) == sorted(entries)


@settings(deadline=None)  # a timing limit is a benchmark's job, not a test's
@given(fields(), sizes)
def test_tables_stay_within_the_size_and_ai_seats_fill_short_ones(field, table_size):
    entries, met = field
    tables = seat_round(entries, table_size, met)
    counts = [len(t.entries) for t in tables]
    assert all(1 <= c <= table_size for c in counts)
    assert max(counts) - min(counts) <= 1
    assert all(t.seats == max(MIN_SEATS, len(t.entries)) for t in tables)
    assert len(tables) == -(-len(entries) // table_size)  # as few tables as the size allows


def brute_force_fewest_repeats(entries, table_size, met) -> int:
    counts = table_sizes(len(entries), table_size)
    best = None
    for order in itertools.permutations(entries):
        tables, start = [], 0
        for c in counts:
            tables.append(order[start:start + c])
            start += c
        best = min(best if best is not None else 10**9, repeats(tables, met))
    return best


@settings(max_examples=40, deadline=None)
@given(fields(low=2, high=7), sizes)
def test_repeat_meetings_are_the_fewest_possible_in_small_fields(field, table_size):
    entries, met = field
    tables = [t.entries for t in seat_round(entries, table_size, met)]
    assert repeats(tables, met) == brute_force_fewest_repeats(entries, table_size, met)


@settings(max_examples=30, deadline=None)
@given(fields(low=11, high=24), sizes)
def test_in_large_fields_no_single_swap_would_avoid_a_repeat(field, table_size):
    entries, met = field
    tables = [list(t.entries) for t in seat_round(entries, table_size, met)]
    now = repeats(tables, met)
    for i, j in itertools.combinations(range(len(tables)), 2):
        for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
            swapped = [list(t) for t in tables]
            swapped[i][a], swapped[j][b] = swapped[j][b], swapped[i][a]
            assert repeats(swapped, met) >= now


def test_the_first_round_seats_the_leaders_together():
    tables = seat_round(list(range(1, 9)), 4)
    assert [t.entries for t in tables] == [(1, 2, 3, 4), (5, 6, 7, 8)]


def test_players_who_met_are_split_when_they_can_be():
    met = Counter(pairs_of([1, 2, 3, 4]) | pairs_of([5, 6, 7, 8]))
    tables = seat_round([1, 2, 3, 4, 5, 6, 7, 8], 4, met)
    assert repeats([t.entries for t in tables], met) == 4  # 2 + 2 is the least possible
    assert all(len(set(t.entries) & {1, 2, 3, 4}) == 2 for t in tables)


def test_tables_split_evenly_and_short_tables_get_ai_seats():
    assert table_sizes(8, 3) == [3, 3, 2]
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(5, 5) == [5]
    (table,) = seat_round([1, 2], 4)
    assert table.entries == (1, 2) and table.ai_seats == 1


def result(seats: int, **places_scores: tuple[int, int]) -> TableResult:
    parsed = {int(k[1:]): v for k, v in places_scores.items()}
    return TableResult(seats, {e: p for e, (p, _) in parsed.items()},
                       {e: s for e, (_, s) in parsed.items()})


def test_standings_rank_by_placement_points_then_total_score():
    results = [result(4, e1=(1, 5), e2=(2, 10), e3=(3, 20), e4=(4, 40)),
               result(4, e1=(4, 41), e2=(3, 30), e3=(1, 2), e4=(2, 8))]
    rows = standings([1, 2, 3, 4], results)
    assert [(r.entry, r.points, r.total_score) for r in rows] == [
        (3, 32, 22), (2, 24, 40), (1, 24, 46), (4, 16, 48)]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_head_to_head_breaks_a_tie_in_points_and_score():
    results = [result(3, e1=(2, 10), e2=(1, 5), e3=(3, 30)),   # 2 placed ahead of 1
               result(3, e1=(1, 5), e4=(2, 12), e5=(3, 20)),
               result(3, e2=(2, 10), e4=(1, 6), e5=(3, 20))]
    rows = standings([1, 2, 3, 4, 5], results)
    assert [(r.entry, r.rank, r.points, r.total_score) for r in rows][:3] == [
        (2, 1, 36, 15), (1, 2, 36, 15), (4, 3, 36, 18)]


def test_a_complete_tie_shares_a_rank_and_keeps_sign_up_order():
    results = [result(4, e1=(1, 0), e2=(1, 0), e3=(3, 9), e4=(4, 9))]
    rows = standings([2, 1, 3, 4], results)
    assert [(r.entry, r.rank) for r in rows][:2] == [(2, 1), (1, 1)]


@settings(deadline=None)  # a timing limit is a benchmark's job, not a test's
@given(fields(), sizes, st.data())
def test_every_table_gets_a_host_when_there_are_enough(field, table_size, data):
    entries, met = field
    tables_needed = len(table_sizes(len(entries), table_size))
    hosts = data.draw(st.sets(st.sampled_from(entries), min_size=tables_needed))
    tables = seat_round(entries, table_size, met, hosts=hosts)
    assert all(hosts & set(t.entries) for t in tables)


@st.composite
def rounds_under_way(draw):
    """A field with some finished tables (of three) and some entrants still at theirs."""
    n = draw(st.integers(3, 12))
    entries = list(range(1, n + 1))
    order = draw(st.permutations(entries))
    playing = set(order[:draw(st.integers(0, n))])
    done = [e for e in order if e not in playing]
    results = []
    for start in range(0, len(done) - len(done) % 3, 3):
        table = done[start:start + 3]
        places = draw(st.lists(st.integers(1, 3), min_size=3, max_size=3))
        scores = draw(st.lists(st.integers(0, 60), min_size=3, max_size=3))
        results.append(TableResult(3, dict(zip(table, places, strict=True)),
                                   dict(zip(table, scores, strict=True))))
    return entries, results, playing


@settings(deadline=None)
@given(rounds_under_way())
def test_an_entrant_still_playing_never_outranks_a_finished_one_on_equal_points(field):
    entries, results, playing = field
    rows = standings(entries, results, playing=playing)
    position = {r.entry: i for i, r in enumerate(rows)}
    points = {r.entry: r.points for r in rows}
    assert all(position[f] < position[p] for p in playing for f in entries
               if f not in playing and points[f] == points[p])
    assert {r.entry for r in rows if r.playing} == playing
