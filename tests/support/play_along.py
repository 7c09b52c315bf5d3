"""Playing along in tests: a legal move a human might make, chosen by a seeded RNG.

The same choice drives the service directly (`play_any`) and a player on the loopback
Discord (`as_slash`: the slash command that makes that move).
"""

from __future__ import annotations

import random

from hosting import GameService, GameUpdate
from lama import DRAW, QUIT, Action, Observation, Play


def random_action(
    obs: Observation, rng: random.Random, *, play: float = 0.8, draw: float = 1.0
) -> Action:
    """Mostly a playable card (share `play`), else a draw (share `draw` of the time it is
    allowed), else quitting the round. Draws from `rng` only for the choices it weighs."""
    if obs.legal_plays and rng.random() < play:
        return Play(rng.choice(obs.legal_plays))
    if draw > 0 and obs.can_draw and (draw >= 1 or rng.random() < draw):
        return DRAW
    return QUIT


def as_slash(action: Action) -> tuple[str, dict[str, str]]:
    """The slash command (name, options) that makes `action`."""
    if isinstance(action, Play):
        return "play", {"card": action.card.code}
    return ("draw", {}) if action == DRAW else ("quit", {})


async def play_any(
    service: GameService, game_id: int, user_id: int, rng: random.Random, **shares: float
) -> GameUpdate:
    """The user makes some legal move through the service."""
    action = random_action(service.observation(game_id, user_id), rng, **shares)
    return await service.human_move(game_id, user_id, action)
