"""Full games between policies, for measuring how strong they are against each other.

Fairness: games come in blocks of ``n`` (the number of players). Every game of a block uses
the same game seed, so the same deals (the engine shuffles round ``r`` from the seed and ``r``
only), and in game ``k`` of the block player ``i`` sits in seat ``(i + k) % n``: each policy
plays each seat, and each hand of cards, equally often ("duplicate" seating, which also cuts
the luck of the deal out of the comparison). Use a multiple of ``n`` games for a fully
balanced run.

Determinism: every game's seeds come from ``(seed, game index)`` only, so the results are the
same whatever the number of worker processes (``jobs``); only the timings differ.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from lama.ai import get_policy
from lama.game import Game
from lama.rules import get_ruleset

Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95 % by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GameResult:
    #: Indexed by player (position in the ``players`` list), not by seat.
    scores: tuple[int, ...]
    won: tuple[bool, ...]
    rounds: int
    #: Seconds spent in ``choose`` per player, one entry per decision.
    decision_times: tuple[tuple[float, ...], ...]


def game_seed(seed: int, block: int) -> int:
    return random.Random(f"lama-arena:{seed}:{block}").getrandbits(48)


def play_game(
    players: Sequence[str], index: int, seed: int, variant: str = "classic", target: int = 40
) -> GameResult:
    """Game number ``index`` of an arena run (see the module docstring for the seating)."""
    n = len(players)
    rotation = index % n
    seat_of = [(i + rotation) % n for i in range(n)]
    player_at = [0] * n
    for i, s in enumerate(seat_of):
        player_at[s] = i
    policies = [get_policy(players[player_at[s]]) for s in range(n)]
    rng = random.Random(f"lama-arena-policy:{seed}:{index}")
    game = Game.new(variant, n, game_seed(seed, index // n), target)
    times: list[list[float]] = [[] for _ in range(n)]
    clock = time.perf_counter
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        obs = game.observation(seat)
        t0 = clock()
        action = policies[seat].choose(obs, rng)
        times[player_at[seat]].append(clock() - t0)
        game.apply(seat, action)
    winners = set(game.winners)
    return GameResult(
        scores=tuple(game.scores[seat_of[i]] for i in range(n)),
        won=tuple(seat_of[i] in winners for i in range(n)),
        rounds=game.round_number,
        decision_times=tuple(tuple(t) for t in times),
    )


def _play_range(args: tuple[tuple[str, ...], int, int, int, str, int]) -> list[GameResult]:
    players, start, stop, seed, variant, target = args
    return [play_game(players, g, seed, variant, target) for g in range(start, stop)]


def arena(
    players: Sequence[str],
    games: int,
    seed: int,
    *,
    variant: str = "classic",
    target: int = 40,
    jobs: int = 1,
) -> dict[str, Any]:
    """Play ``games`` full games and summarise each player's results (JSON-safe dict)."""
    players = tuple(p.strip().lower() for p in players)
    if not 2 <= len(players) <= 6:
        raise ValueError("an arena needs 2 to 6 players")
    for p in players:
        get_policy(p)  # fail early on an unknown name
    variant = get_ruleset(variant).name
    t0 = time.perf_counter()
    if jobs <= 1 or games < 2:
        results = _play_range((players, 0, games, seed, variant, target))
    else:
        chunk = max(1, min(50, games // (jobs * 4) or 1))
        tasks = [
            (players, a, min(games, a + chunk), seed, variant, target)
            for a in range(0, games, chunk)
        ]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = [r for part in pool.map(_play_range, tasks) for r in part]
    seconds = time.perf_counter() - t0
    seats = []
    for i, policy in enumerate(players):
        wins = sum(r.won[i] for r in results)
        low, high = wilson_interval(wins, games)
        times = [t for r in results for t in r.decision_times[i]]
        seats.append(
            {
                "policy": policy,
                "wins": wins,
                "win_share": wins / games if games else 0.0,
                "ci_low": low,
                "ci_high": high,
                "mean_score": statistics.fmean(r.scores[i] for r in results) if games else 0.0,
                "decision_ms_median": statistics.median(times) * 1000 if times else 0.0,
                "decision_ms_p95": _quantile(times, 0.95) * 1000 if times else 0.0,
            }
        )
    return {
        "variant": variant,
        "target": target,
        "seed": seed,
        "games": games,
        "rounds_mean": statistics.fmean(r.rounds for r in results) if games else 0.0,
        "seats": seats,
        "seconds": seconds,
        "jobs": jobs,
    }


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def format_report(result: dict[str, Any]) -> str:
    """A small human-readable table of an `arena` result."""
    lines = [
        f"{result['games']} games of {result['variant']} to {result['target']} "
        f"(seed {result['seed']}, {result['rounds_mean']:.1f} rounds a game, "
        f"{result['seconds']:.1f} s)",
        f"{'player':<4} {'policy':<8} {'wins':>7} {'95 % interval':>17} {'mean score':>11} "
        f"{'ms/decision':>12}",
    ]
    for i, s in enumerate(result["seats"]):
        lines.append(
            f"{i:<4} {s['policy']:<8} {s['win_share']:>7.1%} "
            f"{s['ci_low']:>8.1%}–{s['ci_high']:<8.1%} {s['mean_score']:>11.1f} "
            f"{s['decision_ms_median']:>12.3f}"
        )
    lines.append("Shared wins count as a win for each tied player, so shares may sum past 100 %.")
    return "\n".join(lines)


__all__ = ["GameResult", "arena", "format_report", "play_game", "wilson_interval"]
