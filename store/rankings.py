"""How players are ranked from their totals: the one order both rankings follow, the SQL one
(`StatsStore.leaderboard_slice`, a page straight from the database) and the one in Python
(`rank`, any page and anyone's row from a server's totals read once, `player_totals`).

Why both (issue 33): a leaderboard at 100,000 games is one aggregation over every result of
the server, 30-150 ms, and every sort and page of a variant and period aggregates the same
totals. Kept once per (server, variant, period), they rank every sort, page and asker in
microseconds; a server too large to keep them (hosting decides) gets its pages from the
database as before. A test checks that both rankings agree on every sort, page and player.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from store.records import LeaderboardRow, LeaderboardSort

MIN_GAMES_FOR_WIN_RATE = 5


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One player's sums over the finished games of a board's window."""

    user_id: int
    games: int
    wins: int
    score_sum: int
    tokens: int
    clean_rounds: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def avg_score(self) -> float:
        return self.score_sum / self.games

    @property
    def tokens_per_game(self) -> float:
        return self.tokens / self.games


Metric = Callable[[PlayerTotals], float]


@dataclass(frozen=True, slots=True)
class Order:
    """A sort: SQL's ORDER BY of the metric (ties share a rank) and of the tie-breakers (for a
    stable page order, user_id last), and the same in Python: the metric as a number where
    smaller is better, then the tie-breakers."""

    metric_sql: str
    then_sql: str
    metric: Metric
    then: Metric


ORDERS: dict[LeaderboardSort, Order] = {
    LeaderboardSort.WINS: Order("wins DESC", "games ASC", lambda t: -t.wins, lambda t: t.games),
    LeaderboardSort.WIN_RATE: Order("win_rate DESC", "games DESC",
                                    lambda t: -t.win_rate, lambda t: -t.games),
    LeaderboardSort.AVG_SCORE: Order("avg_score ASC", "games DESC",
                                     lambda t: t.avg_score, lambda t: -t.games),
    LeaderboardSort.TOKENS: Order("tokens_per_game ASC", "games DESC",
                                  lambda t: t.tokens_per_game, lambda t: -t.games),
    LeaderboardSort.CLEAN_ROUNDS: Order("clean_rounds DESC", "games ASC",
                                        lambda t: -t.clean_rounds, lambda t: t.games),
    LeaderboardSort.GAMES: Order("games DESC", "wins DESC", lambda t: -t.games,
                                 lambda t: -t.wins),
}


def min_games(sort: LeaderboardSort) -> int:
    """Games a player needs to be ranked by `sort`."""
    return MIN_GAMES_FOR_WIN_RATE if sort is LeaderboardSort.WIN_RATE else 1


@dataclass(frozen=True, slots=True)
class LeaderboardSlice:
    """One page of a ranking, how many are ranked, and one user's row wherever it is."""

    rows: tuple[LeaderboardRow, ...]
    total: int
    me: LeaderboardRow | None


def rank(totals: Sequence[PlayerTotals], sort: LeaderboardSort, *, limit: int, offset: int,
         user_id: int | None = None) -> LeaderboardSlice:
    """The page [offset, offset + limit) of the ranking by `sort`, its count, and the user's
    row: what `StatsStore.leaderboard_slice` reads for the same window."""
    order = ORDERS[LeaderboardSort(sort)]
    least = min_games(sort)
    ranked = sorted((t for t in totals if t.games >= least),
                    key=lambda t: (order.metric(t), order.then(t), t.user_id))
    page: list[LeaderboardRow] = []
    me = None
    place, previous = 0, None
    for position, totals_ in enumerate(ranked):
        metric = order.metric(totals_)
        if metric != previous:  # RANK(): ties share the first of their places
            place, previous = position + 1, metric
        on_page = offset <= position < offset + limit
        if on_page or totals_.user_id == user_id:
            row = _row(totals_, place)
            if on_page:
                page.append(row)
            if totals_.user_id == user_id:
                me = row
    return LeaderboardSlice(tuple(page), len(ranked), me)


def _row(t: PlayerTotals, place: int) -> LeaderboardRow:
    return LeaderboardRow(rank=place, user_id=t.user_id, games=t.games, wins=t.wins,
                          win_rate=t.win_rate, avg_score=t.avg_score, tokens=t.tokens,
                          tokens_per_game=t.tokens_per_game, clean_rounds=t.clean_rounds)
