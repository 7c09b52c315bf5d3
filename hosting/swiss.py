"""Swiss tournaments without I/O: seating a round by the standings, and the standings themselves.

Seating puts the leaders together and avoids seating two players together again: among the
ways to cut the entrants into tables of the round's sizes, it takes the one with the fewest
repeat meetings, then the one whose tables hold the closest standings. Small fields are
searched exhaustively; larger ones start from the standings cut in order and swap players
between tables while that improves the seating (a local optimum), and if that repeats a
meeting, an exact search (swiss_search.py) finds a seating without one whenever one exists.

Points (`placement_points`) are a share of the table beaten, the same per seat at every
table size: docs/tournaments.md.

A table short of three seats is filled with AI seats (the bye): a game needs them to be worth
playing, and they never score tournament points.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .swiss_search import fewest_repeats

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
        tables = _fewest_repeats(_best_local(list(standings), sizes, goal), sizes, goal)
    ordered = sorted((sorted(t, key=rank.__getitem__) for t in tables),
                     key=lambda t: rank[t[0]])
    return [Seating(tuple(t), max(0, MIN_SEATS - len(t))) for t in ordered]


def _partitions(
    entries: list[int], sizes: list[int], order: Mapping[int, int] | None = None,
    after: int = -1,
) -> Iterator[list[list[int]]]:
    """Every way to cut `entries` into tables of `sizes`, each once: tables of equal size in
    a row are unordered, so the later one's first entrant must come later in the order of
    `entries` (`after`: the position of the first entrant of the table before, if it had
    this size)."""
    order = order if order is not None else {e: i for i, e in enumerate(entries)}
    if not sizes:
        yield []
        return
    size, rest = sizes[0], sizes[1:]
    for table in itertools.combinations(entries, size):
        if order[table[0]] <= after:
            continue
        remaining = [e for e in entries if e not in table]
        following = order[table[0]] if rest and rest[0] == size else -1
        for tail in _partitions(remaining, rest, order, following):
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


def _fewest_repeats(
    tables: list[list[int]], sizes: list[int], goal: _Goal
) -> list[list[int]]:
    """`tables` (a local search's), or a seating with fewer repeat meetings and no fewer
    hosted tables when one exists (swiss_search: exact within its budget), its standings
    spread then narrowed by the same local search."""
    hostless, repeats, _ = goal.cost(tables)
    fewest_hostless = max(0, len(tables) - len(goal.hosts)) if goal.hosts else 0
    if repeats == 0 and hostless == fewest_hostless:
        return tables
    better_than = repeats if hostless == fewest_hostless else sum(goal.met.values()) + 1
    entries = sorted((e for t in tables for e in t), key=goal.rank.__getitem__)
    found = fewest_repeats(entries, sizes, goal.met, goal.hosts, better_than=better_than)
    return tables if found is None else _improve(found, goal)


def _best_local(entries: list[int], sizes: list[int], goal: _Goal) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(entries[start:start + size])
        start += size
    return _improve(tables, goal)


def _improve(tables: list[list[int]], goal: _Goal) -> list[list[int]]:
    """Swap two entrants of different tables while that lowers the cost (a local optimum)."""
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
    places: Mapping[int, int]  # entry -> place (1 best; ties share the better one)
    scores: Mapping[int, int]  # entry -> final game score (lower is better)
    absent: frozenset[int] = frozenset()  # entries that left or were stood in for: no points
    # entry -> how many seats share its place, AI seats too (by default: its entrants that do)
    shared: Mapping[int, int] | None = None

    def points(self, entry: int) -> int:
        if entry in self.absent:
            return 0
        place = self.places[entry]
        if self.shared is not None:
            return placement_points(place, self.seats, self.shared[entry])
        alike = sum(1 for p in self.places.values() if p == place)
        return placement_points(place, self.seats, alike)


@dataclass(frozen=True)
class Standing:
    entry: int
    rank: int  # 1-based; a full tie (every tie-break equal) shares a rank
    points: int
    total_score: int
    games: int
    playing: bool = False  # mid-round: their table of this round has not finished yet


POINTS_PER_SEAT = 12  # what a table hands out per seat: the same at tables of every size
POINTS_FOR_FIRST = 2 * POINTS_PER_SEAT  # first place; last scores 0, the places between even


def placement_points(place: int, seats: int, shared: int = 1) -> int:
    """Tournament points for `place` at a table of `seats` (docs/tournaments.md): first
    POINTS_FOR_FIRST, last 0, the places between evenly spaced, 24·(seats − place)/(seats − 1)
    (3 seats: 24, 12, 0; 4: 24, 16, 8, 0; 5: 24, 18, 12, 6, 0). A place `shared` by several
    seats (equal scores) gives each the average of the places they span, so every table
    hands out exactly POINTS_PER_SEAT a seat: a seat expects the same at any table size.
    Whole numbers at tables of 2 to 5 seats (and 7); any other size raises."""
    first, last = place, min(place + shared - 1, seats)
    if seats < 2:
        return POINTS_FOR_FIRST
    total = POINTS_FOR_FIRST * (2 * seats - first - last)
    points, rest = divmod(total, 2 * (seats - 1))
    if rest:
        raise ValueError(f"no whole points for places {first}–{last} of {seats}")
    return points


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
        for entry in table.places:
            points[entry] += table.points(entry)
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
