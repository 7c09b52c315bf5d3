"""Which game a command from a place is about: a server channel's game (this process's copy,
or the store's), or in a DM the caller's games, read from the store first (another process
may host them). For `GameService`, whose facade keeps the same names."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from store import Store

from .errors import HostingError, Problem
from .loader import GameLoader
from .registry import GameRegistry
from .views import GameView

T = TypeVar("T")


class Routes:
    def __init__(self, store: Store, registry: GameRegistry, loader: GameLoader) -> None:
        self._store = store
        self._registry = registry
        self._loader = loader

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The id of the active game of a channel (or game thread), this process's or (as the
        store has it) another's. Memory says busy only after a version read confirms it: a
        copy of a game that ended in another process is dropped here, and the store asked."""
        held = await self._loader.held_in_channel(channel_id)
        if held is not None:
            return held.id
        return await self._store.games.active_game_in_place(channel_id)

    async def on_channel_game(self, channel_id: int, command: Callable[[int], Awaitable[T]]) -> T:
        """`command` (given a game id) on the game of this server channel or game thread:
        from memory; only where this process holds no game there, from the store (loader.py).
        Where this process's copy had ended in another process, on the channel's next game
        (`GameLoader.then_next`)."""
        hosted = await self._loader.channel_game(channel_id)
        if hosted is None:
            raise HostingError(Problem.NO_GAME_HERE)
        return await self._loader.then_next(channel_id, hosted.id, command)

    async def find(self, user_id: int, channel_id: int | None, guild_id: int | None) -> GameView:
        """`GameRegistry.route`, with the caller's games read from the store first when they
        are in a DM: another process may host them (every DM reaches shard 0's process). In a
        server the route is the channel's game: only that one is brought up to date, and where
        this process holds none (or its copy ended elsewhere), the channel's game is read."""
        if guild_id is None:
            return await self._dm_route(user_id, fresh=True)
        if channel_id is not None:
            await self._loader.refresh(self._registry.in_channel(channel_id))
            await self._loader.channel_game(channel_id)
        return self._registry.route(user_id, channel_id, guild_id)

    async def _dm_route(self, user_id: int, *, fresh: bool) -> GameView:
        """The caller's only running game, their games read from the store first. `fresh`
        (a hand, a /play's check): where another process may have moved it, brought up to
        the stored game (`GameLoader.fresh`, one version read); a move judges that itself."""
        await self._loader.load_games_of(user_id)
        routed = self._registry.route(user_id, None, None)
        if not fresh or not self._loader.shared:
            return routed
        hosted = self._registry.find(routed.game_id)
        await self._loader.fresh(hosted)
        return self._registry.route(user_id, None, None)  # it may have ended meanwhile

    async def for_move(self, user_id: int, channel_id: int | None, guild_id: int | None) -> int:
        """The game a move from this place is about. In a server: the channel's game as this
        process holds it, read from nothing: the move itself, at its commit, finds out whether
        another process moved it first, and is tried again on the stored game (or refused
        from a copy behind it only after a reload). Only where this process holds no game
        there is the channel's game read (loader.py). In a DM: `find`."""
        if guild_id is None:
            return (await self._dm_route(user_id, fresh=False)).game_id
        hosted = await self._loader.channel_game(channel_id) if channel_id is not None else None
        if hosted is None:
            raise HostingError(Problem.NO_GAME_HERE)
        return hosted.id

    async def on_move_game(
        self, user_id: int, channel_id: int | None, guild_id: int | None,
        move: Callable[[int], Awaitable[T]],
    ) -> T:
        """`move` (given a game id) on the game `for_move` names. In a server channel whose
        game this copy thought running had ended in another process, and the channel holds
        the next one (a tournament's next table), the move goes there."""
        game_id = await self.for_move(user_id, channel_id, guild_id)
        if guild_id is None or channel_id is None:
            return await move(game_id)
        return await self._loader.then_next(channel_id, game_id, move)
