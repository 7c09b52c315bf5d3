"""LamaBot's storage: the only package with SQL in it. Depends on aiosqlite and nothing of ours.

    store = await Store.open("data/lama.sqlite3")   # PRAGMAs, migrations
    game = await store.games.create_lobby(...)
    ...
    await store.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike

from store.db import Database, Transaction, open_database
from store.errors import (
    AlreadySeated,
    ChannelHasActiveGame,
    GameNotFound,
    LobbyFull,
    SchemaTooNew,
    SeatNotFound,
    SeqConflict,
    StoreError,
    WrongGameStatus,
)
from store.games import GameStore
from store.migrate import Migration, load_migrations
from store.records import (
    Actor,
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
    PlayerResult,
    PlayerStats,
    RecentResult,
    Seat,
    SeatResult,
)
from store.settings import SettingsStore
from store.site import SiteAccess, SiteStore
from store.stats import MIN_GAMES_FOR_WIN_RATE, StatsStore


@dataclass(frozen=True, slots=True)
class Store:
    """The database and the stores on it, as the composition root wants them."""

    db: Database
    games: GameStore
    stats: StatsStore
    settings: SettingsStore
    site: SiteStore

    @classmethod
    async def open(cls, path: str | PathLike[str]) -> Store:
        db = await open_database(path)
        return cls(db, GameStore(db), StatsStore(db), SettingsStore(db), SiteStore(db))

    async def close(self) -> None:
        await self.db.close()


__all__ = [
    "MIN_GAMES_FOR_WIN_RATE",
    "Actor",
    "AlreadySeated",
    "ChannelHasActiveGame",
    "Database",
    "FinishedGame",
    "Game",
    "GameNotFound",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "GuildSettings",
    "HeadToHead",
    "LeaderboardRow",
    "LeaderboardSort",
    "LobbyFull",
    "MessageRef",
    "Migration",
    "Move",
    "NewSeat",
    "PlayerResult",
    "PlayerStats",
    "RecentResult",
    "SchemaTooNew",
    "Seat",
    "SeatNotFound",
    "SeatResult",
    "SeqConflict",
    "SettingsStore",
    "SiteAccess",
    "SiteStore",
    "StatsStore",
    "Store",
    "StoreError",
    "Transaction",
    "WrongGameStatus",
    "load_migrations",
    "open_database",
]
