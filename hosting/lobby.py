"""Lobbies: open one, take and leave seats, add AIs, start, rematch (kick and cancel:
moderation.py).

Seats are checked and taken holding the locks of the players seated and of the channel (one
seat per player per server, one open game per channel; seat_locks.py) and the game's own lock;
every change is stored before it is told. A channel that memory says is busy is confirmed
with the store first (`GameLoader.held_in_channel`): a copy of a game that ended in another
process does not hold the channel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lama import Game, RoundStarted, game_to_dict
from store import ChannelHasActiveGame
from store.tournaments import TableKey

from . import options as limits
from .context import Context
from .errors import HostingError, Problem
from .hosted import HostedGame, Seat, ai_name, next_ai_number
from .loader import GameLoader
from .registry import seat_of
from .table import Table
from .views import END, LOBBY, TABLE, GameOptions, GameUpdate, RecentEvent, Status, ai_called


class Lobby:
    def __init__(self, context: Context, table: Table, loader: GameLoader,
                 seed_source: Callable[[], int]) -> None:
        self._store = context.store
        self._registry = context.registry
        self._timers = context.timers
        self._listeners = context.listeners
        self._now = context.now
        self._clock = context.clock
        self._table = table
        self._loader = loader
        self.seed_source = seed_source  # the seed of each game's deals

    async def _changed(self, hosted: HostedGame) -> GameUpdate:
        update = GameUpdate(view=hosted.view())
        await self._listeners.publish(update)
        return update

    # ------------------------------------------------------------------ open

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: GameOptions,
        ai_seats: int = 0,
    ) -> GameUpdate:
        limits.validate(
            variant=options.variant,
            target=options.target,
            turn_timeout=options.turn_timeout,
            ai_delay=options.ai_delay,
            ai_level=options.ai_level,
            ai_seats=ai_seats,
        )
        # the checks and the new lobby, as one step
        async with self._registry.seating(guild_id, [host_id], channel_id):
            _check_channel_free(await self._loader.held_in_channel(channel_id))
            self._registry.check_not_seated_elsewhere(host_id, guild_id, game_id=-1)
            seats = [Seat(0, host_name, host_id)]
            seats += [Seat.ai(i, options.ai_level, i + 1) for i in range(1, ai_seats + 1)]
            hosted = await self._create(guild_id, channel_id, host_id, seats, options)
        return await self._changed(hosted)

    async def open_table(
        self, guild_id: int, channel_id: int, entrants: Sequence[Seat], options: GameOptions,
        *, thread_id: int | None, table: TableKey,
    ) -> tuple[int, tuple[int, ...]]:
        """A tournament table's game, seated at once (no lobby to show; `start` it next).

        An entrant seated in another game of this server gets an AI standing in: a table
        never waits for one player. Returns the game and the users stood in for."""
        host_id = next(s.user_id for s in entrants if s.user_id is not None)
        async with self._registry.seating(guild_id, [s.user_id for s in entrants], channel_id):
            seats, absent = [], []
            for seat in entrants:
                if seat.user_id is not None and self._registry.active_games_of(
                        seat.user_id, guild_id):
                    absent.append(seat.user_id)
                    seat = Seat(seat.index, ai_name(seat.index), None, "normal")
                seats.append(seat)
            hosted = await self._create(guild_id, channel_id, host_id, seats, options,
                                        thread_id=thread_id, table=table)
        return hosted.id, tuple(absent)

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seats: list[Seat],
        options: GameOptions,
        *,
        rematch_of: int | None = None,
        thread_id: int | None = None,
        table: TableKey | None = None,
    ) -> HostedGame:
        """Store and register a lobby; the caller holds its seats' and channel's locks."""
        _check_channel_free(await self._loader.held_in_channel(channel_id))
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
                rematch_of=rematch_of,
                thread_id=thread_id,
                table=table,
            )
        except ChannelHasActiveGame as error:  # another process's, not known here: its channel
            raise HostingError(Problem.GAME_EXISTS, guild_id=guild_id,
                               channel_id=channel_id) from error
        hosted = HostedGame.from_record(record, ai_level=options.ai_level)
        self._registry.register(hosted)
        return hosted

    # --------------------------------------------------------------- rematch

    async def rematch(self, game_id: int, user_id: int, name: str) -> GameUpdate:
        """The first press re-seats a finished game: a lobby in its channel with its options,
        its AI seats, its host and every player who stayed to the end (each may leave before
        the start). A game has one rematch: a later press (a stale button, a double press)
        is pointed to it and changes nothing."""
        old = await self._finished(game_id)
        if user_id not in old.player_ids:
            raise HostingError(Problem.NOT_A_PLAYER, game_id=game_id)
        if await self._store.tournaments.tournament_of_game(game_id) is not None:
            raise HostingError(Problem.TOURNAMENT_TABLE, game_id=game_id)  # it seats its rounds
        seated = [*old.player_ids, user_id]  # whom the rematch may seat
        async with self._registry.seating(old.guild_id, seated, old.channel_id):
            held = await self._loader.held_in_channel(old.channel_id)
            if held is not None and held.rematch_of == game_id:
                _refuse_rematch(held, user_id)
            replay = await self._store.games.rematch_of(game_id)  # another process's, or over
            if replay is not None:
                _refuse_rematch(HostedGame.from_record(replay), user_id)
            if held is not None:
                raise _game_exists(held)
            opened = await self._open_rematch(old, user_id, name)
        return await self._changed(opened)  # told once its seats' locks are free

    async def rematch_offer(self, game_id: int) -> tuple[int, int] | None:
        """Where the finished game's "Game over" post is, if the game is free for a rematch
        (the one it had was cancelled, none opened since): its Rematch button goes back."""
        game = self._registry.find(game_id)
        if game is None or END not in game.messages:  # forgotten since, or another process's
            record = await self._store.games.get_game(game_id)
            game = HostedGame.from_record(record) if record else None
        ref = game.messages.get(END) if game is not None else None
        if game is None or ref is None or await self._store.games.rematch_of(game_id) is not None:
            return None
        if ref[0] != game.channel_id:
            return None  # in the game's thread, archived with it: Discord edits nothing there
        return ref

    async def _open_rematch(self, old: HostedGame, presser_id: int, name: str) -> HostedGame:
        """The rematch lobby of `old`; the caller holds its seats' and channel's locks."""
        self._registry.check_not_seated_elsewhere(presser_id, old.guild_id, game_id=-1)
        seats = self._rematch_seats(old, presser_id, name)
        humans = {s.user_id for s in seats if s.user_id is not None}
        host = old.host_id if old.host_id in humans else presser_id  # None: forgotten
        return await self._create(
            old.guild_id, old.channel_id, host, seats, old.options, rematch_of=old.id
        )

    async def _finished(self, game_id: int) -> HostedGame:
        """A game that is over, from memory or — if it ended before a restart — the store."""
        old = self._registry.find(game_id)
        if old is None:  # restore() loads only unfinished games
            record = await self._store.games.get_game(game_id)
            if record is None:
                raise HostingError(Problem.NO_GAME_HERE)
            old = HostedGame.from_record(record)
        if old.is_active:
            raise _game_exists(old)
        return old

    def _rematch_seats(self, old: HostedGame, presser_id: int, presser_name: str) -> list[Seat]:
        """The old seats in their order: AIs from the start (each called as it was), and the
        humans who stayed to the end (or pressed) unless they sit in another game of this
        server now."""
        seats: list[Seat] = []
        for seat in old.seats:
            if seat.user_id is None:
                number = ai_called(seat.index, seat.ai_number)
                seats.append(Seat.ai(len(seats), seat.ai_level or old.ai_level, number))
                continue
            pressed = seat.user_id == presser_id
            busy = self._registry.active_games_of(seat.user_id, old.guild_id)
            if pressed or not (seat.left or busy):
                name = presser_name if pressed else seat.name
                seats.append(Seat(len(seats), name, seat.user_id, seated_by_rematch=not pressed))
        return seats[: limits.MAX_SEATS]

    # ----------------------------------------------------------------- seats

    async def join(self, game_id: int, user_id: int, name: str) -> GameUpdate:
        hosted = self._registry.lobby(game_id)
        async with self._registry.seating(hosted.guild_id, [user_id]), hosted.lock:
            self._registry.lobby(game_id)
            if hosted.seat_of(user_id) is not None:
                raise HostingError(Problem.ALREADY_JOINED)
            _check_room(hosted)
            self._registry.check_not_seated_elsewhere(user_id, hosted.guild_id, game_id)
            seat = Seat(len(hosted.seats), name, user_id)
            await self._store.games.add_seat(game_id, seat.new_seat(), now=self._now(),
                                             seated=_seated(hosted))
            hosted.seats.append(seat)
        return await self._changed(hosted)

    async def add_ai(
        self, game_id: int, user_id: int, level: str | None = None, *, is_admin: bool = False
    ) -> GameUpdate:
        hosted = self._registry.lobby(game_id)
        level = level or hosted.ai_level
        limits.validate(ai_level=level)
        async with hosted.lock:
            self._registry.lobby(game_id)
            require_host(hosted, user_id, is_admin)
            _check_room(hosted)
            seat = Seat.ai(len(hosted.seats), level, next_ai_number(hosted.seats))
            await self._store.games.add_seat(game_id, seat.new_seat(), now=self._now(),
                                             seated=_seated(hosted))
            hosted.seats.append(seat)
        return await self._changed(hosted)

    async def leave(self, game_id: int, user_id: int) -> GameUpdate:
        """Leave a lobby, or hand a running seat to an AI (the game counts as lost)."""
        hosted = self._registry.get(game_id)
        if hosted.status is Status.RUNNING:
            return await self._table.seat_to_ai(hosted, user_id, reason="left")
        hosted = self._registry.lobby(game_id)
        async with hosted.lock:
            self._registry.lobby(game_id)  # it may have started while we waited
            seat = seat_of(hosted, user_id)
            if seat.user_id == hosted.host_id:
                others = [
                    s.user_id
                    for s in hosted.seats
                    if s.user_id is not None and s.user_id != user_id
                ]
                if not others:  # unless the store has others seated: then this copy is behind
                    return await self.cancel_locked(hosted, seated=_seated(hosted))
                await self._store.games.set_host(game_id, others[0], now=self._now(),
                                                 seated=_seated(hosted))
                hosted.host_id = others[0]
            await self._store.games.remove_seat(game_id, seat.index, now=self._now(),
                                                seated=_seated(hosted))
            hosted.seats.remove(seat)
            for i, other in enumerate(hosted.seats):
                other.move_to(i)  # the store's seats moved up alike (remove_seat)
        return await self._changed(hosted)

    # ------------------------------------------------------------ start, end

    async def start(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameUpdate:
        hosted = self._registry.lobby(game_id)
        require_host(hosted, user_id, is_admin)
        async with hosted.lock:
            self._registry.lobby(game_id)
            if len(hosted.seats) < limits.MIN_SEATS:
                raise HostingError(Problem.NOT_ENOUGH_PLAYERS, minimum=limits.MIN_SEATS)
            seed = self.seed_source()
            game = Game.new(
                hosted.options.variant, len(hosted.seats), seed, target=hosted.options.target
            )
            now = self._clock.now()
            deadline = hosted.turn_deadline(now, game)
            await self._store.games.start_game(
                hosted.id, seed=seed, state=game_to_dict(game), now=int(now),
                timer=deadline.row() if deadline else None, seated=_seated(hosted),
            )
            hosted.game, hosted.status, hosted.deadline = game, Status.RUNNING, deadline
            events = (RoundStarted(game.round_number, game.seat_on_turn, game.top_card),)
            hosted.recent.append(RecentEvent(0, events[0]))
            self._timers.arm(hosted)
            update = GameUpdate(view=hosted.view(), events=events, hands=hosted.hands(), seqs=(0,))
        await self._listeners.publish(update)
        return update

    async def cancel_locked(
        self, hosted: HostedGame, *, seated: list[int | None] | None = None
    ) -> GameUpdate:
        """End the game as cancelled (a lobby its last human left, moderation.py's cancel);
        the caller holds its lock."""
        await self._store.games.cancel_game(hosted.id, now=self._now(), seated=seated)
        hosted.status = Status.CANCELLED
        self._timers.clear(hosted.id)
        self._registry.retire(hosted)
        update = GameUpdate(view=hosted.view(), hands=hosted.hands())  # hands: to close them
        await self._listeners.publish(update)
        return update


def _seated(hosted: HostedGame) -> list[int | None]:
    """The seats this copy has, for the store to refuse a write if another process changed
    them meanwhile (LobbyChanged: the copy is then reloaded, loader.py `changing`)."""
    return [s.user_id for s in hosted.seats]


def _check_room(hosted: HostedGame) -> None:
    if len(hosted.seats) >= limits.MAX_SEATS:
        raise HostingError(Problem.LOBBY_FULL, limit=limits.MAX_SEATS)


def require_host(
    hosted: HostedGame, user_id: int, is_admin: bool, *, admin_ok: bool = False
) -> None:
    """Only the host may; with `admin_ok` the refusal says Manage Server may too."""
    if user_id != hosted.host_id and not is_admin:
        raise HostingError(Problem.NOT_HOST, host_id=hosted.host_id, admin_ok=admin_ok)


def _check_channel_free(existing: HostedGame | None) -> None:
    """One game per channel: a second one is refused with a link to the first."""
    if existing is not None:
        raise _game_exists(existing)


def _refuse_rematch(rematch: HostedGame, user_id: int) -> None:
    """The game's rematch is open (or was played): where it is, and whether the presser
    already sits in its lobby."""
    if rematch.status is Status.LOBBY and rematch.seat_of(user_id) is not None:
        raise HostingError(Problem.ALREADY_IN_REMATCH, **_whereabouts(rematch))
    raise HostingError(Problem.REMATCH_EXISTS, **_whereabouts(rematch))


def _game_exists(hosted: HostedGame) -> HostingError:
    return HostingError(Problem.GAME_EXISTS, **_whereabouts(hosted))


def _whereabouts(hosted: HostedGame) -> dict[str, int | None]:
    """Where a game shows itself, for a refusal to point at: its table, else its lobby."""
    ref = hosted.messages.get(TABLE) or hosted.messages.get(LOBBY)
    return {
        "game_id": hosted.id,
        "guild_id": hosted.guild_id,
        "channel_id": ref[0] if ref else hosted.channel_id,
        "message_id": ref[1] if ref else None,
    }
