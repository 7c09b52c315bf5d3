"""Season rollover and the final top 3: rolls ended seasons over when no game does it first,
and hands each closed season's final standings to the listeners (the cog posts them in the
server's games channel) once, after the rollover is committed.

The store's seasons table is the outbox: a closed season stays "to announce" until a listener
has taken it, so a crash between rollover and post still posts after the restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from store import RatingRow, Season, Store

from .clock import Clock

log = logging.getLogger(__name__)

TOP = 3
IDLE_CHECK_S = 3600.0  # with no season due, look again after this long (settings change)


@dataclass(frozen=True)
class SeasonEnded:
    """A season's final top 3, to announce in the server's games channel."""

    season: Season
    top: tuple[RatingRow, ...]
    next_season: Season | None


SeasonListener = Callable[[SeasonEnded], Awaitable[bool]]  # True: delivered (or nowhere to go)


class SeasonKeeper:
    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._listeners: list[SeasonListener] = []
        self._ticking = asyncio.Lock()  # one tick at a time: a season is announced once

    def add_listener(self, listener: SeasonListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: SeasonListener) -> None:
        self._listeners.remove(listener)

    def _now(self) -> int:
        return int(self._clock.now())

    async def tick(self) -> int:
        """Roll over every ended season and announce every closed one; returns how many were
        announced."""
        async with self._ticking:
            await self._store.seasons.sync_due(now=self._now())
            announced = 0
            for season in await self._store.seasons.to_announce():
                if await self._announce(season):
                    announced += 1
            return announced

    async def _announce(self, season: Season) -> bool:
        top, _, _ = await self._store.ratings.leaderboard(season.guild_id, season.number,
                                                          limit=TOP)
        current = await self._store.seasons.current(season.guild_id)
        ended = SeasonEnded(season, tuple(top), current if current != season else None)
        for listener in self._listeners:
            try:
                if not await listener(ended):
                    return False  # try again on the next tick
            except Exception:
                log.exception("announcing season %s of guild %s failed", season.number,
                              season.guild_id)
                return False
        await self._store.seasons.mark_announced(season.guild_id, season.number,
                                                 now=self._now())
        return True

    async def seconds_to_next(self) -> float:
        ends = await self._store.seasons.next_end()
        if ends is None:
            return IDLE_CHECK_S
        return min(max(ends - self._clock.now(), 1.0), IDLE_CHECK_S)

    async def run(self) -> None:
        """Roll seasons over as they end, for as long as the bot runs."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("season rollover failed; trying again later")
            await asyncio.sleep(await self.seconds_to_next())
