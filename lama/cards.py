"""Cards: immutable, interned values.

There are only 14 distinct cards (1..6, 1+..6+, llama, pink llama), so every one is built
once at import time. The engine works on their small-int ``index`` internally and converts
to `Card` objects only at its public edges; ``CARDS[card.index] is card`` always holds.
The index order is also the display/sort order: 1, 1+, 2, 2+, ..., 6, 6+, L, P.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class CardKind(IntEnum):
    """What a card is. An IntEnum so that cards sort numbers first, then llamas."""

    NUMBER = 0
    LLAMA = 1
    PINK_LLAMA = 2


LLAMA_INDEX = 12
PINK_INDEX = 13
NUM_CARD_TYPES = 14


def _index_of(kind: CardKind, value: int | None, plus: bool) -> int:
    if kind is CardKind.NUMBER:
        if value is None or not 1 <= value <= 6:
            raise ValueError(f"number card needs a value 1..6, got {value!r}")
        return (value - 1) * 2 + (1 if plus else 0)
    if value is not None or plus:
        raise ValueError("llamas have no value and no plus")
    return LLAMA_INDEX if kind is CardKind.LLAMA else PINK_INDEX


@dataclass(frozen=True, order=True, slots=True, repr=False)
class Card:
    """One card. Equal cards are interchangeable; prefer the interned instances
    (`Card.from_code`, `CARDS`, the module constants) over building new ones."""

    kind: CardKind
    value: int | None = None
    plus: bool = False
    # Small int 0..13 used by the engine's lookup tables; not part of equality/ordering.
    index: int = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", CardKind(self.kind))
        object.__setattr__(self, "index", _index_of(self.kind, self.value, self.plus))

    @property
    def code(self) -> str:
        """Short stable code: "3", "3+", "L" (llama), "P" (pink llama)."""
        return _CODES[self.index]

    @property
    def is_llama(self) -> bool:
        """True for normal and pink llamas."""
        return self.kind is not CardKind.NUMBER

    @property
    def penalty_rank(self) -> int:
        """Orders cards by how costly they are to hold ("most valuable" first when sorted
        descending): pink (40) > llama (20) > 6+ (13) > 6 (12) > ... > 1+ (3) > 1 (2).
        Only the order is meaningful; the actual penalty depends on the ruleset."""
        return _PENALTY_RANK[self.index]

    @classmethod
    def from_code(cls, code: str) -> Card:
        """The interned card for a code; tolerant of case and whitespace ("l", " 3 + ")."""
        if not isinstance(code, str):
            raise ValueError(f"card code must be a string, got {code!r}")
        card = _BY_CODE.get("".join(code.split()).upper())
        if card is None:
            raise ValueError(f"not a card code: {code!r}")
        return card

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


_CODES = tuple([f"{v}{p}" for v in range(1, 7) for p in ("", "+")] + ["L", "P"])
CODES = _CODES  # each card's code by its index (a saved game is written in codes)
_PENALTY_RANK = tuple([v * 2 + p for v in range(1, 7) for p in (0, 1)] + [20, 40])

#: Every distinct card, indexed by ``Card.index``.
CARDS: tuple[Card, ...] = tuple(
    [Card(CardKind.NUMBER, v, p) for v in range(1, 7) for p in (False, True)]
    + [Card(CardKind.LLAMA), Card(CardKind.PINK_LLAMA)]
)
assert all(c.index == i for i, c in enumerate(CARDS))

_BY_CODE: dict[str, Card] = {c.code: c for c in CARDS}
_BY_CODE.update({"LLAMA": CARDS[LLAMA_INDEX], "PINK": CARDS[PINK_INDEX]})

ONE, TWO, THREE, FOUR, FIVE, SIX = (CARDS[i] for i in range(0, 12, 2))
ONE_PLUS, TWO_PLUS, THREE_PLUS, FOUR_PLUS, FIVE_PLUS, SIX_PLUS = (
    CARDS[i] for i in range(1, 12, 2)
)
LLAMA = CARDS[LLAMA_INDEX]
PINK_LLAMA = CARDS[PINK_INDEX]
NUMBERS = (ONE, TWO, THREE, FOUR, FIVE, SIX)
PLUS_NUMBERS = (ONE_PLUS, TWO_PLUS, THREE_PLUS, FOUR_PLUS, FIVE_PLUS, SIX_PLUS)


def card(code: str | Card) -> Card:
    """Convenience: a Card from a code, or the interned twin of a Card."""
    if isinstance(code, Card):
        return CARDS[code.index]
    return Card.from_code(code)


def cards(codes: str) -> tuple[Card, ...]:
    """Cards from space-separated codes: ``cards("6 L 1")``."""
    return tuple(Card.from_code(c) for c in codes.split())
