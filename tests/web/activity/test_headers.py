"""The Activity's pages are framed by Discord and load nothing from elsewhere: a strict CSP
whose frame-ancestors are Discord's, no X-Frame-Options (the rest of the site keeps DENY);
card pictures for the page, and nothing outside the app's folder."""

from __future__ import annotations

import aiohttp
import pytest

from tests.support.activity import activity_settings, activity_url

HOST_PAGE = "http://127.0.0.1:8123"


async def get(url: str) -> tuple[int, dict[str, str]]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        await response.read()
        return response.status, dict(response.headers)


async def test_the_activity_is_framed_by_discord_and_loads_only_from_itself(lamabot):
    base = activity_url(lamabot.web.port)
    status, headers = await get(f"{base}/cards/party/cs/3p.png")
    assert status == 200 and headers["Content-Type"] == "image/png"
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "connect-src 'self'" in csp and "img-src 'self' data:" in csp
    assert "frame-ancestors https://discord.com https://*.discord.com" in csp
    assert "unsafe" not in csp and "X-Frame-Options" not in headers
    _, site = await get(f"http://127.0.0.1:{lamabot.web.port}/")
    assert site["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in site[
        "Content-Security-Policy"]


async def test_nothing_outside_the_apps_folder_is_served(lamabot):
    base = activity_url(lamabot.web.port)
    for path in ("/..%2F..%2Fbot.py", "/../../bot.py", "/%2e%2e/settings.py",
                 "/cards/party/xx/3.png"):
        status, _headers = await get(base + path)
        assert status == 404, path


@pytest.fixture
def bot_settings(fake_discord):
    """The Activity, framed also by a test's host page standing in for the Discord client."""
    return {**activity_settings(fake_discord), "activity_frame_ancestors": (HOST_PAGE,)}


async def test_a_test_host_page_may_frame_it_too(lamabot):
    _, headers = await get(f"{activity_url(lamabot.web.port)}/cards/party/en/1.png")
    assert f"https://discord.com https://*.discord.com https://*.discordsays.com {HOST_PAGE}" in (
        headers["Content-Security-Policy"])
