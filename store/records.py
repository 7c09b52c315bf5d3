"""The store's domain values: what it returns (records) and what it takes (specs).

Rows become these frozen dataclasses as soon as they are read; no database row leaves the store.
Game state and actions are opaque JSON dicts: the store never looks inside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

JsonDict = dict[str, Any]


class GameStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_active(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.RUNNING)


class Actor(StrEnum):
    """Who made a move: a person, an AI seat, an expired turn timer, or the host service."""

    HUMAN = "human"
    AI = "ai"
    TIMER = "timer"
    SYSTEM = "system"


# --- games --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: int
    seat: int
    user_id: int | None  # None for AI seats
    display_name: str
    is_ai: bool  # an AI from the lobby on
    ai_level: str | None
    joined_at: int
    has_left: bool  # a human left (or timed out too often): an AI plays the seat now
    timeouts_in_a_row: int
    dm_channel_id: int | None
    hand_message_id: int | None
    hand_round: int | None
    quit_pending_round: int | None = None  # left mid-round: the AI quits this round for them
    ai_number: int | None = None  # what an AI here is called by; None: its place
    left_after_seq: int | None = None  # handed to an AI: the game's last move then
    seated_by_rematch: bool = False  # a rematch seated this player without their asking
    kicked: bool = False  # has_left because the host kicked them: the game is not rated for them

    @property
    def ai_controlled(self) -> bool:
        return self.is_ai or self.has_left


@dataclass(frozen=True, slots=True)
class DueTimer:
    """A running game's next timer: what (`ai`, `reminder`, `turn`; hosting's TimerKind) and
    when, in milliseconds since the Unix epoch."""

    kind: str
    due_ms: int


@dataclass(frozen=True, slots=True)
class TimerClaim:
    """A move or reminder that a due timer fires: it is applied only while the game is running
    at the expected move, its row still holds `timer` (None, or a row from before migration
    0013 that holds none: the move's version alone decides), due by `now_ms`, and no other
    transaction holds the row (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so a claim never waits
    for a peer that is firing the same timer)."""

    timer: DueTimer | None
    now_ms: int


@dataclass(frozen=True, slots=True)
class DueGame:
    """A running game whose stored timer is due, as the sweep finds it."""

    game_id: int
    last_seq: int
    timer: DueTimer


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    guild_id: int
    channel_id: int
    host_user_id: int | None
    variant: str
    target: int
    turn_timeout_s: int
    ai_delay_s: float
    status: GameStatus
    seed: int | None
    state: JsonDict | None
    last_seq: int  # seq of the newest move, 0 before the first
    table_channel_id: int | None
    table_message_id: int | None
    lobby_message_id: int | None
    created_at: int
    started_at: int | None
    finished_at: int | None
    updated_at: int
    seats: tuple[Seat, ...]
    rematch_of: int | None = None  # the finished game this lobby replays
    thread_id: int | None = None  # the thread the game shows itself in (server setting)
    timer: DueTimer | None = None  # a running game's next timer (None before migration 13)
    table_round: int | None = None  # the round its table message shows (None: not known)
    end_message_id: int | None = None  # its "Game over" post, where `thread_id` or the channel

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat to add to a lobby; build with NewSeat.human(...) or NewSeat.ai(...)."""

    user_id: int | None
    display_name: str
    is_ai: bool = False
    ai_level: str | None = None
    ai_number: int | None = None  # what the AI is called by; None: its place
    seated_by_rematch: bool = False  # a rematch seats this player without their asking

    @classmethod
    def human(cls, user_id: int, display_name: str, *,
              seated_by_rematch: bool = False) -> NewSeat:
        return cls(user_id, display_name, seated_by_rematch=seated_by_rematch)

    @classmethod
    def ai(cls, display_name: str, ai_level: str, number: int | None = None) -> NewSeat:
        return cls(None, display_name, True, ai_level, number)


@dataclass(frozen=True, slots=True)
class MessageRef:
    """Where an interface put one of a game's messages: its lobby, table, or a seat's hand."""

    game_id: int
    kind: str  # "lobby" | "table" | "hand"
    channel_id: int
    message_id: int
    seat: int | None = None  # for "hand"
    round_number: int | None = None  # for "hand" and "table": the round it shows


@dataclass(frozen=True, slots=True)
class PendingRender:
    """A game whose moves `seqs` are committed and not yet shown (0: its start), in order;
    `created_at`: when the oldest of them was committed."""

    game_id: int
    seqs: tuple[int, ...]
    created_at: int


@dataclass(frozen=True, slots=True)
class Move:
    game_id: int
    seq: int  # 1, 2, 3, … per game
    round_number: int
    seat: int | None
    action: JsonDict
    actor: Actor
    created_at: int


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome; user, AI-ness and 'left' come from the seat itself."""

    seat: int
    final_score: int
    place: int  # 1 = first; shared places share the number; as rated (leavers last)
    won: bool  # shared winners all won; a seat whose human left has lost
    tokens_collected: int  # penalty points collected over the whole game
    clean_rounds: int  # rounds in which this seat emptied its hand


@dataclass(frozen=True, slots=True)
class FinishedGame:
    rounds: int
    results: tuple[SeatResult, ...]  # exactly one per seat


# --- statistics ---------------------------------------------------------------------------


class LeaderboardSort(StrEnum):
    WINS = "wins"
    WIN_RATE = "win_rate"  # only players with MIN_GAMES_FOR_WIN_RATE games
    AVG_SCORE = "avg_score"  # lower is better
    TOKENS = "tokens"  # penalty points per game, lower is better
    CLEAN_ROUNDS = "clean_rounds"
    GAMES = "games"
    RATING = "rating"  # the season's skill rating: RatingStore's board, not StatsStore's


# The sorts StatsStore ranks from game_results (every sort but the rating).
RESULT_SORTS = tuple(s for s in LeaderboardSort if s is not LeaderboardSort.RATING)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int  # ties share a rank (1, 1, 3)
    user_id: int
    games: int
    wins: int
    win_rate: float  # 0.0 … 1.0
    avg_score: float
    tokens: int  # total penalty points collected
    tokens_per_game: float
    clean_rounds: int


@dataclass(frozen=True, slots=True)
class RecentResult:
    game_id: int
    finished_at: int
    variant: str
    place: int
    final_score: int
    won: bool


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    games: int
    wins: int
    win_rate: float | None  # None before the first game
    avg_score: float | None
    best_score: int | None  # the lowest final score
    tokens: int
    clean_rounds: int
    favourite_variant: str | None  # most played; ties go to the most recently played
    current_streak: int  # wins since the last game not won
    longest_streak: int
    games_vs_ai: int
    last_games: tuple[RecentResult, ...]  # newest first, at most 5


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Finished games in which both users had a seat."""

    user_a: int
    user_b: int
    games: int
    a_wins: int
    b_wins: int  # a shared win counts for both
    a_ahead: int  # games where a placed strictly better than b
    b_ahead: int


@dataclass(frozen=True, slots=True)
class PlayerResult:
    seat: int
    user_id: int | None
    display_name: str
    is_ai: bool
    place: int
    final_score: int
    won: bool
    ai_number: int | None = None  # what an AI here was called by; None: its place


@dataclass(frozen=True, slots=True)
class GameSummary:
    game_id: int
    variant: str
    target: int
    rounds: int
    finished_at: int
    players: tuple[PlayerResult, ...]  # by seat

    @property
    def winners(self) -> tuple[PlayerResult, ...]:
        """The seats the game announced as its winners (first place). Places are as rated
        (hosting.results.places_as_rated): a seat whose human left places last, so the game
        announces the best of those who stayed; a game stored before that placed by points
        alone, and its leaver's AI may hold first place there (the human's own record
        counts a loss: `won`)."""
        return tuple(p for p in self.players if p.place == 1)


# --- settings -----------------------------------------------------------------------------

DEFAULT_VARIANT = "classic"
DEFAULT_TARGET = 40  # the rules: the game ends when someone reaches 40 points
DEFAULT_TURN_TIMEOUT_S = 120
DEFAULT_AI_DELAY_S = 1.5


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    variant: str = DEFAULT_VARIANT
    target: int = DEFAULT_TARGET
    turn_timeout_s: int = DEFAULT_TURN_TIMEOUT_S
    ai_delay_s: float = DEFAULT_AI_DELAY_S
    games_channel_id: int | None = None  # None: games allowed in every channel
    locale: str | None = None  # public messages' language; None: the server's preferred locale
    game_threads: bool = False  # each game shows itself in a thread of its lobby message
    season_cadence: str = "off"  # rating seasons: off | monthly | quarterly
