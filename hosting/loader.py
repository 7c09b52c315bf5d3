"""Games another process may have changed: the stored row is the truth, memory a cache.

Several processes may share one database (issue 16): a DM button reaches shard 0's process
whichever process hosts the game's server, and any of them may commit a move. Each commit
checks the game's version (`last_seq`, compare-and-set in the store), so a process whose copy
is behind learns it at the latest when it commits; it then reloads the row and tries again.
A process that holds no copy loads the game when a move or a DM command names it.

On one process with SQLite nothing else writes, the copies never fall behind and these paths
stay idle; the version check still guards every commit. Where another process may write
(`shared`: a PostgreSQL database, or tests' two services on one file), what a player is shown
before they move — their hand, the cards /play suggests — is read from a copy first brought
up to the stored game (`fresh`: one version read when nothing changed), so that it agrees
with how their move is judged.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

from store import (
    DueGame,
    DueTimer,
    Game,
    GameStatus,
    InteractionAlreadyApplied,
    LobbyChanged,
    SeqConflict,
    WrongGameStatus,
)

from .context import Context
from .deadlines import to_ms
from .ended import rating_changes
from .errors import HostingError, Problem
from .hosted import RECENT_EVENTS, HostedGame
from .replay import recall
from .views import Status

log = logging.getLogger(__name__)

T = TypeVar("T")

ADOPT_GRACE_S = 3  # past a game's deadline before another process takes over its timers
EMPTY_PLACE_KEPT_S = 10.0  # a place read without a game counts as still empty this long...
EMPTY_PLACES_KEPT = 10_000  # ...for at most this many places (then all are forgotten)


class MovedElsewhere(Exception):
    """Another process committed to this game first; the copy has been reloaded."""


class GameLoader:
    def __init__(self, context: Context, *, shared: bool = False) -> None:
        self.shared = shared  # other processes may write this database: copies may be stale
        self._store = context.store
        self._registry = context.registry
        self._timers = context.timers
        self._clock = context.clock
        self._empty_places: dict[int, float] = {}  # place -> when read without a game
        self._empty_as_of = 0  # the registry's registrations when they were read
        # told a game's id when its copy is brought up to moves another process made (what
        # that process showed on Discord is not what this one remembers showing)
        self.moved_elsewhere: list[Callable[[int], None]] = []

    async def hosted(self, game_id: int) -> HostedGame | None:
        """This process's copy of a game, loaded from the store if it holds none (an active
        game another process opened). Finished games are not loaded: their buttons are stale."""
        hosted = self._registry.find(game_id)
        if hosted is not None:
            return hosted
        record = await self._store.games.get_game(game_id)
        if record is None or record.status not in (GameStatus.LOBBY, GameStatus.RUNNING):
            return None
        hosted = self._registry.find(game_id)  # loaded by another task meanwhile
        if hosted is None:
            hosted = HostedGame.from_record(record)
            self._registry.register(hosted)
            if hosted.status is Status.RUNNING:
                self._timers.arm(hosted)
        return hosted

    async def channel_game(self, place_id: int) -> HostedGame | None:
        """The game of this channel (or game thread): this process's copy, read from nothing;
        only where it holds none, the store's (`in_place`)."""
        hosted = self._registry.in_channel(place_id)
        return hosted if hosted is not None else await self.in_place(place_id)

    async def held_in_channel(self, place_id: int) -> HostedGame | None:
        """The active game this process holds in a channel (or game thread), confirmed: a copy
        held is first brought up to the stored game (one version read, only when memory holds
        one), so that one another process ended is dropped instead of taken for busy."""
        held = self._registry.in_channel(place_id)
        if held is None:
            return None
        await self.refresh(held)
        return self._registry.in_channel(place_id)

    async def channel_game_hint(self, place_id: int) -> HostedGame | None:
        """`channel_game` for a suggestion as a player types (the card autocomplete, at every
        keystroke): a place the store showed without a game in the last few seconds counts
        as still without one, until this process registers a game (any game: cheap to
        check, and no game it opens is missed). A game another process opens there is
        suggested a few seconds late; a command never asks this, so it is never refused."""
        hosted = self._registry.in_channel(place_id)
        if hosted is not None:
            return hosted
        registrations = self._registry.registrations
        if registrations != self._empty_as_of:
            self._empty_places.clear()
            self._empty_as_of = registrations
        now = self._clock.now()
        seen = self._empty_places.get(place_id)
        if seen is not None and now - seen < EMPTY_PLACE_KEPT_S:
            return None
        hosted = await self.in_place(place_id)
        if hosted is None and self._registry.registrations == self._empty_as_of:
            if len(self._empty_places) >= EMPTY_PLACES_KEPT:
                self._empty_places.clear()
            self._empty_places[place_id] = now
        return hosted

    async def then_next(
        self, place_id: int, game_id: int, command: Callable[[int], Awaitable[T]]
    ) -> T:
        """`command` on the game of this place that this process's copy named. If that copy
        turns out to have ended in another process (the command is refused "game over" once
        its commit reloaded the copy) and the place holds the next game (a tournament's next
        table), the command goes to that one, once."""
        try:
            return await command(game_id)
        except HostingError as error:
            if error.problem is not Problem.GAME_FINISHED:
                raise
            following = await self.channel_game(place_id)
            if following is None or following.id == game_id:
                raise
        return await command(following.id)

    async def in_place(self, place_id: int) -> HostedGame | None:
        """The active game of a channel (or game thread) that this process holds no active
        copy for, as the store has it: another process opened it (a tournament's next table,
        opened where a DM move ended the last one), or this process's copy ended and the next
        game opened elsewhere, or another process gave it the thread. One indexed lookup; the
        game, if any, is loaded (or this copy reloaded) and found in memory from then on."""
        game_id = await self._store.games.active_game_in_place(place_id)
        if game_id is None:
            return None
        held = self._registry.find(game_id)
        if held is None:
            return await self.hosted(game_id)
        async with held.lock:  # held, but not known here: its thread, or a state before it
            await self.reload(held)
        return held if held.is_active else None

    async def changing(self, change: Callable[[], Awaitable[T]]) -> T:
        """A lobby command made on this process's copy (join, leave, kick, start, cancel, a
        rematch). Where the store refuses it because another process started, ended or
        cancelled the game meanwhile, or seated or unseated someone, the copy is reloaded and
        the command tried once more on the stored game: refused as that calls for, or made
        (a Leave from a lobby started elsewhere hands the seat to an AI). A command the copy
        allows costs no read."""
        try:
            return await change()
        except (WrongGameStatus, LobbyChanged) as error:
            hosted = self._registry.find(error.game_id)
            if hosted is None:
                raise
            async with hosted.lock:
                await self.reload(hosted)
        return await change()

    async def is_behind(self, hosted: HostedGame) -> bool:
        """Whether another process committed to this game since this copy was made."""
        stored = await self._store.games.version(hosted.id)
        return stored is not None and (stored[1] != hosted.seq
                                       or stored[0].value != hosted.status.value)

    async def reload(self, hosted: HostedGame, record: Game | None = None, *,
                     arm: bool = True, recall_recent: bool = True) -> None:
        """Bring this copy up to the stored row (`record`: read already), in place (its lock
        stays the one held), and arm its timers (`arm`). Where the stored game moved on, its
        last events are replayed from the move log (`recall_recent`), unless the caller replays
        that log itself (the outbox, for a lost render): then they are left empty."""
        record = record or await self._store.games.get_game(hosted.id)
        if record is None:
            return
        log.info("game %s changed elsewhere: move %s here, %s stored", hosted.id, hosted.seq,
                 record.last_seq)
        was_active, moved = hosted.is_active, record.last_seq != hosted.seq
        hosted.refresh(record)
        if moved:
            for listener in self.moved_elsewhere:
                listener(hosted.id)
            hosted.recent.clear()
            if recall_recent:
                await self._recall_recent(hosted)
        if hosted.is_active:
            self._registry.register(hosted)
            if arm:
                self._timers.arm(hosted)
        elif was_active:
            self._timers.clear(hosted.id)
            self._registry.retire(hosted)
            if hosted.status is Status.FINISHED:  # its end shows them, as where it ended
                hosted.ratings = await rating_changes(self._store, hosted.id)

    async def _recall_recent(self, hosted: HostedGame) -> None:
        """The last events of a copy brought up to moves another process made: replayed from
        the move log, since those it kept may be of a round that has ended since (the table
        would show them under the new round's title, and the ended round without them). Only
        the current round's are needed (a table shows no other, and a round that ends
        later ends here, after them): only its moves are read."""
        if hosted.game is not None:
            recalled = await recall(self._store, hosted.id, hosted.game, hosted.seq)
            hosted.recent.extend(recalled.events[-RECENT_EVENTS:])

    @asynccontextmanager
    async def reloading(self, hosted: HostedGame) -> AsyncIterator[None]:
        """Around a commit: if the stored game moved on (another process committed, ended or
        cancelled it), reload this copy and raise MovedElsewhere; if this interaction's move
        is already stored, reload and refuse it as made."""
        try:
            yield
        except (SeqConflict, WrongGameStatus):
            await self.reload(hosted)
            raise MovedElsewhere(hosted.id) from None
        except InteractionAlreadyApplied:
            await self.reload(hosted)
            raise HostingError(Problem.MOVE_ALREADY_MADE) from None

    async def refresh(self, *games: HostedGame | None,
                      recall_recent: bool = True) -> None:
        """Bring copies another process may have moved or ended up to date, before a check
        made from memory (is this channel free, is this player seated elsewhere); `recall_recent`
        as `reload`'s."""
        for hosted in {g.id: g for g in games if g is not None}.values():
            if await self.is_behind(hosted):
                async with hosted.lock:  # a commit of this process may have been under way
                    if await self.is_behind(hosted):
                        await self.reload(hosted, recall_recent=recall_recent)

    async def fresh(self, *games: HostedGame | None) -> None:
        """Before showing a player what they may do (their hand, the cards to suggest):
        where another process may write the database (`shared`), `refresh` these copies, one
        version read each when they are current; alone on it, nothing."""
        if self.shared:
            await self.refresh(*games)

    async def refresh_games_of(self, user_id: int, guild_id: int | None) -> None:
        """`refresh` the user's games in this server (None: in every server), before a
        check of where they sit; a channel's game is confirmed where found busy
        (`held_in_channel`)."""
        await self.refresh(*self._registry.active_hosted_of(user_id, guild_id))

    async def catch_up(self, hosted: HostedGame) -> bool:
        """After a due timer of this copy was not claimed. If another process claimed it or
        moved the game (the stored game differs), the claimer fires the game's timers from
        now on: this process stands by (no timers of it queued here; the sweep arms them
        again if one is overdue, its claimer dead), brings its copy up to the stored game, and
        fires them again once it commits to the game itself. False if the stored game is
        this copy: nobody claimed the timer, the claim only met a row lock."""
        record = await self._store.games.get_game(hosted.id)
        if record is not None and _same(hosted, record.status, record.last_seq, record.timer):
            return False
        self._timers.clear(hosted.id)
        if record is not None:
            await self.reload(hosted, record, arm=False)
        return True

    async def adopt_overdue(self, now: float) -> list[int]:
        """Fire here every running game's timer that is overdue (by `ADOPT_GRACE_S`): the
        process that held the game died, or held a copy behind the stored game. Such a game is
        loaded (this process did not hold it) or its copy brought up to the stored row, and its
        timers armed; the claim makes each fire once. Returns the ids taken up."""
        adopted = []
        due_by = to_ms(now - ADOPT_GRACE_S)
        for due in await self._store.timers.due_games(due_by):
            try:
                if not await self._adopt(due):
                    continue
            except Exception:  # one game that cannot load must not hold up the others
                log.exception("could not take up overdue game %s", due.game_id)
                continue
            log.info("game %s is overdue: its timers fire in this process", due.game_id)
            adopted.append(due.game_id)
        return adopted

    async def _adopt(self, due: DueGame) -> bool:
        hosted = self._registry.find(due.game_id)
        if hosted is None:
            return await self.hosted(due.game_id) is not None
        if _same(hosted, GameStatus.RUNNING, due.last_seq, due.timer):
            if self._timers.pending(hosted.id):
                return False  # this process fires it (late, or after a failure)
            self._timers.arm(hosted)  # its timer lost a claim to a process that died
            return True
        async with hosted.lock:
            await self.reload(hosted)  # re-arms the stored deadline
        return True

    async def load_games_of(self, user_id: int) -> None:
        """Every active game this user sits in, wherever it was opened, and none that ended
        elsewhere: a DM command must find a game whose server another process runs."""
        stored = await self._store.games.active_game_ids_of(user_id)
        for hosted in self._registry.active_hosted_of(user_id):
            if hosted.id not in stored:
                async with hosted.lock:  # it ended, or they left, in another process
                    await self.reload(hosted)
        for game_id in stored:
            held = self._registry.find(game_id)
            if held is not None and held.status is Status.LOBBY:
                await self.refresh(held)  # a lobby held here may have started elsewhere
            else:
                await self.hosted(game_id)


def _same(hosted: HostedGame, status: GameStatus, seq: int, timer: DueTimer | None) -> bool:
    """Whether this copy is the stored game: its status, move and stored timer."""
    deadline = hosted.deadline.row() if hosted.deadline else None
    return (hosted.status.value, hosted.seq, deadline) == (status.value, seq, timer or deadline)
