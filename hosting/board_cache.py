"""Leaderboards kept while they are right: the boards /leaderboard shows, the web's rendered
leaderboard pages and the players' totals they are ranked from, per server and what was
asked.

A board at 100,000 games is one aggregation over every result of the server, 30-150 ms of a
read connection; asked again and again (a flood of web pages, a crowd turning pages) it was
made again every time (issue 33). So a board is kept:
- until a game finishes in its server (`game_finished`, the game service's listener: the
  games this process finishes), or a player is forgotten (`clear`: everywhere at once);
- for a moment drawn between `KEPT_AT_LEAST_S` and `TTL_S` (boards first asked for together,
  a flood over many boards, would otherwise all reach their time together); then, if the
  server's results version in the store (`stored_version`: store/results_versions.py, raised
  by every write of what a board shows, by any process: a finished game, a rerate, a season,
  a forgotten player) is the one read before the board's reads began, nothing it shows has
  changed: it is kept for another such moment instead of being made again. So only the
  boards of a server whose results changed are aggregated again, and a game another process
  finished (PostgreSQL) shows within `TTL_S` as before: a board is renewed as of when the
  version was read, never of when it was asked again;
- never past `last_until`: a moment drawn between 0.8 and 1 × `RENEWED_UP_TO_S` after its
  reads began, and the end of its period (`changes_at`: "this week" is another board from
  Monday on, which no results version says);
- made (or renewed) once at a time: whoever asks for a board being made waits for it instead
  of making it again; a board whose reads began before its server's game finished is handed
  to who asked then, never kept;
- those used last, up to `MAX_WEIGHT` (a board or a page weighs 1, about 10 KB; totals
  weigh what their caller says).
A server's version is read once for the boards that reach their time together: a read begun
less than `VERSION_REUSED_S` ago answers the others (a primary-key look-up, about once a
second per server at most, against an aggregation per window every few seconds).
Time is the injected clock's, so a test moves it instead of sleeping.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from contextlib import AbstractAsyncContextManager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from store.background import foreground_context

from .clock import Clock

T = TypeVar("T")
TTL_S = 5.0
KEPT_AT_LEAST_S = 4.0
RENEWED_UP_TO_S = 60.0  # a board renewed is kept at most this long after its reads began
VERSION_REUSED_S = 1.0  # a server's version read answers for the boards due meanwhile
MAX_WEIGHT = 1024  # about 10 MB
Key = tuple[int, Hashable]  # (server, what was asked)
# a server's results version, as stored (StatsStore.results_version)
StoredVersion = Callable[[int], Coroutine[Any, Any, Hashable]]
# A turn to make a board in (the web site's read turns, web/limits.py `read_turn`)
Turn = Callable[[], AbstractAsyncContextManager[None]]
# What a board being made took from the cache (its players' totals), as the versions those
# were made at: a board is only as fresh as the oldest part it is made of.
_taken: ContextVar[list[Hashable | None] | None] = ContextVar("boards_taken", default=None)


@dataclass(frozen=True, slots=True)
class _Kept:
    value: Any
    made_at: float  # when its reads began, by the clock (renewed: when the version was read)
    lasts_s: float  # how long it is kept, from made_at
    weight: int
    stored: Hashable | None  # the server's version read before its reads; None: not renewed
    last_until: float  # never kept past this, renewed or not


@dataclass(frozen=True, slots=True)
class _Check:
    began_at: float
    task: asyncio.Task[Hashable]


class BoardCache:
    def __init__(self, clock: Clock, *, ttl_s: float = TTL_S, max_weight: int = MAX_WEIGHT,
                 stored_version: StoredVersion | None = None) -> None:
        """`ttl_s` 0: keep nothing (every board made anew, as before issue 33).
        `stored_version`: the server's results version in the store; None: no board is kept
        past its first moment."""
        self._clock = clock
        self._ttl_s = ttl_s
        self._random = random.Random()
        self._max_weight = max_weight
        self._stored_version = stored_version
        self._weight = 0
        self._kept: OrderedDict[Key, _Kept] = OrderedDict()
        self._making: dict[Key, asyncio.Task[Any]] = {}
        self._checks: OrderedDict[int, _Check] = OrderedDict()  # per server, oldest first
        self._finished: dict[int, int] = {}  # per server: games finished (this process saw)
        self._cleared = 0

    def __len__(self) -> int:
        return len(self._kept)

    async def get_or_make(self, guild_id: int, asked: Hashable,
                          make: Callable[[], Awaitable[T]],
                          weight: Callable[[T], int] | None = None,
                          lasts_s: float | None = None,
                          changes_at: float | None = None,
                          turn: Turn | None = None) -> T:
        """The board `asked` of the server as kept, else `make()`'s (kept for the next).
        `weight`: what it weighs against `MAX_WEIGHT` (default 1). `lasts_s`: keep it up to
        that long instead of `TTL_S`, for what can only be stale if what `asked` names is
        (a page asked by the very board it shows). `changes_at`: when it changes whatever
        the store says (the end of its period), by the clock; it is never kept past that.
        `turn`: held while a board not kept is made, taken before the server's version is
        looked at (a board that waited for it while a game finished is as fresh as its
        reads, and kept)."""
        if self._ttl_s <= 0:
            return await make()
        key = (guild_id, asked)
        now = self._clock.now()
        kept = self._kept.get(key)
        if kept is not None:
            if kept.made_at <= now < kept.made_at + kept.lasts_s:
                self._kept.move_to_end(key)
                _took(kept.stored)
                return cast(T, kept.value)
            if kept.stored is None or not now < kept.last_until:
                self._drop(key)
                kept = None
        making = self._making.get(key)
        if making is None:
            longest = self._ttl_s if lasts_s is None else lasts_s
            # Whoever asks for the same meanwhile waits for it, Discord's /leaderboard too:
            # made in the foreground whoever asked first (a page read anew reads in the
            # background, store/background.py), in a site's turn (`turn`) if it asked.
            making = self._making[key] = asyncio.create_task(self._make_in_turn(
                key, make, weight, kept, longest, changes_at, turn),
                context=foreground_context())
            making.add_done_callback(_heard)
        # shielded: one caller given up (a closed page) stops nobody else's board
        value, fresh_as = await asyncio.shield(making)
        _took(fresh_as)
        return cast(T, value)

    async def _make_in_turn(self, key: Key, make: Callable[[], Awaitable[T]],
                            weight: Callable[[T], int] | None, kept: _Kept | None,
                            longest_s: float, changes_at: float | None,
                            turn: Turn | None) -> tuple[T, Hashable | None]:
        async with turn() if turn is not None else nullcontext():
            # the server's version and the time, once in turn: what the board is as fresh as
            asked = self._version(key[0]), self._clock.now()
            return await self._make(key, make, weight, kept, asked, longest_s, changes_at)

    async def _make(self, key: Key, make: Callable[[], Awaitable[T]],
                    weight: Callable[[T], int] | None, kept: _Kept | None,
                    asked: tuple[tuple[int, int], float], longest_s: float,
                    changes_at: float | None) -> tuple[T, Hashable | None]:
        """`kept`'s value again if the server's version is still the one it was made at,
        else `make()`'s; kept unless a game of the server finished since it was `asked`
        (this process's version of the server then, and the time). Returns the value and
        the version it is as fresh as (None: not known)."""
        guild_id = key[0]
        local, made_at = asked
        read_at = made_at
        try:
            stored = None
            if self._stored_version is not None:
                stored, read_at = await self._stored(guild_id)
            if kept is not None and stored == kept.stored:
                value, made_at, last_until = kept.value, read_at, kept.last_until
                weighs = kept.weight
            else:
                value, stored = await _made(make, stored)
                last_until = made_at + self._drawn(RENEWED_UP_TO_S)
                if changes_at is not None:
                    last_until = min(last_until, changes_at)
                weighs = 1 if weight is None else weight(value)
        finally:
            if self._making.get(key) is asyncio.current_task():
                del self._making[key]
        if self._version(guild_id) != local:  # a game finished meanwhile: stale
            return value, None
        lasts_s = min(self._drawn(longest_s), last_until - made_at)
        self._keep(key, _Kept(value, made_at, lasts_s, weighs, stored, last_until))
        return value, stored

    def _drawn(self, longest_s: float) -> float:
        return self._random.uniform(longest_s * KEPT_AT_LEAST_S / TTL_S, longest_s)

    def _keep(self, key: Key, kept: _Kept) -> None:
        if key in self._kept:
            self._drop(key)
        if kept.lasts_s <= 0:
            return
        self._kept[key] = kept
        self._weight += kept.weight
        while self._weight > self._max_weight and len(self._kept) > 1:
            self._drop(next(iter(self._kept)))  # the one used longest ago

    async def _stored(self, guild_id: int) -> tuple[Hashable, float]:
        """The server's results version and when its read began: a read begun less than
        `VERSION_REUSED_S` ago (or still under way) answers instead of a new one."""
        assert self._stored_version is not None
        now = self._clock.now()
        check = self._checks.get(guild_id)
        if check is None or not 0 <= now - check.began_at < VERSION_REUSED_S:
            # read in the foreground even from a board made in a site's turn: Discord's
            # /leaderboard may wait for the same check (store/background.py)
            check = _Check(now, asyncio.create_task(self._stored_version(guild_id),
                                                    context=foreground_context()))
            check.task.add_done_callback(_heard)
            self._checks.pop(guild_id, None)
            self._checks[guild_id] = check
            self._forget_old_checks(now)
        try:
            return await asyncio.shield(check.task), check.began_at
        except Exception:
            if self._checks.get(guild_id) is check:  # the next caller reads it again
                del self._checks[guild_id]
            raise

    def _forget_old_checks(self, now: float) -> None:
        while self._checks:
            oldest = next(iter(self._checks.values()))
            if now - oldest.began_at < VERSION_REUSED_S or not oldest.task.done():
                return
            self._checks.popitem(last=False)

    def _drop(self, key: Key) -> None:
        self._weight -= self._kept.pop(key).weight

    def game_finished(self, guild_id: int) -> None:
        """A game of the server finished: its boards are made anew when next asked."""
        self._finished[guild_id] = self._finished.get(guild_id, 0) + 1
        self._checks.pop(guild_id, None)  # read before the game's commit, maybe
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
        self._checks.clear()

    def _version(self, guild_id: int) -> tuple[int, int]:
        return self._cleared, self._finished.get(guild_id, 0)


async def _made(make: Callable[[], Awaitable[T]],
                stored: Hashable | None) -> tuple[T, Hashable | None]:
    """`make()`'s board, and the version it is as fresh as: `stored`, read before its reads,
    unless it took a part of the cache made at another version (totals kept from before
    another process's game: renewed under `stored`, that board would show the old results
    for a minute), then None: it is not renewed, and made anew after its first moment."""
    taken: list[Hashable | None] = []
    token = _taken.set(taken)  # this task's context: what make() takes is noted here
    try:
        value = await make()
    finally:
        _taken.reset(token)
    return value, (stored if all(version == stored for version in taken) else None)


def _took(version: Hashable | None) -> None:
    """A caller making a board (`_made`) took a kept part made at `version`."""
    taken = _taken.get()
    if taken is not None:
        taken.append(version)


def _heard(task: asyncio.Task[Any]) -> None:
    """A board nobody waits for any more (all its callers gone) fails quietly: it was asked
    for nobody, and the next caller makes it again."""
    if not task.cancelled():
        task.exception()
