"""The locks under which a seat is checked and taken: one per player and one per channel.

One seat per player per server, one open game per channel: a lobby, a join, a rematch or a
tournament table checks those in memory and stores its seats, as one step. The step locks
what it checks — each player it seats and the channel it opens a game in — not the whole
server: a server's other players open and join lobbies meanwhile. With one lock per server,
every lobby command of a busy server queued behind the others' store trips (issue 14: 30-40
waiting at once, 50-110 ms each, in a 100-game benchmark).

Locks are taken in one order (channels, then players, by id), so two steps that share some
never wait for each other in a circle; a lock nobody holds or waits for is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Iterable

Key = tuple[int, int, int]  # server, CHANNEL or PLAYER, id: sorted, channels come first
CHANNEL, PLAYER = 0, 1


class SeatLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Key, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    @contextlib.asynccontextmanager
    async def holding(self, guild_id: int, user_ids: Iterable[int | None],
                      channel_id: int | None = None) -> AsyncIterator[None]:
        """Hold the locks of these players (None: an AI seat, nobody to lock) and channel."""
        keys = sorted({(guild_id, PLAYER, u) for u in user_ids if u is not None}
                      | ({(guild_id, CHANNEL, channel_id)} if channel_id is not None else set()))
        locks = [self._lock(key) for key in keys]  # held here while in use: not dropped
        async with contextlib.AsyncExitStack() as stack:
            for lock in locks:
                await stack.enter_async_context(lock)
            yield

    def held(self, guild_id: int, user_id: int) -> bool:
        """Whether a step seating this player holds the player's lock."""
        lock = self._locks.get((guild_id, PLAYER, user_id))
        return lock is not None and lock.locked()

    def _lock(self, key: Key) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
