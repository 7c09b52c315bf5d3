"""The Activity's tests: the real bot with its web site and the Activity on (`lamabot`, the
loopback Discord's application with Activities enabled), and players' pages (`page`)."""

from __future__ import annotations

import pytest

from tests.support.activity import Page, activity_settings, activity_url


@pytest.fixture
def bot_settings(fake_discord):
    return activity_settings(fake_discord)


@pytest.fixture
async def page(lamabot, fake_discord):
    """Open a player's Activity in a channel (default: #lama), signed in and connected unless
    told otherwise: `await page(user)`, `await page(user, "lama-2", connect=False)`."""
    opened: list[Page] = []

    async def open_page(user, channel="lama", *, sign_in=True, connect=True) -> Page:
        opened.append(made := Page(fake_discord, activity_url(lamabot.web.port), user, channel))
        if sign_in:
            status, answer = await made.sign_in()
            assert status == 200, answer
        if connect:
            await made.connect()
        return made

    yield open_page
    for made in opened:
        await made.close()
