"""Moderation: removing a player from a game (kick) and ending a game early (cancel), and
who may do either: the game's host or someone with Manage Server.

A tournament's table is cancelled only with its tournament (tournament_cancel.py): asked
here by anyone but the tournament, it is refused.
"""

from __future__ import annotations

from .context import Context
from .errors import HostingError, Problem
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
        require_host(hosted, actor_id, is_admin, admin_ok=True)
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

    async def _refuse_table(self, game_id: int) -> None:
        table = await self._store.tournaments.table_of_game(game_id)
        if table is None:
            return
        tournament = await self._store.tournaments.get(table.tournament_id)
        if tournament is not None:
            raise HostingError(Problem.TABLE_OF_TOURNAMENT,
                               organiser_id=tournament.organiser_id)
