"""Swiss tournaments without I/O: seating a round by the standings, and the standings themselves.

Seating puts the leaders together and avoids seating two players together again: among the
ways to cut the entrants into tables of the round's sizes, it takes the one with the fewest
repeat meetings, then the one whose tables hold the closest standings. Small fields are
searched exhaustively; larger ones start from the standings cut in order and swap players
between tables while that improves the seating (a local optimum).

A table short of three seats is filled with AI seats (the bye): a game needs them to be worth
playing, and they never score tournament points.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

MIN_SEATS = 3  # a table has at least this many seats, AI seats making up the difference
EXACT_UP_TO = 10  # entrants seated by an exhaustive search; more by local search

Pair = frozenset[int]


@dataclass(frozen=True)
class Seating:
    entries: tuple[int, ...]  # entrants at this table, best standing first
    ai_seats: int  # AI seats filling the table up to MIN_SEATS

    @property
    def seats(self) -> int:
        return len(self.entries) + self.ai_seats


def table_sizes(entrants: int, table_size: int) -> list[int]:
    """Entrants per table: as few tables as `table_size` allows, sizes as equal as can be."""
    if entrants <= 0:
        return []
    tables = math.ceil(entrants / table_size)
    base, extra = divmod(entrants, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pairs_of(entries: Iterable[int]) -> set[Pair]:
    return {frozenset(p) for p in itertools.combinations(entries, 2)}


@dataclass(frozen=True)
class _Goal:
    rank: Mapping[int, int]  # entry -> standing, 0 best
    met: Mapping[Pair, int]  # pair -> tables shared so far
    hosts: frozenset[int]  # entries of whom every table needs one (its game's host)

    def cost(self, tables: Sequence[Sequence[int]]) -> tuple[int, int, int]:
        """(tables without a host, repeat meetings, standings spread): lower is better."""
        hostless = sum(1 for t in tables if self.hosts and not self.hosts.intersection(t))
        repeats = sum(self.met.get(p, 0) for t in tables for p in pairs_of(t))
        spread = sum(max(self.rank[e] for e in t) - min(self.rank[e] for e in t)
                     for t in tables)
        return hostless, repeats, spread


def seat_round(
    standings: Sequence[int], table_size: int, met: Mapping[Pair, int] | None = None,
    *, hosts: Iterable[int] = (),
) -> list[Seating]:
    """Tables for the next round. `standings`: entries best first; `met`: how often each
    pair has shared a table so far; `hosts`: entries of whom each table should get one (the
    humans, as an AI cannot host a game), before anything else."""
    rank = {entry: i for i, entry in enumerate(standings)}
    goal = _Goal(rank, met or {}, frozenset(hosts))
    sizes = table_sizes(len(standings), table_size)
    if len(standings) <= EXACT_UP_TO:
        tables = _best_exact(list(standings), sizes, goal)
    else:
        tables = _best_local(list(standings), sizes, goal)
    ordered = sorted((sorted(t, key=rank.__getitem__) for t in tables),
                     key=lambda t: rank[t[0]])
    return [Seating(tuple(t), max(0, MIN_SEATS - len(t))) for t in ordered]


def _partitions(entries: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every way to cut `entries` into tables of `sizes` (tables of equal size unordered)."""
    if not sizes:
        yield []
        return
    size, rest = sizes[0], sizes[1:]
    first, others = entries[0], entries[1:]
    if rest and rest[0] == size:  # the table holding the first entry comes first: no repeats
        for mates in itertools.combinations(others, size - 1):
            first_table = [first, *mates]
            remaining = [e for e in others if e not in mates]
            for tail in _partitions(remaining, rest):
                yield [first_table, *tail]
        return
    for table in itertools.combinations(entries, size):
        remaining = [e for e in entries if e not in table]
        for tail in _partitions(remaining, rest):
            yield [list(table), *tail]


def _best_exact(entries: list[int], sizes: list[int], goal: _Goal) -> list[list[int]]:
    best: list[list[int]] | None = None
    best_cost = None
    for tables in _partitions(entries, sorted(sizes, reverse=True)):
        cost = goal.cost(tables)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
    assert best is not None
    return best


def _best_local(entries: list[int], sizes: list[int], goal: _Goal) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(entries[start:start + size])
        start += size
    cost = goal.cost(tables)
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                trial = goal.cost(tables)
                if trial < cost:
                    cost, improved = trial, True
                else:
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
    return tables


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class TableResult:
    """One finished table: each entrant's place and final score, and how many seats it had."""

    seats: int
    places: Mapping[int, int]  # entry -> place (1 best; ties share)
    scores: Mapping[int, int]  # entry -> final game score (lower is better)


@dataclass(frozen=True)
class Standing:
    entry: int
    rank: int  # 1-based; a full tie (every tie-break equal) shares a rank
    points: int
    total_score: int
    games: int
    playing: bool = False  # mid-round: their table of this round has not finished yet


def placement_points(place: int, seats: int) -> int:
    """Last place scores 0, each place better one more (a shared place scores alike)."""
    return seats - place


def standings(
    entries: Sequence[int], results: Iterable[TableResult], *, playing: Collection[int] = (),
) -> list[Standing]:
    """Entries ordered by placement points, then lowest total score, then head-to-head among
    those still tied (games placed ahead of each other), then sign-up order.

    Mid-round, `playing` are the entrants whose table has not finished yet: their total
    score counts one game fewer, which must not lift them above anyone on equal points who
    finished the round, so on equal points they come after those (marked, not hidden). Once
    every table of a round is over nobody is playing, and the order is the plain one: the one
    that seats the next round and makes the final standings."""
    results = list(results)
    points = dict.fromkeys(entries, 0)
    scores = dict.fromkeys(entries, 0)
    games = dict.fromkeys(entries, 0)
    for table in results:
        for entry, place in table.places.items():
            points[entry] += placement_points(place, table.seats)
            scores[entry] += table.scores[entry]
            games[entry] += 1
    signup = {entry: i for i, entry in enumerate(entries)}
    still = set(playing)

    def key(entry: int) -> tuple[int, bool, int]:
        return -points[entry], entry in still, scores[entry]

    ordered: list[tuple[int, tuple[int, bool, int, int]]] = []  # entry, full sort key
    for _, group in itertools.groupby(sorted(entries, key=key), key=key):
        tied = list(group)
        ahead = _head_to_head(tied, results)
        for entry in sorted(tied, key=lambda e: (-ahead[e], signup[e])):
            ordered.append((entry, (*key(entry), -ahead[entry])))
    rows: list[Standing] = []
    for entry, full in ordered:
        shared = bool(rows) and ordered[len(rows) - 1][1] == full
        rank = rows[-1].rank if shared else len(rows) + 1
        rows.append(Standing(entry, rank, points[entry], scores[entry], games[entry],
                             entry in still))
    return rows


def _head_to_head(tied: Sequence[int], results: Sequence[TableResult]) -> dict[int, int]:
    """Per tied entry: how often it placed ahead of another tied entry at the same table."""
    ahead = dict.fromkeys(tied, 0)
    group = set(tied)
    for table in results:
        present = [e for e in table.places if e in group]
        for a, b in itertools.permutations(present, 2):
            ahead[a] += table.places[a] < table.places[b]
    return ahead
