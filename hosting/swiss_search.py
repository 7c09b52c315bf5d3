"""The exact part of Swiss seating: a search for the seating with the fewest repeat meetings
(issue 34), every table with a host when there are hosts enough.

A local search (hosting/swiss.py) can stop at a seating that repeats a meeting although
another seating would not (2 of 111 simulated rounds of 11–12 entrants did). This search
builds one table at a time around the entrant with the fewest others it has not met yet
(every seating has a table holding it), adding mates in order of the meetings they would
repeat, and abandons a branch once it repeats as many meetings as the best seating known,
or cannot give every table the host it needs. It stops at the first seating without a
repeat. At a tournament's sizes (up to 40 entrants, tables of 3 to 5) that takes
milliseconds, and so does showing that there is none (a field in which every entrant has
met most others); a budget of branches bounds the unusual field that would take longer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

Pair = frozenset[int]
BUDGET = 100_000  # branches tried for a seating without repeats (about a second at most)
FEWER_BUDGET = 10_000  # … and then for fewer repeats, when there is none


class _Search:
    def __init__(self, entries: Sequence[int], sizes: Sequence[int],
                 met: Mapping[Pair, int], hosts: frozenset[int], most: int) -> None:
        self.order = {e: i for i, e in enumerate(entries)}  # ties go to the better standing
        self.sizes = Counter(sizes)
        self.hosts = hosts & set(entries)
        self.hosted_needed = min(len(sizes), len(self.hosts))
        self.met = {e: {o: met.get(frozenset((e, o)), 0) for o in entries if o != e}
                    for e in entries}
        self.tables: list[list[int]] = []
        self.most = most  # the most repeats a seating may have to be taken
        self.found: list[list[int]] | None = None
        self.branches = 0

    def run(self, budget: int) -> list[list[int]] | None:
        self.budget = budget
        self._next_table(set(self.order), 0)
        return self.found

    def _done(self) -> bool:
        return self.branches > self.budget or self.most < 0  # a seating with no repeat

    def _hosts_possible(self, unplaced: set[int]) -> bool:
        """Whether the tables can still get as many hosts as they need."""
        hosted = sum(1 for t in self.tables if self.hosts.intersection(t))
        left = sum(self.sizes.values())
        return hosted + min(left, len(self.hosts & unplaced)) >= self.hosted_needed

    def _next_table(self, unplaced: set[int], repeats: int) -> None:
        if not unplaced:
            self.most, self.found = repeats - 1, [list(t) for t in self.tables]
            return
        free = {e: sum(1 for o in unplaced if o != e and not self.met[e][o]) for e in unplaced}
        first = min(unplaced, key=lambda e: (free[e], self.order[e]))
        smallest = min(size for size, count in self.sizes.items() if count)
        if self.most == 0 and free[first] < smallest - 1:
            return  # someone can no longer sit with new faces only
        for size in sorted(self.sizes, reverse=True):
            if self.sizes[size] == 0 or self._done():
                continue
            self.sizes[size] -= 1
            unplaced.discard(first)
            # the mates fewest others could still sit with first: they are the hardest to seat
            others = sorted(unplaced, key=lambda o: (self.met[first][o], free[o], self.order[o]))
            self._add_mates([first], others, size, unplaced, repeats)
            unplaced.add(first)
            self.sizes[size] += 1

    def _add_mates(self, table: list[int], candidates: list[int], size: int,
                   unplaced: set[int], repeats: int) -> None:
        """Fill `table` up to `size` from `candidates` (each taken after the ones before it in
        that list, so a table is built once), then go on with the next table."""
        self.branches += 1
        if self._done():
            return
        if len(table) == size:
            self.tables.append(table)
            if self._hosts_possible(unplaced):
                self._next_table(unplaced, repeats)
            self.tables.pop()
            return
        need = size - len(table)
        options = sorted(
            ((sum(self.met[o][m] for m in table), i) for i, o in enumerate(candidates)
             if len(candidates) - i >= need),
        )
        for added, i in options:
            if repeats + added > self.most or self._done():
                break
            mate = candidates[i]
            unplaced.discard(mate)
            self._add_mates([*table, mate], candidates[i + 1:], size, unplaced,
                            repeats + added)
            unplaced.add(mate)


def fewest_repeats(
    entries: Sequence[int], sizes: Sequence[int], met: Mapping[Pair, int],
    hosts: frozenset[int], *, better_than: int,
) -> list[list[int]] | None:
    """A seating of `entries` (best standing first) into tables of `sizes` with fewer repeat
    meetings than `better_than`, whose tables hold as many hosts as there can be; None if
    the searches found none.

    First a seating without any repeat (exact within BUDGET branches: at these sizes it
    proves in a few hundred branches that there is none); failing that, one with fewer
    repeats than `better_than` (the fewest there can be when its smaller budget allows)."""
    if better_than <= 0:
        return None
    found = _Search(entries, sizes, met, hosts, 0).run(BUDGET)
    if found is not None or better_than == 1:
        return found
    return _Search(entries, sizes, met, hosts, better_than - 1).run(FEWER_BUDGET)
