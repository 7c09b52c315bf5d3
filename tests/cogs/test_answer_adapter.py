"""The answers' adapter (cogs/answer_adapter.py) keeps discord.py's rules for webhook requests
over the lean client: what Discord's statuses turn into, what is tried again, and how long
a spent bucket holds the token's next request. Against a server that answers as told."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import aiohttp
import discord
import discord.http
import pytest
from aiohttp import web

from cogs import answer_adapter
from cogs.answer_adapter import AnswerAdapter, use_lean_http
from cogs.lean_http import LeanHttp

APPLICATION = 11


class Scripted:
    """A server whose next replies are given by the test: (status, headers, JSON body)."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, dict[str, str], object]] = []
        self.seen: list[tuple[str, str, float]] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.seen.append((request.method, request.path_qs, time.monotonic()))
        status, headers, body = self.replies.pop(0) if self.replies else (204, {}, None)
        if body is None:
            return web.Response(status=status, headers=headers)
        return web.Response(status=status, body=json.dumps(body).encode(),  # as Discord: no
                            headers={**headers, "Content-Type": "application/json"})  # charset


@pytest.fixture
async def scripted(monkeypatch) -> AsyncIterator[tuple[Scripted, aiohttp.ClientSession]]:
    server = Scripted()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", server.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setattr(answer_adapter, "backoff_s", lambda attempt: 0.0)
    session = aiohttp.ClientSession()
    lean = LeanHttp("LamaBot-test")
    use_lean_http(session, lean)
    try:
        yield server, session
    finally:
        lean.close()
        await session.close()
        await runner.cleanup()


ADAPTER = AnswerAdapter()  # one, as the bot's: its token buckets are shared


def delete(session: aiohttp.ClientSession, token: str = "t0k3n"):
    return ADAPTER.delete_original_interaction_response(APPLICATION, token, session=session)


async def test_a_refused_delete_is_discord_pys_forbidden_with_discords_code(scripted):
    server, session = scripted
    server.replies = [(403, {}, {"code": 50001, "message": "Missing Access"})]
    with pytest.raises(discord.Forbidden) as refused:
        await delete(session)
    assert (refused.value.status, refused.value.code) == (403, 50001)
    assert "Missing Access" in str(refused.value)


async def test_a_429_that_is_not_discords_is_raised_not_waited_out(scripted):
    server, session = scripted
    server.replies = [(429, {}, {"message": "banned for a while", "retry_after": 60})]
    with pytest.raises(discord.HTTPException) as limited:
        await delete(session)
    assert limited.value.status == 429 and len(server.seen) == 1


async def test_discords_429_is_waited_out_then_tried_again(scripted):
    server, session = scripted
    server.replies = [(429, {"Via": "1.1 google"}, {"message": "You are being rate limited.",
                                                    "retry_after": 0.05, "global": False})]
    await delete(session)
    (_, _, first), (_, _, second) = server.seen
    assert second - first >= 0.05


async def test_five_server_errors_in_a_row_are_discord_pys_server_error(scripted):
    server, session = scripted
    server.replies = [(503, {}, {"message": "upstream"})] * 5
    with pytest.raises(discord.DiscordServerError):
        await delete(session)
    assert len(server.seen) == 5


async def test_a_spent_bucket_holds_the_tokens_next_request_until_it_resets(scripted):
    server, session = scripted
    server.replies = [(204, {"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset-After": "0.2"},
                       None)]
    await asyncio.gather(delete(session), delete(session))
    (_, _, first), (_, _, second) = server.seen
    assert second - first >= 0.2


async def test_a_token_is_asked_for_by_its_path_and_an_answer_with_its_query(scripted):
    server, session = scripted
    server.replies = [(200, {}, {"interaction": {"id": "5", "type": 2},
                                 "resource": {"type": 4, "message": {"id": "9"}}})]
    reply = await ADAPTER.create_interaction_response(
        5, "t0k3n", session=session,
        params=discord.http.MultipartParameters({"type": 4, "data": {"content": "hi"}},
                                                None, []))
    assert reply["resource"] == {"type": 4}  # the message dropped, unread (its cost)
    assert [(m, p) for m, p, _ in server.seen] == [
        ("POST", "/api/v10/interactions/5/t0k3n/callback?with_response=1")]
