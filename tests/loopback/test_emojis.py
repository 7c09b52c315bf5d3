"""The loopback Discord keeps an application's own emojis as Discord does."""

from __future__ import annotations

import discord
import pytest

from loopback import FakeDiscord
from loopback.running import run_bot

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


@pytest.fixture
async def client(fake_discord: FakeDiscord):
    async with run_bot(fake_discord, discord.Client(intents=discord.Intents.default())) as bot:
        yield bot


async def test_an_uploaded_emoji_is_listed_with_its_id_and_name(fake_discord, client):
    emoji = await client.create_application_emoji(name="lamacard_3", image=PNG)
    [listed] = await client.fetch_application_emojis()
    assert (listed.id, listed.name) == (emoji.id, "lamacard_3")
    assert (await client.fetch_application_emoji(emoji.id)).name == "lamacard_3"


async def test_a_second_emoji_of_the_same_name_is_refused(fake_discord, client):
    await client.create_application_emoji(name="lamacard_3", image=PNG)
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name="lamacard_3", image=PNG)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]


@pytest.mark.parametrize("name", ["x", "card-3", "a" * 33])
async def test_an_emoji_name_outside_discords_pattern_is_refused(fake_discord, client, name):
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name=name, image=PNG)
    assert refused.value.status == 400
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]


async def test_an_image_over_256_kib_is_refused(fake_discord, client):
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name="big", image=PNG + b"\x00" * 256 * 1024)
    assert refused.value.status == 400
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]


async def test_a_deleted_emoji_is_gone(fake_discord, client):
    emoji = await client.create_application_emoji(name="lamacard_3", image=PNG)
    await emoji.delete()
    assert await client.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound):
        await client.fetch_application_emoji(emoji.id)


async def test_a_button_may_show_an_application_emoji_but_not_an_unknown_one(
    fake_discord, client
):
    emoji = await client.create_application_emoji(name="lamacard_3", image=PNG)
    channel = client.get_channel(fake_discord.channel("lama").id)

    def buttons(emoji_id: int) -> discord.ui.View:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Three", custom_id="three",
                                        emoji=discord.PartialEmoji(name="x3", id=emoji_id)))
        return view

    await channel.send("hand", view=buttons(emoji.id))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("hand", view=buttons(emoji.id + 1))
    assert refused.value.status == 400
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]
