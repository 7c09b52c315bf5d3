"""Leaderboards kept for a few seconds: the boards /leaderboard shows, the web's rendered
leaderboard pages and the players' totals they are ranked from, per server and what was
asked, until a game finishes in that server.

A board at 100,000 games is one aggregation over every result of the server, 30-150 ms of a
read connection; asked again and again (a flood of web pages, a crowd turning pages) it was
made again every time (issue 33). So a board is kept:
- until a game finishes in its server (`game_finished`, the game service's listener: the
  games this process finishes), or a player is forgotten (`clear`: everywhere at once);
- for `TTL_S` at most: a game another process finished (PostgreSQL), a season that rolled
  over, a new week for "this week" are that late at worst. Each board lasts a moment drawn
  between `KEPT_AT_LEAST_S` and `TTL_S`: boards first asked for together (a flood over many
  boards) would otherwise all be made anew together, every `TTL_S`;
- made once at a time: whoever asks for a board being made waits for it instead of making it
  again; a board whose reads began before its server's game finished is handed to who asked
  then, never kept;
- those used last, up to `MAX_WEIGHT` (a board or a page weighs 1, about 10 KB; totals
  weigh what their caller says).
Time is the injected clock's, so a test moves it instead of sleeping.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from .clock import Clock

T = TypeVar("T")
TTL_S = 5.0
KEPT_AT_LEAST_S = 4.0
MAX_WEIGHT = 1024  # about 10 MB
Key = tuple[int, Hashable]  # (server, what was asked)


@dataclass(frozen=True, slots=True)
class _Kept:
    value: Any
    made_at: float  # when its reads began, by the clock
    lasts_s: float  # how long it is kept, from made_at
    weight: int


class BoardCache:
    def __init__(self, clock: Clock, *, ttl_s: float = TTL_S,
                 max_weight: int = MAX_WEIGHT) -> None:
        """`ttl_s` 0: keep nothing (every board made anew, as before issue 33)."""
        self._clock = clock
        self._ttl_s = ttl_s
        self._random = random.Random()
        self._max_weight = max_weight
        self._weight = 0
        self._kept: OrderedDict[Key, _Kept] = OrderedDict()
        self._making: dict[Key, asyncio.Task[Any]] = {}
        self._finished: dict[int, int] = {}  # per server: games finished (this process saw)
        self._cleared = 0

    def __len__(self) -> int:
        return len(self._kept)

    async def get_or_make(self, guild_id: int, asked: Hashable,
                          make: Callable[[], Awaitable[T]],
                          weight: Callable[[T], int] | None = None,
                          lasts_s: float | None = None) -> T:
        """The board `asked` of the server as kept, else `make()`'s (kept for the next).
        `weight`: what it weighs against `MAX_WEIGHT` (default 1). `lasts_s`: keep it up to
        that long instead of `TTL_S`, for what can only be stale if what `asked` names is
        (a page asked by the very board it shows)."""
        if self._ttl_s <= 0:
            return await make()
        key = (guild_id, asked)
        kept = self._kept.get(key)
        if kept is not None:
            if 0 <= self._clock.now() - kept.made_at < kept.lasts_s:
                self._kept.move_to_end(key)
                return cast(T, kept.value)
            self._drop(key)
        making = self._making.get(key)
        if making is None:
            longest = self._ttl_s if lasts_s is None else lasts_s
            making = self._making[key] = asyncio.create_task(self._make(
                key, make, weight, self._version(guild_id), self._clock.now(), longest))
            making.add_done_callback(_heard)
        # shielded: one caller given up (a closed page) stops nobody else's board
        return cast(T, await asyncio.shield(making))

    async def _make(self, key: Key, make: Callable[[], Awaitable[T]],
                    weight: Callable[[T], int] | None, version: tuple[int, int],
                    made_at: float, longest_s: float) -> T:
        """`version` and `made_at`: as the board was first asked for."""
        try:
            value = await make()
        finally:
            if self._making.get(key) is asyncio.current_task():
                del self._making[key]
        if self._version(key[0]) == version:  # else a game finished meanwhile: stale
            if key in self._kept:
                self._drop(key)
            lasts_s = self._random.uniform(longest_s * KEPT_AT_LEAST_S / TTL_S, longest_s)
            kept = self._kept[key] = _Kept(value, made_at, lasts_s,
                                           1 if weight is None else weight(value))
            self._weight += kept.weight
            while self._weight > self._max_weight and len(self._kept) > 1:
                self._drop(next(iter(self._kept)))  # the one used longest ago
        return value

    def _drop(self, key: Key) -> None:
        self._weight -= self._kept.pop(key).weight

    def game_finished(self, guild_id: int) -> None:
        """A game of the server finished: its boards are made anew when next asked."""
        self._finished[guild_id] = self._finished.get(guild_id, 0) + 1
        for key in [k for k in self._kept if k[0] == guild_id]:
            self._drop(key)
        for key in [k for k in self._making if k[0] == guild_id]:
            del self._making[key]  # its callers get it; later ones ask again

    def clear(self) -> None:
        """Forget every board (a player was forgotten: no board may still name them)."""
        self._cleared += 1
        self._kept.clear()
        self._weight = 0
        self._making.clear()

    def _version(self, guild_id: int) -> tuple[int, int]:
        return self._cleared, self._finished.get(guild_id, 0)


def _heard(task: asyncio.Task[Any]) -> None:
    """A board nobody waits for any more (all its callers gone) fails quietly: it was asked
    for nobody, and the next caller makes it again."""
    if not task.cancelled():
        task.exception()
