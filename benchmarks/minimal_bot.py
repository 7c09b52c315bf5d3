"""The yardstick for issue 14: the smallest discord.py bot that hosts LAMA by slash commands.

    python -m benchmarks.minimal_bot     (DISCORD_TOKEN, DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL)

The same commands a LamaBot player uses (/lama new, /lama join, /lama start, /play with its
card autocomplete, /draw, /quit), the same engine (`lama.Game`), and nothing else: games live
in a dict, every answer is plain text, nothing is stored, no table, no DMs, no pictures.
`benchmarks.yardstick` drives it and LamaBot with the same players in one run, so what
LamaBot costs on top of a bare discord.py client is measured, not guessed.
"""

from __future__ import annotations

import logging
import os
import random
from dataclasses import dataclass, field

import discord
from discord import app_commands

import gc_watch
from lama import DRAW, QUIT, Card, Game, IllegalAction, Play
from loopback.hook import point_discord_at_env

MAX_SEATS = 6


@dataclass
class Table:
    """One channel's game: the lobby's seats, then the engine's game."""

    host: int
    seats: list[int] = field(default_factory=list)  # user ids, in seat order
    game: Game | None = None


class MinimalBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.tables: dict[int, Table] = {}  # channel id -> its game
        self.seated: dict[int, int] = {}  # user id -> channel id of their game
        self.rng = random.Random(1)
        _add_commands(self)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    def finish(self, channel_id: int) -> None:
        table = self.tables.pop(channel_id, None)
        for user in table.seats if table else ():
            self.seated.pop(user, None)


def _say(interaction: discord.Interaction, text: str):
    return interaction.response.send_message(text, ephemeral=True)


def _hand_text(game: Game, seat: int) -> str:
    hand = ", ".join(card.code for card in game.hand(seat))
    return f"Top card {game.top_card.code}. Your hand: {hand or '-'}"


def _add_commands(bot: MinimalBot) -> None:
    for command in (_lobby_commands(bot), *_move_commands(bot)):
        bot.tree.add_command(command)


def _lobby_commands(bot: MinimalBot) -> app_commands.Group:
    lama = app_commands.Group(name="lama", description="LAMA games", guild_only=True)

    @lama.command(name="new", description="Open a LAMA lobby in this channel")
    async def new(interaction: discord.Interaction, variant: str = "classic",
                  target: app_commands.Range[int, 10, 200] = 40,
                  ai_seats: app_commands.Range[int, 0, 5] = 0) -> None:
        del ai_seats  # accepted like LamaBot's, no AIs here
        channel, user = interaction.channel_id or 0, interaction.user.id
        if channel in bot.tables or user in bot.seated:
            return await _say(interaction, "⚠️ There is a game already.")
        bot.tables[channel] = Table(user, [user])
        bot.seated[user] = channel
        await interaction.response.send_message(f"{variant} lobby to {target}: /lama join")

    @lama.command(name="join", description="Take a seat in this channel's lobby")
    async def join(interaction: discord.Interaction) -> None:
        table, user = bot.tables.get(interaction.channel_id or 0), interaction.user.id
        if table is None or table.game or user in bot.seated or len(table.seats) >= MAX_SEATS:
            return await _say(interaction, "⚠️ No lobby to join here.")
        table.seats.append(user)
        bot.seated[user] = interaction.channel_id or 0
        await _say(interaction, f"You joined: seat {len(table.seats)}.")

    @lama.command(name="start", description="Start the game (host only)")
    async def start(interaction: discord.Interaction) -> None:
        table = bot.tables.get(interaction.channel_id or 0)
        if table is None or table.game or table.host != interaction.user.id or len(
                table.seats) < 2:
            return await _say(interaction, "⚠️ Nothing to start.")
        table.game = Game.new("classic", len(table.seats), bot.rng.getrandbits(62))
        await interaction.response.send_message("The game begins.")

    return lama


def _move_commands(bot: MinimalBot) -> list[app_commands.Command]:
    async def move(interaction: discord.Interaction, action) -> None:
        channel = bot.seated.get(interaction.user.id)
        table = bot.tables.get(channel) if channel is not None else None
        if table is None or table.game is None:
            return await _say(interaction, "⚠️ You are not in a game.")
        seat = table.seats.index(interaction.user.id)
        try:
            table.game.apply(seat, action)
        except IllegalAction as refusal:
            return await _say(interaction, f"⚠️ {refusal.reason.name.lower()}")
        if table.game.is_over:
            bot.finish(channel or 0)
            return await _say(interaction, f"Game over: {table.game.scores}")
        await _say(interaction, _hand_text(table.game, seat))

    @app_commands.command(name="play", description="Play a card from your hand")
    async def play(interaction: discord.Interaction, card: str) -> None:
        try:
            action = Play(Card.from_code(card))
        except ValueError:
            return await _say(interaction, "⚠️ No such card.")
        await move(interaction, action)

    @play.autocomplete("card")
    async def play_card(interaction: discord.Interaction, current: str):
        channel = bot.seated.get(interaction.user.id)
        table = bot.tables.get(channel) if channel is not None else None
        if table is None or table.game is None:
            return []
        seat = table.seats.index(interaction.user.id)
        return [app_commands.Choice(name=c.code, value=c.code)
                for c in table.game.legal_plays(seat) if c.code.startswith(current)]

    @app_commands.command(name="draw", description="Draw a card from the draw pile")
    async def draw(interaction: discord.Interaction) -> None:
        await move(interaction, DRAW)

    @app_commands.command(name="quit", description="Quit this round")
    async def quit_(interaction: discord.Interaction) -> None:
        await move(interaction, QUIT)

    return [play, draw, quit_]


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    gc_watch.watch_from_env()  # the same report of the collector's pauses as LamaBot's
    point_discord_at_env()
    client = MinimalBot()
    client.run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
