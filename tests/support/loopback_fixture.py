"""The pytest fixture of the loopback Discord (`loopback/`): started, discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from loopback.hook import point_discord_at, restore_real_discord
from loopback.server import FakeDiscord
from loopback.spec import SpecMissing, load_spec


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started loopback Discord with discord.py pointed at it.

    Teardown fails the test if the fake recorded any error (an unknown route, a body Discord
    would reject, a late or double interaction answer...) that the test did not ``take_errors``.
    """
    try:
        load_spec()
    except SpecMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    fake = FakeDiscord()
    await fake.start()
    point_discord_at(fake.base_url)
    try:
        yield fake
    finally:
        await fake.stop()
        restore_real_discord()
    fake.assert_no_errors()
