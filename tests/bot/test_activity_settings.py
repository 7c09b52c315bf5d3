"""The Activity's settings: on only with the web pages served at a public URL and the
application's client secret; any one missing, the bot is what it is without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from settings import Settings

REPO = Path(__file__).resolve().parents[2]
ALL = {"WEB_PORT": "8080", "WEB_PUBLIC_URL": "https://lama.example.org",
       "DISCORD_CLIENT_SECRET": " s3cret "}


def test_the_client_secret_is_read_from_the_environment():
    assert Settings.from_env(ALL).discord_client_secret == "s3cret"
    assert Settings.from_env({}).discord_client_secret is None
    assert Settings.from_env({"DISCORD_CLIENT_SECRET": "  "}).discord_client_secret is None


def test_the_activity_is_on_with_all_three_settings():
    assert Settings.from_env(ALL).activity_enabled


@pytest.mark.parametrize("missing", sorted(ALL))
def test_without_any_one_of_them_there_is_no_activity(missing):
    assert not Settings.from_env({k: v for k, v in ALL.items() if k != missing}).activity_enabled


def test_the_example_settings_file_describes_the_client_secret():
    example = (REPO / ".env.example").read_text()
    assert "\nDISCORD_CLIENT_SECRET=\n" in example
