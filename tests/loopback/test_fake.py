"""The loopback Discord, proved against real discord.py with a tiny bot defined here."""

from __future__ import annotations

import asyncio
import base64
import re
import sys
import time
from pathlib import Path
from urllib.parse import quote

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from loopback import FakeDiscord
from loopback.driver import interaction_token
from loopback.running import run_bot, run_bot_process
from loopback.server import BAD_TOKEN
from loopback.spec import load_spec
from tests.loopback.tiny_bot import (
    TinyBot,
    eventually,
)

CHANNEL_MESSAGES = "POST /channels/{channel_id}/messages"


# ---- login, gateway, slash commands ----------------------------------------------------

async def test_bot_logs_in_and_answers_a_slash_command(fake_discord: FakeDiscord, bot) -> None:
    alice = fake_discord.user("alice")
    result = await fake_discord.slash(alice, "lama", "hello", name="bob")

    assert result.content == "hi bob"
    assert not result.ephemeral and not result.deferred
    assert result.message.author.id == bot.user.id == fake_discord.bot.id
    assert fake_discord.public_messages("lama") == [result.message]
    assert result.elapsed < 1
    routes = [c.route for c in fake_discord.rest_calls()]
    assert routes[:4] == ["GET /users/@me", "GET /oauth2/applications/@me", "GET /gateway/bot",
                          "PUT /applications/{application_id}/commands"]
    callback = fake_discord.rest_calls()[-1]
    assert callback.query["with_response"] == "1" and not callback.rate_limited
    assert bot.guilds[0].name == "LAMA Club" and len(bot.guilds[0].text_channels) == 3
    assert all(c._zlib is not None for c in fake_discord.gateway.connections)  # zlib-stream


async def test_a_plain_client_connects_without_asking_for_the_gateway(fake_discord) -> None:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    started = time.perf_counter()
    async with run_bot(fake_discord, client):
        assert client.user.name == "LamaBot"
    assert time.perf_counter() - started < 1.5
    assert "GET /gateway/bot" not in [c.route for c in fake_discord.rest_calls()]


