"""The Rematch button of a finished game: pressed once, it opens the rematch lobby in the
game's channel, and the press's answer turns the button into a link to it (the answer is an
interaction response, not a rate-limited call); a game has one rematch, so a later press is
pointed there and changes nothing.

A later press happens: two players pressing at once (both presses carry the message as it was,
with its button), a client that has not seen the edit yet, or an answer that never reached
Discord (a crash between the lobby and the answer). Where the pressed message still offers
Rematch, that answer too turns the button into the link.

A rematch that is cancelled (its host or an admin cancels it, its last player leaves) frees
the game it replays: the renderer's flush of the cancelled game gives the "Game over" post
(its id is stored, `hosting.END`) its Rematch button back, one edit at the REST budget's
lowest priority (`cogs.render.rematches.RematchOffers`). A rematch that starts keeps the
link: it points at the game being played.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from hosting import HostingError, Problem
from hosting.views import GameView

from .button_views import ButtonsView
from .components import REMATCH_KIND
from .text import jump_link, t

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)

POINTED_TO_REMATCH = (Problem.REMATCH_EXISTS, Problem.ALREADY_IN_REMATCH)


def rematch_link_view(url: str, rematch_id: int, locale: str) -> discord.ui.View:
    """What the finished game's message shows once its rematch is open: a link to it."""
    ui = ButtonsView()
    ui.add_item(discord.ui.Button(label=t("game.rematch_link", locale, game_id=rematch_id),
                                  url=url, emoji="🔁"))
    return ui


def offers_rematch(message: discord.Message | None) -> bool:
    """Whether the message (as the press carried it) still shows a Rematch button."""
    if message is None:
        return False
    return any((getattr(child, "custom_id", None) or "").startswith(REMATCH_KIND)
               for row in message.components for child in getattr(row, "children", ()))


class RematchPresses(commands.Cog):
    """Mixin for the Lama cog: the Rematch button's press (`cogs.components.RematchButton`)."""

    bot: LamaHost
    _post_lobby: Callable[[discord.Interaction, GameView], Awaitable[None]]  # the cog's

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        user = interaction.user
        try:
            update = await self.bot.service.rematch(game_id, user.id, user.display_name)
        except HostingError as error:
            if error.problem in POINTED_TO_REMATCH:
                await self._link_pressed(interaction, error.details)
            raise  # the refusal, privately: a follow-up where the answer edited the message
        await self._post_lobby(interaction, update.view)

    async def _link_pressed(self, interaction: discord.Interaction, where: dict[str, Any]) -> None:
        """A later press on a message that still offers Rematch: the answer edits it."""
        if not offers_rematch(interaction.message) or "channel_id" not in where:
            return
        url = jump_link(where["guild_id"], where["channel_id"], where.get("message_id"))
        locale = await self.bot.locales.public_locale_for(interaction)
        await interaction.response.edit_message(
            view=rematch_link_view(url, where["game_id"], locale))
