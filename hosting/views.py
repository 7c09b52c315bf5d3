"""What the hosting layer hands to interfaces: immutable snapshots, public and per seat.

A `GameView` is public (safe for a channel); hands travel only in `lama.Observation`s, one per
human seat, which a renderer must send to that seat's owner alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from lama import Observation


class Status(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class GameOptions:
    variant: str = "classic"
    target: int = 40
    turn_timeout: int = 120  # seconds a human has for a turn (10 to 3600)
    ai_delay: float = 1.5  # seconds an AI "thinks" before it moves
    ai_level: str = "normal"

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "target": self.target,
            "turn_timeout": self.turn_timeout,
            "ai_delay": self.ai_delay,
            "ai_level": self.ai_level,
        }


@dataclass(frozen=True)
class SeatView:
    index: int
    name: str
    user_id: int | None  # the human who sat here (kept after an AI takes over)
    ai_level: str | None  # set while an AI plays this seat
    card_count: int = 0
    has_quit: bool = False
    score: int = 0
    left: bool = False  # the human left or timed out; an AI plays on for them
    timed_out: bool = False  # out of this round because the turn timer ran out
    ai_number: int | None = None  # what an AI here is called by (see ai_called)
    left_after_seq: int | None = None  # handed to an AI: the game's last move then
    seated_by_rematch: bool = False  # a rematch seated this player without their asking
    kicked: bool = False  # left because kicked from the running game: it is not rated for them
    timed_out_of_game: bool = False  # left because the turn timer ran out too often in a row

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


def ai_called(index: int, ai_number: int | None) -> int:
    """The number an AI seat is called by ("Llama-bot 2"), everywhere it is named: its own,
    given when it was seated (its place then, kept when a lobby's seats move up; a
    tournament's AI entrant keeps its number among the AI entrants at every table it sits
    at), else — an AI stored before AIs kept a number — its place at the table."""
    return ai_number if ai_number is not None else index + 1


@dataclass(frozen=True, slots=True)
class RecentEvent:
    """One of a game's last lama events and the committed move it came from (0: the deal)."""

    seq: int
    event: Any


@dataclass(frozen=True)
class SeatRating:
    """A human seat's rating change in a finished game, for the game-end message."""

    seat: int
    rating: int  # the shown rating after the game
    delta: int  # +12, −8, …
    provisional: bool  # fewer than 5 rated games so far


@dataclass(frozen=True)
class GameView:
    """Everything public about one game at one moment."""

    game_id: int
    guild_id: int
    channel_id: int
    host_id: int | None  # None: a finished game whose host asked to be forgotten
    status: Status
    options: GameOptions
    seats: tuple[SeatView, ...]
    round_number: int = 0
    top_card: str | None = None
    draw_pile_size: int = 0
    discard_size: int = 0
    current_seat: int | None = None
    extra_turn: bool = False
    winners: tuple[int, ...] = ()
    recent: tuple[RecentEvent, ...] = ()  # the last few events, oldest first
    move_count: int = 0
    rematch_of: int | None = None  # a lobby replaying a finished game: that game's id
    thread_id: int | None = None  # the thread the game shows itself in, if the server wants
    ratings: tuple[SeatRating, ...] = ()  # once finished: each rated human's change
    turn_ends_at: float | None = None  # Unix seconds: the human on turn's time runs out

    @property
    def shown_in(self) -> int:
        """Where the table, summaries and notices go: the game's thread, else its channel
        (the lobby always stays in the channel)."""
        return self.thread_id or self.channel_id

    def rating_of(self, seat: int) -> SeatRating | None:
        return next((r for r in self.ratings if r.seat == seat), None)

    def seat_of(self, user_id: int) -> SeatView | None:
        return next((s for s in self.seats if s.user_id == user_id and not s.left), None)

    def seat_at(self, index: int, seq: int) -> SeatView:
        """The seat as it was when move `seq` was made: a human's own up to the move after
        which an AI took it over, so what they did keeps their name."""
        seat = self.seats[index]
        if seat.left_after_seq is None or seq > seat.left_after_seq:
            return seat
        return replace(seat, ai_level=None, left=False, kicked=False, timed_out_of_game=False)


class NoticeKind(StrEnum):
    REMINDER = "reminder"  # half the turn time is gone
    TIMED_OUT = "timed_out"  # the turn timer quit the round for this seat
    AI_TOOK_OVER = "ai_took_over"  # after leaving, a kick, or too many time-outs
    PLAYER_LEFT_LOBBY = "player_left_lobby"


@dataclass(frozen=True)
class Notice:
    kind: NoticeKind
    seat: int
    user_id: int | None = None
    reason: str = ""  # AI_TOOK_OVER: "left", "kicked" or "timeouts"
    by: str = ""  # "kicked": the name of who removed the player
    seconds_left: int | None = None  # REMINDER: of the turn (less when it is sent late)
    ends_at: float | None = None  # REMINDER: when the turn ends (Unix seconds), to tell the
    # time left when it is sent (a flush, a retry or a restart may come later)
    seq: int | None = None  # the committed move it is about (a time-out), or after which
    # the turn it speaks of began (a reminder: stale once the game moved on), if any


class ShownBy(Protocol):
    """What shows an update to its actor itself (hosting knows no Discord: the interface
    that made it reads it back, e.g. cogs.render.HandAnswer, the interaction whose response
    redraws the mover's hand): whose interaction it is."""

    @property
    def user_id(self) -> int: ...


@dataclass(frozen=True)
class GameUpdate:
    """One committed change: what happened, and the state after it."""

    view: GameView
    events: tuple[Any, ...] = ()
    notices: tuple[Notice, ...] = ()
    # human seat -> private view (hosting.hosted.Hands: each made when first looked at)
    hands: Mapping[int, Observation] = field(default_factory=dict)
    actor_seat: int | None = None
    # Who shows this update to its actor, passed through untouched (hosting knows no
    # Discord): e.g. the interaction whose response redraws the mover's hand, so a renderer
    # knows it when it collects the update instead of being told later.
    shown_by: ShownBy | None = None
    # The committed moves this update shows (0: the deal): the renderer marks exactly these
    # shown in the render outbox (outbox.py) once they are on Discord.
    seqs: tuple[int, ...] = ()


class MessageKind(StrEnum):
    LOBBY = "lobby"
    TABLE = "table"
    END = "end"  # the game-end post ("Game over", with Rematch)
    HAND = "hand"  # one seat's private hand


@dataclass(frozen=True)
class MessageKey:
    """Which of a game's messages: `LOBBY`, `TABLE`, `END`, or `MessageKey.hand(seat)`."""

    kind: MessageKind
    seat: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is MessageKind.HAND) != (self.seat is not None):
            wanted = "needs" if self.seat is None else "has no"
            raise ValueError(f"a {self.kind} message key {wanted} seat")

    @classmethod
    def hand(cls, seat: int) -> MessageKey:
        return cls(MessageKind.HAND, seat)


LOBBY = MessageKey(MessageKind.LOBBY)
TABLE = MessageKey(MessageKind.TABLE)
END = MessageKey(MessageKind.END)
