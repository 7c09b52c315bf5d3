"""Moderation: removing a player from a game (kick) and ending a game early (cancel), and
who may do either: the game's host or someone with Manage Server.

A tournament's table is the tournament's, not its host's (the host is only its first human
entrant): its organiser or Manage Server removes a player from it, who then counts at the
table as a player who left it (an AI plays on; they place last, without points). Its host is
refused, and nothing changes. It is cancelled only with its tournament
(tournament_cancel.py): asked here by anyone but the tournament, that is refused too.
"""

from __future__ import annotations

from store.tournaments import Tournament

from .context import Context
from .errors import HostingError, Problem
from .hosted import HostedGame
from .lobby import Lobby, require_host
from .table import Table
from .views import GameUpdate, Status


class Moderation:
    def __init__(self, context: Context, table: Table, lobby: Lobby) -> None:
        self._store = context.store
        self._registry = context.registry
        self._table = table
        self._lobby = lobby

    async def kick(
        self,
        game_id: int,
        actor_id: int,
        target_user_id: int,
        *,
        is_admin: bool,
        actor_name: str = "",
    ) -> GameUpdate:
        """Remove a player; `actor_name` is who did it, for the removed player to hear."""
        hosted = self._registry.get(game_id)
        if not hosted.is_active:
            raise HostingError(Problem.GAME_FINISHED)
        await self._check_may_kick(hosted, actor_id, is_admin)
        if target_user_id == actor_id:
            raise HostingError(Problem.CANNOT_KICK_SELF)
        if hosted.seat_of(target_user_id) is None:
            raise HostingError(Problem.NOT_SEATED)
        if hosted.status is Status.RUNNING:
            return await self._table.seat_to_ai(
                hosted, target_user_id, reason="kicked", by=actor_name
            )
        return await self._lobby.leave(game_id, target_user_id)

    async def cancel(
        self, game_id: int, actor_id: int, *, is_admin: bool, by_tournament: bool = False
    ) -> GameUpdate:
        """Its host or Manage Server; a tournament's table only its tournament (`by_tournament`)."""
        hosted = self._registry.get(game_id)
        if not hosted.is_active:
            raise HostingError(Problem.GAME_FINISHED)
        if not by_tournament:
            require_host(hosted, actor_id, is_admin, admin_ok=True)
            await self._refuse_table(game_id)
        async with hosted.lock:
            if not hosted.is_active:  # over (or cancelled) while we waited
                raise HostingError(Problem.GAME_FINISHED)
            return await self._lobby.cancel_locked(hosted)

    async def _check_may_kick(self, hosted: HostedGame, actor_id: int, is_admin: bool) -> None:
        """The host or Manage Server; at a tournament's table its organiser or Manage Server,
        once the table is played (one seated and not started yet, as a process stopped in
        between leaves it, is started as seated: the table's results are its seats')."""
        tournament = await self._tournament_of(hosted.id)
        if tournament is None:
            require_host(hosted, actor_id, is_admin, admin_ok=True)
            return
        if actor_id != tournament.organiser_id and not is_admin:
            raise HostingError(Problem.SEAT_OF_TOURNAMENT,
                               organiser_id=tournament.organiser_id)
        if hosted.status is not Status.RUNNING:
            raise HostingError(Problem.GAME_NOT_STARTED)

    async def _refuse_table(self, game_id: int) -> None:
        tournament = await self._tournament_of(game_id)
        if tournament is not None:
            raise HostingError(Problem.TABLE_OF_TOURNAMENT,
                               organiser_id=tournament.organiser_id)

    async def _tournament_of(self, game_id: int) -> Tournament | None:
        """The tournament the game is a table of; None: a casual game."""
        table = await self._store.tournaments.table_of_game(game_id)
        if table is None:
            return None
        return await self._store.tournaments.get(table.tournament_id)
