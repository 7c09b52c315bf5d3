"""The loopback Discord resolves mentions as Discord does: which body pings whom."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from loopback import FakeDiscord
from loopback.running import run_bot

HOSTILE = "@everyone @here <@&{role}> <@{user}> cup"


@pytest.fixture
async def role(fake_discord: FakeDiscord):
    return fake_discord.add_role("Moderators", mentionable=True)


def hostile(fake: FakeDiscord, role) -> str:
    return HOSTILE.format(role=role.id, user=fake.user("dave").id)


def client(**options) -> discord.Client:
    return discord.Client(intents=discord.Intents.default(), **options)


async def test_a_message_without_allowed_mentions_pings_everything_it_names(
    fake_discord, role
) -> None:
    async with run_bot(fake_discord, client()) as bot:
        channel = bot.get_channel(fake_discord.channel("lama").id)
        sent = await channel.send(hostile(fake_discord, role))
    [pings] = fake_discord.pings
    assert pings.everyone and pings.here and pings.mass and not pings.explicit
    assert pings.roles == {role.id} and pings.users == {fake_discord.user("dave").id}
    # what discord.py reads back from Discord's answer
    assert sent.mention_everyone and [r.id for r in sent.role_mentions] == [role.id]
    assert [u.id for u in sent.mentions] == [fake_discord.user("dave").id]


async def test_allowed_mentions_let_through_only_what_they_name(fake_discord, role) -> None:
    dave, bob = fake_discord.user("dave"), fake_discord.user("bob")
    async with run_bot(fake_discord, client(allowed_mentions=discord.AllowedMentions.none())
                       ) as bot:
        channel = bot.get_channel(fake_discord.channel("lama").id)
        await channel.send(hostile(fake_discord, role) + f" <@{bob.id}>")
        only_bob = discord.AllowedMentions(users=[discord.Object(bob.id)])
        await channel.send(hostile(fake_discord, role) + f" <@{bob.id}>",
                           allowed_mentions=only_bob)
        # discord.py's AllowedMentions(users=True) alone parses everyone and roles too
        await bot.http.send_message(channel.id, params=discord.http.handle_message_parameters(
            content=hostile(fake_discord, role),
            allowed_mentions=discord.AllowedMentions(users=True)))
    none, only, all_of_it = fake_discord.pings
    assert none.explicit and not none.mass and not none.users
    assert not only.mass and only.users == {bob.id}
    assert all_of_it.everyone and all_of_it.roles == {role.id} and all_of_it.users == {dave.id}


async def test_an_interaction_answer_without_allowed_mentions_pings_users_only(
    fake_discord, role
) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    text = hostile(fake_discord, role)

    @bot.tree.command(description="say it")
    async def say(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(text)
        await interaction.followup.send(text)

    async with run_bot(fake_discord, bot):
        result = await fake_discord.slash(fake_discord.user("alice"), "lama", "say")
        await result.followup(0)
    for pings in fake_discord.pings:
        assert not pings.mass and pings.users == {fake_discord.user("dave").id}


async def test_an_edit_resolves_anew_only_when_it_carries_the_text(fake_discord, role) -> None:
    """By its own allowed_mentions, or Discord's default: never the create's. A Components V2
    message's text is its text displays, so an edit of its layout is an edit of its text."""
    text = hostile(fake_discord, role)
    async with run_bot(fake_discord, client()) as bot:
        channel = bot.get_channel(fake_discord.channel("lama").id)
        nobody = discord.AllowedMentions.none()
        plain = await channel.send(text, allowed_mentions=nobody)
        await plain.edit(embed=discord.Embed(title=text))  # no text: nothing resolved
        await plain.edit(content=text)  # no allowed_mentions: the default, everything
        layout = discord.ui.LayoutView()
        layout.add_item(discord.ui.TextDisplay(text))
        v2 = await channel.send(view=layout, allowed_mentions=nobody)
        await v2.edit(view=layout)  # discord.py sends no allowed_mentions without content
    created, edited, v2_created, v2_edited = fake_discord.pings
    assert not created.mass and not v2_created.mass
    assert edited.everyone and edited.message_id == plain.id
    assert v2_edited.everyone and v2_edited.roles == {role.id} and not v2_edited.explicit
    assert [p.message_id for p in fake_discord.pings_of(
        fake_discord.public_messages("lama")[1])] == [v2.id, v2.id]


async def test_mass_mentions_need_the_permission_and_a_dm_pings_no_role(
    fake_discord, role
) -> None:
    everyone = fake_discord.guild.everyone
    everyone.permissions &= ~discord.Permissions(mention_everyone=True).value
    role.mentionable = False
    text = hostile(fake_discord, role)
    async with run_bot(fake_discord, client()) as bot:
        await bot.get_channel(fake_discord.channel("lama").id).send(text)
        user = await bot.fetch_user(fake_discord.user("bob").id)
        await user.send(text)
    in_channel, in_dm = fake_discord.pings
    assert not in_channel.mass and in_channel.users == {fake_discord.user("dave").id}
    assert not in_dm.mass and in_dm.users == {fake_discord.user("dave").id}


async def test_users_both_parsed_and_listed_are_refused(fake_discord) -> None:
    async with run_bot(fake_discord, client()) as bot:
        channel = bot.get_channel(fake_discord.channel("lama").id)
        body = {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.request(discord.http.Route(
                "POST", "/channels/{channel_id}/messages", channel_id=channel.id), json=body)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert len(fake_discord.take_errors("invalid_body")) == 1
