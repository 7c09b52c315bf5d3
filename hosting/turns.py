"""What happens when nobody acts: AI seats move after their delay, a human on turn is
reminded halfway and timed out at the end (quitting the round; an AI after several in a row).

Each game's next deadline is stored with the commit that sets it (hosting/deadlines.py) and
queued by `TimerQueue.arm` in every process that holds the game. Whoever fires it claims the
stored timer in the transaction that applies it (store/timers.py): the AI's move or the
time-out commits only with its claim, the reminder is its claim. So of two processes holding
a game, one fires each timer and the other stays silent, catches its copy up and stands by
(`GameLoader.catch_up`), and a process that dies mid-claim leaves the timer due for a peer's
sweep (hosting/sweeper.py). A timer that fails (a store or AI error) is tried again after
`TIMER_RETRY_S`, so one failure never stalls a game; one the store refused because another
program held its write lock (`StoreBusy`) is no failure: it tries again quietly, soon.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from dataclasses import replace

from lama import QUIT
from lama.actions import Action
from lama.ai import get_policy
from store import Actor, StoreBusy, TimerClaim, TimerNotClaimed

from . import options as limits
from .context import Context
from .deadlines import to_ms
from .hosted import HostedGame, Seat
from .loader import GameLoader, MovedElsewhere
from .table import Table
from .timers import Timer, TimerKind
from .views import GameUpdate, Notice, NoticeKind, Status

log = logging.getLogger(__name__)

TIMER_RETRY_S = 5.0  # a timer that failed (store or AI error) tries again after this
CLAIM_RETRY_S = 0.5  # a claim that met a row lock and nobody's claim tries again after this
BUSY_RETRY_S = 0.5  # a timer the busy store refused (after its busy timeout) tries again


class Turns:
    def __init__(self, context: Context, table: Table, loader: GameLoader) -> None:
        self._store = context.store
        self._clock = context.clock
        self._registry = context.registry
        self._timers = context.timers
        self._listeners = context.listeners
        self._table = table
        self._loader = loader
        self._waiting: set[int] = set()  # games whose timer waits for a busy store

    async def run(self) -> None:
        """Fire timers as they fall due, for as long as the service runs: each in a task of
        its own, so one game's time-out (a commit, its AI's thinking) never holds up another
        game's reminder (its lateness: benchmarks/reminders.py). A game's own timers still
        run one at a time (its lock)."""
        firing: set[asyncio.Task[None]] = set()
        try:
            while True:
                await self._timers.wait_until_due()
                for timer in self._timers.pop_due():
                    task = asyncio.create_task(self._fire_logged(timer))
                    firing.add(task)
                    task.add_done_callback(firing.discard)
        finally:
            for task in firing:
                task.cancel()

    async def fire_due(self) -> int:
        """Run every timer that is due now, one after another; returns how many fired."""
        fired = 0
        for timer in self._timers.pop_due():
            await self._fire_logged(timer)
            fired += 1
        return fired

    async def _fire_logged(self, timer: Timer) -> None:
        try:
            await self._fire(timer)
        except StoreBusy:  # the store warned (once): not an error, the store comes back
            self._wait_for_store(timer)
        except Exception:
            log.exception("%s timer failed for game %s", timer.kind, timer.game_id)
            self._retry_later(timer)
        else:
            self._store_back(timer)

    def _wait_for_store(self, timer: Timer) -> None:
        """Another program holds the database's write lock past the busy timeout: the timer
        tries again in a moment (each try itself waits the busy timeout for the lock), so it
        fires as soon as the store is back. Said once per game, at INFO: the store's own
        warning already says the database is busy."""
        if timer.game_id not in self._waiting:
            self._waiting.add(timer.game_id)
            log.info("the %s timer of game %s waits for the database (busy)", timer.kind,
                     timer.game_id)
        self._retry_later(timer, BUSY_RETRY_S, reminder_too=True)

    def _store_back(self, timer: Timer) -> None:
        if timer.game_id in self._waiting:
            self._waiting.discard(timer.game_id)
            log.info("the %s timer of game %s fired: the database is back", timer.kind,
                     timer.game_id)

    def _retry_claim(self, timer: Timer) -> None:
        """The claim met a row lock, not a claim (PostgreSQL skips locked rows: a peer's claim
        not yet committed, or a write of the game's message ids): try again in a moment. A
        peer's committed claim makes the next try stand by instead."""
        self._timers.add(replace(timer, due_at=self._clock.now() + CLAIM_RETRY_S))

    def _retry_later(
        self, timer: Timer, after: float = TIMER_RETRY_S, *, reminder_too: bool = False
    ) -> None:
        """A failed AI move or time-out must not stall the game: try again in a moment (a
        reminder only where the store was busy: any other failure of it is not retried)."""
        hosted = self._registry.find(timer.game_id)
        if (timer.kind is TimerKind.REMINDER and not reminder_too) or hosted is None:
            return
        if hosted.status is Status.RUNNING and hosted.seq == timer.seq:
            self._timers.add(replace(timer, due_at=self._clock.now() + after))

    async def _fire(self, timer: Timer) -> None:
        hosted = self._registry.find(timer.game_id)
        if hosted is None or hosted.status is not Status.RUNNING:
            return
        async with hosted.lock:
            try:
                update = await self._fire_locked(hosted, timer)
            except MovedElsewhere:  # another process moved first; reloaded and re-armed
                return
            except TimerNotClaimed:  # a peer fires it, or fired it: nothing to tell here
                if not await self._loader.catch_up(hosted):
                    self._retry_claim(timer)
                return
        if update is not None:
            await self._listeners.publish(update)

    async def _fire_locked(self, hosted: HostedGame, timer: Timer) -> GameUpdate | None:
        if hosted.status is not Status.RUNNING:
            return None  # cancelled (or over) while this timer waited for the lock
        current = hosted.running_game.current_seat
        if hosted.seq != timer.seq or current is None:
            return None  # someone moved since this timer was set
        seat = hosted.seats[current]
        if (timer.kind is TimerKind.AI) != (seat.ai_level is not None):
            return None  # an AI took the seat (same seq) after this timer left the queue
        if timer.kind is TimerKind.REMINDER:
            return await self._remind(hosted, seat)
        if timer.kind is TimerKind.AI:
            return await self._ai_move(hosted, seat)
        return await self._time_out(hosted, seat)

    async def _remind(self, hosted: HostedGame, seat: Seat) -> GameUpdate | None:
        """Half the turn is gone: claim the stored reminder (the turn's end becomes the next
        timer), then tell the player how long they have left (late after a restart: less)."""
        due = hosted.deadline
        if due is None or due.kind is not TimerKind.REMINDER:
            return None
        end = due.turn_end(hosted.options)
        if not await self._store.timers.claim_timer(hosted.id, hosted.seq, self._claim(hosted),
                                                    end.row()):
            raise TimerNotClaimed(hosted.id)  # claimed by another process, or moved on
        hosted.deadline = end
        left = max(1, math.ceil(end.due_at - self._clock.now()))
        notice = Notice(NoticeKind.REMINDER, seat.index, seat.user_id, seconds_left=left,
                        seq=hosted.seq, ends_at=end.due_at)
        return GameUpdate(view=hosted.view(), notices=(notice,))

    def _claim(self, hosted: HostedGame) -> TimerClaim:
        """The claim of the game's stored timer, due now (what this copy knows of it)."""
        stored = hosted.deadline.row() if hosted.deadline else None
        return TimerClaim(stored, to_ms(self._clock.now()))

    async def _ai_move(self, hosted: HostedGame, seat: Seat) -> GameUpdate:
        game = hosted.running_game
        if seat.quit_pending_round == game.round_number:
            action: Action = QUIT
        else:
            level = seat.ai_level or "normal"
            policy = get_policy(limits.POLICY_OF_LEVEL[level])
            rng = random.Random(game.seed * 1_000_003 + hosted.seq)
            observation = game.observation(seat.index)
            if level in limits.SLOW_AI_LEVELS:  # keep the event loop answering meanwhile
                action = await asyncio.to_thread(policy.choose, observation, rng)
            else:
                action = policy.choose(observation, rng)
        return await self._table.apply(hosted, seat.index, action, actor=Actor.AI,
                                       claim=self._claim(hosted))

    async def recall_time_outs(self, hosted: HostedGame) -> None:
        """After a restart: whom the turn timer put out of the current round, so their hand
        says their time ran out, not that they quit (one read, only if someone is out)."""
        game = hosted.running_game
        if not any(game.has_quit(seat.index) for seat in hosted.seats):
            return
        for move in await self._store.games.list_moves(hosted.id):
            if move.actor is not Actor.TIMER or move.seat is None:
                continue
            if move.round_number == game.round_number:
                hosted.seats[move.seat].timed_out_round = game.round_number

    async def _time_out(self, hosted: HostedGame, seat: Seat) -> GameUpdate:
        """The turn time is over: the bot quits the round for them; after
        `TIMEOUTS_BEFORE_AI` in a row, an AI takes the seat."""
        notices = [Notice(NoticeKind.TIMED_OUT, seat.index, seat.user_id)]
        round_number = hosted.running_game.round_number
        update = await self._table.apply(
            hosted, seat.index, QUIT, actor=Actor.TIMER, notices=notices,
            claim=self._claim(hosted),
        )
        seat.timed_out_round = round_number  # committed: their hand says why
        update = replace(update, view=hosted.view())
        seat.timeouts_in_a_row += 1
        if seat.timeouts_in_a_row < limits.TIMEOUTS_BEFORE_AI:
            return update
        if hosted.status is not Status.RUNNING:
            return update
        now = self._clock.now()
        deadline = hosted.deadline_after_handover(seat.index, now)
        try:
            stored = await self._store.games.hand_seat_to_ai(
                hosted.id, seat.index, ai_level="normal", now=int(now),
                timer=deadline.row() if deadline else None,
            )
        except Exception:  # the quit is committed: announce it; the next expiry retries
            log.exception("could not hand seat %s of game %s to an AI", seat.index, hosted.id)
            return update
        seat.hand_to_ai(None, stored.left_after_seq)
        hosted.deadline = deadline
        self._timers.arm(hosted)
        taken = Notice(NoticeKind.AI_TOOK_OVER, seat.index, seat.user_id, "timeouts")
        return replace(update, view=hosted.view(), notices=(*update.notices, taken))
