"""Activities enabled for the application in the Developer Portal, but not configured for
the bot (no client secret): Discord refuses a command sync that drops the Entry Point it made,
so the bot keeps that one as it is, starts, and plays as without an Activity."""

from __future__ import annotations

import pytest

from loopback.activities import PRIMARY_ENTRY_POINT
from tests.support.activity import PUBLIC_URL


@pytest.fixture
def bot_settings(fake_discord):
    fake_discord.enable_activities()  # the portal's switch, before the bot starts
    return {"web_port": 0, "web_host": "127.0.0.1", "web_public_url": PUBLIC_URL}


async def test_the_bot_keeps_discords_entry_point_and_plays(fake_discord, lamabot):
    fake = fake_discord
    assert [e.call.status for e in fake.take_errors("invalid_body")] == [400]  # then kept
    [entry] = [c for c in fake.commands[None] if c["type"] == PRIMARY_ENTRY_POINT]
    assert entry["name"] == "launch" and entry["handler"] == 2  # Discord's default, as it was
    lobby = await fake.slash(fake.user("alice"), "lama", "lama new")
    assert "Open the table" not in [b.label for b in lobby.message.buttons]
