"""A game another process opened in a channel, used there through the real bot and the
loopback Discord: the bot's process has never held it (a second GameService on the bot's own
database opened it, as shard 0's process opens a tournament's next table), and the channel's
slash commands find it from the first one on (docs/scaling.md)."""

from __future__ import annotations

import pytest

from hosting import GameOptions, GameService, Status, SystemClock
from lama import QUIT
from store import Store
from tests.e2e.tournaments import sign_up, signup_message
from tests.support.e2e import settle, two_humans, untagged, wait_until

OPTIONS = GameOptions(turn_timeout=3600, ai_delay=0)


@pytest.fixture
async def elsewhere(lamabot, tmp_path):
    """Another process on the bot's database."""
    store = await Store.open(tmp_path / "lama.sqlite3")
    yield GameService(store, SystemClock(), seed_source=lambda: 7)
    await store.close()


async def opened_elsewhere(fake, elsewhere: GameService) -> int:
    """alice and bob's game in #lama, opened and started by the other process."""
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = await elsewhere.open_lobby(fake.guild.id, fake.channel("lama").id, alice.id, "alice",
                                       OPTIONS)
    game_id = lobby.view.game_id
    await elsewhere.join(game_id, bob.id, "bob")
    await elsewhere.start(game_id, alice.id)
    return game_id


async def test_a_slash_move_finds_the_game_another_process_opened_in_the_channel(
        fake_discord, lamabot, elsewhere) -> None:
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    game_id = await opened_elsewhere(fake, elsewhere)
    assert bot.service.game_in_channel(channel.id) is None  # never held by the bot
    view = elsewhere.view(game_id)
    mover = fake.users_by_id[view.seats[view.current_seat].user_id]
    legal = elsewhere.observation(game_id, mover.id).legal_plays
    choices = await fake.autocomplete(mover, channel, "play", focused="card")
    assert legal and [c["value"] for c in choices] == [c.code for c in legal]
    drew = await fake.slash(mover, channel, "draw")
    assert drew.ephemeral and "no LAMA game" not in drew.text
    await settle(bot, game_id)
    assert bot.service.view(game_id).move_count == 1
    assert bot.service.view(game_id).status is Status.RUNNING


async def test_table_reposts_the_table_of_a_game_another_process_opened(
        fake_discord, lamabot, elsewhere) -> None:
    fake = fake_discord
    channel = fake.channel("lama")
    game_id = await opened_elsewhere(fake, elsewhere)
    result = await fake.slash(fake.user("bob"), channel, "lama table")
    assert result.ephemeral and result.text == "The table is posted again below."
    await wait_until(lambda: any(names_table_of(m, game_id)
                                 for m in fake.public_messages(channel)))


async def test_table_in_a_channel_whose_game_ended_elsewhere_posts_the_next_games_table(
        fake_discord, lamabot, elsewhere) -> None:
    """The bot still holds the channel's game as running when another process has played
    it to its end and opened the next one there."""
    fake, bot = fake_discord, lamabot
    first, channel = await two_humans(fake, bot)
    await elsewhere.loader.hosted(first)
    for _ in range(200):
        view = elsewhere.view(first)
        if view.status is not Status.RUNNING:
            break
        await elsewhere.human_move(first, view.seats[view.current_seat].user_id, QUIT)
    assert bot.service.view(first).status is Status.RUNNING  # not heard of yet
    second = await opened_elsewhere(fake, elsewhere)
    result = await fake.slash(fake.user("carol"), channel, "lama table")
    assert result.text == "The table is posted again below."
    await wait_until(lambda: names_table_of(fake.public_messages(channel)[-1], second))
    assert bot.service.view(first).status is Status.FINISHED


def names_table_of(message, game_id: int) -> bool:
    return any(untagged(c).startswith(f"lama:t:{game_id}:") for c in message.custom_ids)


async def test_a_lone_hosts_leave_hands_the_lobby_to_a_player_who_joined_through_another_process(
        fake_discord, lamabot, elsewhere) -> None:
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = (await fake.slash(alice, channel, "lama new")).message
    game_id = bot.service.game_in_channel(channel.id).game_id
    await elsewhere.loader.hosted(game_id)
    await elsewhere.join(game_id, bob.id, "bob")  # this process has not heard of it
    left = await fake.slash(alice, channel, "lama leave")
    assert left.ephemeral and "You left" in left.text
    await bot.renderer.flush_all()
    view = bot.service.view(game_id)
    assert view.status is Status.LOBBY and view.host_id == bob.id
    assert "bob" in lobby.embed_text.lower() and "cancelled" not in lobby.embed_text.lower()


async def test_a_tournament_table_waiting_for_a_game_another_process_opened_here_says_so(
        fake_discord, lamabot, elsewhere) -> None:
    """Where the bot may not start threads, tables play in the tournament's channel: one
    that a casual game holds (opened by another process) waits for it, and says so."""
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    await fake.deny_bot(channel, "create_public_threads")
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    await elsewhere.open_lobby(fake.guild.id, channel.id, dave.id, "dave", OPTIONS)
    await sign_up(fake, channel, alice, [alice, bob, carol], ais=1, rounds=1)
    started = await fake.click(alice, signup_message(channel), "Start")
    assert started.refused is None
    await bot.tournaments.settle()
    await wait_until(lambda: any("round 1, table 1: starts here as soon as the game now in"
                                 in m.text for m in fake.public_messages(channel)))
    assert bot.service.game_in_channel(channel.id) is None  # no table opened over the lobby
