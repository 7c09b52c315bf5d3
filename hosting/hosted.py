"""A game as the service holds it in memory: the engine state plus seats, lock and messages."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from lama import Game, Observation, game_from_dict
from store import Game as GameRecord
from store import NewSeat
from store import Seat as SeatRecord

from .deadlines import Deadline, TimerKind
from .results import timed_out_of_game
from .views import (
    END,
    LOBBY,
    TABLE,
    GameOptions,
    GameView,
    MessageKey,
    SeatRating,
    SeatView,
    Status,
    ai_called,
)

RECENT_EVENTS = 8


def ai_name(index: int) -> str:
    """The name stored for an AI seat (interfaces show a translated one, by `ai_called`)."""
    return f"Llama-bot {index + 1}"


def next_ai_number(seats: Sequence[Seat]) -> int:
    """What a new AI seated after `seats` is called by for its whole game: its place, unless
    an AI seated earlier keeps that number (seats move up when someone leaves a lobby; the
    AIs' names do not), then the next number free above it."""
    taken = {ai_called(s.index, s.ai_number) for s in seats if s.user_id is None}
    number = len(seats) + 1
    while number in taken:
        number += 1
    return number


@dataclass
class Seat:
    index: int
    name: str
    user_id: int | None  # None: an AI from the lobby on
    ai_level: str | None = None  # set while an AI plays this seat
    left: bool = False
    timeouts_in_a_row: int = 0
    quit_pending_round: int | None = None  # left mid-round: the AI quits for them
    timed_out_round: int | None = None  # the round the turn timer last quit for them
    ai_number: int | None = None  # what an AI here is called by (views.ai_called)
    left_after_seq: int | None = None  # handed to an AI: the game's last move then
    seated_by_rematch: bool = False  # a rematch seated this player without their asking
    kicked: bool = False  # left because kicked from the running game: it is not rated for them

    @classmethod
    def ai(cls, index: int, level: str, number: int) -> Seat:
        """An AI seat, called by `number` ("Llama-bot 3") wherever it moves in the lobby."""
        return cls(index, ai_name(number - 1), None, level, ai_number=number)

    def move_to(self, index: int) -> None:
        """Take place `index` (seats move up in a lobby); an AI keeps what it is called by,
        also one stored before AIs kept a number (called by its place until now)."""
        if self.user_id is None and index != self.index:
            self.ai_number = ai_called(self.index, self.ai_number)
        self.index = index

    @classmethod
    def from_record(cls, record: SeatRecord) -> Seat:
        return cls(
            index=record.seat,
            name=record.display_name,
            user_id=record.user_id,
            ai_level=record.ai_level if record.ai_controlled else None,
            left=record.has_left,
            timeouts_in_a_row=record.timeouts_in_a_row,
            quit_pending_round=record.quit_pending_round,
            ai_number=record.ai_number,
            left_after_seq=record.left_after_seq,
            seated_by_rematch=record.seated_by_rematch,
            kicked=record.kicked,
        )

    def new_seat(self) -> NewSeat:
        if self.user_id is None:
            return NewSeat.ai(self.name, self.ai_level or "normal", self.ai_number)
        return NewSeat.human(self.user_id, self.name, seated_by_rematch=self.seated_by_rematch)

    def hand_to_ai(
        self, game: Game | None, after_seq: int | None, *, kicked: bool = False
    ) -> None:
        """An AI plays on after move `after_seq` (as stored); if the human left mid-round,
        it quits that round for them. `kicked`: the host removed them (as stored)."""
        self.left, self.ai_level, self.kicked = True, "normal", kicked
        if self.left_after_seq is None:
            self.left_after_seq = after_seq
        if game is not None and not game.is_over and not game.has_quit(self.index):
            self.quit_pending_round = game.round_number

    def view(self, game: Game | None) -> SeatView:
        # Built in one go (no dataclasses.replace): views are made for every move and answer.
        if game is None:
            return SeatView(self.index, self.name, self.user_id, self.ai_level, left=self.left,
                            ai_number=self.ai_number, left_after_seq=self.left_after_seq,
                            seated_by_rematch=self.seated_by_rematch, kicked=self.kicked,
                            timed_out_of_game=self.timed_out_of_game)
        quit_ = game.has_quit(self.index)
        return SeatView(
            self.index, self.name, self.user_id, self.ai_level, left=self.left,
            left_after_seq=self.left_after_seq,
            card_count=game.hand_size(self.index),
            has_quit=quit_,
            timed_out=quit_ and self.timed_out_round == game.round_number,
            score=game.scores[self.index],
            ai_number=self.ai_number,
            seated_by_rematch=self.seated_by_rematch,
            kicked=self.kicked,
            timed_out_of_game=self.timed_out_of_game,
        )

    @property
    def timed_out_of_game(self) -> bool:
        """An AI took the seat because its human's turn time ran out too often in a row."""
        return timed_out_of_game(self.left, self.kicked, self.timeouts_in_a_row)


@dataclass
class HostedGame:
    id: int
    guild_id: int
    channel_id: int
    host_id: int | None  # None: a finished game whose host asked to be forgotten
    options: GameOptions
    status: Status
    seats: list[Seat]
    game: Game | None = None
    seq: int = 0  # moves committed so far
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recent: deque = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))
    messages: dict[MessageKey, tuple[int, int]] = field(default_factory=dict)  # -> channel, msg
    table_round: int | None = None  # the round its TABLE message shows (None: not known)
    rematch_of: int | None = None  # the finished game this lobby replays
    thread_id: int | None = None  # the thread it shows itself in (a server setting)
    ratings: tuple[SeatRating, ...] = ()  # set when the finished game was rated
    deadline: Deadline | None = None  # the stored next timer of a running game

    @property
    def running_game(self) -> Game:
        """The engine state of a started game (a lobby has none yet)."""
        if self.game is None:
            raise RuntimeError(f"game {self.id} has not started")
        return self.game

    @property
    def ai_level(self) -> str:
        return self.options.ai_level

    @classmethod
    def from_record(cls, record: GameRecord, *, ai_level: str = "normal") -> HostedGame:
        seats = [Seat.from_record(s) for s in sorted(record.seats, key=lambda s: s.seat)]
        levels = [s.ai_level for s in record.seats if s.is_ai and s.ai_level]
        options = GameOptions(
            variant=record.variant,
            target=record.target,
            turn_timeout=record.turn_timeout_s,
            ai_delay=record.ai_delay_s,
            ai_level=levels[0] if levels else ai_level,
        )
        hosted = cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_user_id,
            options=options,
            status=Status(record.status.value),
            seats=seats,
            game=game_from_dict(record.state) if record.state else None,
            seq=record.last_seq,
            rematch_of=record.rematch_of,
            thread_id=record.thread_id,
        )
        hosted.messages = _message_refs(record)
        hosted.table_round = record.table_round
        # A row saved before migration 13 has no stored timer: from its last commit, in the
        # whole seconds updated_at keeps, as before.
        stored = Deadline.from_row(record.timer) if record.timer else None
        hosted.deadline = stored or hosted.turn_deadline(record.updated_at)
        return hosted

    def refresh(self, record: GameRecord) -> None:
        """Take the stored row's state in place (another process committed since): the
        lock and ratings stay this copy's; its recent events are the loader's to replay."""
        fresh = HostedGame.from_record(record, ai_level=self.options.ai_level)
        timed_out = {s.index: s.timed_out_round for s in self.seats}
        for seat in fresh.seats:
            seat.timed_out_round = timed_out.get(seat.index)
        self.status, self.seats, self.game, self.seq, self.deadline = (
            fresh.status, fresh.seats, fresh.game, fresh.seq, fresh.deadline)
        self.host_id, self.thread_id, self.options = fresh.host_id, fresh.thread_id, fresh.options
        self.messages = {**self.messages, **fresh.messages}
        if TABLE in fresh.messages:
            self.table_round = fresh.table_round

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.left), None)

    def turn_deadline(self, started_at: float, game: Game | None = None, *,
                      ai_seat: int | None = None) -> Deadline | None:
        """The first timer of the turn that starts at `started_at` in `game` (default: the
        live one; a draft before its commit); `ai_seat` is about to be handed to an AI."""
        game = game or self.game
        if game is None or game.is_over or game.current_seat is None:
            return None
        seat = game.current_seat
        ai = seat == ai_seat or self.seats[seat].ai_level is not None
        return Deadline.first_of_turn(started_at, self.options, ai=ai)

    def deadline_after_handover(self, seat_index: int, now: float) -> Deadline | None:
        """The deadline once an AI plays `seat_index`: its move's delay from now if the seat
        is on turn, else the deadline as it stands (the player on turn keeps their time)."""
        if self.game is not None and self.game.current_seat == seat_index:
            return self.turn_deadline(now, ai_seat=seat_index)
        return self.deadline

    @property
    def player_ids(self) -> set[int]:
        """Every human who sat in this game, also those who left it."""
        return {s.user_id for s in self.seats if s.user_id is not None}

    @property
    def is_active(self) -> bool:
        return self.status in (Status.LOBBY, Status.RUNNING)

    def view(self) -> GameView:
        game = self.game
        in_play: dict = {} if game is None else {
            "round_number": game.round_number,
            "top_card": game.top_card.code,
            "draw_pile_size": game.draw_pile_size,
            "discard_size": len(game.discard_pile),
            "current_seat": game.current_seat,
            "extra_turn": game.extra_turn,
            "winners": tuple(game.winners) if game.is_over else (),
            "turn_ends_at": self._turn_ends_at(game),
        }
        return GameView(
            game_id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            status=self.status,
            options=self.options,
            seats=tuple(seat.view(game) for seat in self.seats),
            recent=tuple(self.recent),
            move_count=self.seq,
            rematch_of=self.rematch_of,
            thread_id=self.thread_id,
            ratings=self.ratings,
            **in_play,
        )

    def _turn_ends_at(self, game: Game) -> float | None:
        """When the human on turn runs out of time (Unix seconds), from the stored deadline;
        None for an AI's turn or a game that is over."""
        deadline = self.deadline
        if game.is_over or deadline is None or deadline.kind is TimerKind.AI:
            return None
        return deadline.turn_end(self.options).due_at

    def hands(self) -> Mapping[int, Observation]:
        """Each human-played seat's private observation (made when first looked at)."""
        if self.game is None:
            return {}
        return Hands(self.game, tuple(
            s.index for s in self.seats if s.ai_level is None and s.user_id is not None))


