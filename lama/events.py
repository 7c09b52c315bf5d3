"""What happened, as immutable values. Public information only: a drawn card is secret,
so `CardDrawn` does not say which card it was (the drawer sees it in their observation).

Every accepted action yields a list of these, in order. While a round goes on the list ends
with `TurnPassed` or `ExtraTurn` (who moves next); when the round ends it holds `RoundEnded`
followed by either `RoundStarted` (the next deal; its ``starting_seat`` is on turn) or
`GameEnded`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from lama.cards import Card


class ForcedQuitReason(StrEnum):
    #: No legal play and the draw pile is empty.
    PILE_EMPTY = "pile_empty"
    #: No legal play and everyone else has quit, so drawing is not allowed.
    ALONE = "alone"


class RoundEndReason(StrEnum):
    EMPTY_HAND = "empty_hand"
    ALL_QUIT = "all_quit"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_number: int
    starting_seat: int
    top_card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    cards_left: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    seat: int
    draw_pile_left: int


@dataclass(frozen=True, slots=True)
class PlayerQuit:
    seat: int


@dataclass(frozen=True, slots=True)
class ForcedQuit:
    seat: int
    reason: ForcedQuitReason


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """party: ``seat`` played a plus card and moves again."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """``seat`` is now on turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatRoundResult:
    seat: int
    hand: tuple[Card, ...]
    #: Points the hand scored (0 for the player who emptied their hand).
    penalty: int
    emptied_hand: bool
    token_returned: int
    score_before: int
    score_after: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round_number: int
    ended_by: RoundEndReason
    results: tuple[SeatRoundResult, ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    RoundStarted
    | CardPlayed
    | CardDrawn
    | PlayerQuit
    | ForcedQuit
    | ExtraTurn
    | TurnPassed
    | RoundEnded
    | GameEnded
)
