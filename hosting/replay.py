"""A game's events again, from its seed and its stored move log: for a copy that did not see
them happen (restored after a restart, or brought up to another process's commits)."""

from __future__ import annotations

from collections.abc import Sequence

from lama import Game
from lama.actions import action_from_dict
from lama.events import Event, RoundStarted
from store import Move


def replay(game: Game, moves: Sequence[Move], seqs: set[int]) -> tuple[list[Event], list[Event]]:
    """Every event of the game, and those of the moves `seqs` (0: the deal)."""
    again = Game.new(game.ruleset, game.num_seats, game.seed, target=game.target)
    deal = RoundStarted(again.round_number, again.seat_on_turn, again.top_card)
    events: list[Event] = [deal]
    shown: list[Event] = [deal] if 0 in seqs else []
    for move in moves:
        if move.seat is None:
            continue
        happened = again.apply(move.seat, action_from_dict(move.action))
        events += happened
        if move.seq in seqs:
            shown += happened
    return events, shown
