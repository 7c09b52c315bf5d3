"""What a player can do on their turn: play a card, draw, or quit the round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lama.cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Draw:
    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Quit:
    def to_dict(self) -> dict[str, Any]:
        return {"type": "quit"}


Action = Play | Draw | Quit

DRAW = Draw()
QUIT = Quit()


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON-safe form: {"type": "play", "card": "3+"} / {"type": "draw"} / {"type": "quit"}."""
    if not isinstance(action, Play | Draw | Quit):
        raise TypeError(f"not an action: {action!r}")
    return action.to_dict()


def action_from_dict(d: Any) -> Action:
    """Inverse of `action_to_dict`; ValueError on anything else."""
    if not isinstance(d, dict):
        raise ValueError(f"action must be a dict, got {d!r}")
    kind = d.get("type")
    if kind == "play" and set(d) == {"type", "card"}:
        return Play(Card.from_code(d["card"]))
    if kind == "draw" and set(d) == {"type"}:
        return DRAW
    if kind == "quit" and set(d) == {"type"}:
        return QUIT
    raise ValueError(f"not an action: {d!r}")
