"""LamaBot's storage: the only package with SQL in it. Depends on aiosqlite and asyncpg and
nothing of ours (how ratings are computed comes in as `RatingRules`, see
store/rating_records.py).

    store = await Store.open("data/lama.sqlite3", rules=RULES)   # PRAGMAs, migrations
    store = await Store.open("postgresql://lamabot@db/lamabot")  # or PostgreSQL
    game = await store.games.create_lobby(...)
    ...
    await store.close()
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from store.backend import READ_CONNECTIONS, Held, Listening
from store.db import Database, Dialect, Location, Transaction, open_database
from store.errors import (
    AlreadySeated,
    ChannelHasActiveGame,
    DatabaseUnusable,
    GameNotFound,
    InteractionAlreadyApplied,
    LobbyChanged,
    LobbyFull,
    SchemaTooNew,
    SeatNotFound,
    SeqConflict,
    StoreBusy,
    StoreError,
    StoreUnwritable,
    TimerNotClaimed,
    WrongGameStatus,
)
from store.games import GameStore
from store.migrate import Migration, load_migrations
from store.rankings import MIN_GAMES_FOR_WIN_RATE, LeaderboardSlice, PlayerTotals, rank
from store.rating_records import (
    PROVISIONAL_GAMES,
    PlayerKey,
    PlayerRating,
    RatedSeat,
    RatingChange,
    RatingRow,
    RatingRules,
    Season,
    Skill,
    StoredSeat,
)
from store.ratings import RatingStore
from store.records import (
    RESULT_SORTS,
    Actor,
    DueGame,
    DueTimer,
    FinishedGame,
    Game,
    GameStatus,
    GameSummary,
    GuildSettings,
    HeadToHead,
    LeaderboardRow,
    LeaderboardSort,
    MessageRef,
    Move,
    NewSeat,
    PendingRender,
    PlayerResult,
    PlayerStats,
    RecentResult,
    Seat,
    SeatResult,
    TimerClaim,
)
from store.renders import RenderStore
from store.seasons import SeasonStore
from store.settings import SettingsStore
from store.site import SiteAccess, SiteStore
from store.stats import StatsStore
from store.timers import TimerStore
from store.tournaments import TournamentStore
from store.watch import GameMark, WatchStore


@dataclass(frozen=True, slots=True)
class Store:
    """The database and the stores on it, as the composition root wants them."""

    db: Database
    games: GameStore
    stats: StatsStore
    settings: SettingsStore
    ratings: RatingStore
    seasons: SeasonStore
    site: SiteStore
    tournaments: TournamentStore
    renders: RenderStore
    timers: TimerStore
    watch: WatchStore  # what live views poll (the Activity's, where processes share the database)
    running: Held | None = None  # a bot's running mark (`Database.hold_running`)

    @classmethod
    async def open(
        cls, location: Location, *, rules: RatingRules | None = None, process: str | None = None,
        bot: bool = False, read_connections: int = READ_CONNECTIONS,
    ) -> Store:
        """`location`: a SQLite file's path or a `postgresql://` URL. `rules`: how to rate
        finished games; None stores games unrated (some tests). `process`: this process's
        name among those sharing the database, holding the renders of its commits
        (renders.py); None: a new random one, as each start of a process is another. `bot`:
        a bot runs on it: it holds the database's running mark until it closes, so that
        `python -m store.copy` refuses to copy it meanwhile (and, while a copy runs, the
        bot refuses to start: DatabaseUnusable). `read_connections`: how many reads run at
        once (backend.py)."""
        db = await open_database(location, read_connections=read_connections)
        running = None
        if bot and (running := await db.hold_running()) is None:
            await db.close()
            raise DatabaseUnusable(db.location, "a copy (python -m store.copy) runs on it",
                                   "start the bot once the copy is done")
        process = process or secrets.token_hex(6)
        return cls(db, GameStore(db, rules, process), StatsStore(db), SettingsStore(db),
                   RatingStore(db), SeasonStore(db, rules), SiteStore(db), TournamentStore(db),
                   RenderStore(db, process), TimerStore(db), WatchStore(db), running)

    async def close(self) -> None:
        if self.running is not None:
            await self.running.release()
        await self.db.close()


__all__ = [
    "MIN_GAMES_FOR_WIN_RATE",
    "PROVISIONAL_GAMES",
    "RESULT_SORTS",
    "Actor",
    "AlreadySeated",
    "ChannelHasActiveGame",
    "Database",
    "DatabaseUnusable",
    "Dialect",
    "DueGame",
    "DueTimer",
    "FinishedGame",
    "Game",
    "GameMark",
    "GameNotFound",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "GuildSettings",
    "HeadToHead",
    "Held",
    "InteractionAlreadyApplied",
    "LeaderboardRow",
    "LeaderboardSlice",
    "LeaderboardSort",
    "Listening",
    "LobbyChanged",
    "LobbyFull",
    "MessageRef",
    "Migration",
    "Move",
    "NewSeat",
    "PendingRender",
    "PlayerKey",
    "PlayerRating",
    "PlayerResult",
    "PlayerStats",
    "PlayerTotals",
    "RatedSeat",
    "RatingChange",
    "RatingRow",
    "RatingRules",
    "RatingStore",
    "RecentResult",
    "RenderStore",
    "SchemaTooNew",
    "Season",
    "SeasonStore",
    "Seat",
    "SeatNotFound",
    "SeatResult",
    "SeqConflict",
    "SettingsStore",
    "SiteAccess",
    "SiteStore",
    "Skill",
    "StatsStore",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreUnwritable",
    "StoredSeat",
    "TimerClaim",
    "TimerNotClaimed",
    "TimerStore",
    "TournamentStore",
    "Transaction",
    "WatchStore",
    "WrongGameStatus",
    "load_migrations",
    "open_database",
    "rank",
]
