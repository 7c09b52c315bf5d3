"""The store's side of skill ratings (issue 15): the values it keeps and returns, and the rules
it is given to compute them with.

The store holds the numbers and writes a game's rating changes in the transaction that stores
its results; it knows nothing of how ratings are computed. That comes in as `RatingRules`
(hosting/ratings.py implements them with openskill), the same object a rerate uses, so live
updates and recomputation share one code path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

PROVISIONAL_GAMES = 5  # a rating is marked provisional until this many rated games


@dataclass(frozen=True, slots=True)
class Skill:
    """A Weng-Lin rating: the skill estimate and how unsure it is."""

    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class PlayerKey:
    """Who a rating belongs to: a human (user_id) or an AI level; neither: a forgotten user,
    rated from the start value each time and never stored."""

    user_id: int | None = None
    ai_level: str | None = None

    @property
    def is_anonymous(self) -> bool:
        return self.user_id is None and self.ai_level is None


@dataclass(frozen=True, slots=True)
class RatedSeat:
    seat: int
    player: PlayerKey
    rank: int  # 1 = best; tied places share a rank; seats whose human left share the last


class RatingRules(Protocol):
    """How ratings are computed and seasons cut: pure, deterministic functions."""

    def initial(self) -> Skill: ...

    def carried_over(self, final: Skill) -> Skill:
        """A player's start in a new season from their last season's final rating."""
        ...

    def rate_game(self, before: Sequence[Skill], seats: Sequence[RatedSeat]) -> list[Skill]:
        """Every seat's rating after the game (`before` in seat order); a player seated
        twice (two AIs of one level) gets one combined rating on both seats."""
        ...

    def shown(self, skill: Skill) -> int:
        """The conservative rating players see."""
        ...

    def season_window(self, cadence: str, at: int) -> tuple[int, int | None]:
        """[start, end) of the season of this cadence that contains `at` (end None: no end)."""
        ...


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's rating change in one game."""

    game_id: int
    seat: int
    user_id: int | None
    ai_level: str | None
    season: int
    shown_before: int
    shown_after: int
    career_games: int  # rated games after this one

    @property
    def delta(self) -> int:
        return self.shown_after - self.shown_before

    @property
    def provisional(self) -> bool:
        return self.career_games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Season:
    guild_id: int
    number: int
    cadence: str
    starts_at: int
    ends_at: int | None
    closed_at: int | None
    announced_at: int | None

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A human's place on a season's rating leaderboard."""

    rank: int  # ties (equal shown ratings) share a rank
    user_id: int
    rating: int
    games: int  # rated games this season
    wins: int
    career_games: int

    @property
    def provisional(self) -> bool:
        return self.career_games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """What /lama stats shows of a player's rating this season."""

    season: int
    rating: int
    provisional: bool
    games: int  # rated games this season
    change_recent: int  # over the last RECENT_GAMES rated games of this season
    recent_games: int  # how many games that change spans (≤ RECENT_GAMES)
    best: int  # the best rating reached on this server, any season
    rank: int | None  # among this season's humans


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A finished game's seat as a rerate reads it back."""

    game_id: int
    seat: int
    user_id: int | None
    is_ai: bool
    ai_level: str | None
    place: int
    won: bool
    left: bool
    kicked: bool = False  # kicked from the running game: not rated for it
