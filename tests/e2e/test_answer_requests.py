"""An interaction's answer, and later its deletion, go to Discord over the bot's own HTTP client
(cogs/lean_http.py, through cogs/answer_adapter.py) with discord.py's rules for webhook
requests: Discord's 429 waited out and tried again, a 5xx tried again, a refusal raised as
discord.py's error. What that client does not do (files, a proxy) keeps discord.py's path."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters

from cogs import answer_adapter
from cogs.answer_adapter import ANSWERS
from cogs.lean_http import LeanHttp
from tests.support.e2e import on_turn, settle, two_humans

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
TOKEN_PATHS = ("/interactions/", "/webhooks/")
ONE_PIXEL_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


@pytest.fixture
def lean_requests(monkeypatch) -> list[tuple[str, str]]:
    """(method, url) of every request the lean client makes."""
    made: list[tuple[str, str]] = []
    real = LeanHttp.request

    async def request(self, method, url, **kwargs):
        made.append((method, url))
        return await real(self, method, url, **kwargs)

    monkeypatch.setattr(LeanHttp, "request", request)
    return made


@pytest.fixture
def aiohttp_token_requests(monkeypatch) -> list[tuple[str, str]]:
    """(method, url) of every request aiohttp's sessions make with an interaction's token."""
    made: list[tuple[str, str]] = []
    real = aiohttp.ClientSession._request

    def request(self, method, url, *args, **kwargs):
        if any(part in str(url) for part in TOKEN_PATHS):
            made.append((method, str(url)))
        return real(self, method, url, *args, **kwargs)

    monkeypatch.setattr(aiohttp.ClientSession, "_request", request)
    return made


async def slash_draws(fake, bot, game_id, channel, times: int) -> None:
    for _ in range(times):
        mover, _ = on_turn(fake, bot, game_id)
        await fake.slash(mover, channel, "draw")
        await settle(bot, game_id)


async def test_slash_moves_are_answered_and_older_hands_deleted_over_the_lean_client(
        fake_discord, lamabot, lean_requests, aiohttp_token_requests):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    lean_requests.clear()
    await slash_draws(fake, bot, game_id, channel, 3)  # the first mover moves twice
    methods = [method for method, url in lean_requests]
    assert methods.count("POST") == 3  # each draw's answer
    assert ("DELETE" in methods and all(url.endswith("/messages/@original")
                                        for method, url in lean_requests if method == "DELETE"))
    assert all("with_response=1" in url for method, url in lean_requests if method == "POST")
    assert aiohttp_token_requests == []
    assert fake.take_errors() == []


async def test_discords_429_on_an_answer_is_waited_out_and_the_answer_lands(
        fake_discord, lamabot, lean_requests):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    lean_requests.clear()
    fake.rate_limit_next(CALLBACK, retry_after=0.05)
    drawn = await fake.slash(mover, channel, "draw")
    assert drawn.response_type == 4 and drawn.message.custom_ids  # the hand, after the wait
    assert [m for m, _ in lean_requests].count("POST") == 2
    assert fake.take_errors() == []
    await settle(bot, game_id)


async def test_a_5xx_on_an_answer_is_tried_again(fake_discord, lamabot, lean_requests,
                                                 monkeypatch):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    monkeypatch.setattr(answer_adapter, "backoff_s", lambda attempt: 0.0)
    lean_requests.clear()
    fake.fail_next(CALLBACK, status=503)  # before Discord did anything
    drawn = await fake.slash(mover, channel, "draw")
    assert drawn.response_type == 4 and drawn.message.custom_ids
    assert [m for m, _ in lean_requests].count("POST") == 2
    await settle(bot, game_id)


async def test_a_refusal_is_discord_pys_error_with_discords_words(fake_discord, lamabot):
    session = lamabot.http._HTTPClient__session
    with pytest.raises(discord.NotFound) as gone:
        await ANSWERS.delete_original_interaction_response(
            fake_discord.application_id, "no-such-token", session=session)
    assert gone.value.status == 404 and gone.value.code == 10015
    assert "Unknown Webhook" in gone.value.text
    fake_discord.take_errors()


async def test_an_answer_with_a_file_keeps_discord_pys_own_path(
        fake_discord, lamabot, lean_requests, aiohttp_token_requests):
    game_id, channel = await two_humans(fake_discord, lamabot)
    mover, _ = on_turn(fake_discord, lamabot, game_id)
    answered = await fake_discord.slash(mover, channel, "draw")
    await settle(lamabot, game_id)
    lean_requests.clear()
    session = lamabot.http._HTTPClient__session
    await ANSWERS.edit_original_interaction_response(
        fake_discord.application_id, answered.record.token, session=session,
        **_with_a_file())
    assert lean_requests == []
    assert [m for m, _ in aiohttp_token_requests] == ["PATCH"]
    assert answered.message.attachments


def _with_a_file() -> dict:
    params = handle_message_parameters(content="a picture", file=discord.File(
        io.BytesIO(ONE_PIXEL_PNG), filename="p.png"))
    return {"payload": params.payload, "multipart": params.multipart, "files": params.files}

