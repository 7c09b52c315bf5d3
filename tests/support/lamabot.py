"""Fixtures that run the real LamaBot in-process against the loopback Discord."""

from __future__ import annotations

import logging
import traceback

import pytest

from bot import LamaBot, Settings
from loopback.hook import API_BASE_ENV, discord_env_for
from loopback.running import BOT_TOKEN, run_bot
from store import GuildSettings

HAND_MARKERS = ("lama:h:",)  # hand buttons never belong in a public message
CHANNEL_PERIOD = 0.5


class ErrorLog(logging.Handler):
    """Collects every error the bot logs: in these tests, any logged error is a bug."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _describe(record: logging.LogRecord) -> str:
    """The message and, where there is one, the traceback: enough to fix the bug."""
    text = record.getMessage()
    if record.exc_info:
        text += "\n" + "".join(traceback.format_exception(*record.exc_info))
    return text


@pytest.fixture
def bot_errors():
    handler = ErrorLog()
    logging.getLogger().addHandler(handler)
    yield handler.records
    logging.getLogger().removeHandler(handler)
    assert not handler.records, "\n".join(_describe(r) for r in handler.records)


@pytest.fixture
def bot_clock():
    """The bot's clock: real time. A test that drives time parametrizes it with a FakeClock:
    `@pytest.mark.parametrize("bot_clock", [FakeClock()])`, then `clock.advance(...)` and
    `await bot.service.fire_due_timers()`."""
    return None


@pytest.fixture
def bot_database_url():
    """The bot's DATABASE_URL: empty, a SQLite file in the test's folder. A test module runs
    its bot on PostgreSQL by overriding this fixture (see tests/e2e/test_game.py)."""
    return ""


@pytest.fixture
def bot_settings():
    """More of the bot's settings (Settings' field names): none. A test module overrides it
    to run its bot with, e.g., the web pages and the Activity (tests/web/activity/)."""
    return {}


@pytest.fixture
async def lamabot(fake_discord, fresh_sqlite, bot_errors, bot_clock, bot_database_url,
                  bot_settings):
    """LamaBot with a fresh database; AIs move at once so games run fast."""
    # Discord's per-channel window (5 s) shortened tenfold so that whole games run fast;
    # the global limit (50 calls/s) stays as Discord's.
    fake_discord.ratelimits.channel_period = CHANNEL_PERIOD
    settings = Settings(
        token=BOT_TOKEN,
        database_path=fresh_sqlite,
        database_url=bot_database_url,
        render_delay=0,
        channel_window=CHANNEL_PERIOD,
        discord_api_base_url=discord_env_for(fake_discord.base_url)[API_BASE_ENV],
        discord_gateway_url=fake_discord.ws_url,
        **bot_settings,
    )
    bot = LamaBot(settings, clock=bot_clock, guild_ready_timeout=0.05)
    async with run_bot(fake_discord, bot, sync_commands=False):
        await bot.service.save_guild_settings(
            GuildSettings(fake_discord.guild.id, ai_delay_s=0.0, turn_timeout_s=3600)
        )
        yield bot
        await bot.renderer.flush_all()
        assert_no_hand_in_public(fake_discord, bot)


def assert_no_hand_in_public(fake, bot) -> None:
    """No public message shows a player's hand: no hand buttons, no hand embed."""
    hand_titles = {bot_text("hand.title", loc) for loc in ("en", "cs", "es")}
    for channel in fake.guild.channels.values():
        for message in fake.public_messages(channel):
            assert not any(cid.startswith(HAND_MARKERS) for cid in message.custom_ids)
            for embed in message.embeds:
                title = embed.get("title", "")
                assert not any(title.startswith(h) for h in hand_titles), title


def bot_text(key: str, locale: str) -> str:
    """The fixed start of a message (before its first placeholder)."""
    import i18n

    return i18n.translate(key, locale, round=0).split("0")[0]
