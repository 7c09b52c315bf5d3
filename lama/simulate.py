"""Many independent rounds played by policies, for statistics and for speed measurements.

Each round is a fresh deal (cards from one seeded RNG) with a random starting seat; the
policies get their own seeded RNG. When every seat plays `RandomPolicy`, an equivalent fast
path skips building observations and events (same RNG use, so the same results).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from lama.actions import Draw, Play
from lama.ai import Policy, RandomPolicy, get_policy
from lama.game import Game
from lama.rules import Ruleset, get_ruleset


def simulate(
    variant: str | Ruleset,
    players: int,
    policy: str | Policy | Sequence[str | Policy],
    rounds: int,
    seed: int,
    *,
    fast: bool = True,
) -> dict[str, Any]:
    """Play ``rounds`` independent rounds. Returns rounds, turns_per_round_mean (every play,
    draw and quit, forced quits included), penalty_per_player_round_mean (each seat's round
    penalty before token returns, 0 for the player who emptied their hand),
    empty_hand_round_share and rounds_per_second."""
    ruleset = get_ruleset(variant)
    if isinstance(policy, str | Policy) or not isinstance(policy, Sequence):
        policies = [get_policy(policy)] * players
    else:
        policies = [get_policy(p) for p in policy]
    if len(policies) != players:
        raise ValueError("need one policy per player")
    game = Game(ruleset, players, seed, ruleset.target)
    game._sim = True
    deal_rng = random.Random(seed * 2 + 1)
    policy_rng = random.Random(seed * 2)
    all_random = fast and all(type(p) is RandomPolicy for p in policies)
    t0 = time.perf_counter()
    turns = penalty = emptied = 0
    for r in range(1, rounds + 1):
        game._deal(r, int(deal_rng.random() * players), deal_rng, None)
        if all_random:
            actions, voluntary_quits = _random_round(game, policy_rng)
        else:
            actions, voluntary_quits = _policy_round(game, policies, policy_rng)
        turns += actions + sum(game._quit) - voluntary_quits
        pen = game._ruleset.penalty_of_counts
        for s in range(players):
            if game._sizes[s]:
                penalty += pen(game._hands[s])
            else:
                emptied += 1
    elapsed = time.perf_counter() - t0
    return {
        "variant": ruleset.name,
        "players": players,
        "rounds": rounds,
        "turns_per_round_mean": turns / rounds if rounds else 0.0,
        "penalty_per_player_round_mean": penalty / (rounds * players) if rounds else 0.0,
        "empty_hand_round_share": emptied / rounds if rounds else 0.0,
        "rounds_per_second": rounds / elapsed if elapsed > 0 else float("inf"),
    }


def _policy_round(game: Game, policies: list[Policy], rng: random.Random) -> tuple[int, int]:
    actions = quits = 0
    while game._cur is not None:
        seat = game._cur
        action = policies[seat].choose(game.observation(seat), rng)
        game.apply(seat, action)
        actions += 1
        quits += not isinstance(action, Play | Draw)
    return actions, quits


def _random_round(game: Game, rng: random.Random) -> tuple[int, int]:
    """`RandomPolicy` for every seat, on the engine's internals (no observations/events)."""
    rand = rng.random
    followers = game._followers
    actions = quits = 0
    while True:
        seat = game._cur
        if seat is None:
            return actions, quits
        hand = game._hands[seat]
        plays = [c for c in followers[game._top] if hand[c]]
        k = len(plays)
        can_draw = game._active > 1 and game._pos < len(game._pile)
        i = int(rand() * (k + 2 if can_draw else k + 1))
        actions += 1
        if i < k:
            game._play(seat, plays[i], None)
        elif i == k and can_draw:
            game._draw(seat, None)
        else:
            quits += 1
            if not game._quit_seat(seat, None, None):
                game._settle(None, True)


__all__ = ["simulate"]
