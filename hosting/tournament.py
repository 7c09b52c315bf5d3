"""Swiss tournaments, hosted: sign-ups, seating each round by the standings, each table an
ordinary hosted game, and the final standings. No Discord and no SQL.

Tables of one round are played one after another in the tournament's channel (a channel holds
one game at a time). What happens next is always derived from what is stored (the tables and
their games' results), so `advance` after a restart carries on exactly where the bot stopped.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from store import Store
from store.tournaments import Entry, TableOutcome, TableRecord, Tournament, TournamentConflict
from store.tournaments import TournamentStatus as TStatus

from . import options as limits
from .clock import Clock
from .errors import HostingError, Problem
from .hosted import ai_name
from .service import GameService
from .swiss import Pair, Standing, TableResult, pairs_of, seat_round, standings
from .views import GameUpdate, Status

log = logging.getLogger(__name__)

MIN_ENTRANTS = 3  # fewer is a game, not a tournament
MAX_ENTRANTS = 40
NAME_LENGTH = 60


class TournamentEvent(StrEnum):
    SIGNUPS = "signups"  # someone joined or left, or an AI was added
    ROUND_SEATED = "round_seated"  # a round's tables are known
    TABLE_OPENED = "table_opened"  # a table's game started
    FINISHED = "finished"  # final standings
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class TournamentUpdate:
    event: TournamentEvent
    tournament: Tournament
    standings: tuple[Standing, ...] = ()
    tables: tuple[TableRecord, ...] = ()  # ROUND_SEATED: the round; TABLE_OPENED: the table


TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]


def table_results(tournament: Tournament, outcomes: list[TableOutcome]) -> list[TableResult]:
    """Finished tables as Swiss results: an entrant who left ranks last; a cancelled table
    counts for nobody."""
    results = []
    for outcome in outcomes:
        if outcome.status != Status.FINISHED.value:
            continue
        seats = len(outcome.table.entries) + outcome.table.ai_seats
        places, scores = {}, {}
        for seat, entry in enumerate(outcome.table.entries):
            left = outcome.left.get(seat, False)
            places[entry] = seats if left else outcome.places[seat]
            scores[entry] = outcome.scores[seat]
        results.append(TableResult(seats, places, scores))
    return results


class TournamentService:
    def __init__(self, store: Store, clock: Clock, games: GameService) -> None:
        self._store = store
        self._clock = clock
        self._games = games
        self._listeners: list[TournamentListener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._pending: set[asyncio.Task[None]] = set()

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
            raise _problem(error) from None

    async def get(self, tournament_id: int) -> Tournament:
        found = await self._store.tournaments.get(tournament_id)
        if found is None:
            raise HostingError(Problem.NO_TOURNAMENT)
        return found

    async def in_channel(self, channel_id: int) -> Tournament | None:
        """The channel's open tournament, else its most recent one (None: never had one)."""
        return await self._store.tournaments.latest_in_channel(channel_id)

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
        _require_organiser(await self.get(tournament_id), actor_id, is_admin)
        count = sum(e.user_id is None for e in (await self.get(tournament_id)).entries)
        name = f"{ai_name(count + 1)} ({level})"
        return await self._signups(tournament_id, lambda now: self._store.tournaments.add_entry(
            tournament_id, user_id=None, ai_level=level, name=name, limit=MAX_ENTRANTS,
            now=now))

    async def _signups(self, tournament_id: int, change) -> Tournament:
        async with self._lock(tournament_id):
            try:
                tournament = await change(self._now())
            except TournamentConflict as error:
                raise _problem(error) from None
        await self._publish(TournamentUpdate(TournamentEvent.SIGNUPS, tournament))
        return tournament

    async def cancel(self, tournament_id: int, actor_id: int, *, is_admin: bool) -> Tournament:
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            _require_organiser(tournament, actor_id, is_admin)
            try:
                await self._store.tournaments.finish(tournament_id, TStatus.CANCELLED,
                                                     now=self._now())
            except TournamentConflict as error:
                raise _problem(error) from None
            tournament = replace(tournament, status=TStatus.CANCELLED)
        await self._publish(TournamentUpdate(TournamentEvent.CANCELLED, tournament))
        return tournament

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        await self._store.tournaments.set_signup_message(tournament_id, message_id)

    # ------------------------------------------------------------------- rounds

    async def check_can_start(
        self, tournament_id: int, actor_id: int, *, is_admin: bool
    ) -> Tournament:
        """Refuse a start that cannot happen (who asks, the field, the channel)."""
        tournament = await self.get(tournament_id)
        _require_organiser(tournament, actor_id, is_admin)
        if tournament.status is not TStatus.SIGNUP:
            raise HostingError(Problem.TOURNAMENT_STARTED)
        _check_field(tournament)
        if self._games.game_in_channel(tournament.channel_id) is not None:
            raise HostingError(Problem.GAME_EXISTS)
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
        entries = [e.entry for e in tournament.entries]
        return tournament, standings(entries, table_results(tournament, outcomes))

    async def _seat_round(self, tournament: Tournament, outcomes: list[TableOutcome]):
        entries = [e.entry for e in tournament.entries]
        ranked = [s.entry for s in standings(entries, table_results(tournament, outcomes))]
        met: Counter[Pair] = Counter()
        for outcome in outcomes:
            met.update(pairs_of(outcome.table.entries))
        humans = {e.entry for e in tournament.entries if e.user_id is not None}
        tables = [
            (sorted(t.entries, key=lambda e: (e not in humans, ranked.index(e))), t.ai_seats)
            for t in seat_round(ranked, tournament.table_size, met, hosts=humans)
        ]
        number = tournament.round + 1
        tournament = await self._store.tournaments.start_round(
            tournament.id, number, tables, now=self._now())
        seated = tuple(TableRecord(number, n, tuple(e), ai, None)
                       for n, (e, ai) in enumerate(tables, start=1))
        await self._publish(TournamentUpdate(TournamentEvent.ROUND_SEATED, tournament,
                                             tables=seated))
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
        if update.view.status in (Status.FINISHED, Status.CANCELLED):
            tournament_id = await self._store.tournaments.tournament_of_game(update.view.game_id)
            if tournament_id is not None:
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
        """Do the next thing the stored state calls for: open the next table's game, seat the
        next round, or finish. Nothing while a table is being played."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.status is not TStatus.RUNNING:
                return
            outcomes = await self._store.tournaments.outcomes(tournament_id)
            current = [o for o in outcomes if o.table.round == tournament.round]
            if any(o.status in (Status.LOBBY.value, Status.RUNNING.value) for o in current):
                playing = next(o for o in current if o.status in ("lobby", "running"))
                if playing.status == Status.LOBBY.value:  # stopped while seating: finish it
                    await self._fill_and_start(tournament, playing.table)
                return
            waiting = [o.table for o in current if o.table.game_id is None]
            if waiting:
                await self._open_table(tournament, waiting[0])
                return
            if tournament.round < tournament.rounds:
                await self._seat_round(tournament, outcomes)
            else:
                await self._finish(tournament, outcomes)
                return
        await self.advance(tournament_id)  # the new round's first table

    async def _finish(self, tournament: Tournament, outcomes: list[TableOutcome]) -> None:
        await self._store.tournaments.finish(tournament.id, TStatus.FINISHED, now=self._now())
        entries = [e.entry for e in tournament.entries]
        final = standings(entries, table_results(tournament, outcomes))
        await self._publish(TournamentUpdate(
            TournamentEvent.FINISHED, replace(tournament, status=TStatus.FINISHED),
            standings=tuple(final)))

    async def _open_table(self, tournament: Tournament, table: TableRecord) -> None:
        by_entry = {e.entry: e for e in tournament.entries}
        host = by_entry[table.entries[0]]
        assert host.user_id is not None  # seating puts a human first at every table
        defaults = await self._games.guild_defaults(tournament.guild_id)
        options = replace(defaults, variant=tournament.variant)
        update = await self._games.open_lobby(
            tournament.guild_id, tournament.channel_id, host.user_id, host.display_name, options)
        await self._store.tournaments.set_table_game(
            tournament.id, table.round, table.table_no, update.view.game_id)
        await self._fill_and_start(tournament, replace(table, game_id=update.view.game_id))

    async def _fill_and_start(self, tournament: Tournament, table: TableRecord) -> None:
        """Seat the table's entrants in order (an absent human's seat goes to an AI), fill it
        with AI seats, and start its game."""
        assert table.game_id is not None
        by_entry = {e.entry: e for e in tournament.entries}
        view = self._games.view(table.game_id)
        host = view.seats[0].user_id
        assert host is not None
        for entry in [by_entry[e] for e in table.entries][len(view.seats):]:
            await self._seat(table.game_id, host, entry)
        view = self._games.view(table.game_id)
        for _ in range(len(table.entries) + table.ai_seats - len(view.seats)):
            await self._games.add_ai(table.game_id, host, "normal", is_admin=True)
        await self._games.start(table.game_id, host, is_admin=True)
        await self._publish(TournamentUpdate(TournamentEvent.TABLE_OPENED, tournament,
                                             tables=(table,)))

    async def _seat(self, game_id: int, host: int, entry: Entry) -> None:
        if entry.user_id is None:
            await self._games.add_ai(game_id, host, entry.ai_level, is_admin=True)
            return
        try:
            await self._games.join(game_id, entry.user_id, entry.display_name)
        except HostingError as error:  # seated at another game: an AI sits in for them
            log.info("tournament entrant %s not seated (%s): an AI sits in", entry.user_id,
                     error.problem)
            await self._games.add_ai(game_id, host, "normal", is_admin=True)


def _require_organiser(tournament: Tournament, actor_id: int, is_admin: bool) -> None:
    if actor_id != tournament.organiser_id and not is_admin:
        raise HostingError(Problem.NOT_ORGANISER, organiser=f"<@{tournament.organiser_id}>")


def _check_field(tournament: Tournament) -> None:
    entrants = len(tournament.entries)
    humans = sum(e.user_id is not None for e in tournament.entries)
    tables = -(-entrants // tournament.table_size)
    if entrants < MIN_ENTRANTS or humans < tables:
        raise HostingError(Problem.NOT_ENOUGH_ENTRANTS, minimum=MIN_ENTRANTS, tables=tables)


def _problem(error: TournamentConflict) -> HostingError:
    return HostingError({
        "not_found": Problem.NO_TOURNAMENT,
        "channel_busy": Problem.TOURNAMENT_EXISTS,
        "already_entered": Problem.ALREADY_ENTERED,
        "not_entered": Problem.NOT_ENTERED,
        "full": Problem.TOURNAMENT_FULL,
    }.get(error.reason, Problem.TOURNAMENT_STARTED))
