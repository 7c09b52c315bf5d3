"""Computer players. A policy sees only an `Observation` and a seeded RNG it is given.

Only the uniform-random baseline lives here for now; stronger policies plug into the same
`Policy` protocol and the `POLICIES` registry.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from lama.actions import DRAW, QUIT, Action, Play
from lama.cards import Card
from lama.observation import Observation
from lama.rules import get_ruleset


@runtime_checkable
class Policy(Protocol):
    name: str

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        """Pick a legal action for ``observation.seat`` (called only on that seat's turn)."""
        ...


class RandomPolicy:
    """Uniform over the distinct legal actions: each distinct playable card (a party plus
    card is distinct from the plain card of its value), Draw if allowed, and Quit.

    Uses exactly one ``rng.random()`` per decision; `lama.simulate` relies on that to run an
    equivalent fast path without building observations."""

    name = "random"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        plays = observation.legal_plays
        k = len(plays)
        i = int(rng.random() * (k + 2 if observation.can_draw else k + 1))
        if i < k:
            return Play(plays[i])
        if i == k and observation.can_draw:
            return DRAW
        return QUIT


class NormalPolicy:
    """The reference opponent (issue 2), exactly: play the playable card with the highest
    penalty (pink > llama > 6 > ... > 1; a plus card before the plain card of its value);
    with nothing playable, draw if allowed and the hand would score more than 5; else quit.
    Uses no randomness."""

    name = "normal"

    def choose(self, observation: Observation, rng: random.Random) -> Action:
        plays = observation.legal_plays
        if plays:
            return Play(max(plays, key=_penalty_rank))
        if (
            observation.can_draw
            and get_ruleset(observation.variant).hand_penalty(observation.hand) > 5
        ):
            return DRAW
        return QUIT


def _penalty_rank(card: Card) -> int:
    return card.penalty_rank


POLICIES: dict[str, type] = {"random": RandomPolicy, "normal": NormalPolicy}


def get_policy(name: str | Policy) -> Policy:
    """A new policy by registry name, or the policy itself."""
    if not isinstance(name, str):
        return name
    try:
        return POLICIES[name.strip().lower()]()
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(POLICIES)}") from None
