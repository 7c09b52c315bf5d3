"""The one error the engine raises for a rejected action, with a machine-readable reason.

Interfaces translate `Reason` values into words; the message here is for logs only.
"""

from __future__ import annotations

from enum import StrEnum

from lama.cards import Card


class Reason(StrEnum):
    NOT_YOUR_TURN = "not_your_turn"
    #: The seat has quit this round: it has no more turns until the next one.
    ALREADY_QUIT = "already_quit"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    #: The card is not in this variant's deck at all (a pink llama in classic LAMA).
    CARD_NOT_IN_GAME = "card_not_in_game"
    CARD_NOT_PLAYABLE = "card_not_playable"
    DRAW_PILE_EMPTY = "draw_pile_empty"
    #: Drawing is not allowed when every other player has quit the round.
    DRAW_ALONE = "draw_alone"
    #: The action names a round that is no longer being played (``apply(..., round_number=)``).
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"
    NO_SUCH_SEAT = "no_such_seat"


class IllegalAction(Exception):
    """An action the rules do not allow right now; the game was not changed."""

    def __init__(
        self,
        reason: Reason,
        seat: int | None,
        card: Card | None = None,
        playable: tuple[Card, ...] = (),
    ) -> None:
        self.reason = reason
        self.seat = seat
        self.card = card
        #: For CARD_NOT_PLAYABLE: the cards that would have been legal.
        self.playable = playable
        detail = f" card={card.code}" if card is not None else ""
        if playable:
            detail += " playable=" + ",".join(c.code for c in playable)
        super().__init__(f"{reason.value}: seat={seat}{detail}")
