"""Rematch: one press re-seats every player of the finished game, with its AI seats and its
host; the others are already seated (and may leave); a bystander is politely refused."""

from __future__ import annotations

from hosting import Status
from tests.e2e_support import open_game, refused
from tests.test_e2e_play import finish_by_quitting


async def finished_game(fake, bot, *others, **options):
    """Alice hosts a game with ``others`` (and any AI seats), played to its end."""
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), *others,
                              variant="party", target=10, **options)
    await finish_by_quitting(bot, game_id)
    return game_id, channel, fake.public_messages(channel)[-1]


def forget_in_memory(bot, *game_ids) -> None:
    """As after a restart: the service holds no finished game and reloads open ones."""
    registry = bot.service.registry
    for game_id in game_ids:
        registry._games.pop(game_id, None)
    registry._by_channel.clear()


async def test_rematch_seats_every_player_and_keeps_the_ais_and_the_host(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    game_id, channel, end = await finished_game(fake, bot, bob, carol, ai_seats=1)
    result = await fake.click(bob, end, "Rematch")
    assert not result.ephemeral and result.message.button("Leave") is not None
    view = bot.service.game_in_channel(channel.id)
    assert view.game_id != game_id and view.status is Status.LOBBY
    assert view.host_id == alice.id
    assert [s.user_id for s in view.seats] == [alice.id, None, bob.id, carol.id]
    assert view.seats[1].ai_level == "normal"
    assert view.options.variant == "party" and view.options.target == 10
    assert "Rematch of game #1" in result.message.embed_text
    ping = result.message.content  # the players it seated hear it (not the presser)
    assert alice.mention in ping and carol.mention in ping and bob.mention not in ping


async def test_a_second_player_pressing_rematch_is_pointed_to_the_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    lobby = (await fake.click(bob, end, "Rematch")).message
    again = await fake.click(alice, end, "Rematch")
    refused(again, "already have a seat in the rematch", f"/{channel.id}/{lobby.id}")
    assert "already a game" not in again.text


async def test_a_player_who_left_the_rematch_rejoins_by_pressing_rematch(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    bob = fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    lobby = (await fake.click(fake.user("alice"), end, "Rematch")).message
    await fake.click(bob, lobby, "Leave")
    assert bot.service.game_in_channel(channel.id).seat_of(bob.id) is None
    back = await fake.click(bob, end, "Rematch")
    assert back.ephemeral and "You joined the rematch" in back.text, back.text
    assert f"/{channel.id}/{lobby.id}" in back.text  # a link to the lobby
    await bot.renderer.flush_all()
    assert bot.service.game_in_channel(channel.id).seat_of(bob.id) is not None
    assert "Bob" in lobby.embed_text


async def test_a_bystander_pressing_rematch_is_refused_politely(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    _game_id, channel, end = await finished_game(fake, bot, fake.user("bob"))
    result = await fake.click(fake.user("dave"), end, "Rematch")
    refused(result, "Only the players of game #1", "/lama new")
    assert bot.service.game_in_channel(channel.id) is None


async def test_a_player_seated_elsewhere_is_left_out_of_the_rematch(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    _game_id, channel, end = await finished_game(fake, bot, bob, carol)
    await fake.slash(carol, fake.channel("lama-2"), "lama new")
    await fake.click(bob, end, "Rematch")
    view = bot.service.game_in_channel(channel.id)
    assert [s.user_id for s in view.seats] == [alice.id, bob.id]


async def test_a_rematch_works_for_a_game_that_ended_before_a_restart(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id, channel, end = await finished_game(fake, bot, bob)
    forget_in_memory(bot, game_id)
    lobby = (await fake.click(bob, end, "Rematch")).message
    rematch_id = bot.service.game_in_channel(channel.id).game_id
    assert [s.user_id for s in bot.service.view(rematch_id).seats] == [alice.id, bob.id]
    await bot.service.flush_message_refs()  # as close() does before a restart
    forget_in_memory(bot, game_id, rematch_id)
    await bot.service.restore()  # the rematch lobby, reloaded from the store, knows its game
    again = await fake.click(alice, end, "Rematch")
    refused(again, "already have a seat in the rematch", f"/{lobby.id}")
