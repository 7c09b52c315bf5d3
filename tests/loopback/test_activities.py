"""The loopback Discord's Activities: the OAuth2 sign-in of an Activity's backend, activity
instances, LAUNCH_ACTIVITY answers and the Entry Point command's rules, as Discord keeps them;
the shapes it answers with are checked against Discord's OpenAPI document."""

from __future__ import annotations

import aiohttp
import discord
import jsonschema
import pytest

from loopback import FakeDiscord
from loopback.activities import ENTRY_POINT_KEPT, PRIMARY_ENTRY_POINT
from loopback.running import BOT_TOKEN, run_bot
from loopback.spec import SPEC_URI, load_spec
from tests.loopback.tiny_bot import TinyBot

API = "/api/v10"


def conforms(schema: str, value: object) -> None:
    """`value` is what Discord's OpenAPI document says a `schema` is."""
    spec = load_spec()
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/components/schemas/{schema}"},
        registry=spec._registry)  # the document's own registry: its $refs resolve
    validator.validate(value)


async def exchange(fake: FakeDiscord, code: str, *, secret: str | None = None,
                   client_id: int | None = None) -> tuple[int, dict]:
    form = {"client_id": str(client_id or fake.application_id),
            "client_secret": secret or fake.activities.client_secret,
            "grant_type": "authorization_code", "code": code}
    async with aiohttp.ClientSession() as http, http.post(
            f"{fake.base_url}{API}/oauth2/token", data=form) as response:
        return response.status, await response.json()


