"""A tiny discord.py bot with a slash command, buttons (dynamic and persistent) and a modal:
what the loopback Discord's own tests drive."""

from __future__ import annotations

import asyncio
import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from loopback import FakeDiscord


async def eventually(condition, timeout: float = 10.0) -> None:
    """Until `condition()` holds: what the bot does after an answer comes when it comes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "not reached in time"
        await asyncio.sleep(0.005)


CARDS = [f"card {n}" for n in range(1, 31)]


class DrawButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lama:draw:(?P<game>\d+)"):
    """A persistent button: the game id lives in the custom_id, so it works after a restart."""

    def __init__(self, game: int, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label="Draw", custom_id=f"lama:draw:{game}",
                                           disabled=disabled))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        draws = interaction.client.draws
        draws[self.game] = draws.get(self.game, 0) + 1
        await interaction.response.edit_message(  # type 7: update the message in place
            content=f"game {self.game}: {draws[self.game]} draws",
            view=table_view(self.game, done=draws[self.game] >= 2))


class PassButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lama:pass:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Pass", custom_id=f"lama:pass:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # type 6, then edit @original (the table message)
        await interaction.edit_original_response(content=f"game {self.game}: passed")


class RenameModal(discord.ui.Modal, title="Rename the game"):
    name = discord.ui.TextInput(label="New name", custom_id="lama:rename:name", max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


def table_view(game: int, *, done: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DrawButton(game, disabled=done))
    view.add_item(PassButton(game))
    return view


class TinyBot(commands.AutoShardedBot):
    """Shaped like LamaBot: an AutoShardedBot, no privileged intents, dynamic items."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0.05)
        self.fake = fake
        self.draws: dict[int, int] = {}
        self.errors: list[Exception] = []
        self.release = asyncio.Event()
        add_commands(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(DrawButton, PassButton)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every re-IDENTIFY to respect Discord's identify rate
        # limit; against a loopback gateway that is only a slower test.
        pass


def add_commands(bot: TinyBot) -> None:
    tree = bot.tree

    @tree.command(description="Greet someone")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"hi {name}")

    lama = app_commands.Group(name="lama", description="LAMA games")
    admin = app_commands.Group(name="admin", description="Server settings", parent=lama)

    @lama.command(description="Start a game")
    async def new(interaction: discord.Interaction,
                  variant: Literal["classic", "party", "komarami"], seats: int = 4) -> None:
        await interaction.response.send_message(f"new {variant} game, {seats} seats")

    @admin.command(description="Reset the leaderboard")
    async def reset(interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_guild
        await interaction.response.send_message("reset" if allowed else "not allowed",
                                                ephemeral=True)

    tree.add_command(lama)

    @tree.command(description="Play a card")
    async def play(interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"played {card}")

    @play.autocomplete("card")
    async def play_card(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=c, value=c) for c in CARDS if current in c][:25]

    @tree.command(description="Who am I, where?")
    async def whoami(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"locale={interaction.locale.value} guild_locale={interaction.guild_locale} "
            f"in_guild={interaction.guild is not None} "
            f"manage_guild={interaction.permissions.manage_guild} "
            f"app_send={interaction.app_permissions.send_messages}", ephemeral=True)

    @tree.command(description="Think, then answer")
    async def slow(interaction: discord.Interaction, wait: bool = False) -> None:
        await interaction.response.defer(thinking=True)
        if wait:
            await bot.release.wait()
        try:
            await interaction.followup.send("done thinking")
        except discord.HTTPException as error:
            bot.errors.append(error)

    @tree.command(description="Show a table with buttons")
    async def table(interaction: discord.Interaction, game: int) -> None:
        await interaction.response.send_message(f"game {game}", view=table_view(game))

    @tree.command(description="Deal a hand by DM")
    async def deal(interaction: discord.Interaction, player: discord.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            hand = await player.send("your hand", file=discord.File(io.BytesIO(b"PNG"), "hand.png"))
            await hand.edit(content="your hand (sorted)")
        except discord.Forbidden as error:
            bot.errors.append(error)
            await interaction.followup.send(f"cannot DM {player.name}: {error.code}")
        else:
            await interaction.followup.send("dealt")

    @tree.command(description="Post to the channel")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            message = await interaction.channel.send(text)
            await message.edit(content=f"{text}!", embed=discord.Embed(title="Table"))
        except discord.HTTPException as error:
            bot.errors.append(error)
            await interaction.followup.send(f"failed: {error.status} {error.code}")
        else:
            await interaction.followup.send("posted")

    @tree.command(description="Send a picture")
    async def picture(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "here", file=discord.File(io.BytesIO(b"\x89PNG..."), "table.png"))

    @tree.command(description="Name your game")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @tree.command(description="Misbehave on purpose")
    async def misbehave(interaction: discord.Interaction,
                        how: Literal["label", "long", "fields", "late", "double"]) -> None:
        try:
            if how == "label":  # the spec caps button labels at 80 characters
                view = discord.ui.View()
                view.add_item(discord.ui.Button(label="x" * 81, custom_id="lama:x"))
                await interaction.response.send_message("bad button", view=view)
            elif how == "long":
                await interaction.response.send_message("x" * 2001)
            elif how == "fields":
                embed = discord.Embed(title="too many fields")
                for n in range(26):
                    embed.add_field(name=f"f{n}", value="v")
                await interaction.response.send_message(embed=embed)
            elif how == "late":
                bot.fake.clock.advance(3.5)  # as if the handler had been slow
                await interaction.response.send_message("too late")
            elif how == "double":
                await interaction.response.send_message("once")
                interaction.response._response_type = None  # defeat discord.py's own guard
                await interaction.response.send_message("twice")
        except discord.HTTPException as error:
            bot.errors.append(error)