async def test_a_bad_token_fails_login(fake_discord: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        async with run_bot(fake_discord, client, BAD_TOKEN):
            pass


async def test_privileged_intents_are_refused_unless_enabled(fake_discord) -> None:
    client = discord.Client(intents=discord.Intents.all())
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with run_bot(fake_discord, client):
            pass


async def test_subcommands_typed_options_permissions_and_locales(fake_discord, bot) -> None:
    alice = fake_discord.user("alice")
    result = await fake_discord.slash(alice, "lama", "lama new", variant="party")
    assert result.content == "new party game, 4 seats"
    result = await fake_discord.slash(alice, "lama", "lama new", variant="classic", seats=6)
    assert result.content == "new classic game, 6 seats"
    with pytest.raises(ValueError):  # not among the declared choices: Discord would not send it
        await fake_discord.slash(alice, "lama", "lama new", variant="uno")
    with pytest.raises(TypeError):
        await fake_discord.slash(alice, "lama", "lama new", colour="red", variant="party")

    assert (await fake_discord.slash(alice, "lama", "lama admin reset")).content == "not allowed"
    await fake_discord.grant(alice, manage_guild=True)
    result = await fake_discord.slash(alice, "lama", "lama admin reset")
    assert result.content == "reset" and result.ephemeral

    alice.locale = "pl"
    fake_discord.guild.preferred_locale = "cs"
    result = await fake_discord.slash(alice, "general", "whoami")
    assert result.content == ("locale=pl guild_locale=cs in_guild=True manage_guild=True "
                              "app_send=True")


async def test_autocomplete_returns_the_bots_choices(fake_discord, bot) -> None:
    bob = fake_discord.user("bob")
    choices = await fake_discord.autocomplete(bob, "lama", "play", focused="card", card="")
    assert len(choices) == 25 and choices[0] == {"name": "card 1", "value": "card 1"}
    choices = await fake_discord.autocomplete(bob, "lama", "play", focused="card", card="card 3")
    assert [c["value"] for c in choices] == ["card 3", "card 30"]


async def test_ephemeral_reply_is_seen_only_by_its_user(fake_discord, bot) -> None:
    carol = fake_discord.user("carol")
    result = await fake_discord.slash(carol, "lama", "whoami")
    assert result.ephemeral and result.content.startswith("locale=en-US")
    assert fake_discord.public_messages("lama") == []
    assert fake_discord.ephemeral_messages(carol) == [result.message]


async def test_defer_then_follow_up(fake_discord, bot) -> None:
    result = await fake_discord.slash(fake_discord.user("dave"), "lama", "slow")
    assert result.deferred and result.response_type == 5
    followup = await result.followup()
    assert followup.content == "done thinking"
    assert followup is result.message and not followup.loading  # replaced the "thinking…"


async def test_slash_and_click_in_a_dm(fake_discord, bot) -> None:
    alice = fake_discord.user("alice")
    result = await fake_discord.slash(alice, None, "whoami")  # None: the user's DM channel
    assert "in_guild=False" in result.content
    payload = result.record.payload
    assert "user" in payload and "member" not in payload and "guild_id" not in payload

    table = await fake_discord.slash(alice, None, "table", game=3)
    await fake_discord.click(alice, table.message, "lama:draw:3")
    assert fake_discord.dms(alice)[-1].content == "game 3: 1 draws"


# ---- buttons ---------------------------------------------------------------------------

async def test_persistent_buttons_update_the_message_and_survive_a_restart(fake_discord) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    async with run_bot(fake_discord, TinyBot(fake_discord)):
        table = (await fake_discord.slash(alice, "lama", "table", game=7)).message
        assert table.custom_ids == ["lama:draw:7", "lama:pass:7"]
        click = await fake_discord.click(bob, table, "lama:draw:7")
        assert click.response_type == 7 and click.message is table
        assert table.content == "game 7: 1 draws"

    async with run_bot(fake_discord, TinyBot(fake_discord)):  # a new process, same message
        await fake_discord.click(alice, table, "Draw")  # by label works too
        assert table.content == "game 7: 1 draws"  # state was in the old bot: counts afresh
        await fake_discord.click(alice, table, "lama:draw:7")
        assert table.content == "game 7: 2 draws" and table.button("Draw").disabled
        with pytest.raises(PermissionError):
            await fake_discord.click(alice, table, "lama:draw:7")

        passed = await fake_discord.click(bob, table, "lama:pass:7")
        assert passed.deferred and passed.response_type == 6
        await passed.edited()
        assert table.content == "game 7: passed"


async def test_a_modal_is_opened_and_submitted(fake_discord, bot) -> None:
    alice = fake_discord.user("alice")
    opened = await fake_discord.slash(alice, "lama", "rename")
    assert opened.response_type == 9 and opened.modal["title"] == "Rename the game"
    submitted = await fake_discord.submit_modal(alice, opened, **{"lama:rename:name": "Spots"})
    assert submitted.content == "renamed to Spots"


# ---- messages, DMs, attachments --------------------------------------------------------

async def test_dm_with_attachment_then_edit(fake_discord, bot) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    result = await fake_discord.slash(alice, "lama", "deal", player=bob)
    assert (await result.followup()).content == "dealt" and result.ephemeral
    [hand] = fake_discord.dms(bob)
    assert hand.content == "your hand (sorted)" and hand.edits == 1
    assert [(a.filename, a.data) for a in hand.attachments] == [("hand.png", b"PNG")]
    upload = fake_discord.rest_calls("POST /channels/{channel_id}/messages")[0]
    assert upload.filenames == ["hand.png"]


async def test_channel_message_edit_and_reply_with_file(fake_discord, bot) -> None:
    alice = fake_discord.user("alice")
    await (await fake_discord.slash(alice, "general", "announce", text="hello")).followup()
    [posted] = fake_discord.public_messages("general")
    assert posted.content == "hello!" and posted.embeds[0]["title"] == "Table"

    picture = await fake_discord.slash(alice, "general", "picture")
    assert picture.message.attachments[0].filename == "table.png"
    assert picture.message.attachments[0].data == b"\x89PNG..."


# ---- what Discord refuses --------------------------------------------------------------

@pytest.mark.parametrize("how", ["label", "long", "fields"])
async def test_a_body_discord_would_reject_is_caught(fake_discord, bot, how) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "misbehave", how=how)
    assert result.refused.code == 50035
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.code == 50035
    assert [e.kind for e in fake_discord.take_errors()] == ["invalid_body"]


async def test_a_late_answer_is_caught(fake_discord, bot) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "misbehave", how="late")
    assert result.refused.code == 10062 and result.response_type is None
    assert isinstance(bot.errors[0], discord.NotFound)
    assert [e.kind for e in fake_discord.take_errors()] == ["late_response"]


async def test_a_second_answer_is_caught(fake_discord, bot) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "misbehave",
                                      how="double")
    await eventually(lambda: bot.errors)  # the second answer, refused
    assert result.content == "once"
    assert bot.errors[0].code == 40060
    assert [e.kind for e in fake_discord.take_errors()] == ["double_response"]


async def test_the_interaction_token_expires_after_15_minutes(fake_discord, bot) -> None:
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "slow", wait=True)
    fake_discord.clock.advance(15 * 60 + 1)
    bot.release.set()
    await eventually(lambda: bot.errors)  # the late follow-up, refused
    assert bot.errors[0].status == 401 and bot.errors[0].code == 50027
    assert result.followups == []
    assert [e.kind for e in fake_discord.take_errors()] == ["expired_token"]


