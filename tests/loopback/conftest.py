"""The loopback Discord's own tests: `bot`, a tiny bot running against the fake."""

from __future__ import annotations

import pytest

from loopback import FakeDiscord
from loopback.running import run_bot
from tests.loopback.tiny_bot import (
    TinyBot,
)


@pytest.fixture
async def bot(fake_discord: FakeDiscord):
    async with run_bot(fake_discord, TinyBot(fake_discord)) as running:
        yield running
