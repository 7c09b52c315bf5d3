"""/play, /draw, /quit and the hand buttons: one service call each, then show the result.

They work in a game's channel and in a DM with the bot (routed to the caller's game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from hosting import MessageKey
from lama import DRAW, QUIT, Card, Play

from . import images
from .components import HAND_ITEMS, HandButton
from .text import card_label, t

if TYPE_CHECKING:
    from bot import LamaBot

MAX_CHOICES = 25  # Discord's limit for autocomplete answers


def _action(code: str):
    if code == "draw":
        return DRAW
    if code == "quitok":
        return QUIT
    return Play(Card.from_code(code))


class Moves(commands.Cog):
    def __init__(self, bot: LamaBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.renderer = bot.renderer

    def _locale(self, interaction: discord.Interaction) -> str:
        return self.bot.locale_of(interaction)

    async def _move(self, interaction: discord.Interaction, action) -> None:
        """A move from a slash command: answer with the caller's fresh hand, privately."""
        locale = self._locale(interaction)
        game = self.service.route(interaction.user.id, interaction.channel_id, interaction.guild_id)
        update = await self.service.human_move(game.game_id, interaction.user.id, action)
        seat = update.view.seat_of(interaction.user.id)
        observation = update.hands.get(seat.index) if seat else None
        if observation is None:  # the game ended with this move
            await interaction.response.send_message(t("game.over", locale), ephemeral=True)
            return
        await interaction.response.send_message(
            **await images.hand_message(update.view, observation, locale), ephemeral=True
        )

    @app_commands.command(name="play", description="Play a card from your hand")
    @app_commands.describe(card="The card to play (only your playable cards are offered)")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        try:
            action = Play(Card.from_code(card))
        except ValueError:
            locale = self._locale(interaction)
            await interaction.response.send_message(
                t("error.unknown_card", locale, card=card[:20]), ephemeral=True
            )
            return
        await self._move(interaction, action)

    @play.autocomplete("card")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str):
        """Exactly the caller's legal cards when it is their turn; nothing otherwise."""
        try:
            game = self.service.route(
                interaction.user.id, interaction.channel_id, interaction.guild_id
            )
        except Exception:
            return []
        locale = self.bot.locale_of(interaction)
        variant = game.options.variant
        choices = []
        for card in self.service.legal_plays(game.game_id, interaction.user.id):
            label = card_label(card.code, locale, variant)
            if current.lower() in label.lower() or current.lower() == card.code.lower():
                choices.append(app_commands.Choice(name=label, value=card.code))
        return choices[:MAX_CHOICES]

    @app_commands.command(name="draw", description="Draw a card from the draw pile")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, DRAW)

    @app_commands.command(name="quit", description="Quit this round (your cards still score)")
    async def quit(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, QUIT)

    # -------------------------------------------------------------- buttons

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*HAND_ITEMS)  # hand buttons of every open game work again

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*HAND_ITEMS)

    async def hand_button(
        self, interaction: discord.Interaction, button: HandButton, locale: str
    ) -> None:
        """A press on a hand message: move (Quit asks first), then redraw that same message
        in the response."""
        game_id, action = button.game_id, button.action
        if action in ("quit", "back"):  # nothing moves yet: show the question, or the hand
            await self._ask_before_quitting(interaction, button, locale)
            return
        update = await self.service.human_move(
            game_id, interaction.user.id, _action(action), round_number=button.round_number
        )
        seat = update.view.seat_of(interaction.user.id)
        observation = update.hands.get(seat.index) if seat else None
        if seat is None or observation is None:
            await interaction.response.edit_message(view=None)
            return
        if interaction.message is not None and self._is_hand_message(
            game_id, seat.index, interaction.message.id
        ):
            self.renderer.handled_by_interaction(game_id, seat.index)
        # The same message, redrawn: its picture is replaced too (attachments=[new file]).
        await interaction.response.edit_message(
            **await images.hand_message(update.view, observation, locale, edit=True)
        )

    async def _ask_before_quitting(
        self, interaction: discord.Interaction, button: HandButton, locale: str
    ) -> None:
        """Quit shows its question in place of the hand's buttons; Keep playing, the hand."""
        asking = self.service.button_observation(
            button.game_id, interaction.user.id, button.round_number
        )
        content = await images.hand_message(
            self.service.view(button.game_id), asking, locale, edit=True,
            confirm_quit=button.action == "quit",
        )
        await interaction.response.edit_message(**content)

    def _is_hand_message(self, game_id: int, seat: int, message_id: int) -> bool:
        ref = self.service.message_ref(game_id, MessageKey.hand(seat))
        return ref is not None and ref[1] == message_id


async def setup(bot: LamaBot) -> None:
    await bot.add_cog(Moves(bot))