async def test_unknown_routes_fail_the_test(fake_discord, bot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/no/such/thing"))
    with pytest.raises(discord.NotFound):  # in Discord's API, but the fake does not do it
        await bot.get_channel(fake_discord.channel("lama").id).create_invite()
    kinds = [e.kind for e in fake_discord.take_errors()]
    assert kinds == ["unknown_route", "unimplemented_route"]


# ---- faults ----------------------------------------------------------------------------

async def test_closed_dms_raise_forbidden_50007_in_the_bot(fake_discord, bot) -> None:
    bob = fake_discord.user("bob")
    fake_discord.close_dms(bob)
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "deal", player=bob)
    assert (await result.followup()).content == "cannot DM bob: 50007"
    assert isinstance(bot.errors[0], discord.Forbidden)
    assert fake_discord.dms(bob) == []


async def test_a_429_is_retried_by_discord_py(fake_discord, bot) -> None:
    fake_discord.rate_limit_next(CHANNEL_MESSAGES, retry_after=0.05)
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "announce", text="hi")
    assert (await result.followup()).content == "posted"
    assert [c.status for c in fake_discord.rest_calls(CHANNEL_MESSAGES)] == [429, 200]
    assert len(fake_discord.public_messages("lama")) == 1


async def test_a_500_is_retried_by_discord_py(fake_discord, bot) -> None:
    fake_discord.fail_next(CHANNEL_MESSAGES)
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "announce", text="hi")
    assert (await result.followup(timeout=5)).content == "posted"  # discord.py waits 1 s
    assert [c.status for c in fake_discord.rest_calls(CHANNEL_MESSAGES)] == [500, 200]


async def test_five_429s_in_a_row_make_discord_py_give_up(fake_discord, bot) -> None:
    fake_discord.rate_limit_next(CHANNEL_MESSAGES, times=5)
    lama = bot.get_channel(fake_discord.channel("lama").id)
    with pytest.raises(discord.HTTPException) as raised:
        await lama.send("hi")
    assert raised.value.status == 429 and fake_discord.public_messages("lama") == []


async def test_a_proxys_429_is_raised_by_discord_py_at_once(fake_discord, bot) -> None:
    fake_discord.rate_limit_next(CHANNEL_MESSAGES, from_discord=False)
    lama = bot.get_channel(fake_discord.channel("lama").id)
    with pytest.raises(discord.HTTPException) as raised:
        await lama.send("hi")
    assert raised.value.status == 429
    assert [c.status for c in fake_discord.rest_calls(CHANNEL_MESSAGES)] == [429]


async def test_a_storm_answers_429_to_every_call_in_its_channel_for_its_seconds(
    fake_discord, bot
) -> None:
    fake_discord.rate_limit_for(CHANNEL_MESSAGES, 3.0, channel_id=fake_discord.channel("lama").id)
    lama = bot.get_channel(fake_discord.channel("lama").id)
    with pytest.raises(discord.HTTPException) as raised:  # five tries, all refused
        await lama.send("hi")
    assert raised.value.status == 429 and fake_discord.storming()
    await bot.get_channel(fake_discord.channel("general").id).send("elsewhere")  # not here
    while fake_discord.storming():
        await asyncio.sleep(0.05)
    await lama.send("after")
    assert [m.content for m in fake_discord.public_messages("lama")] == ["after"]
    assert len([c for c in fake_discord.rest_calls(CHANNEL_MESSAGES) if c.status == 429]) == 5


async def test_a_message_sent_again_with_its_nonce_is_not_posted_twice(fake_discord, bot) -> None:
    lama = bot.get_channel(fake_discord.channel("lama").id)
    first = await lama.send("hi", nonce="game-7-end")
    again = await lama.send("hi", nonce="game-7-end")
    other = await lama.send("hi", nonce="game-8-end")
    assert again.id == first.id != other.id
    assert len(fake_discord.public_messages("lama")) == 2


async def test_a_repeated_nonce_hands_back_the_message_as_first_posted(fake_discord, bot) -> None:
    """Not the body sent again, nor the edits the message had since: a bot that re-posts
    after a crash learns which message it is, not what it shows now."""
    lama = bot.get_channel(fake_discord.channel("lama").id)
    first = await lama.send("round 2, fresh deal", nonce="game-7-table-2")
    await first.edit(content="round 2, three moves in")
    again = await lama.send("round 2, five moves in", nonce="game-7-table-2")
    assert again.id == first.id and again.content == "round 2, fresh deal"
    (shown,) = fake_discord.public_messages("lama")
    assert shown.content == "round 2, three moves in"


