"""An interaction deletes its own answer through its token, as Discord allows for 15 minutes:
`DELETE /webhooks/{application_id}/{token}/messages/@original` (or a follow-up's id), answered
204, an ephemeral one gone from its user's screen with no gateway event (Discord sends none
for ephemerals); an expired token is refused 401 50027 (the bot's hands rely on this: one
private hand on screen at a time, cogs/render/hands.py)."""

from __future__ import annotations

import aiohttp

from loopback import FakeDiscord
from loopback.hook import API_PATH


async def delete(fake: FakeDiscord, token: str, message: str = "@original") -> int:
    hook = f"{fake.base_url.rstrip('/')}{API_PATH}/webhooks/{fake.application_id}/{token}"
    url = f"{hook}/messages/{message}"
    async with aiohttp.ClientSession() as session, session.delete(url) as response:
        return response.status


async def test_an_ephemeral_answer_is_deleted_through_its_token(fake_discord, bot) -> None:
    carol = fake_discord.user("carol")
    result = await fake_discord.slash(carol, "lama", "whoami")
    assert result.ephemeral and fake_discord.ephemeral_messages(carol) == [result.message]
    assert await delete(fake_discord, result.record.token) == 204
    assert result.message.deleted and fake_discord.ephemeral_messages(carol) == []
    assert await delete(fake_discord, result.record.token) == 404  # gone already: 10008
    assert fake_discord.take_errors() == []


async def test_a_follow_up_is_deleted_by_its_id(fake_discord, bot) -> None:
    result = await fake_discord.slash(fake_discord.user("dave"), "lama", "slow")
    followup = await result.followup()
    assert await delete(fake_discord, result.record.token, str(followup.id)) == 204
    assert followup.deleted


async def test_a_delete_after_15_minutes_is_refused(fake_discord, bot) -> None:
    result = await fake_discord.slash(fake_discord.user("carol"), "lama", "whoami")
    fake_discord.clock.advance(15 * 60 + 1)
    assert await delete(fake_discord, result.record.token) == 401
    assert not result.message.deleted
    assert [e.kind for e in fake_discord.take_errors()] == ["expired_token"]
