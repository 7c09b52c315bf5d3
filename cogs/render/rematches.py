"""A cancelled rematch gives the game it replays its Rematch back (cogs/rematches.py has the
button's press): the renderer's flush of the cancelled game edits the "Game over" post (its
id is stored, `hosting.END`), one edit at the REST budget's lowest priority."""

from __future__ import annotations

import logging

import discord

from hosting import GameService

from ..components import rematch_view
from ..pings import NOBODY
from .ports import Discord
from .scheduler import Priority, RestBudget

log = logging.getLogger(__name__)


class RematchOffers:
    """The renderer's part: a cancelled rematch gives the game it replays its Rematch back."""

    def __init__(self, discord_: Discord, service: GameService, budget: RestBudget) -> None:
        self._discord = discord_
        self._service = service
        self.budget = budget

    async def cancelled(self, game_id: int, locale: str) -> None:
        """The rematch of finished game `game_id` was cancelled: where the game is free for a
        rematch (none opened since), its "Game over" post offers Rematch again. Best effort:
        a failure is logged, and the rest of the cancelled game's flush goes on."""
        try:
            ref = await self._service.rematch_offer(game_id)
        except Exception:
            log.exception("could not look up the game-end post of game %s", game_id)
            return
        if ref is None:
            return
        channel_id, message_id = ref
        message = self._discord.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            async with self.budget.slot(Priority.CLEANUP, channel_id, "edit"):
                await message.edit(view=rematch_view(game_id, locale), allowed_mentions=NOBODY)
        except discord.HTTPException as error:  # deleted, or in a thread archived for good
            log.info("could not offer the rematch of game %s again: %s", game_id, error)
