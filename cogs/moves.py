"""/play, /draw, /quit and the hand buttons: one service call each, then show the result.

They work in a game's channel and in a DM with the bot (routed to the caller's game).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from hosting import CardsHere, GameUpdate, refusals
from lama import DRAW, QUIT, Action, Card, Play
from lama import events as ev

from . import embeds, images
from .buttons import Presses
from .components import HAND_ITEMS, HandButton
from .render.hands import HandAnswer
from .table_view import TableButton
from .text import card_label, fit, jump_link, seat_name, t

if TYPE_CHECKING:
    from .host import LamaHost

MAX_CHOICES = 25  # Discord's limit for autocomplete answers
MAX_CHOICE_NAME = 100  # ...and for a choice's name
# The value of the choice that explains why no card is offered: no card's code; /play sent
# with it answers with the refusal (hosting.playable), and moves nothing.
NO_CARD = "-"


@functools.cache
def _card_choice(code: str, locale: str, variant: str) -> tuple[app_commands.Choice[str], str]:
    """A card as an autocomplete choice, and its label in lower case to match what is typed."""
    label = card_label(code, locale, variant)
    return app_commands.Choice(name=label, value=code), label.lower()


def _why_no_card(here: CardsHere, locale: str) -> list[app_commands.Choice[str]]:
    """The one choice that says why there is no card to offer ("It's Bob's turn: wait for
    yours"); none for a refusal with no short form."""
    on_turn = here.on_turn
    refusal = here.refusal
    key = refusals.hint_key(refusal, names_player=on_turn is not None) if refusal else None
    if key is None:
        return []
    name = seat_name(on_turn, locale, markdown=False) if on_turn else ""
    return [_hint_choice(key, locale, name)]


@functools.lru_cache(maxsize=4096)
def _hint_choice(key: str, locale: str, name: str) -> app_commands.Choice[str]:
    """A hint as a choice, made once per language (and player named)."""
    return app_commands.Choice(name=fit(t(key, locale, name=name), MAX_CHOICE_NAME), value=NO_CARD)


def _action(code: str) -> Action:
    if code == "draw":
        return DRAW
    if code == "quitok":
        return QUIT
    return Play(Card.from_code(code))


class Moves(commands.Cog):
    def __init__(self, bot: LamaHost) -> None:
        self.bot = bot
        self.service = bot.service
        self.renderer = bot.renderer

    def _locale(self, interaction: discord.Interaction) -> str:
        return self.bot.locales.locale_of(interaction)

    async def _move(self, interaction: discord.Interaction, action: Action) -> None:
        """A move from a slash command: answer with the caller's fresh hand, privately."""
        locale = self._locale(interaction)
        update = await self.service.routed_move(
            interaction.user.id, interaction.channel_id, interaction.guild_id, action,
            shown_by=HandAnswer(interaction, on_dm_hand=False), interaction_id=interaction.id,
        )
        await self._answer_move(interaction, update, locale)

    async def _move_and_answer(
        self, interaction: discord.Interaction, game_id: int, action: Action, locale: str,
        round_number: int | None = None,
    ) -> None:
        """Move, then answer privately with the mover's hand (`_answer_move`)."""
        update = await self.service.human_move(
            game_id, interaction.user.id, action, round_number=round_number,
            shown_by=HandAnswer(interaction, on_dm_hand=False), interaction_id=interaction.id,
        )
        await self._answer_move(interaction, update, locale)

    async def _answer_move(
        self, interaction: discord.Interaction, update: GameUpdate, locale: str
    ) -> None:
        """The answer to a move: the mover's hand in a new ephemeral message, which becomes
        their live hand (the renderer learns it from the update, `shown_by`)."""
        content = await self._hand_after(update, interaction.user.id, locale)
        if content is None:  # the seat is not theirs any more
            await interaction.response.send_message(t("game.over", locale), ephemeral=True)
            return
        await interaction.response.send_message(**content, ephemeral=True)

    async def _hand_after(
        self, update: GameUpdate, user_id: int, locale: str
    ) -> dict[str, Any] | None:
        """The mover's hand after their move; above it, the round's end if it just ended."""
        seat = update.view.seat_of(user_id)
        observation = update.hands.get(seat.index) if seat else None
        if observation is None:
            return None
        ended = [e for e in update.events if isinstance(e, ev.RoundEnded)]
        header = None
        if ended:  # a link to the closed table of that round, not to a newer one
            ref = self.service.table_of_round(update.view.game_id, ended[-1].round_number)
            where = jump_link(update.view.guild_id, *(ref or (update.view.shown_in, None)))
            header = t("hand.round_over", locale, round=ended[-1].round_number, link=where)
        return await images.hand_message(update.view, observation, locale, header=header)

    @app_commands.command(name="play", description="Play a card from your hand")
    @app_commands.describe(card="The card to play (only your playable cards are offered)")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        if card == NO_CARD:
            await self._no_card_picked(interaction)
            return
        try:
            action = Play(Card.from_code(card))
        except ValueError:
            locale = self._locale(interaction)
            await interaction.response.send_message(
                t("error.unknown_card", locale, card=card[:20]), ephemeral=True
            )
            return
        await self._move(interaction, action)

    async def _no_card_picked(self, interaction: discord.Interaction) -> None:
        """/play sent with the autocomplete's explanation of why it offers no card: the
        refusal as it stands now, privately (the tree's error handler words it), moving
        nothing. A turn that came meanwhile shows the hand to play from instead."""
        game_id = await self.service.check_can_play_here(
            interaction.user.id, interaction.channel_id, interaction.guild_id)
        await self.show_hand(interaction, game_id, self._locale(interaction))

    @play.autocomplete("card")
    async def play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Exactly the caller's legal cards when they have some; otherwise one choice that
        says why (its value, `NO_CARD`, gets /play's refusal). Called at every keystroke:
        read from memory (a game another process opened in the channel: once from the store,
        then from memory; a channel with no game: from the store at most once every few
        seconds), each card's choice made once per language."""
        try:
            here = await self.service.playable_here(
                interaction.user.id, interaction.channel_id, interaction.guild_id
            )
        except Exception:
            return []
        locale = self.bot.locales.locale_of(interaction)
        if not here.cards:
            return _why_no_card(here, locale)
        typed = current.lower()
        choices = []
        for card in here.cards:
            choice, searched = _card_choice(card.code, locale, here.variant)
            if typed in searched or typed == card.code.lower():
                choices.append(choice)
        return choices[:MAX_CHOICES]

    @app_commands.command(name="draw", description="Draw a card from the draw pile")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, DRAW)

    @app_commands.command(name="quit", description="Quit this round (your cards still score)")
    async def quit(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, QUIT)

    # -------------------------------------------------------------- buttons

    async def cog_load(self) -> None:
        # the hand and table buttons of every open game work again
        Presses(self.bot, self).answer(*HAND_ITEMS, TableButton)

    async def cog_unload(self) -> None:
        Presses(self.bot, self).stop(*HAND_ITEMS, TableButton)

    async def hand_button(
        self, interaction: discord.Interaction, button: HandButton, locale: str
    ) -> None:
        """A press on a hand message (a DM, or an ephemeral one): move (Quit asks first),
        then redraw that same message in the response."""
        if await self._closed_as_replaced(interaction, button.game_id, locale):
            return
        if button.action in ("quit", "back"):  # nothing moves yet: the question, or the hand
            await self._ask_before_quitting(interaction, button, locale)
            return
        message = interaction.message
        on_dm = message is not None and not message.flags.ephemeral
        update = await self.service.human_move(
            button.game_id, interaction.user.id, _action(button.action),
            round_number=button.round_number, shown_by=HandAnswer(interaction, on_dm_hand=on_dm),
            interaction_id=interaction.id,
        )
        content = await self._hand_after(update, interaction.user.id, locale)
        if content is None:
            await interaction.response.edit_message(view=None)
            return
        content["attachments"] = content.pop("files", [])  # the same message, new picture
        content.setdefault("view", None)  # a game that is over: its buttons go
        await interaction.response.edit_message(**content)

    async def _closed_as_replaced(
        self, interaction: discord.Interaction, game_id: int, locale: str
    ) -> bool:
        """A press on an older hand message than the player's newest (its close is on its way,
        or failed) that shows an older state moves nothing: the pressed message shows it is no
        longer live, without its buttons, as a replaced hand does (the same answer on a DM and
        an ephemeral hand). It keeps the hand it showed: an earlier round's hand never turns
        into the current one. One that shows the same turn as the newest plays
        (`HandMessages.replaced`)."""
        user_id, pressed = interaction.user.id, interaction.message
        if pressed is None or not self.renderer.hands.replaced(game_id, user_id, pressed):
            return False
        await interaction.response.edit_message(
            **images.closed_hand(pressed, t("hand.moved", locale)))
        return True

    async def _ask_before_quitting(
        self, interaction: discord.Interaction, button: HandButton | TableButton, locale: str
    ) -> None:
        """Quit shows its question in place of the hand's buttons; Keep playing, the hand.
        From the table, the question comes as the presser's private hand."""
        asking = await self.service.button_observation(
            button.game_id, interaction.user.id, button.round_number
        )
        view = self.service.view(button.game_id)
        confirm = button.action == "quit"
        if isinstance(button, TableButton):
            content = await images.hand_message(view, asking, locale, confirm_quit=confirm)
            await interaction.response.send_message(**content, ephemeral=True)
            self.renderer.hand_shown(view, HandAnswer(interaction, on_dm_hand=False), asking)
            return
        content = await images.hand_message(view, asking, locale, edit=True, confirm_quit=confirm)
        await interaction.response.edit_message(**content)

    async def table_button(
        self, interaction: discord.Interaction, button: TableButton, locale: str
    ) -> None:
        """My hand, Draw, Quit round or Rules under the table: each answered privately."""
        if button.action == "rules":
            options = self.service.view(button.game_id).options  # this game's target
            await interaction.response.send_message(
                embed=embeds.rules_embed(options.variant, locale, options.target), ephemeral=True
            )
        elif button.action == "quit":
            await self._ask_before_quitting(interaction, button, locale)
        elif button.action == "draw":
            await self._move_and_answer(
                interaction, button.game_id, DRAW, locale, round_number=button.round_number
            )
        else:  # as the stored game has it, as the move it leads to is judged
            await self.service.fresh_game(button.game_id)
            await self.show_hand(interaction, button.game_id, locale)

    async def show_hand(
        self, interaction: discord.Interaction, game_id: int, locale: str
    ) -> None:
        """The presser's hand, privately; it becomes their live hand message."""
        view = self.service.view(game_id)
        observation = self.service.observation(game_id, interaction.user.id)
        await interaction.response.send_message(
            **await images.hand_message(view, observation, locale), ephemeral=True
        )
        self.renderer.hand_shown(view, HandAnswer(interaction, on_dm_hand=False), observation)


async def setup(bot: LamaHost) -> None:
    await bot.add_cog(Moves(bot))
