"""A finished game as a film: the whole table, every hand face up, after each deal and move.

The engine deals the next round inside the move that ends one, so the move's own frame is put
together from the state before it and the round's results (the hands as they were scored);
the new deal gets a frame of its own. Only finished games: a running game's hands are secret.
"""

from __future__ import annotations

from dataclasses import dataclass

from lama import Card, Game, GameEnded, RoundEnded, RoundStarted
from lama import events as ev
from lama.actions import action_from_dict
from store import Move
from store.records import Game as GameRecord

from .results import Standing
from .stats import ReplayHeader, ReplayStep, final_of, seats_of


@dataclass(frozen=True, slots=True)
class Board:
    """Everything on the table at one moment of a finished game."""

    round_number: int
    hands: tuple[tuple[Card, ...], ...]  # by seat, sorted
    top_card: Card
    draw_pile: int
    discard_pile: int  # cards on the discard pile, the top card included
    has_quit: tuple[bool, ...]
    scores: tuple[int, ...]  # the game's scores: after the round once it was scored
    on_turn: int | None  # who moves next; None once the round is over


@dataclass(frozen=True, slots=True)
class Frame:
    index: int  # 0 is the first deal
    board: Board
    move: ReplayStep | None  # None: a new deal
    round_ended: RoundEnded | None  # this move ended the round: how it was scored
    game_ended: GameEnded | None  # … and the game


@dataclass(frozen=True, slots=True)
class ReplayFilm(ReplayHeader):
    frames: tuple[Frame, ...]  # at least one (the first deal)
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # as the game named them: its final standings' first
    standings: tuple[Standing, ...] = ()  # as rated: the "Game over" post's order

    @property
    def rounds(self) -> int:
        return self.frames[-1].board.round_number


def film(record: GameRecord, moves: list[Move]) -> ReplayFilm:
    """Replay the log from the seed, keeping a frame after the first deal and every move."""
    assert record.seed is not None
    game = Game.new(record.variant, len(record.seats), record.seed, target=record.target)
    frames = [Frame(0, board_of(game), None, None, None)]
    for move in moves:
        if move.seat is None:  # no seat acted (the store allows it; hosting never does)
            continue
        before = frames[-1].board
        action = action_from_dict(move.action)
        events = tuple(game.apply(move.seat, action))
        step = ReplayStep(move.seq, move.seat, move.actor, action, events)
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
        over = next((e for e in events if isinstance(e, GameEnded)), None)
        board = board_of(game) if ended is None else _scored_board(before, events, ended)
        frames.append(Frame(len(frames), board, step, ended, over))
        if any(isinstance(e, RoundStarted) for e in events):
            frames.append(Frame(len(frames), board_of(game), None, None, None))
    seats = seats_of(record)
    final = final_of(seats, game)
    return ReplayFilm(
        game_id=record.id, guild_id=record.guild_id, variant=record.variant,
        target=record.target, finished_at=record.finished_at, seats=seats,
        frames=tuple(frames), scores=tuple(game.scores), winners=final.winners,
        standings=final.standings,
    )


def board_of(game: Game) -> Board:
    seats = range(game.num_seats)
    return Board(
        round_number=game.round_number,
        hands=tuple(game.hand(s) for s in seats),
        top_card=game.top_card,
        draw_pile=game.draw_pile_size,
        discard_pile=len(game.discard_pile),
        has_quit=tuple(game.has_quit(s) for s in seats),
        scores=game.scores,
        on_turn=None if game.is_over else game.current_seat,
    )


def _scored_board(before: Board, events: tuple, ended: RoundEnded) -> Board:
    """The table as the round ended: the state before the move, moved on by its events up
    to the scoring (the engine has already dealt the next round)."""
    top, draw, discard = before.top_card, before.draw_pile, before.discard_pile
    has_quit = list(before.has_quit)
    for event in events:
        if event is ended:
            break
        if isinstance(event, ev.CardPlayed):
            top, discard = event.card, discard + 1
        elif isinstance(event, ev.CardDrawn):
            draw = event.draw_pile_left
        elif isinstance(event, ev.PlayerQuit | ev.ForcedQuit):
            has_quit[event.seat] = True
    return Board(
        round_number=ended.round_number,
        hands=tuple(r.hand for r in ended.results),
        top_card=top,
        draw_pile=draw,
        discard_pile=discard,
        has_quit=tuple(has_quit),
        scores=tuple(r.score_after for r in ended.results),
        on_turn=None,
    )
