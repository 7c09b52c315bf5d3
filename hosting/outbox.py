"""What committed changes still have to show: the store's render outbox, as game updates.

A game's start and each move note in their own transaction that the move must be shown, held
by the committing process (store/renders.py); that process shows it (its listeners hear the
update) and the interface says which moves it has shown (`shown`, written behind moves with
the message ids, see messages.py): exactly those, so one process showing move 6 never clears
move 5 that another process committed and has not shown yet.

A move whose render was lost comes back from here as a `GameUpdate`, rebuilt from committed
state alone: the game as stored (a finished one too) and the events of exactly those moves,
replayed from the move log. Lost how:
- Discord kept refusing a call: the renderer asks again for what this process holds
  (`held_of`), with backoff.
- The process died between commit and Discord. Alone on its database, the next start shows
  everything left (`claim(alone=True)`). With other processes, each renews every `RENEW_S`
  what it holds of the games its interface is still showing (a render the REST budget delays,
  a retry waiting for its backoff, a mark not written yet) and claims what no process has
  renewed for `RENDER_LEASE_S` (`run`): a dead process's renders — or one a live process lost
  — are shown within about that, each by one process (the store's claim is a compare-and-set),
  and Discord's nonces keep a message posted just before the death from posting twice.
No Discord types.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence

from store import Actor, Move, PendingRender, Store

from .clock import Clock
from .hosted import RECENT_EVENTS, HostedGame
from .loader import GameLoader
from .messages import MessageRefs
from .registry import GameRegistry
from .replay import recall
from .table import Table
from .views import GameUpdate, Notice, NoticeKind

log = logging.getLogger(__name__)

RENEW_S = 2.0  # how often a process renews what it shows and looks for lost renders
RENDER_LEASE_S = 10  # not renewed for this long: its process is taken for dead


class Outbox:
    def __init__(
        self, store: Store, clock: Clock, registry: GameRegistry, loader: GameLoader,
        messages: MessageRefs, table: Table,
    ) -> None:
        self._store = store
        self._clock = clock
        self._registry = registry
        self._loader = loader
        self._messages = messages
        self._table = table

    async def claim(self, *, alone: bool) -> list[GameUpdate]:
        """Take the committed changes whose process stopped showing them — `alone` (no other
        process shares the database, e.g. at its start): every one not shown — and rebuild
        them, oldest first. This process shows them from now on."""
        now = int(self._clock.now())
        rows = await self._store.renders.claim(now, None if alone else now - RENDER_LEASE_S)
        updates = []
        for row in rows:
            update = await self._update(row)
            if update is not None:
                updates.append(update)
        return updates

    async def held_of(self, game_id: int) -> GameUpdate | None:
        """The game's changes this process holds and has not shown, up to its newest state
        (a retry), or None if there are none."""
        row = await self._store.renders.held_of(game_id)
        return None if row is None else await self._update(row)

    async def shown(self, game_id: int, seqs: Collection[int]) -> None:
        """The interface has shown these moves of the game (0: its deal)."""
        await self._messages.shown(game_id, seqs)

    async def sweep(self, showing: Collection[int]) -> list[GameUpdate]:
        """With other processes on the database: this process still shows these games (what
        it holds of them is renewed, with the games whose marks are not written yet), and
        takes what no process has been showing for the lease."""
        games = {*showing, *self._messages.marking()}
        await self._store.renders.renew(int(self._clock.now()), games)
        return await self.claim(alone=False)

    async def run(
        self, show: Callable[[list[GameUpdate]], None], showing: Callable[[], Collection[int]],
        every: float = RENEW_S,
    ) -> None:
        """`sweep` every `every` seconds (`showing`: the games the interface is showing now),
        handing `show` what it took."""
        while True:
            await asyncio.sleep(every)
            try:
                updates = await self.sweep(showing())
            except Exception:  # a database hiccup must not end the repairs
                log.exception("could not look for lost renders")
                continue
            if updates:
                log.info("showing %d games whose render was lost", len(updates))
                show(updates)

    async def _update(self, row: PendingRender) -> GameUpdate | None:
        hosted = await self._hosted(row.game_id)
        if hosted is None:  # deleted (its rows are gone too)
            return None
        if hosted.game is None:  # never started: nothing to show
            await self.shown(row.game_id, row.seqs)
            return None
        upto = hosted.seq
        recalled = await recall(self._store, hosted.id, hosted.game, upto, row.seqs)
        unshown = [m for m in recalled.moves if m.seq in row.seqs]
        if hosted.seq == upto:  # the table's last moves: those of the rounds shown now
            hosted.recent.clear()
            hosted.recent.extend(recalled.events[-RECENT_EVENTS:])
        return GameUpdate(
            view=hosted.view(),
            events=tuple(recalled.shown),
            notices=tuple(_time_outs(hosted, unshown)),
            hands=hosted.hands(),
            actor_seat=unshown[-1].seat if unshown else None,
            seqs=row.seqs,
        )

    async def _hosted(self, game_id: int) -> HostedGame | None:
        """The game as stored now: this process's copy brought up to date, a running game
        held here from now on (its timers too), or an ended one for its last messages."""
        hosted = self._registry.find(game_id)
        if hosted is not None:
            # another process may have moved it on; its last events are replayed here
            await self._loader.refresh(hosted, recall_recent=False)
            return hosted
        return await self._loader.hosted(game_id) or await self._ended(game_id)

    async def _ended(self, game_id: int) -> HostedGame | None:
        """A game that ended unshown: in memory again, for its last messages."""
        record = await self._store.games.get_game(game_id)
        if record is None:
            return None
        hosted = HostedGame.from_record(record)
        hosted.ratings = await self._table.rating_changes(hosted.id)
        self._registry.register(hosted)
        if not hosted.is_active:
            self._registry.retire(hosted)
        return hosted


def _time_outs(hosted: HostedGame, moves: Sequence[Move]) -> list[Notice]:
    """The turn timer quit a round for someone: said in the channel, as it was live."""
    return [
        Notice(NoticeKind.TIMED_OUT, m.seat, hosted.seats[m.seat].user_id, seq=m.seq)
        for m in moves if m.actor is Actor.TIMER and m.seat is not None
    ]
