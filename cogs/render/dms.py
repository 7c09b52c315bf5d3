"""Direct messages to players: their DM channel (opened once per player), a send that takes a
ping's slot in the REST budget, and which players' DMs are closed (Discord refuses them; one
that goes through again opens them)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from hosting.views import GameView

from .outbox import CALL_FAILED
from .ports import Discord
from .scheduler import Priority, RestBudget

log = logging.getLogger(__name__)
DMS_CLOSED = 50007


class DirectMessages:
    def __init__(
        self, discord_: Discord, budget: RestBudget,
        failed: Callable[[int, BaseException], None],
        refused: Callable[[GameView, int], None],
    ) -> None:
        self._discord = discord_
        self._budget = budget
        self._failed = failed  # (game, error): a call that showed a game failed
        self._refused = refused  # (game, user): their DMs are closed (found sending one)
        self._channels: dict[int, int] = {}  # user -> their DM channel
        self._closed: set[int] = set()

    def closed(self, user_id: int) -> bool:
        """Whether Discord refused the player's last DM."""
        return user_id in self._closed

    def knows(self, user_id: int, channel_id: int) -> None:
        """The player's DM channel, as stored with a hand DM (after a restart)."""
        self._channels.setdefault(user_id, channel_id)

    async def _channel(self, user_id: int) -> int:
        channel_id = self._channels.get(user_id)
        if channel_id is None:
            async with self._budget.slot(Priority.PING):
                data = await self._discord.http.start_private_message(user_id)
            channel_id = self._channels[user_id] = int(data["id"])
        return channel_id

    async def send(
        self, game: GameView, user_id: int, *, nonce: str, **content: Any
    ) -> discord.Message | None:
        """The DM, or None: refused (their DMs are closed: `refused` hears it) or failed."""
        try:
            channel_id = await self._channel(user_id)
            private = discord.ChannelType.private
            channel = self._discord.get_partial_messageable(channel_id, type=private)
            async with self._budget.slot(Priority.PING, channel_id, "create"):
                message = await channel.send(nonce=nonce, **content)
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                log.warning("DM to user %s refused: %s", user_id, error)
            self._closed.add(user_id)
            self._refused(game, user_id)
            return None
        except CALL_FAILED as error:
            log.warning("could not DM user %s: %s", user_id, error)
            self._failed(game.game_id, error)
            return None
        self._closed.discard(user_id)
        return message
