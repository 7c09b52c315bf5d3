"""What one seat may know about the game: the only window AIs and renderers get."""

from __future__ import annotations

from dataclasses import dataclass

from lama.cards import Card


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    variant: str
    round_number: int
    #: This seat's own hand, sorted (1, 1+, 2, ..., 6+, L, P).
    hand: tuple[Card, ...]
    #: Distinct cards this seat may play now (empty when it is not their turn).
    legal_plays: tuple[Card, ...]
    can_draw: bool
    is_my_turn: bool
    #: None when the game is over.
    current_seat: int | None
    top_card: Card
    #: Public: every card played this round, bottom first (the last one is ``top_card``).
    discard_pile: tuple[Card, ...]
    draw_pile_size: int
    hand_sizes: tuple[int, ...]
    has_quit: tuple[bool, ...]
    scores: tuple[int, ...]
    target: int
    #: The current turn is a party plus-card extra turn.
    extra_turn: bool
    num_seats: int
    is_over: bool
