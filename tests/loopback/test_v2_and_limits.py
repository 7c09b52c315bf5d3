"""The loopback Discord keeps Discord's Components V2 rules and its rate limits."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest

from loopback import FakeDiscord
from loopback.ratelimits import is_rate_limited
from loopback.running import BOT_TOKEN, run_bot

V2 = 1 << 15
TEXT, CONTAINER, GALLERY, ROW, BUTTON = 10, 17, 12, 1, 2


@pytest.fixture
async def client(fake_discord: FakeDiscord):
    async with run_bot(fake_discord, discord.Client(intents=discord.Intents.default())) as bot:
        yield bot


def table_layout(text: str, picture: str | None = "table.png") -> discord.ui.LayoutView:
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container(discord.ui.TextDisplay(text), accent_colour=0xF15BB5)
    if picture:
        container.add_item(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{picture}", description="the table")))
    container.add_item(discord.ui.ActionRow(
        discord.ui.Button(label="My hand", custom_id="lama:t:1:1:hand")))
    layout.add_item(container)
    return layout


async def raw(fake: FakeDiscord, method: str, path: str, body=None) -> aiohttp.ClientResponse:
    async with aiohttp.ClientSession() as session:
        response = await session.request(
            method, f"{fake.base_url}/api/v10{path}", json=body,
            headers={"Authorization": f"Bot {BOT_TOKEN}"})
        await response.read()
        return response


# ---- Components V2 ---------------------------------------------------------------------

async def test_a_v2_message_with_its_picture_is_accepted_and_keeps_it_on_edit(
    fake_discord, client
) -> None:
    channel = client.get_channel(fake_discord.channel("lama").id)
    file = discord.File(io.BytesIO(b"\x89PNG"), filename="table.png")
    message = await channel.send(view=table_layout("## Round 1"), file=file)
    [posted] = fake_discord.public_messages("lama")
    assert posted.components_v2 and posted.display_text == "## Round 1"
    assert posted.media_urls == ["attachment://table.png"]
    await message.edit(view=table_layout("## Round 1 · Bob's turn"))
    assert posted.display_text == "## Round 1 · Bob's turn"
    assert [a.filename for a in posted.attachments] == ["table.png"]


@pytest.mark.parametrize("problem", [
    "content", "embeds", "too_many", "too_much_text", "unknown_attachment", "v2_without_flag"])
async def test_what_discord_refuses_in_a_v2_message_is_refused(
    fake_discord, client, problem
) -> None:
    text = {"type": TEXT, "content": "hello"}
    body = {"flags": V2, "components": [{"type": CONTAINER, "components": [text]}]}
    if problem == "content":
        body["content"] = "plain text too"
    elif problem == "embeds":
        body["embeds"] = [{"title": "an embed too"}]
    elif problem == "too_many":
        body["components"] = [dict(text, content=str(i)) for i in range(41)]
    elif problem == "too_much_text":
        body["components"] = [dict(text, content="x" * 2001), dict(text, content="y" * 2000)]
    elif problem == "unknown_attachment":
        gallery = {"type": GALLERY, "items": [{"media": {"url": "attachment://gone.png"}}]}
        body["components"] = [gallery]
    else:
        body = {"components": [text]}
    channel_id = fake_discord.channel("lama").id
    response = await raw(fake_discord, "POST", f"/channels/{channel_id}/messages", body)
    assert response.status == 400
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]
    assert fake_discord.public_messages("lama") == []


async def test_the_v2_flag_cannot_be_removed_by_an_edit(fake_discord, client) -> None:
    channel = client.get_channel(fake_discord.channel("lama").id)
    message = await channel.send(view=table_layout("round 1", picture=None))
    response = await raw(fake_discord, "PATCH", f"/channels/{channel.id}/messages/{message.id}",
                         {"flags": 0, "content": "plain again"})
    assert response.status == 400
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]
    assert fake_discord.public_messages("lama")[0].display_text == "round 1"


# ---- rate limits -----------------------------------------------------------------------

async def test_a_channel_takes_five_new_messages_per_five_seconds(fake_discord, client) -> None:
    lama, general = fake_discord.channel("lama").id, fake_discord.channel("general").id
    answers = [await raw(fake_discord, "POST", f"/channels/{lama}/messages", {"content": "x"})
               for _ in range(6)]
    assert [a.status for a in answers] == [200] * 5 + [429]
    assert answers[4].headers["X-RateLimit-Remaining"] == "0"
    too_many = answers[5]
    assert too_many.headers["X-RateLimit-Scope"] == "user" and "Via" in too_many.headers
    assert 4 < float(too_many.headers["X-RateLimit-Reset-After"]) <= 5
    other = await raw(fake_discord, "POST", f"/channels/{general}/messages", {"content": "x"})
    assert other.status == 200  # a bucket per channel
    assert [h.scope for h in fake_discord.ratelimits.hits] == ["user"]


async def test_edits_have_their_own_bucket_per_channel(fake_discord, client) -> None:
    lama = fake_discord.channel("lama").id
    posted = await raw(fake_discord, "POST", f"/channels/{lama}/messages", {"content": "x"})
    message_id = (await posted.json())["id"]
    edits = [await raw(fake_discord, "PATCH", f"/channels/{lama}/messages/{message_id}",
                       {"content": f"edit {i}"}) for i in range(6)]
    assert [e.status for e in edits] == [200] * 5 + [429]


async def test_fifty_calls_a_second_then_a_global_429(fake_discord, client) -> None:
    lama = fake_discord.channel("lama").id
    answers = await asyncio.gather(
        *[raw(fake_discord, "GET", f"/channels/{lama}") for _ in range(51)])
    statuses = sorted(a.status for a in answers)
    assert statuses == [200] * 50 + [429]
    [hit] = [a for a in answers if a.status == 429]
    assert hit.headers["X-RateLimit-Global"] == "true"
    assert hit.headers["X-RateLimit-Scope"] == "global"
    assert (await hit.json())["global"] is True


def test_interaction_endpoints_do_not_count() -> None:
    assert not is_rate_limited("/interactions/1/token/callback")
    assert not is_rate_limited("/webhooks/1/token/messages/@original")
    assert is_rate_limited("/channels/1/messages")


async def test_discord_py_waits_for_a_channel_bucket_instead_of_meeting_a_429(
    fake_discord, client
) -> None:
    fake_discord.ratelimits.channel_period = 0.5  # Discord's 5 s, shortened for the test
    channel = client.get_channel(fake_discord.channel("lama").id)
    for i in range(12):
        await channel.send(f"message {i}")
    assert len(fake_discord.public_messages("lama")) == 12
    assert fake_discord.ratelimits.hits == []
