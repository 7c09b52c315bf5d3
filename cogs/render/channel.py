"""The renderer's calls in a game's channel (or thread) outside the table's task: an edit of
a message the game put somewhere earlier, and the "Game over" post with Rematch (or, for a
tournament table, what comes next in the tournament)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from hosting import END, GameService, MessageKey
from hosting.views import GameView

from ..pings import quiet
from .game_end import game_end_post
from .outbox import CALL_FAILED, nonce
from .ports import Discord, PlayedAsLookup
from .scheduler import Priority, RestBudget

log = logging.getLogger(__name__)


class GameChannel:
    def __init__(
        self, discord_: Discord, service: GameService, budget: RestBudget,
        failed: Callable[[int, BaseException], None], played_as: PlayedAsLookup,
    ) -> None:
        self._discord = discord_
        self._service = service
        self._budget = budget
        self._failed = failed  # (game, error): a call that showed a game failed
        self._played_as = played_as

    async def game_over(self, view: GameView, locale: str) -> None:
        """The "Game over" post; its id is stored: its Rematch comes back if the rematch is
        cancelled (cogs/render/rematches.py)."""
        played_as = await self._played_as(view.game_id)
        posted = await self.post(view, **game_end_post(view, locale, played_as),
                                 nonce=nonce(view.game_id, "end"))
        if posted is not None:
            await self._service.remember_message(view.game_id, END, view.shown_in, posted.id)

    async def edit(self, game: GameView, key: MessageKey, **content: Any) -> None:
        """Edit a message the game put somewhere earlier (`content` may hold a ui `view`)."""
        ref = self._service.message_ref(game.game_id, key)
        if ref is None:
            return
        channel_id, message_id = ref
        try:
            partial = self._discord.get_partial_messageable(channel_id)
            await partial.get_partial_message(message_id).edit(**quiet(content))
        except discord.NotFound:
            log.info("the %s message of game %s is gone", key.kind, game.game_id)
        except CALL_FAILED as error:
            log.warning("could not edit the %s of game %s: %s", key.kind, game.game_id, error)
            self._failed(game.game_id, error)

    async def post(self, game: GameView, *, nonce: str, **content: Any) -> discord.Message | None:
        """Post in the game's channel (or thread): the message, None if Discord refused."""
        try:
            async with self._budget.slot(Priority.TABLE, game.shown_in, "create"):
                channel = self._discord.get_partial_messageable(game.shown_in)
                return await channel.send(nonce=nonce, **content)
        except CALL_FAILED as error:
            log.warning("could not post in channel %s: %s", game.shown_in, error)
            self._failed(game.game_id, error)
        return None
