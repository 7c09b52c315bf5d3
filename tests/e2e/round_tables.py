"""A round's table on the loopback Discord: its buttons, quitting until the round ends."""

from __future__ import annotations

from bot import LamaBot
from lama import QUIT
from loopback.hook import API_BASE_ENV, discord_env_for
from loopback.running import BOT_TOKEN
from settings import Settings
from tests.support.lamabot import CHANNEL_PERIOD

TABLE_BUTTONS = ["My hand", "Draw", "Quit round", "Rules"]


async def quit_for(bot, game_id) -> list:
    """The seat on turn quits (through the service: set-up); the events it led to."""
    view = bot.service.view(game_id)
    update = await bot.service.human_move(game_id, view.seats[view.current_seat].user_id, QUIT)
    return list(update.events)


async def quit_until_a_quit_would_end(bot, game_id, what: type) -> None:
    """Seats quit until the next quit would lead to a `what` event (RoundEnded, GameEnded);
    then everything shown so far is on Discord."""
    while True:
        game = bot.service.registry.get(game_id).running_game.clone()
        if any(isinstance(e, what) for e in game.apply(game.current_seat, QUIT)):
            break
        await quit_for(bot, game_id)
    await bot.renderer.flush_all()


WAIT = 30.0  # seconds a loaded machine may take to show the outbox after a start


def a_bot(fake, tmp_path) -> LamaBot:
    """A LamaBot on the test's database file: each call is the same bot started anew."""
    settings = Settings(
        token=BOT_TOKEN,
        database_path=tmp_path / "lama.sqlite3",
        render_delay=0,
        channel_window=CHANNEL_PERIOD,
        discord_api_base_url=discord_env_for(fake.base_url)[API_BASE_ENV],
        discord_gateway_url=fake.ws_url,
    )
    return LamaBot(settings, guild_ready_timeout=0.05)
