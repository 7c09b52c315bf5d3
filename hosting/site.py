"""A server's web pages, seen from hosting: who may read them, and what they show beyond the
statistics StatsService already has (names, opponents, pages of games, replay films).

Pages are private by default: they are reached only through the server's secret link, which
/lama settings shows to people who may manage the server. A server may make them public; then
its id in the address is enough, and the answers of /leaderboard, /lama stats and /lama replay
carry links. No SQL here (the store has it) and no Discord or HTTP (the cogs and web/ do).
"""

from __future__ import annotations

import math
import secrets
import string
from collections import OrderedDict
from dataclasses import dataclass, replace

from store import GameSummary, HeadToHead, SiteAccess, Store

from .clock import Clock
from .finished import finished_record
from .replay_frames import ReplayFilm, film
from .stats import seats_of

GAMES_PAGE_SIZE = 20
FILMS_KEPT = 32  # replays kept in memory: people step through one game at a time
OPPONENTS_SHOWN = 10
MAX_GUILD_ID = 2**63 - 1  # SQLite's largest integer
SECRET_BYTES = 16  # 128 bits: not guessable, and short enough for a link
SECRET_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")  # ASCII only


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def is_secret_shaped(key: str) -> bool:
    """A key that could be a secret: URL-safe base64 of the right length, nothing else."""
    return len(key) == len(new_secret()) and all(c in SECRET_ALPHABET for c in key)


@dataclass(frozen=True)
class GamesPage:
    page: int  # 0-based, clamped to the pages there are
    pages: int  # at least 1
    total: int
    games: tuple[GameSummary, ...]  # newest first


class SiteService:
    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._films: OrderedDict[int, ReplayFilm] = OrderedDict()

    # ----------------------------------------------------------------- access

    async def guild_for(self, key: str) -> int | None:
        """The server a page address names: a public server's id, or any server's secret.

        None for anything else (a private server's id, an unknown or malformed key), so a
        private server cannot be told apart from one that does not exist.
        """
        if key.isascii() and key.isdigit() and len(key) <= 20:  # not "５" or "²"
            if int(key) > MAX_GUILD_ID:
                return None
            access = await self._store.site.access(int(key))
            return access.guild_id if access is not None and access.public else None
        if is_secret_shaped(key):
            return await self._store.site.guild_of_secret(key)
        return None

    async def access(self, guild_id: int) -> SiteAccess:
        """The server's access, its secret made on first use."""
        found = await self._store.site.access(guild_id)
        if found is not None:
            return found
        return await self._store.site.ensure_access(guild_id, new_secret(), now=self._now())

    async def public_key(self, guild_id: int) -> str | None:
        """What public links put in the address: the server's id, if its pages are public."""
        found = await self._store.site.access(guild_id)
        return str(guild_id) if found is not None and found.public else None

    async def update_access(
        self, guild_id: int, *, public: bool | None = None, new_link: bool = False
    ) -> SiteAccess:
        """Make the pages public or private, and/or replace the secret (the old link stops
        working at once); returns what is saved now."""
        access = await self.access(guild_id)
        changed = replace(
            access,
            public=access.public if public is None else public,
            secret=new_secret() if new_link else access.secret,
        )
        if changed != access:
            await self._store.site.save_access(changed, now=self._now())
        return changed

    # ------------------------------------------------------------------ pages

    async def names(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        return await self._store.site.player_names(guild_id, user_ids)

    async def opponents(self, guild_id: int, user_id: int) -> list[HeadToHead]:
        return await self._store.site.opponents(guild_id, user_id, limit=OPPONENTS_SHOWN)

    async def games(self, guild_id: int, page: int = 0) -> GamesPage:
        total = await self._store.site.count_finished(guild_id)
        pages = max(1, math.ceil(total / GAMES_PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        games = await self._store.stats.recent_games(
            guild_id, limit=GAMES_PAGE_SIZE, offset=page * GAMES_PAGE_SIZE
        )
        return GamesPage(page, pages, total, tuple(games))

    async def film(self, guild_id: int, game_id: int) -> ReplayFilm | None:
        """A finished game of this server, frame by frame; None for any other game.

        A finished game's moves never change, so its frames are kept for the next step's
        page; the seats (names) are read again every time, so a forgotten player's name is
        gone at once.
        """
        record = await finished_record(self._store, guild_id, game_id)
        if record is None:
            return None
        cached = self._films.get(game_id)
        if cached is None:
            cached = film(record, await self._store.games.list_moves(game_id))
            self._films[game_id] = cached
            if len(self._films) > FILMS_KEPT:
                self._films.popitem(last=False)
        else:
            self._films.move_to_end(game_id)
        return replace(cached, seats=seats_of(record))

    def _now(self) -> int:
        return int(self._clock.now())
