"""The loopback Discord's forged press (`fake.click_from`): a button of a message pressed in an
interaction that says it comes from another place. The interaction is the one Discord builds
for that place (its server, channel, the member's permissions there), carrying the pressed
message as it is; proved against real discord.py (the tiny bot of test_fakediscord)."""

from __future__ import annotations

import discord


class WhereButton(discord.ui.DynamicItem[discord.ui.Button], template=r"where"):
    """Says where discord.py was told the press came from."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Where", custom_id="where"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> WhereButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        message = interaction.message
        await interaction.response.send_message(
            f"guild={interaction.guild_id} channel={interaction.channel_id} "
            f"message={message.id if message else None} "
            f"manage={interaction.permissions.manage_guild}", ephemeral=True)


async def posted(fake, bot):
    bot.add_dynamic_items(WhereButton)
    view = discord.ui.View(timeout=None)
    view.add_item(WhereButton())
    view.stop()  # found by custom id, as LamaBot's buttons
    sent = await bot.get_channel(fake.channel("lama").id).send("press me", view=view)
    return fake.public_messages("lama")[-1], sent.id


async def test_a_press_forged_from_another_server_carries_that_server(fake_discord, bot):
    fake = fake_discord
    message, message_id = await posted(fake, bot)
    far = await fake.add_guild("Far Club", channels=("lama",))
    carol = fake.user("carol")
    await fake.grant(carol, far, manage_guild=True)
    result = await fake.click_from(carol, message, "Where", far.channel("lama"))
    assert result.content == (f"guild={far.id} channel={far.channel('lama').id} "
                              f"message={message_id} manage=True")
    at_home = await fake.click(carol, message, "Where")  # Manage Server only in Far Club
    assert at_home.content == (f"guild={fake.guild.id} channel={fake.channel('lama').id} "
                               f"message={message_id} manage=False")


async def test_a_press_forged_from_a_dm_carries_no_server(fake_discord, bot):
    fake = fake_discord
    message, message_id = await posted(fake, bot)
    dave = fake.user("dave")
    result = await fake.click_from(dave, message, "where", None)
    dm = fake.dm_channel(dave)
    assert result.content == f"guild=None channel={dm.id} message={message_id} manage=False"
