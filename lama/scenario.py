"""Build a game in a chosen position, so tests (and bug reports) read like the rules:

    game = scenario("classic", hands=["6 L 1", "2 3"], top="6")

Cards not placed anywhere go under the top card of the discard pile (public, inert), so the
position is a real, fully accounted-for state loaded through `game_from_dict`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lama.cards import Card
from lama.game import Game
from lama.persist import game_from_dict
from lama.rules import Ruleset, get_ruleset


def scenario(
    variant: str | Ruleset,
    hands: Sequence[str],
    top: str,
    *,
    draw: str = "",
    current: int = 0,
    quit: Sequence[int] = (),
    scores: Sequence[int] | None = None,
    round_number: int = 1,
    extra_turn: bool = False,
    last_quitter: int | None = None,
    seed: int = 0,
    target: int | None = None,
) -> Game:
    """``hands``: one space-separated code string per seat; ``draw``: the draw pile, next
    card first (default: empty); ``top``: the top card of the discard pile."""
    ruleset = get_ruleset(variant)
    n = len(hands)
    parsed = [[Card.from_code(c) for c in h.split()] for h in hands]
    pile = [Card.from_code(c) for c in draw.split()]
    top_card = Card.from_code(top)
    left = Counter(ruleset.deck)
    for c in [*(c for h in parsed for c in h), *pile, top_card]:
        if left[c] <= 0:
            raise ValueError(f"more {c.code} than the {ruleset.name} deck holds")
        left[c] -= 1
    under = sorted(left.elements())
    return game_from_dict(
        {
            "format": 1,
            "variant": ruleset.name,
            "num_seats": n,
            "seed": seed,
            "target": ruleset.target if target is None else target,
            "round_number": round_number,
            "scores": list(scores) if scores is not None else [0] * n,
            "over": False,
            "current_seat": current,
            "extra_turn": extra_turn,
            "last_quitter": last_quitter,
            "has_quit": [s in quit for s in range(n)],
            "hands": [[c.code for c in sorted(h)] for h in parsed],
            "draw_pile": [c.code for c in pile],
            "discard_pile": [c.code for c in [*under, top_card]],
        }
    )