async def test_a_missing_channel_permission_is_403_50013(fake_discord, bot) -> None:
    lama = fake_discord.channel("lama")
    await fake_discord.deny_bot(lama, "send_messages")
    result = await fake_discord.slash(fake_discord.user("alice"), lama, "announce", text="hi")
    assert (await result.followup()).content == "failed: 403 50013"
    await eventually(lambda: not bot.get_channel(lama.id).permissions_for(
        bot.get_guild(fake_discord.guild.id).me).send_messages)
    assert not bot.get_channel(lama.id).permissions_for(bot.get_guild(fake_discord.guild.id).me
                                                        ).send_messages  # saw CHANNEL_UPDATE


async def test_fetching_a_message_needs_read_message_history(fake_discord, bot) -> None:
    lama = fake_discord.channel("lama")
    sent = await bot.get_channel(lama.id).send("hi")
    assert (await bot.get_channel(lama.id).fetch_message(sent.id)).content == "hi"
    await fake_discord.deny_bot(lama, "read_message_history")
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_channel(lama.id).fetch_message(sent.id)
    assert refused.value.code == 50013


@pytest.mark.parametrize("resumable", [True, False])
async def test_the_bot_reconnects_after_a_gateway_drop(fake_discord, bot, resumable) -> None:
    await fake_discord.drop_gateway(resumable=resumable)
    # Sent while the bot is away: delivered on RESUME, or lost with the session.
    result = await fake_discord.slash(fake_discord.user("alice"), "lama", "hello", name="again")
    assert result.content == "hi again"
    assert (fake_discord.gateway.resumes, fake_discord.gateway.identifies) == (
        (1, 1) if resumable else (0, 2))


async def test_an_abrupt_drop_is_resumed(fake_discord, bot) -> None:
    await fake_discord.drop_gateway(abrupt=True)
    await fake_discord.gateway.wait_connected()
    result = await fake_discord.slash(fake_discord.user("bob"), "lama", "hello", name="back")
    assert result.content == "hi back"


async def test_a_bot_in_a_subprocess_finds_the_fake_through_the_env_var(fake_discord) -> None:
    script = (
        "import asyncio, discord\n"
        "from loopback.hook import point_discord_at_env\n"
        "assert point_discord_at_env()\n"
        "client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)\n"
        "client.run('subprocess-token', log_handler=None)\n"
    )
    repo = Path(__file__).resolve().parents[2]
    async with run_bot_process(fake_discord, [sys.executable, "-c", script], cwd=repo) as process:
        assert fake_discord.gateway.is_connected()
        process.kill()  # kill -9: the session stays resumable, as on Discord
    assert fake_discord.gateway.identifies == 1


# ---- the README's example, kept honest -------------------------------------------------

class ReadmeBot(commands.AutoShardedBot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(),
                         guild_ready_timeout=0.05)


async def test_the_readme_example(fake_discord) -> None:
    bot = ReadmeBot()

    @bot.tree.command(description="Start a game")
    async def new(interaction: discord.Interaction, variant: str) -> None:
        await interaction.response.send_message(f"new {variant} game")

    @bot.tree.command(description="Settings")
    @app_commands.default_permissions(manage_guild=True)
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("settings", ephemeral=True)

    async with run_bot(fake_discord, bot):
        alice = fake_discord.user("alice")
        result = await fake_discord.slash(alice, "lama", "new", variant="party")
        assert result.content == "new party game" and not result.ephemeral
        assert len(fake_discord.rest_calls()) == 5

        with pytest.raises(PermissionError):  # Discord hides the command from her
            await fake_discord.slash(alice, "lama", "settings")
        await fake_discord.grant(alice, manage_guild=True)
        assert (await fake_discord.slash(alice, "lama", "settings")).content == "settings"


def test_a_request_is_matched_to_the_same_route_as_by_a_scan_of_every_route() -> None:
    """Only the routes that start like the path are tried (spec.py `_candidates`), in the
    same precedence: "/messages/@original" before "/messages/{message_id}"."""
    spec = load_spec()
    for _, operation in spec._routes:
        path = re.sub(r"\{[a-z_]+\}", "123", operation.template)
        scanned = next(op for pattern, op in spec._routes
                       if op.method == operation.method and pattern.match(path))
        assert spec.match(operation.method, path) is scanned
    original = spec.match("PATCH", "/webhooks/1/abc/messages/@original")
    assert original is not None and original.template.endswith("/@original")
    assert spec.match("GET", "/no/such/route") is None


def test_an_interaction_token_is_url_safe_as_discords_are() -> None:
    """Discord's tokens are URL-safe base64 of "interaction:<id>:<secret>": a bot puts one in
    a webhook path as it is. The fake's had ':' in them, which every answer percent-encoded."""
    token = interaction_token(1234567890123456789)
    assert quote(token, safe="") == token
    padded = token + "=" * (-len(token) % 4)
    assert base64.urlsafe_b64decode(padded).decode().startswith("interaction:1234567890123456789:")
