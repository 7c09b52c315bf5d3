"""Rematch: one press re-seats every player of the finished game, with its AI seats and its
host; the others are already seated (and may leave); a bystander is politely refused. A game
has one rematch: its Rematch button becomes a link to it, and a press that still finds the
button (a double press, an edit that never arrived) is pointed there and changes nothing."""

from __future__ import annotations

import asyncio

from hosting import Status
from tests.e2e.rematches import (
    as_seen_before,
    finished_game,
    forget_in_memory,
    lobby_in,
    pointed_to,
    press_rematch,
    rematch_link,
)
from tests.support.e2e import refused


async def test_rematch_seats_every_player_and_keeps_the_ais_and_the_host(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    game_id, channel, end = await finished_game(fake, bot, bob, carol, ai_seats=1)
    lobby = await press_rematch(fake, bob, end)
    assert lobby.button("Leave") is not None
    view = bot.service.game_in_channel(channel.id)
    assert view.game_id != game_id and view.status is Status.LOBBY
    assert view.host_id == alice.id
    assert [s.user_id for s in view.seats] == [alice.id, None, bob.id, carol.id]
    assert view.seats[1].ai_level == "normal"
    assert view.options.variant == "party" and view.options.target == 10
    assert "Rematch of game #1" in lobby.embed_text
    ping = lobby.content  # the players it seated hear it (not the presser)
    assert alice.mention in ping and carol.mention in ping and bob.mention not in ping


async def test_a_second_player_pressing_rematch_is_pointed_to_the_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    before = as_seen_before(end)
    lobby = await press_rematch(fake, bob, end)
    again = await pointed_to(await fake.click(alice, before, "Rematch"))
    refused(again, "a seat in [the rematch](https://discord.com/", f"/{channel.id}/{lobby.id}")
    assert "already a game" not in again.text


async def test_the_rematch_button_becomes_a_link_to_the_rematch_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    _game_id, channel, end = await finished_game(fake, bot, fake.user("bob"))
    lobby = await press_rematch(fake, fake.user("bob"), end)
    link = rematch_link(end)
    assert link is not None and link.url.endswith(f"/{channel.id}/{lobby.id}"), end.buttons
    assert link.label == "Rematch: game #2"
    assert "Game over" in end.text  # the standings stay


async def test_a_stale_rematch_press_points_to_the_rematch_and_changes_nothing(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    bob = fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    before = as_seen_before(end)
    lobby = await press_rematch(fake, fake.user("alice"), end)
    await fake.click(bob, lobby, "Leave")
    stale = await fake.click(bob, before, "Rematch")
    told = await pointed_to(stale)
    assert told.ephemeral and "has [its rematch](https://discord.com/" in told.text, told.text
    assert "(game #2)" in told.text
    assert f"/{channel.id}/{lobby.id}" in told.text
    await bot.renderer.flush_all()
    assert bot.service.game_in_channel(channel.id).seat_of(bob.id) is None
    assert len([m for m in fake.public_messages(channel) if "Rematch of" in m.embed_text]) == 1


async def test_two_players_pressing_rematch_at_once_open_one_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    both = await asyncio.gather(fake.click(alice, as_seen_before(end), "Rematch"),
                                fake.click(bob, as_seen_before(end), "Rematch"))
    lobby = lobby_in(fake, channel)  # one
    await both[0].wait_for(lambda: any(r.followups for r in both))  # after its answer
    (told,) = [m for r in both for m in r.followups]  # the other press is refused
    assert told.ephemeral and "a seat in [the rematch](https://discord.com/" in told.text, told.text
    assert rematch_link(end).url.endswith(f"/{channel.id}/{lobby.id}")


async def test_a_rematch_button_still_offered_after_its_rematch_opened_becomes_its_link(
    fake_discord, lamabot
):
    """As when the first press's answer never reached Discord (a crash right after the
    lobby): the next press is pointed to the rematch, and its answer turns the button into
    the link (the lobby message is not known here: the channel)."""
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id, channel, end = await finished_game(fake, bot, bob)
    await bot.service.rematch(game_id, bob.id, "Bob")
    again = await fake.click(alice, end, "Rematch")
    assert again.message is end
    told = await pointed_to(again)
    assert told.ephemeral and "a seat in [the rematch](https://discord.com/" in told.text, told.text
    assert rematch_link(end).url.endswith(f"/channels/{fake.guild.id}/{channel.id}")


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
    stale = as_seen_before(end)  # a client that has not seen the edit
    forget_in_memory(bot, game_id)
    lobby = await press_rematch(fake, bob, end)
    rematch_id = bot.service.game_in_channel(channel.id).game_id
    assert [s.user_id for s in bot.service.view(rematch_id).seats] == [alice.id, bob.id]
    await bot.service.flush_message_refs()  # as close() does before a restart
    forget_in_memory(bot, game_id, rematch_id)
    await bot.service.restore()  # the rematch lobby, reloaded from the store, knows its game
    again = await pointed_to(await fake.click(alice, stale, "Rematch"))
    assert again.ephemeral and "a seat in [the rematch](https://" in again.text, again.text
    assert f"/{lobby.id}" in again.text


async def test_the_rematch_line_names_only_the_players_still_seated(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    _game_id, _channel, end = await finished_game(fake, bot, bob, carol)
    lobby = await press_rematch(fake, bob, end)
    await fake.click(carol, lobby, "Leave")
    assert "seated for the rematch" in lobby.content, lobby.content
    assert alice.mention in lobby.content and carol.mention not in lobby.content, lobby.content


async def test_the_rematch_line_stays_current_after_a_restart(fake_discord, lamabot):
    """Whom the rematch seated is stored: after a restart, a player leaving by command (the
    renderer edits the lobby) is taken off the line too."""
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    game_id, channel, end = await finished_game(fake, bot, bob, carol)
    lobby = await press_rematch(fake, bob, end)
    rematch_id = bot.service.game_in_channel(channel.id).game_id
    await bot.service.flush_message_refs()  # as close() does before a restart
    forget_in_memory(bot, game_id, rematch_id)
    await bot.service.restore()
    await fake.slash(carol, channel, "lama leave")
    await bot.renderer.flush_all()
    assert alice.mention in lobby.content and carol.mention not in lobby.content, lobby.content


async def test_the_rematch_line_goes_when_the_rematch_lobby_is_cancelled(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, _channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, bob, end)
    assert alice.mention in lobby.content
    await fake.click(alice, lobby, "Cancel")
    await bot.renderer.flush_all()
    assert "The game was cancelled." in lobby.embed_text, lobby.embed_text
    assert lobby.content == "", lobby.content
