"""A game's events again, from its seed and its stored move log: for a copy that did not see
them happen (restored after a restart, or brought up to another process's commits)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from lama import Game
from lama.actions import action_from_dict
from lama.events import Event, RoundStarted
from store import Move, Store

from .views import RecentEvent


@dataclass(frozen=True, slots=True)
class Recalled:
    """A stored game's events up to a copy's move, from the deal of the first round read."""

    events: list[RecentEvent]  # each with the move it came from
    shown: list[Event]  # those of the moves asked for (0: the game's first deal)
    moves: list[Move]  # the moves read, up to the copy's


async def recall(store: Store, game_id: int, game: Game, upto: int,
                 seqs: Collection[int] = ()) -> Recalled:
    """Replay the stored `game` (a copy at move `upto`) with one read of its move log: only
    its current round's moves when they hold every move asked for (`seqs`), as each round is
    dealt from its own seed; the whole log when a move asked for is of an earlier round or
    the game is over (an earlier round's deal needs the scores of the rounds before it)."""
    first = min(seqs, default=None)
    whole = game.is_over or first == 0
    log = await store.games.moves_to_replay(game_id, 1 if whole else game.round_number, first)
    moves = [m for m in log if m.seq <= upto]
    opening = next((m for m in moves if m.seat is not None), None)  # the first round read's
    if whole or (opening is not None and opening.round_number < game.round_number):
        start = Game.new(game.ruleset, game.num_seats, game.seed, target=game.target)
        dealt_by = 0
    else:  # the round's first move is its starting seat's (a deal forces nobody to quit)
        seat = opening.seat if opening is not None else None
        start = game.as_dealt(game.seat_on_turn if seat is None else seat)
        dealt_by = moves[0].seq - 1 if moves else upto  # the move that ended the last round
    events, shown = replay(start, moves, set(seqs), dealt_by)
    return Recalled(events, shown, moves)


def replay(
    again: Game, moves: Sequence[Move], seqs: set[int], dealt_by: int = 0
) -> tuple[list[RecentEvent], list[Event]]:
    """Every event from the deal `again` on (played on: a fresh game), each with the move it
    came from (`dealt_by`: the deal's), and the events of the moves `seqs` (0: the deal)."""
    deal = RoundStarted(again.round_number, again.seat_on_turn, again.top_card)
    events = [RecentEvent(dealt_by, deal)]
    shown: list[Event] = [deal] if 0 in seqs else []
    for move in moves:
        if move.seat is None:
            continue
        happened = again.apply(move.seat, action_from_dict(move.action))
        events += [RecentEvent(move.seq, event) for event in happened]
        if move.seq in seqs:
            shown += happened
    return events, shown
