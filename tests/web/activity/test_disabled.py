"""Where the Activity is not configured (here: the web pages served at a public URL, but no
client secret), the bot is exactly what it is without it: no button, no Entry Point command,
no /activity routes, and nothing it says mentions an Activity."""

from __future__ import annotations

import aiohttp
import pytest

from tests.support.activity import PUBLIC_URL, activity_url
from tests.support.e2e import table


@pytest.fixture
def bot_settings():
    return {"web_port": 0, "web_host": "127.0.0.1", "web_public_url": PUBLIC_URL}


async def test_no_button_no_entry_point_no_routes(fake_discord, lamabot):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = await fake.slash(alice, "lama", "lama new", target=10)
    assert [b.label for b in lobby.message.buttons] == [
        "Join", "Leave", "Add AI", "Start", "Cancel"]
    await fake.slash(bob, "lama", "lama join")
    await fake.slash(alice, "lama", "lama start")
    await lamabot.renderer.flush_all()
    assert [b.label for b in table(fake, "lama").buttons] == [
        "My hand", "Draw", "Quit round", "Rules"]
    assert {c["type"] for c in fake.commands[None]} == {1}
    base = activity_url(lamabot.web.port)
    async with aiohttp.ClientSession() as http:
        for method, path in (("GET", "/"), ("POST", "/api/session"), ("GET", "/api/live")):
            async with http.request(method, base + path, json={}) as response:
                assert response.status in (404, 405), path
    said = " ".join(m.text for c in fake.channels.values() for m in c.messages)
    assert "Activity" not in said and "Open the table" not in said
