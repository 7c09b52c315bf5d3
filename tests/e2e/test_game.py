"""LamaBot end to end: real discord.py against the loopback Discord, on a real SQLite file and
on a real PostgreSQL database (DATABASE_URL)."""

from __future__ import annotations

import random

import pytest

from hosting import Status
from store import Dialect
from tests.support.backends import BACKENDS
from tests.support.e2e import offered_cards
from tests.support.play_along import as_slash, random_action

RNG = random.Random(3)


@pytest.fixture(params=BACKENDS)
def bot_database_url(request):
    return "" if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def game_in(bot, channel):
    return bot.service.game_in_channel(channel.id)


async def slash_move(fake, bot, game_id, channel):
    """Whoever is on turn moves with a slash command: a legal card, else draw, else quit."""
    view = bot.service.view(game_id)
    seat = view.seats[view.current_seat]
    user = fake.users_by_id[seat.user_id]
    obs = bot.service.observation(game_id, seat.user_id)
    command, options = as_slash(random_action(obs, RNG, play=0.85))
    if command == "play":
        choices = await fake.autocomplete(user, channel, "play", focused="card", card="")
        assert offered_cards(choices) == sorted(c.code for c in obs.legal_plays)
    result = await fake.slash(user, channel, command, **options)
    assert result.ephemeral
    await bot.renderer.flush_all()
    return result


async def test_two_humans_play_a_whole_game_with_slash_commands(
    fake_discord, lamabot, bot_database_url
):
    fake, bot = fake_discord, lamabot
    assert bot.store.db.dialect is (Dialect.POSTGRESQL if bot_database_url else Dialect.SQLITE)
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("lama")
    # To 20 points, not the default 40: a whole game still, in about half the moves (each
    # waits for its renders under the channel's rate limit).
    lobby = await fake.slash(alice, channel, "lama new", variant="classic", target=20)
    assert not lobby.ephemeral
    await fake.slash(bob, channel, "lama join")
    await fake.slash(alice, channel, "lama start")
    game_id = game_in(bot, channel).game_id
    for _ in range(3000):
        if bot.service.view(game_id).status is Status.FINISHED:
            break
        await slash_move(fake, bot, game_id, channel)
    await bot.renderer.flush_all()
    assert bot.service.view(game_id).status is Status.FINISHED
    last = fake.public_messages(channel)[-1]
    assert "Game over" in last.embed_text
    assert last.button("Rematch") is not None


async def test_two_players_open_a_game(fake_discord, lamabot):
    """docs/testing.md's example, kept honest."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("lama")
    lobby = await fake_discord.slash(alice, channel, "lama new", variant="party")
    assert not lobby.ephemeral
    await fake_discord.slash(bob, channel, "lama join")
    await fake_discord.slash(alice, channel, "lama start")
    await lamabot.renderer.flush_all()  # let the table and hands go out
    assert fake_discord.dms(bob)[-1].buttons  # Bob's hand, with buttons


async def test_the_host_starting_by_command_is_answered_briefly_not_with_the_lobbys_words(
    fake_discord, lamabot
):
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("lama")
    lobby = await fake_discord.slash(alice, channel, "lama new")
    await fake_discord.slash(bob, channel, "lama join")
    started = await fake_discord.slash(alice, channel, "lama start")
    assert started.ephemeral and started.text == "Game started."
    await lamabot.renderer.flush_all()  # the lobby's edit
    assert started.text not in lobby.message.text  # the lobby tells everyone, in full
    assert "has started" in lobby.message.text
