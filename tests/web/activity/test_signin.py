"""Signing a player in (web/activity/signin.py) against the loopback Discord: the code traded
at /oauth2/token with the client secret, the user read with their token, the instance read
with the bot's token; each way it can fail, told apart."""

from __future__ import annotations

import pytest

from loopback.hook import API_BASE_ENV, discord_env_for
from loopback.running import BOT_TOKEN
from web.activity.signin import Credentials, DiscordSignIn, SignInProblem, SignInRefused


@pytest.fixture
async def signin(fake_discord):
    fake_discord.enable_activities()
    credentials = Credentials(discord_env_for(fake_discord.base_url)[API_BASE_ENV],
                              lambda: fake_discord.application_id,
                              fake_discord.activities.client_secret, BOT_TOKEN)
    made = DiscordSignIn(credentials)
    yield made
    await made.close()


async def refused(signin: DiscordSignIn, code: str, instance_id: str) -> SignInProblem:
    with pytest.raises(SignInRefused) as refusal:
        await signin.sign_in(code, instance_id)
    return refusal.value.problem


async def test_a_player_in_the_instance_is_signed_in(fake_discord, signin):
    fake = fake_discord
    alice = fake.user("alice")
    alice.locale = "es-ES"
    instance = fake.launch_activity(alice, "lama")
    signed = await signin.sign_in(fake.authorize(alice), instance.id)
    assert signed.user.id == alice.id and signed.user.name == "Alice"
    assert signed.user.locale == "es-ES"
    assert signed.instance.channel_id == fake.channel("lama").id
    assert signed.instance.guild_id == fake.guild.id and alice.id in signed.instance.users
    [exchange] = fake.rest_calls("POST /oauth2/token")
    assert exchange.body["client_secret"] == fake.activities.client_secret  # to Discord only
    assert exchange.body["client_id"] == str(fake.application_id)


async def test_a_code_used_twice_or_made_up_is_not_confirmed(fake_discord, signin):
    fake = fake_discord
    bob = fake.user("bob")
    instance = fake.launch_activity(bob, "lama")
    code = fake.authorize(bob)
    await signin.sign_in(code, instance.id)
    assert await refused(signin, code, instance.id) is SignInProblem.NOT_CONFIRMED
    assert await refused(signin, "made-up", instance.id) is SignInProblem.NOT_CONFIRMED


async def test_someone_not_in_the_instance_or_an_unknown_instance_is_refused(fake_discord,
                                                                          signin):
    fake = fake_discord
    alice, carol = fake.user("alice"), fake.user("carol")
    instance = fake.launch_activity(alice, "lama")
    assert await refused(signin, fake.authorize(carol),
                         instance.id) is SignInProblem.NOT_IN_INSTANCE
    assert await refused(signin, fake.authorize(alice),
                         "i-0-gc-1-2") is SignInProblem.NOT_IN_INSTANCE


async def test_discord_failing_is_told_apart(fake_discord, signin):
    fake = fake_discord
    alice = fake.user("alice")
    instance = fake.launch_activity(alice, "lama")
    fake.fail_next("POST /oauth2/token", status=502)
    assert await refused(signin, fake.authorize(alice),
                         instance.id) is SignInProblem.UNAVAILABLE
