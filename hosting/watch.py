"""Games as live views watch them (the Activity): which game a place shows, what one viewer
sees of it now, and, where other processes write the database, copies brought up to what
they stored.

A view is read from this process's copy of the game, right after a commit here (the service's
listeners say when) or once a poll finds the stored game moved on (`catch_up`: the marks of
every watched game and the active games of every watched place without one, read together
in a few statements, and only the copies that differ reloaded). On one process with SQLite
nothing else writes: nothing is polled. A place whose game just ended shows that game's end
to a view that opens there a moment later (`game_in_place(…, ended_since=…)`): found in the
store, and held here as ended.py makes a copy of it if this process did not see it end.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from lama import Observation
from store import GameMark, Store

from .deadlines import TimerKind
from .ended import ended_copy
from .hosted import HostedGame
from .loader import GameLoader
from .registry import GameRegistry
from .views import GameView, Status


@dataclass(frozen=True)
class CaughtUp:
    """What a poll found: the watched games that changed (their copies reloaded), and the
    active game of each watched place that now has one."""

    moved: frozenset[int]
    opened: dict[int, int]  # place -> game


def mark_of(hosted: HostedGame) -> tuple:
    """A copy's mark, comparable with the store's `GameMark` (`stored_mark`)."""
    seats = tuple((s.index, s.user_id, s.left) for s in hosted.seats)
    return hosted.status.value, hosted.seq, hosted.thread_id, seats


def stored_mark(mark: GameMark) -> tuple:
    return mark.status.value, mark.last_seq, mark.thread_id, mark.seats


class GameWatch:
    def __init__(self, store: Store, registry: GameRegistry, loader: GameLoader) -> None:
        self._store = store
        self._registry = registry
        self._loader = loader

    @property
    def shared(self) -> bool:
        """Other processes write this database: copies may fall behind (poll `catch_up`)."""
        return self._loader.shared

    async def game_in_place(self, place_id: int, *,
                            ended_since: float | None = None) -> int | None:
        """The lobby or running game of this channel (or game thread): this process's copy,
        confirmed against the store where others write it, else the store's. Where there is
        none and `ended_since` is given (Unix seconds): the place's newest game if it finished
        since then, whichever process ended it (not if a game opened there after it, even
        one cancelled since), held here with all its end shows (ended.py)."""
        held = await self._loader.held_in_channel(place_id) if self.shared else (
            self._registry.in_channel(place_id))
        if held is not None:
            return held.id
        found = await self._loader.in_place(place_id)
        if found is not None:
            return found.id
        if ended_since is None:
            return None
        ended = await self._store.watch.ended_in_place(place_id, int(ended_since))
        if ended is None:
            return None
        copy = await ended_copy(self._store, self._registry, ended)
        return copy.id if copy is not None else None

    def view(self, game_id: int) -> GameView | None:
        """The game as this process holds it now (a finished one while it is remembered)."""
        hosted = self._registry.find(game_id)
        return hosted.view() if hosted is not None else None

    def hand(self, game_id: int, user_id: int) -> Observation | None:
        """What `user_id` sees of their own seat in the running game; None for anyone who
        holds no seat there (a spectator), and outside a running game."""
        hosted = self._registry.find(game_id)
        if hosted is None or hosted.status is not Status.RUNNING or hosted.game is None:
            return None
        seat = hosted.seat_of(user_id)
        return hosted.game.observation(seat.index) if seat is not None else None

    def turn_ends_at(self, game_id: int) -> float | None:
        """When the human on turn runs out of time (Unix seconds); None while an AI is on
        turn, outside a running game, or where the game has no timer stored."""
        hosted = self._registry.find(game_id)
        if hosted is None or hosted.status is not Status.RUNNING or hosted.deadline is None:
            return None
        if hosted.deadline.kind is TimerKind.AI:
            return None
        return hosted.deadline.turn_end(hosted.options).due_at

    async def catch_up(
        self, game_ids: Collection[int], empty_places: Collection[int],
    ) -> CaughtUp:
        """Bring this process's copies of the watched games up to the stored games (those
        another process changed, loading any it holds no copy of), and find the games opened
        meanwhile in the watched places that had none."""
        marks = await self._store.watch.marks(game_ids)
        opened = await self._store.watch.active_in_places(empty_places)
        moved = set()
        for game_id, mark in marks.items():
            hosted = self._registry.find(game_id)
            if hosted is None:
                if await self._loader.hosted(game_id) is not None:
                    moved.add(game_id)  # opened elsewhere: loaded as stored
                continue
            if mark_of(hosted) == stored_mark(mark):
                continue
            async with hosted.lock:  # a move of this process's may be committing meanwhile
                if mark_of(hosted) != stored_mark(mark):
                    await self._loader.reload(hosted)
            moved.add(game_id)
        for game_id in set(opened.values()) - set(marks):
            await self._loader.hosted(game_id)
        return CaughtUp(frozenset(moved), opened)
