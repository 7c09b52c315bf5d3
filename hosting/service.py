"""The game service: every change to a hosted game goes through here.

One path for every move — a human's button or command, an AI seat, an expired timer:
take the game's lock, let the engine apply the action, commit state and move in one
transaction, then tell the listeners. Nothing is announced that is not committed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace

from lama import DRAW, QUIT, Card, Game, IllegalAction, Play, Reason, RoundStarted
from lama.actions import Action, action_from_dict, action_to_dict
from lama.ai import get_policy
from lama.rules import RULESETS
from store import Actor, ChannelHasActiveGame, GuildSettings, MessageRef, Store

from .clock import Clock
from .errors import HostingError, Problem
from .hosted import AI_LEVELS, MAX_SEATS, MIN_SEATS, HostedGame, Seat, ai_name
from .results import final_results, stored_result
from .timers import Timer, TimerKind, TimerQueue
from .views import GameOptions, GameUpdate, GameView, Notice, NoticeKind, Status

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_AI = 3
MESSAGE_WRITE_DELAY = 0.5  # seconds message ids wait to be stored together
SLOW_AI_LEVELS = frozenset({"hard"})  # decided in a worker thread
RETIRED_KEPT = 256  # ended games kept in memory
TIMER_RETRY_S = 5.0  # a timer that failed (store or AI error) tries again after this
_POLICY_OF_LEVEL = {"easy": "random", "normal": "normal", "hard": "hard"}

Listener = Callable[[GameUpdate], Awaitable[None]]


class GameService:
    """Owns the running games of one bot process, keyed by game id."""

    def __init__(
        self, store: Store, clock: Clock, *, seed_source: Callable[[], int] | None = None
    ) -> None:
        self._store = store
        self._clock = clock
        self._seed_source = seed_source or (lambda: random.SystemRandom().getrandbits(62))
        self._games: dict[int, HostedGame] = {}
        self._by_channel: dict[int, int] = {}
        self._settings: dict[int, GuildSettings] = {}
        self._listeners: list[Listener] = []
        self._seat_locks: dict[int, asyncio.Lock] = {}
        self._retired: deque[int] = deque()  # ended games still in memory, oldest first
        self._unsaved_refs: dict[tuple[int, str], MessageRef] = {}
        self._refs_waiting = asyncio.Event()
        self._message_writer_running = False
        self.timers = TimerQueue(clock)

    def _now(self) -> int:
        return int(self._clock.now())

    # ----------------------------------------------------------------- wiring

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def _publish(self, update: GameUpdate) -> None:
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("listener failed for game %s", update.view.game_id)

    async def restore(self) -> list[GameView]:
        """Load every unfinished game from the store, re-arming timers and AI turns."""
        restored = []
        for record in await self._store.games.unfinished_games():
            hosted = HostedGame.from_record(record)
            self._register(hosted)
            if hosted.status is Status.RUNNING:
                self._arm_timers(hosted, turn_started_at=record.updated_at)
            restored.append(hosted.view())
        for guild_id in {view.guild_id for view in restored}:
            await self.guild_settings(guild_id)  # their language, channel, … without a wait
        return restored

    def _register(self, hosted: HostedGame) -> None:
        self._games[hosted.id] = hosted
        if hosted.is_active:
            self._by_channel[hosted.channel_id] = hosted.id

    def _retire(self, hosted: HostedGame) -> None:
        """A game ended or was cancelled: free its channel; keep it a while, then forget it.

        The last few hundred stay in memory for the renderer's final edits and quick answers
        to their buttons; older ones live only in the store (rematch and stale presses
        fall back to it), so a long-running bot's memory stays bounded.
        """
        if self._by_channel.get(hosted.channel_id) == hosted.id:
            del self._by_channel[hosted.channel_id]
        self._retired.append(hosted.id)
        while len(self._retired) > RETIRED_KEPT:
            self._games.pop(self._retired.popleft(), None)

    # --------------------------------------------------------------- settings

    async def guild_defaults(self, guild_id: int) -> GameOptions:
        settings = await self.guild_settings(guild_id)
        return GameOptions(
            variant=settings.variant,
            target=settings.target,
            turn_timeout=settings.turn_timeout_s,
            ai_delay=settings.ai_delay_s,
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        if guild_id not in self._settings:
            self._settings[guild_id] = await self._store.settings.get_settings(guild_id)
        return self._settings[guild_id]

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self._store.settings.save_settings(settings, now=self._now())
        self._settings[settings.guild_id] = settings

    def cached_guild_locale(self, guild_id: int | None) -> str | None:
        """The server's chosen language for public messages, if its settings are loaded
        (every server with a game has them: `/lama new` and `restore` load them)."""
        settings = self._settings.get(guild_id) if guild_id is not None else None
        return settings.locale if settings else None

    def check_channel_allowed(self, guild_id: int, channel_id: int) -> None:
        settings = self._settings.get(guild_id)
        if settings and settings.games_channel_id not in (None, channel_id):
            raise HostingError(Problem.WRONG_CHANNEL, channel_id=settings.games_channel_id)

    # ---------------------------------------------------------------- queries

    def view(self, game_id: int) -> GameView:
        return self._get(game_id).view()

    def game_in_channel(self, channel_id: int) -> GameView | None:
        game_id = self._by_channel.get(channel_id)
        return self._games[game_id].view() if game_id is not None else None

    def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameView]:
        return [
            g.view()
            for g in self._games.values()
            if g.is_active
            and g.seat_of(user_id) is not None
            and (guild_id is None or g.guild_id == guild_id)
        ]

    def route(self, user_id: int, channel_id: int | None, guild_id: int | None) -> GameView:
        """The game a command from this user in this place is about.

        In a server channel: that channel's game. In a DM: the caller's only running game.
        """
        if guild_id is not None:
            view = self.game_in_channel(channel_id) if channel_id is not None else None
            if view is None:
                raise HostingError(Problem.NO_GAME_HERE)
            return view
        mine = [v for v in self.active_games_of(user_id) if v.status is Status.RUNNING]
        if not mine:
            raise HostingError(Problem.NO_GAME_HERE, in_dm=True)
        if len(mine) > 1:
            raise HostingError(Problem.AMBIGUOUS_GAME, channel_ids=[v.channel_id for v in mine])
        return mine[0]

    def observation(self, game_id: int, user_id: int):
        hosted = self._running(game_id)
        return hosted.game.observation(self._seat_of(hosted, user_id).index)

    def legal_plays(self, game_id: int, user_id: int) -> tuple[Card, ...]:
        """The cards this user may play now: empty unless it is their turn."""
        hosted = self._games.get(game_id)
        if hosted is None or hosted.status is not Status.RUNNING:
            return ()
        seat = hosted.seat_of(user_id)
        return hosted.game.legal_plays(seat.index) if seat else ()

    def message_ref(self, game_id: int, key: str) -> tuple[int, int] | None:
        """Where an interface put a game's "lobby", "table" or "hand:<seat>" message."""
        hosted = self._games.get(game_id)
        return hosted.messages.get(key) if hosted else None

    async def remember_message(
        self, game_id: int, key: str, channel_id: int, message_id: int
    ) -> None:
        """Note where a message went; stored behind moves, not in a transaction of its own.

        While `run_message_writer` runs, ids are batched (one transaction for all games every
        `MESSAGE_WRITE_DELAY` s) and flushed on close; a crash loses at most that much, which
        only means an old message is not edited after the restart. Without the writer (tests,
        tools) each id is written at once.
        """
        hosted = self._get(game_id)
        hosted.messages[key] = (channel_id, message_id)
        kind, _, seat = key.partition(":")
        if kind not in ("lobby", "table", "hand"):  # the store would refuse the whole batch
            raise ValueError(f"unknown message key {key!r}")
        self._unsaved_refs[(game_id, key)] = MessageRef(
            game_id,
            kind,
            channel_id,
            message_id,
            seat=int(seat) if seat else None,
            round_number=hosted.game.round_number if hosted.game else None,
        )
        if self._message_writer_running:
            self._refs_waiting.set()
        else:
            await self.flush_message_refs()

    async def flush_message_refs(self) -> None:
        refs, self._unsaved_refs = self._unsaved_refs, {}
        if not refs:
            return
        try:
            await self._store.games.save_message_refs(list(refs.values()))
        except BaseException:
            self._unsaved_refs = {**refs, **self._unsaved_refs}  # newer ids win; next flush
            raise

    async def run_message_writer(self) -> None:
        """Write remembered message ids in batches, for as long as the service runs."""
        self._message_writer_running = True
        try:
            while True:
                await self._refs_waiting.wait()
                await asyncio.sleep(MESSAGE_WRITE_DELAY)
                self._refs_waiting.clear()
                try:
                    await self.flush_message_refs()
                except Exception:
                    log.exception("could not store message ids")
        finally:
            self._message_writer_running = False

    async def moves(self, game_id: int):
        return await self._store.games.list_moves(game_id)

    def _get(self, game_id: int) -> HostedGame:
        hosted = self._games.get(game_id)
        if hosted is None:
            raise HostingError(Problem.NO_GAME_HERE)
        return hosted

    def _running(self, game_id: int) -> HostedGame:
        hosted = self._get(game_id)
        if hosted.status is Status.LOBBY:
            raise HostingError(Problem.GAME_NOT_STARTED)
        if hosted.status is not Status.RUNNING:
            raise HostingError(Problem.GAME_FINISHED)
        return hosted

    def _lobby(self, game_id: int) -> HostedGame:
        hosted = self._get(game_id)
        if hosted.status is Status.RUNNING:
            raise HostingError(Problem.NOT_A_LOBBY)
        if hosted.status is not Status.LOBBY:
            raise HostingError(Problem.GAME_FINISHED)
        return hosted

    @staticmethod
    def _seat_of(hosted: HostedGame, user_id: int) -> Seat:
        seat = hosted.seat_of(user_id)
        if seat is None:
            raise HostingError(Problem.NOT_IN_GAME)
        return seat

    def _seating(self, guild_id: int) -> asyncio.Lock:
        """One seat per player per server: taking a seat is checked and stored under this."""
        return self._seat_locks.setdefault(guild_id, asyncio.Lock())

    def _check_not_seated_elsewhere(self, user_id: int, guild_id: int, game_id: int) -> None:
        for other in self.active_games_of(user_id, guild_id):
            if other.game_id != game_id:
                raise HostingError(Problem.SEATED_ELSEWHERE, channel_id=other.channel_id)

    @staticmethod
    def _require_host(
        hosted: HostedGame, user_id: int, is_admin: bool, *, admin_ok: bool = False
    ) -> None:
        """Only the host may; with `admin_ok` the refusal says Manage Server may too."""
        if user_id != hosted.host_id and not is_admin:
            raise HostingError(Problem.NOT_HOST, host=f"<@{hosted.host_id}>", admin_ok=admin_ok)

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: GameOptions,
        ai_seats: int = 0,
    ) -> GameUpdate:
        _validate_options(options, ai_seats)
        async with self._seating(guild_id):  # the checks and the new lobby, as one step
            existing = self._by_channel.get(channel_id)
            if existing is not None:
                raise self._game_exists(self._games[existing])
            self._check_not_seated_elsewhere(host_id, guild_id, game_id=-1)
            seats = [Seat(0, host_name, host_id)]
            seats += [
                Seat(i, ai_name(i, options.ai_level), None, options.ai_level)
                for i in range(1, ai_seats + 1)
            ]
            try:
                record = await self._store.games.create_lobby(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_user_id=host_id,
                    variant=options.variant,
                    target=options.target,
                    turn_timeout_s=options.turn_timeout,
                    ai_delay_s=options.ai_delay,
                    now=self._now(),
                    seats=[s.new_seat() for s in seats],
                )
            except ChannelHasActiveGame as error:
                raise HostingError(Problem.GAME_EXISTS) from error
            hosted = HostedGame.from_record(record, ai_level=options.ai_level)
            self._register(hosted)
        return await self._lobby_changed(hosted)

    async def join(self, game_id: int, user_id: int, name: str) -> GameUpdate:
        hosted = self._lobby(game_id)
        async with self._seating(hosted.guild_id), hosted.lock:
            self._lobby(game_id)
            if hosted.seat_of(user_id) is not None:
                raise HostingError(Problem.ALREADY_JOINED)
            if len(hosted.seats) >= MAX_SEATS:
                raise HostingError(Problem.LOBBY_FULL, limit=MAX_SEATS)
            self._check_not_seated_elsewhere(user_id, hosted.guild_id, game_id)
            seat = Seat(len(hosted.seats), name, user_id)
            await self._store.games.add_seat(game_id, seat.new_seat(), now=self._now())
            hosted.seats.append(seat)
        return await self._lobby_changed(hosted)

    async def add_ai(
        self, game_id: int, user_id: int, level: str | None = None, *, is_admin: bool = False
    ) -> GameUpdate:
        hosted = self._lobby(game_id)
        level = level or hosted.ai_level
        if level not in AI_LEVELS:
            raise HostingError(Problem.BAD_OPTION, option="ai_level", value=level)
        async with hosted.lock:
            self._lobby(game_id)
            self._require_host(hosted, user_id, is_admin)
            if len(hosted.seats) >= MAX_SEATS:
                raise HostingError(Problem.LOBBY_FULL, limit=MAX_SEATS)
            seat = Seat(len(hosted.seats), ai_name(len(hosted.seats), level), None, level)
            await self._store.games.add_seat(game_id, seat.new_seat(), now=self._now())
            hosted.seats.append(seat)
        return await self._lobby_changed(hosted)

    async def leave(self, game_id: int, user_id: int) -> GameUpdate:
        """Leave a lobby, or hand a running seat to an AI (the game counts as lost)."""
        hosted = self._get(game_id)
        if hosted.status is Status.RUNNING:
            return await self._seat_to_ai(hosted, user_id, reason="left")
        hosted = self._lobby(game_id)
        async with hosted.lock:
            self._lobby(game_id)  # it may have started while we waited
            seat = self._seat_of(hosted, user_id)
            if seat.user_id == hosted.host_id:
                others = [s for s in hosted.seats if s.user_id not in (None, user_id)]
                if not others:
                    return await self._cancel_locked(hosted)
                await self._store.games.set_host(game_id, others[0].user_id, now=self._now())
                hosted.host_id = others[0].user_id
            await self._store.games.remove_seat(game_id, seat.index, now=self._now())
            hosted.seats.remove(seat)
            for i, other in enumerate(hosted.seats):
                other.index = i
        return await self._lobby_changed(hosted)

    async def kick(
        self, game_id: int, actor_id: int, target_user_id: int, *, is_admin: bool
    ) -> GameUpdate:
        hosted = self._get(game_id)
        if not hosted.is_active:
            raise HostingError(Problem.GAME_FINISHED)
        self._require_host(hosted, actor_id, is_admin, admin_ok=True)
        if hosted.seat_of(target_user_id) is None:
            raise HostingError(Problem.NOT_SEATED)
        if hosted.status is Status.RUNNING:
            return await self._seat_to_ai(hosted, target_user_id, reason="kicked")
        return await self.leave(game_id, target_user_id)

    async def cancel(self, game_id: int, actor_id: int, *, is_admin: bool) -> GameUpdate:
        hosted = self._get(game_id)
        if not hosted.is_active:
            raise HostingError(Problem.GAME_FINISHED)
        self._require_host(hosted, actor_id, is_admin, admin_ok=True)
        async with hosted.lock:
            if not hosted.is_active:  # over (or cancelled) while we waited
                raise HostingError(Problem.GAME_FINISHED)
            return await self._cancel_locked(hosted)

    async def _cancel_locked(self, hosted: HostedGame) -> GameUpdate:
        await self._store.games.cancel_game(hosted.id, now=self._now())
        hosted.status = Status.CANCELLED
        self.timers.clear(hosted.id)
        self._retire(hosted)
        update = GameUpdate(view=hosted.view(), hands=hosted.hands())  # hands: to close them
        await self._publish(update)
        return update

    async def start(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameUpdate:
        hosted = self._lobby(game_id)
        self._require_host(hosted, user_id, is_admin)
        async with hosted.lock:
            self._lobby(game_id)
            if len(hosted.seats) < MIN_SEATS:
                raise HostingError(Problem.NOT_ENOUGH_PLAYERS, minimum=MIN_SEATS)
            seed = self._seed_source()
            game = Game.new(
                hosted.options.variant, len(hosted.seats), seed, target=hosted.options.target
            )
            await self._store.games.start_game(
                hosted.id, seed=seed, state=game.to_dict(), now=self._now()
            )
            hosted.game, hosted.status = game, Status.RUNNING
            events = (RoundStarted(game.round_number, game.current_seat, game.top_card),)
            hosted.recent.extend(events)
            self._arm_timers(hosted)
            update = GameUpdate(view=hosted.view(), events=events, hands=hosted.hands())
        await self._publish(update)
        return update

    async def rematch(self, game_id: int, user_id: int, name: str) -> GameUpdate:
        """A new lobby in the same channel with the same options and AI seats."""
        old = self._games.get(game_id)
        if old is None:  # it ended before a restart: restore() loads only unfinished games
            record = await self._store.games.get_game(game_id)
            if record is None:
                raise HostingError(Problem.NO_GAME_HERE)
            old = HostedGame.from_record(record)
        if old.is_active:
            raise HostingError(Problem.GAME_EXISTS, game_id=game_id)
        ai_seats = sum(1 for s in old.seats if s.user_id is None)
        return await self.open_lobby(
            old.guild_id, old.channel_id, user_id, name, old.options, ai_seats=ai_seats
        )

    @staticmethod
    def _game_exists(hosted: HostedGame) -> HostingError:
        """Point at the game already here: its table if it has one, else its lobby."""
        ref = hosted.messages.get("table") or hosted.messages.get("lobby")
        return HostingError(
            Problem.GAME_EXISTS,
            game_id=hosted.id,
            guild_id=hosted.guild_id,
            channel_id=ref[0] if ref else hosted.channel_id,
            message_id=ref[1] if ref else None,
        )

    async def _lobby_changed(self, hosted: HostedGame) -> GameUpdate:
        update = GameUpdate(view=hosted.view())
        await self._publish(update)
        return update

    # ------------------------------------------------------------------ moves

    async def play(self, game_id: int, user_id: int, card: Card | str, **kw) -> GameUpdate:
        if isinstance(card, str):
            try:
                card = Card.from_code(card)
            except ValueError:
                raise IllegalAction(Reason.CARD_NOT_IN_HAND) from None
        return await self.human_move(game_id, user_id, Play(card), **kw)

    async def draw(self, game_id: int, user_id: int, **kw) -> GameUpdate:
        return await self.human_move(game_id, user_id, DRAW, **kw)

    async def quit_round(self, game_id: int, user_id: int, **kw) -> GameUpdate:
        return await self.human_move(game_id, user_id, QUIT, **kw)

    async def human_move(
        self, game_id: int, user_id: int, action: Action, *, round_number: int | None = None
    ) -> GameUpdate:
        """A seated human's move; `round_number` comes from a button, to spot stale ones."""
        hosted = self._running_for_button(game_id, round_number)
        async with hosted.lock:
            hosted = self._running_for_button(game_id, round_number)
            seat = self._seat_of(hosted, user_id)
            if round_number is not None and round_number != hosted.game.round_number:
                raise HostingError(Problem.STALE_BUTTON)
            update = await self._apply(hosted, seat.index, action, actor=Actor.HUMAN)
            seat.timeouts_in_a_row = 0
        await self._publish(update)
        return update

    def _running_for_button(self, game_id: int, round_number: int | None) -> HostedGame:
        """A button names its game: from a finished game it is stale, not an error."""
        try:
            return self._running(game_id)
        except HostingError as error:
            # NO_GAME_HERE: it ended before a restart, and restore() loads only open games.
            ended = (Problem.GAME_FINISHED, Problem.NO_GAME_HERE)
            if round_number is not None and error.problem in ended:
                raise HostingError(Problem.STALE_BUTTON) from None
            raise

    async def _apply(
        self,
        hosted: HostedGame,
        seat_index: int,
        action: Action,
        *,
        actor: Actor,
        notices: Iterable[Notice] = (),
    ) -> GameUpdate:
        """Apply one action under the game's lock and commit it. Raises on illegal moves.

        The action is applied to a draft of the game, which replaces the live game only once
        it is committed: whoever looks meanwhile (a view, autocomplete) sees committed state.
        """
        game = Game.from_dict(hosted.game.to_dict())
        round_number = game.round_number
        events = game.apply(seat_index, action)  # raises IllegalAction, changing nothing
        finished = await self._finished_record(game, hosted, events) if game.is_over else None
        await self._store.games.commit_move(
            hosted.id,
            hosted.seq + 1,
            seat_index,
            action_to_dict(action),
            actor,
            game.to_dict(),
            self._now(),
            round_number=round_number,
            finished=finished,
        )
        hosted.game = game
        hosted.seq += 1
        hosted.recent.extend(events)
        if game.is_over:
            hosted.status = Status.FINISHED
            self.timers.clear(hosted.id)
            self._retire(hosted)
        else:
            self._arm_timers(hosted)
        return GameUpdate(
            view=hosted.view(),
            events=tuple(events),
            notices=tuple(notices),
            hands=hosted.hands(),
            actor_seat=seat_index,
        )

    async def _finished_record(self, game: Game, hosted: HostedGame, last_events):
        """Replay the stored move log to collect every round's scoring for the records."""
        replay = Game.new(game.ruleset, game.num_seats, game.seed, target=game.target)
        events = []
        for move in await self._store.games.list_moves(hosted.id):
            events += replay.apply(move.seat, action_from_dict(move.action))
        events += last_events
        return stored_result(final_results(hosted.seats, game.scores, game.winners, events))

    async def _seat_to_ai(self, hosted: HostedGame, user_id: int, *, reason: str) -> GameUpdate:
        async with hosted.lock:
            self._running(hosted.id)  # it may have ended or been cancelled while we waited
            seat = self._seat_of(hosted, user_id)
            game = hosted.game
            pending = None if game.has_quit(seat.index) else game.round_number
            await self._store.games.hand_seat_to_ai(
                hosted.id, seat.index, ai_level="normal", now=self._now(),
                quit_pending_round=pending,
            )
            seat.hand_to_ai(hosted.game)
            self._arm_timers(hosted)
            notice = Notice(NoticeKind.AI_TOOK_OVER, seat.index, user_id, reason)
            update = GameUpdate(view=hosted.view(), notices=(notice,), hands=hosted.hands())
        await self._publish(update)
        return update

    # ----------------------------------------------------------------- timers

    def _arm_timers(self, hosted: HostedGame, turn_started_at: float | None = None) -> None:
        """Schedule what happens next if nobody acts: an AI move or the turn timer.

        A turn starts when the move before it is committed, so after a restart the
        deadlines are counted from the game's last commit, not from the restart.
        """
        self.timers.clear(hosted.id)
        game = hosted.game
        if game is None or game.is_over or game.current_seat is None:
            return
        seat = hosted.seats[game.current_seat]
        start = self._clock.now() if turn_started_at is None else turn_started_at
        if seat.ai_level is not None:
            self.timers.add(
                Timer(start + hosted.options.ai_delay, hosted.id, TimerKind.AI, hosted.seq)
            )
            return
        timeout = hosted.options.turn_timeout
        if start + timeout / 2 > self._clock.now():
            self.timers.add(Timer(start + timeout / 2, hosted.id, TimerKind.REMINDER, hosted.seq))
        self.timers.add(Timer(start + timeout, hosted.id, TimerKind.TURN, hosted.seq))

    async def fire_due_timers(self) -> int:
        """Run every timer that is due now; returns how many fired."""
        fired = 0
        for timer in self.timers.pop_due():
            try:
                await self._fire(timer)
            except Exception:
                log.exception("%s timer failed for game %s", timer.kind, timer.game_id)
                self._retry_later(timer)
            fired += 1
        return fired

    def _retry_later(self, timer: Timer) -> None:
        """A failed AI move or time-out must not stall the game: try again in a moment."""
        hosted = self._games.get(timer.game_id)
        if timer.kind is TimerKind.REMINDER or hosted is None:
            return
        if hosted.status is Status.RUNNING and hosted.seq == timer.seq:
            self.timers.add(replace(timer, due_at=self._clock.now() + TIMER_RETRY_S))

    async def run_timers(self) -> None:
        """Fire timers as they fall due, for as long as the service runs."""
        while True:
            await self.timers.wait_until_due()
            await self.fire_due_timers()

    async def _fire(self, timer: Timer) -> None:
        hosted = self._games.get(timer.game_id)
        if hosted is None or hosted.status is not Status.RUNNING:
            return
        async with hosted.lock:
            if hosted.status is not Status.RUNNING:
                return  # cancelled (or over) while this timer waited for the lock
            if hosted.seq != timer.seq or hosted.game.current_seat is None:
                return  # someone moved since this timer was set
            seat = hosted.seats[hosted.game.current_seat]
            if (timer.kind is TimerKind.AI) != (seat.ai_level is not None):
                return  # an AI took the seat (same seq) after this timer left the queue
            if timer.kind is TimerKind.REMINDER:
                notice = Notice(NoticeKind.REMINDER, seat.index, seat.user_id)
                update = GameUpdate(view=hosted.view(), notices=(notice,))
            elif timer.kind is TimerKind.AI:
                update = await self._ai_move(hosted, seat)
            else:
                update = await self._time_out(hosted, seat)
        await self._publish(update)

    async def _ai_move(self, hosted: HostedGame, seat: Seat) -> GameUpdate:
        game = hosted.game
        if seat.quit_pending_round == game.round_number:
            action: Action = QUIT
        else:
            level = seat.ai_level or "normal"
            policy = get_policy(_POLICY_OF_LEVEL[level])
            rng = random.Random(game.seed * 1_000_003 + hosted.seq)
            observation = game.observation(seat.index)
            if level in SLOW_AI_LEVELS:  # milliseconds of rollouts: keep the loop answering
                action = await asyncio.to_thread(policy.choose, observation, rng)
            else:
                action = policy.choose(observation, rng)
        return await self._apply(hosted, seat.index, action, actor=Actor.AI)

    async def _time_out(self, hosted: HostedGame, seat: Seat) -> GameUpdate:
        """The turn time is over: the bot quits the round for them; thrice running, an AI."""
        notices = [Notice(NoticeKind.TIMED_OUT, seat.index, seat.user_id)]
        update = await self._apply(hosted, seat.index, QUIT, actor=Actor.TIMER, notices=notices)
        seat.timeouts_in_a_row += 1
        if seat.timeouts_in_a_row >= TIMEOUTS_BEFORE_AI and hosted.status is Status.RUNNING:
            try:
                await self._store.games.hand_seat_to_ai(
                    hosted.id, seat.index, ai_level="normal", now=self._now()
                )
            except Exception:  # the quit is committed: announce it; the next expiry retries
                log.exception("could not hand seat %s of game %s to an AI", seat.index, hosted.id)
                return update
            seat.hand_to_ai(None)
            self._arm_timers(hosted)
            taken = Notice(NoticeKind.AI_TOOK_OVER, seat.index, seat.user_id, "timeouts")
            update = replace(update, view=hosted.view(), notices=(*update.notices, taken))
        return update


def _validate_options(options: GameOptions, ai_seats: int) -> None:
    if options.variant not in RULESETS:
        raise HostingError(Problem.BAD_OPTION, option="variant", value=options.variant)
    if not 10 <= options.target <= 200:
        raise HostingError(Problem.BAD_OPTION, option="target", value=options.target)
    if not 10 <= options.turn_timeout <= 3600:
        raise HostingError(Problem.BAD_OPTION, option="turn_timeout", value=options.turn_timeout)
    if options.ai_level not in AI_LEVELS:
        raise HostingError(Problem.BAD_OPTION, option="ai_level", value=options.ai_level)
    if not 0 <= ai_seats <= MAX_SEATS - 1:
        raise HostingError(Problem.BAD_OPTION, option="ai_seats", value=ai_seats)