async def get(fake: FakeDiscord, path: str, authorization: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.get(
            f"{fake.base_url}{API}{path}", headers={"Authorization": authorization}) as response:
        return response.status, await response.json()


async def test_a_code_is_traded_once_for_a_token_that_reads_its_user(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    alice = fake.user("alice")
    alice.locale = "cs"
    code = fake.authorize(alice)
    status, token = await exchange(fake, code)
    assert status == 200 and token["token_type"] == "Bearer" and token["scope"] == "identify"
    status, me = await get(fake, "/users/@me", f"Bearer {token['access_token']}")
    assert status == 200 and me["id"] == str(alice.id) and me["locale"] == "cs"
    assert (await exchange(fake, code))[1]["error"] == "invalid_grant"  # one use only
    assert fake.rest_calls("POST /oauth2/token")[0].body["code"] == code


async def test_a_wrong_secret_an_old_code_or_a_made_up_one_get_no_token(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    bob = fake.user("bob")
    assert await exchange(fake, fake.authorize(bob), secret="guess") == (
        401, {"error": "invalid_client"})
    assert (await exchange(fake, fake.authorize(bob), client_id=1))[0] == 401
    old = fake.authorize(bob)
    fake.clock.advance(11 * 60)
    assert (await exchange(fake, old))[1]["error"] == "invalid_grant"
    assert (await exchange(fake, "made-up"))[1]["error"] == "invalid_grant"


async def test_a_users_token_reads_only_what_its_scope_allows(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    _, token = await exchange(fake, fake.authorize(fake.user("carol")))
    bearer = f"Bearer {token['access_token']}"
    assert (await get(fake, "/gateway/bot", bearer))[0] == 401  # a bot's route
    assert (await get(fake, "/users/@me", "Bearer forged"))[0] == 401
    status, me = await get(fake, "/users/@me", f"Bot {BOT_TOKEN}")  # the bot's own token
    assert status == 200 and me["id"] == str(fake.application_id)


async def test_an_instance_tells_its_channel_and_who_is_in_it(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    alice, bob = fake.user("alice"), fake.user("bob")
    lama = fake.channel("lama")
    instance = fake.launch_activity(alice, lama)
    assert fake.launch_activity(bob, "lama") is instance  # joined, not a second one
    path = f"/applications/{fake.application_id}/activity-instances/{instance.id}"
    status, body = await get(fake, path, f"Bot {BOT_TOKEN}")
    assert status == 200
    conforms("EmbeddedActivityInstance", body)
    assert body["location"] == {"id": f"gc-{fake.guild.id}-{lama.id}", "kind": "gc",
                                "channel_id": str(lama.id), "guild_id": str(fake.guild.id)}
    assert body["users"] == [str(alice.id), str(bob.id)]
    fake.activities.leave(alice, instance)
    assert (await get(fake, path, f"Bot {BOT_TOKEN}"))[1]["users"] == [str(bob.id)]
    fake.activities.leave(bob, instance)
    assert (await get(fake, path, f"Bot {BOT_TOKEN}"))[0] == 404  # the last one out ends it
    other_app = f"/applications/1/activity-instances/{instance.id}"
    assert (await get(fake, other_app, f"Bot {BOT_TOKEN}"))[0] == 403


ENTRY_POINT = {"type": PRIMARY_ENTRY_POINT, "name": "launch", "description": "Play LAMA",
               "handler": 2}


def launching_bot(fake: FakeDiscord, *, entry_point: dict | None = None) -> TinyBot:
    """The tiny bot with a command and a button that answer LAUNCH_ACTIVITY, and, given one,
    an Entry Point command synced with its slash commands."""
    bot = TinyBot(fake)

    @bot.tree.command(description="Open the Activity")
    async def open_table(interaction: discord.Interaction) -> None:
        response = await interaction.response.launch_activity()
        bot.launched = response.resource  # what discord.py read of the answer

    if entry_point is not None:
        sync = bot.tree.sync

        async def sync_with_entry_point(*, guild=None):
            if guild is not None:
                return await sync(guild=guild)
            payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands()] + [entry_point]
            data = await bot.http.bulk_upsert_global_commands(bot.application_id, payload)
            return [discord.app_commands.AppCommand(data=d, state=bot.tree._state) for d in data]

        bot.tree.sync = sync_with_entry_point
    return bot


async def test_launch_activity_takes_the_user_into_the_channels_instance(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    async with run_bot(fake, launching_bot(fake, entry_point=ENTRY_POINT)) as bot:
        alice = fake.user("alice")
        result = await fake.slash(alice, "lama", "open_table")
        assert result.response_type == 12 and result.refused is None
        instance = result.activity_instance
        assert instance.channel is fake.channel("lama") and instance.users == [alice.id]
        assert bot.launched.id == instance.id  # discord.py read the instance from the answer


async def test_without_activities_launch_activity_is_refused(fake_discord):
    fake = fake_discord
    async with run_bot(fake, launching_bot(fake)):
        result = await fake.slash(fake.user("alice"), "lama", "open_table")
        assert result.refused is not None and result.activity_instance is None
    assert fake.take_errors("invalid_response_type")


async def test_enabling_activities_gives_the_default_entry_point_which_a_sync_must_keep(
        fake_discord):
    fake = fake_discord
    fake.enable_activities()
    [default] = fake.commands[None]
    assert default["type"] == PRIMARY_ENTRY_POINT and default["handler"] == 2
    with pytest.raises(discord.HTTPException) as refused:
        async with run_bot(fake, TinyBot(fake)):  # syncs slash commands only
            pass
    assert refused.value.code == ENTRY_POINT_KEPT
    assert fake.take_errors("invalid_body")


async def test_a_sync_with_the_entry_point_keeps_one_and_it_launches(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    async with run_bot(fake, launching_bot(fake, entry_point=ENTRY_POINT)):
        [entry] = [c for c in fake.commands[None] if c["type"] == PRIMARY_ENTRY_POINT]
        assert entry["description"] == "Play LAMA"
        alice = fake.user("alice")
        instance = await fake.use_entry_point(alice, "lama")  # Discord's handler: no interaction
        assert instance.users == [alice.id] and instance.channel is fake.channel("lama")


async def test_the_apps_own_handler_gets_the_interaction_and_launches(fake_discord):
    fake = fake_discord
    fake.enable_activities()
    own = {**ENTRY_POINT, "handler": 1}
    bot = launching_bot(fake, entry_point=own)

    @bot.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        if (interaction.data or {}).get("type") == PRIMARY_ENTRY_POINT:
            await interaction.response.launch_activity()

    async with run_bot(fake, bot):
        result = await fake.use_entry_point(fake.user("bob"), "lama")
        assert result.response_type == 12 and result.activity_instance.users == [
            fake.user("bob").id]


async def test_entry_points_need_activities_one_at_most_and_the_global_scope(fake_discord):
    fake = fake_discord
    with pytest.raises(discord.HTTPException):  # no Activities: no Entry Point
        async with run_bot(fake, launching_bot(fake, entry_point=ENTRY_POINT)):
            pass
    assert fake.take_errors("invalid_body")
    fake.enable_activities()
    async with run_bot(fake, TinyBot(fake), sync_commands=False) as bot:
        two = [ENTRY_POINT, {**ENTRY_POINT, "name": "again"}]
        with pytest.raises(discord.HTTPException):
            await bot.http.bulk_upsert_global_commands(fake.application_id, two)
        with pytest.raises(discord.HTTPException):
            await bot.http.bulk_upsert_guild_commands(fake.application_id, fake.guild.id,
                                                      [ENTRY_POINT])
        handler_on_slash = {"name": "x", "description": "x", "type": 1, "handler": 2}
        with pytest.raises(discord.HTTPException):
            await bot.http.upsert_global_command(fake.application_id, handler_on_slash)
    assert len(fake.take_errors("invalid_body")) == 3

