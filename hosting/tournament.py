"""Swiss tournaments, hosted: sign-ups, seating each round by the standings, each table an
ordinary hosted game, and the final standings. No Discord and no SQL.

A round's tables are played at the same time, each in a place of its own: the interface
opens one (a thread of the tournament's channel) for each table, and the table's game is
bound to it, seated and started at once. Where no such place can be made, tables fall back to
the tournament's channel and play there one after another. What happens next is always
derived from what is stored (the tables and their games' results), so `advance` after a
restart carries on exactly where the bot stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace

from store import Store
from store.tournaments import (
    Entry,
    TableKey,
    TableOutcome,
    TableRecord,
    Tournament,
    TournamentConflict,
)
from store.tournaments import TournamentStatus as TStatus

from . import options as limits
from .clock import Clock
from .errors import HostingError, Problem
from .service import GameService
from .swiss import Pair, Standing, pairs_of, seat_round
from .tournament_cancel import cancel_tables, check_may_cancel_table
from .tournament_checks import check_field, conflict_problem, require_organiser
from .tournament_events import (
    PlayedAs,
    TablePlaces,
    TournamentEvent,
    TournamentListener,
    TournamentUpdate,
)
from .tournament_results import (
    games_of,
    only_table,
    others_to_play,
    standings_of,
    still_to_play,
)
from .tournament_seats import ai_entrant_name, table_seats
from .views import GameUpdate, GameView, Status

log = logging.getLogger(__name__)

MAX_ENTRANTS = 40
NAME_LENGTH = 60


class TournamentService:
    def __init__(self, store: Store, clock: Clock, games: GameService) -> None:
        self._store = store
        self._clock = clock
        self._games = games
        self._listeners: list[TournamentListener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._pending: set[asyncio.Task[None]] = set()
        self._places: TablePlaces | None = None

    def set_table_places(self, places: TablePlaces) -> None:
        """Who opens each table's own place (the composition root sets the interface's)."""
        self._places = places

    def _now(self) -> int:
        return int(self._clock.now())

    def add_listener(self, listener: TournamentListener) -> None:
        self._listeners.append(listener)

    async def _publish(self, update: TournamentUpdate) -> None:
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("tournament listener failed for %s", update.tournament.id)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # ----------------------------------------------------------------- sign-ups

    async def create(
        self, guild_id: int, channel_id: int, organiser_id: int, *, name: str, rounds: int,
        table_size: int, variant: str,
    ) -> Tournament:
        name = " ".join(name.split())[:NAME_LENGTH]
        limits.validate(variant=variant, rounds=rounds, table_size=table_size)
        if not name:
            raise HostingError(Problem.BAD_OPTION, option="name", value=name)
        try:
            return await self._store.tournaments.create(
                guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id, name=name,
                rounds=rounds, table_size=table_size, variant=variant, now=self._now())
        except TournamentConflict as error:
            raise conflict_problem(error) from None

    async def get(self, tournament_id: int) -> Tournament:
        found = await self._store.tournaments.get(tournament_id)
        if found is None:
            raise HostingError(Problem.NO_TOURNAMENT)
        return found

    async def guild_of(self, tournament_id: int) -> int | None:
        """The server a tournament is held in (None: no such tournament)."""
        found = await self._store.tournaments.get(tournament_id)
        return found.guild_id if found is not None else None

    async def in_channel(self, channel_id: int) -> Tournament | None:
        """The channel's open tournament, else its most recent one, else the one whose table
        this channel (a table's thread) was (None: never had one)."""
        found = await self._store.tournaments.latest_in_channel(channel_id)
        return found or await self._store.tournaments.of_table_channel(channel_id)

    async def join(self, tournament_id: int, user_id: int, name: str) -> Tournament:
        return await self._signups(tournament_id, lambda now: self._store.tournaments.add_entry(
            tournament_id, user_id=user_id, ai_level=None, name=name, limit=MAX_ENTRANTS,
            now=now))

    async def leave(self, tournament_id: int, user_id: int) -> Tournament:
        return await self._signups(tournament_id, lambda now: self._store.tournaments.remove_entry(
            tournament_id, user_id, now=now))

    async def add_ai(
        self, tournament_id: int, actor_id: int, *, is_admin: bool, level: str = "normal"
    ) -> Tournament:
        limits.validate(ai_level=level)
        require_organiser(await self.get(tournament_id), actor_id, is_admin)
        count = sum(e.user_id is None for e in (await self.get(tournament_id)).entries)
        name = ai_entrant_name(count + 1, level)
        return await self._signups(tournament_id, lambda now: self._store.tournaments.add_entry(
            tournament_id, user_id=None, ai_level=level, name=name, limit=MAX_ENTRANTS,
            now=now))

    async def _signups(
        self, tournament_id: int, change: Callable[[int], Awaitable[Tournament]]
    ) -> Tournament:
        async with self._lock(tournament_id):
            try:
                tournament = await change(self._now())
            except TournamentConflict as error:
                raise conflict_problem(error) from None
        await self._publish(TournamentUpdate(TournamentEvent.SIGNUPS, tournament))
        return tournament

    async def cancel(self, tournament_id: int, actor_id: int, *, is_admin: bool) -> Tournament:
        """Cancel the tournament and its tables still to be played (tournament_cancel.py)."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            require_organiser(tournament, actor_id, is_admin)
            try:
                await self._store.tournaments.finish(tournament_id, TStatus.CANCELLED,
                                                     now=self._now())
            except TournamentConflict as error:
                raise conflict_problem(error) from None
            tournament = replace(tournament, status=TStatus.CANCELLED)
        await cancel_tables(self._store, self._games, tournament_id)
        await self._publish(TournamentUpdate(TournamentEvent.CANCELLED, tournament))
        return tournament

    async def cancel_game(self, game_id: int, actor_id: int, *, is_admin: bool) -> GameUpdate:
        """/lama cancel: a casual game as its host (or Manage Server) may; a tournament's
        table only with its whole tournament, by the organiser or Manage Server."""
        key = await self._store.tournaments.table_of_game(game_id)
        if key is None:
            return await self._games.cancel(game_id, actor_id, is_admin=is_admin)
        check_may_cancel_table(await self.get(key.tournament_id), actor_id, is_admin)
        await self.cancel(key.tournament_id, actor_id, is_admin=is_admin)
        return GameUpdate(view=self._games.view(game_id))

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        await self._store.tournaments.set_signup_message(tournament_id, message_id)

    # ------------------------------------------------------------------- rounds

    async def check_can_start(
        self, tournament_id: int, actor_id: int, *, is_admin: bool
    ) -> Tournament:
        """Refuse a start that cannot happen (who asks, the field, the channel)."""
        tournament = await self.get(tournament_id)
        require_organiser(tournament, actor_id, is_admin)
        if tournament.status is not TStatus.SIGNUP:
            raise HostingError(Problem.TOURNAMENT_STARTED)
        check_field(tournament)
        return tournament

    async def start(self, tournament_id: int, actor_id: int, *, is_admin: bool) -> Tournament:
        async with self._lock(tournament_id):
            tournament = await self.check_can_start(tournament_id, actor_id, is_admin=is_admin)
            tournament = await self._seat_round(tournament, [])
        await self.advance(tournament_id)
        return tournament

    async def standings(self, tournament_id: int) -> tuple[Tournament, list[Standing]]:
        tournament = await self.get(tournament_id)
        outcomes = await self._store.tournaments.outcomes(tournament_id)
        return tournament, standings_of(tournament, outcomes)

    async def table_of_game(self, game_id: int) -> PlayedAs | None:
        """The tournament and table a game is played as; None: a casual game."""
        key = await self._store.tournaments.table_of_game(game_id)
        if key is None:
            return None
        outcomes = await self._store.tournaments.outcomes(key.tournament_id)
        return PlayedAs(await self.get(key.tournament_id), key,
                        last=not others_to_play(outcomes, key),
                        alone=only_table(outcomes, key))

    async def _seat_round(
        self, tournament: Tournament, outcomes: list[TableOutcome], after: tuple[int, ...] = ()
    ) -> Tournament:
        ranked = [s.entry for s in standings_of(tournament, outcomes)]
        met: Counter[Pair] = Counter()
        for outcome in outcomes:
            met.update(pairs_of(outcome.table.entries))
        humans = {e.entry for e in tournament.entries if e.user_id is not None}
        # a search that may take a second in a large field: the event loop answers meanwhile
        seating = await asyncio.to_thread(seat_round, ranked, tournament.table_size, met,
                                          hosts=humans)
        tables = [
            (sorted(t.entries, key=lambda e: (e not in humans, ranked.index(e))), t.ai_seats)
            for t in seating
        ]
        number = tournament.round + 1
        tournament = await self._store.tournaments.start_round(
            tournament.id, number, tables, now=self._now())
        seated = tuple(TableRecord(number, n, tuple(e), ai, None)
                       for n, (e, ai) in enumerate(tables, start=1))
        await self._publish(TournamentUpdate(TournamentEvent.ROUND_SEATED, tournament,
                                             tables=seated, after=after))
        return tournament

    async def resume(self) -> None:
        """After a restart: carry every running tournament on from what is stored."""
        for tournament in await self._store.tournaments.open_tournaments():
            if tournament.status is TStatus.RUNNING:
                await self.advance(tournament.id)

    async def on_game_update(self, update: GameUpdate) -> None:
        """GameService listener (registered by the composition root, after the renderer).

        The next table opens in a task of its own: the move that ended a table is answered
        first, not after a lobby, its seats and a start.
        """
        view = update.view
        if view.status not in (Status.FINISHED, Status.CANCELLED):
            return
        tournament_id = await self._store.tournaments.tournament_of_game(view.game_id)
        if tournament_id is None:  # a casual game: its channel may be a table's fallback place
            here = await self._store.tournaments.latest_in_channel(view.channel_id)
            if here is None or here.status is not TStatus.RUNNING:
                return
            tournament_id = here.id
        task = asyncio.create_task(self._advance_logged(tournament_id))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _advance_logged(self, tournament_id: int) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # resume() after a restart tries again
            log.exception("tournament %s could not move on", tournament_id)

    async def settle(self) -> None:
        """Wait for every table change already under way (tests, and shutting down)."""
        while self._pending:
            await asyncio.gather(*list(self._pending))

    async def advance(self, tournament_id: int) -> None:
        """Do the next thing the stored state calls for: open the round's tables, seat the
        next round, or finish. Nothing more while a table is being played."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.status is not TStatus.RUNNING:
                return
            outcomes = await self._store.tournaments.outcomes(tournament_id)
            current = [o for o in outcomes if o.table.round == tournament.round]
            if await self._play_round(tournament, current):
                return
            if tournament.round < tournament.rounds:
                await self._seat_round(tournament, outcomes, after=games_of(current))
            else:
                await self._finish(tournament, outcomes, after=games_of(current))
                return
        await self.advance(tournament_id)  # the new round's tables

    async def _play_round(self, tournament: Tournament, current: list[TableOutcome]) -> bool:
        """Open every table of the round that has no game yet, all at once; True while any
        table is still to be played."""
        playing = False
        for outcome in current:
            table = outcome.table
            if table.game_id is None:
                await self._open_table(tournament, table)
            elif outcome.status == Status.LOBBY.value:  # stopped between seating and start
                await self._start_table(tournament, table, self._games.view(table.game_id))
            playing |= still_to_play(outcome)
        return playing

    async def _finish(
        self, tournament: Tournament, outcomes: list[TableOutcome], after: tuple[int, ...]
    ) -> None:
        await self._store.tournaments.finish(tournament.id, TStatus.FINISHED, now=self._now())
        final = standings_of(tournament, outcomes)
        await self._publish(TournamentUpdate(
            TournamentEvent.FINISHED, replace(tournament, status=TStatus.FINISHED),
            standings=tuple(final), after=after))

    async def _open_table(self, tournament: Tournament, table: TableRecord) -> None:
        """The table's game in its own place, seated and started; in the tournament's
        channel only once that is free (the fallback plays tables one after another)."""
        thread_id = await self._places(tournament, table) if self._places else None
        channel_id = thread_id or tournament.channel_id
        if thread_id is None and await self._channel_busy(tournament, table):
            return  # the game there ends, and on_game_update (where it ends) comes back
        defaults = await self._games.guild_defaults(tournament.guild_id)
        by_entry = {e.entry: e for e in tournament.entries}
        entrants = [by_entry[e] for e in table.entries]
        await self._leave_lobbies(tournament.guild_id, entrants)
        seats = table_seats(tournament, entrants, table.ai_seats)
        key = TableKey(tournament.id, table.round, table.table_no)
        try:
            game_id, stand_ins = await self._games.open_table(
                tournament.guild_id, channel_id, seats,
                replace(defaults, variant=tournament.variant), thread_id=thread_id, table=key)
        except HostingError as error:
            if error.problem is not Problem.GAME_EXISTS:
                raise
            await self._channel_busy(tournament, table)  # opened elsewhere just now: it waits
            return
        if stand_ins:
            log.info("tournament %s table %s: AIs stand in for %s (seated elsewhere)",
                     tournament.id, table.table_no, stand_ins)
        await self._start_table(tournament, replace(table, game_id=game_id),
                                self._games.view(game_id), stand_ins)

    async def _channel_busy(self, tournament: Tournament, table: TableRecord) -> bool:
        """Whether the tournament's channel holds a game, this process's or (as the store has
        it) another's: the table waits for it. Waiting for a game that is not one of the
        tournament's tables is told at most once per table, whichever process looks at it
        again (the store claims the notice before it is posted), so its players know why."""
        game_id = await self._games.active_game_in_channel(tournament.channel_id)
        if game_id is None:
            return False
        key = TableKey(tournament.id, table.round, table.table_no)
        if (await self._store.tournaments.tournament_of_game(game_id) != tournament.id
                and await self._store.tournaments.claim_wait_notice(key, now=self._now())):
            await self._publish(TournamentUpdate(
                TournamentEvent.TABLE_WAITING, tournament, tables=(table,),
                channel_id=tournament.channel_id))
        return True

    async def _leave_lobbies(self, guild_id: int, entrants: list[Entry]) -> None:
        """An entrant waiting in a casual lobby leaves it for their table (one playing a game
        keeps it: an AI stands in for them at the table)."""
        for entry in entrants:
            for view in self._games.active_games_of(entry.user_id or 0, guild_id):
                if view.status is Status.LOBBY:  # started meanwhile: an AI stands in for them
                    with contextlib.suppress(HostingError):
                        await self._games.leave(view.game_id, entry.user_id or 0)

    async def _start_table(self, tournament: Tournament, table: TableRecord, view: GameView,
                           stand_ins: tuple[int, ...] = ()) -> None:
        # The tournament starts it as an admin would: the host's id only names the actor (a
        # table's lobby always has one, its first human entrant).
        await self._games.start(view.game_id, view.host_id or 0, is_admin=True)
        await self._publish(TournamentUpdate(
            TournamentEvent.TABLE_OPENED, tournament, tables=(table,),
            channel_id=view.channel_id, stand_ins=stand_ins))