class Hands(Mapping[int, Observation]):
    """The human seats' observations of one committed game state, each made the first time
    it is looked at: an update carries every human's hand, and most of a move's are never
    shown (the mover's answer shows theirs, the next player is pinged; ~5 µs each). The game
    it reads is never changed in place: a move plays on a clone (hosting/table.py)."""

    def __init__(self, game: Game, seats: tuple[int, ...]) -> None:
        self._game = game
        self._seats = seats
        self._made: dict[int, Observation] = {}

    def __getitem__(self, seat: int) -> Observation:
        made = self._made.get(seat)
        if made is None:
            if seat not in self._seats:
                raise KeyError(seat)
            made = self._made[seat] = self._game.observation(seat)
        return made

    def __iter__(self) -> Iterator[int]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)


def _message_refs(record: GameRecord) -> dict[MessageKey, tuple[int, int]]:
    refs: dict[MessageKey, tuple[int, int]] = {}
    if record.lobby_message_id:
        refs[LOBBY] = (record.channel_id, record.lobby_message_id)
    if record.table_message_id:
        refs[TABLE] = (record.table_channel_id or record.channel_id, record.table_message_id)
    if record.end_message_id:
        refs[END] = (record.thread_id or record.channel_id, record.end_message_id)
    for seat in record.seats:
        if seat.dm_channel_id and seat.hand_message_id:
            refs[MessageKey.hand(seat.seat)] = (seat.dm_channel_id, seat.hand_message_id)
    return refs
