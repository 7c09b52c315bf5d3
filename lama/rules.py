"""Rule variants as data (docs/rules.md): deck, what may follow what, scoring, tokens.

A `Ruleset` precomputes small lookup tables over the 14 card indices so that the engine's
legality and scoring checks are table lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from lama.cards import CARDS, LLAMA_INDEX, NUM_CARD_TYPES, PINK_INDEX, Card, CardKind


class TokenKind(IntEnum):
    """A scoring token; its int value is the points it stands for."""

    WHITE = 1
    BLACK = 10
    PINK = 20


@dataclass(frozen=True)
class Ruleset:
    name: str
    deck: tuple[Card, ...]
    target: int = 40
    #: Most valuable first.
    token_kinds: tuple[TokenKind, ...] = (TokenKind.BLACK, TokenKind.WHITE)
    #: Penalty for normal llamas: once per hand, or per card when ``llama_penalty_each``.
    llama_penalty: int = 10
    llama_penalty_each: bool = False
    pink_penalty: int = 20
    #: Cards that may be played on any top card (party: the pink llama).
    wild_cards: frozenset[Card] = frozenset()
    #: Playing a plus card gives another full turn (party).
    plus_extra_turn: bool = False

    # Derived lookup tables (by card index), filled in __post_init__.
    _follow: tuple[tuple[bool, ...], ...] = field(init=False, repr=False, compare=False)
    #: For each top card index: indices of cards (present in this deck) that may follow it.
    followers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    deck_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    extra_turn_index: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck", tuple(CARDS[c.index] for c in self.deck))
        object.__setattr__(self, "token_kinds", tuple(sorted(self.token_kinds, reverse=True)))
        counts = [0] * NUM_CARD_TYPES
        for c in self.deck:
            counts[c.index] += 1
        wild = {c.index for c in self.wild_cards}
        follow = tuple(
            tuple(_base_follows(top, c) or c.index in wild for c in CARDS) for top in CARDS
        )
        followers = tuple(
            tuple(i for i in range(NUM_CARD_TYPES) if row[i] and counts[i]) for row in follow
        )
        extra = tuple(self.plus_extra_turn and c.plus for c in CARDS)
        object.__setattr__(self, "_follow", follow)
        object.__setattr__(self, "followers", followers)
        object.__setattr__(self, "deck_counts", tuple(counts))
        object.__setattr__(self, "extra_turn_index", extra)
        if self.target < 1:
            raise ValueError("target must be at least 1")

    def can_follow(self, top: Card, card: Card) -> bool:
        """May ``card`` be played on ``top``?"""
        return self._follow[top.index][card.index]

    def hand_penalty(self, cards: Iterable[Card]) -> int:
        """Penalty points of a hand (docs/rules.md, "What a hand costs")."""
        counts = [0] * NUM_CARD_TYPES
        for c in cards:
            counts[c.index] += 1
        return self.penalty_of_counts(counts)

    def penalty_of_counts(self, counts: Sequence[int]) -> int:
        """Penalty of a hand given as counts per card index (the engine's representation)."""
        p = 0
        for i in range(0, 12, 2):
            if counts[i] or counts[i + 1]:  # plain or plus card of the same value: once
                p += i // 2 + 1
        llamas = counts[LLAMA_INDEX]
        if llamas:
            p += self.llama_penalty * (llamas if self.llama_penalty_each else 1)
        if counts[PINK_INDEX]:
            p += self.pink_penalty
        return p

    def tokens(self, score: int) -> tuple[tuple[TokenKind, int], ...]:
        """How a score is shown in tokens, most valuable first, zero counts left out:
        27 -> ((BLACK, 2), (WHITE, 7)); in party ((PINK, 1), (WHITE, 7))."""
        if score < 0:
            raise ValueError("scores are never negative")
        out = []
        for kind in self.token_kinds:
            n, score = divmod(score, int(kind))
            if n:
                out.append((kind, n))
        return tuple(out)

    def token_return(self, score: int) -> int:
        """Points returned by a player with ``score`` who empties their hand: their most
        valuable token (party 23 -> 20, classic 23 -> 10, 7 -> 1, 0 -> 0)."""
        for kind in self.token_kinds:
            if score >= kind:
                return int(kind)
        return 0

    def with_target(self, target: int) -> Ruleset:
        from dataclasses import replace

        return replace(self, target=target)


def _base_follows(top: Card, card: Card) -> bool:
    """docs/rules.md, "Playing a card": same value or one higher; on a 6 a 6 or a llama; on
    any llama a llama or a 1. A plus card follows (and is followed) as its number."""
    if top.kind is CardKind.NUMBER:
        if card.kind is CardKind.NUMBER:
            assert top.value is not None and card.value is not None
            return card.value in (top.value, top.value + 1)
        # Pink llama counts as a llama here; it only exists in party, where it is wild anyway.
        return top.value == 6
    return card.is_llama or card.value == 1


def _numbers(plus_cards: bool) -> list[Card]:
    out = []
    for v in range(1, 7):
        plain = CARDS[(v - 1) * 2]
        if plus_cards:
            out += [plain] * 7 + [CARDS[(v - 1) * 2 + 1]]
        else:
            out += [plain] * 8
    return out


CLASSIC = Ruleset(
    name="classic",
    deck=tuple(_numbers(False) + [CARDS[LLAMA_INDEX]] * 8),
)
PARTY = Ruleset(
    name="party",
    deck=tuple(_numbers(True) + [CARDS[LLAMA_INDEX]] * 7 + [CARDS[PINK_INDEX]]),
    token_kinds=(TokenKind.PINK, TokenKind.BLACK, TokenKind.WHITE),
    wild_cards=frozenset({CARDS[PINK_INDEX]}),
    plus_extra_turn=True,
)
KOMARAMI = Ruleset(
    name="komarami",
    deck=tuple(_numbers(False) + [CARDS[LLAMA_INDEX]] * 7),
    llama_penalty_each=True,
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (CLASSIC, PARTY, KOMARAMI)}


def get_ruleset(name: str | Ruleset) -> Ruleset:
    """A preset by name (case-insensitive), or the ruleset itself."""
    if isinstance(name, Ruleset):
        return name
    try:
        return RULESETS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(RULESETS)}") from None
