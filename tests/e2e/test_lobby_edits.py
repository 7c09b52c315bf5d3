"""A lobby is edited when what it shows is not the committed state, and only then: the answer
that posted it, or a lobby button's answer that redrew it, is not followed ~0.3 s later by the
renderer's edit to the same content (a rate-limited call for nothing); a change its message
does not show yet (a /lama join, a join while it was being posted) is still shown."""

from __future__ import annotations

import asyncio

from tests.e2e.games import edits_of
from tests.support.e2e import settle

PRODUCTION_DELAY = 0.3  # seconds the renderer collects a game's updates before it shows them
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"




def as_in_production(bot) -> None:
    """The renderer collects updates for a moment, as it does outside the tests: the flush
    then comes after the interaction answered."""
    bot.renderer.queue.coalesce_delay = PRODUCTION_DELAY


async def open_lobby(fake, bot, host):
    opened = await fake.slash(host, fake.channel("lama"), "lama new")
    assert not opened.ephemeral, opened.text
    game_id = bot.service.game_in_channel(fake.channel("lama").id).game_id
    await settle(bot, game_id)
    return opened.message, game_id


async def test_a_lobby_posted_by_its_answer_is_not_edited_again(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    as_in_production(bot)
    lobby, _game_id = await open_lobby(fake, bot, fake.user("alice"))
    assert "Alice" in lobby.text
    assert edits_of(fake, lobby) == []


async def test_a_lobby_redrawn_by_a_button_answer_is_not_edited_again(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    lobby, game_id = await open_lobby(fake, bot, fake.user("alice"))
    joined = await fake.click(fake.user("bob"), lobby, "Join")
    assert joined.message is lobby  # the answer redraws the lobby itself
    await settle(bot, game_id)
    assert "Bob" in lobby.text
    assert edits_of(fake, lobby) == []


async def test_the_lobby_of_a_game_its_start_button_started_is_not_edited_again(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    lobby, game_id = await open_lobby(fake, bot, fake.user("alice"))
    await fake.click(fake.user("bob"), lobby, "Join")
    await fake.click(fake.user("alice"), lobby, "Start")
    await settle(bot, game_id)
    assert "started" in lobby.text and lobby.buttons == []
    assert edits_of(fake, lobby) == []


async def test_a_lobby_whose_change_no_answer_showed_is_edited_once(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    lobby, game_id = await open_lobby(fake, bot, fake.user("alice"))
    assert (await fake.slash(fake.user("bob"), fake.channel("lama"), "lama join")).ephemeral
    await settle(bot, game_id)
    assert "Bob" in lobby.text
    assert len(edits_of(fake, lobby)) == 1


async def test_a_lobby_someone_joined_while_it_was_posted_is_edited_once(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    as_in_production(bot)
    channel = fake.channel("lama")
    opened = await fake.slash(fake.user("alice"), channel, "lama new")
    await fake.slash(fake.user("bob"), channel, "lama join")  # within the renderer's delay
    await settle(bot, bot.service.game_in_channel(channel.id).game_id)
    assert "Bob" in opened.message.text
    assert len(edits_of(fake, opened.message)) == 1


async def test_a_rematch_lobby_that_seated_nobody_else_is_not_edited_again(
    fake_discord, lamabot
):
    """A rematch of a game with AIs only beside the presser pings nobody: its post has no
    line, and the flush after it does not edit it to "no line" either."""
    from tests.e2e.games import play_to_the_end
    from tests.e2e.rematches import press_rematch
    from tests.support.e2e import open_game

    fake, bot = fake_discord, lamabot
    alice, channel = fake.user("alice"), fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, variant="party", target=10,
                              ai_seats=2)
    await play_to_the_end(bot, game_id, alice)  # she quits on her turns, the AIs play on
    await bot.renderer.flush_all()
    end = fake.public_messages(channel)[-1]
    as_in_production(bot)
    lobby = await press_rematch(fake, alice, end)
    await bot.renderer.flush_all()
    assert "seated for the rematch" not in lobby.text, lobby.text
    assert edits_of(fake, lobby) == []


async def test_a_rematch_lobby_loses_its_seated_line_when_the_game_starts(
    fake_discord, lamabot
):
    from tests.e2e.rematches import finished_game, press_rematch

    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, _channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, alice, end)
    assert "seated for the rematch" in lobby.text, lobby.text  # Bob, seated by the rematch
    await fake.click(alice, lobby, "Start")
    await bot.renderer.flush_all()
    assert "seated for the rematch" not in lobby.text, lobby.text


async def test_two_presses_whose_answers_discord_applied_in_the_other_order_leave_the_latest(
    fake_discord, lamabot
):
    """Bob's and Carol's Join at once: Carol's answer (both seated) is applied first, Bob's
    (only Bob) after it, though Carol's reply comes back last. What a lobby shows was recorded
    in the order the replies came back, so the renderer took the lobby for up to date and left
    it showing Bob alone (issue 35). Answers that overlap say nothing of what Discord kept: the
    renderer then edits the lobby to the committed state."""
    fake, bot = fake_discord, lamabot
    lobby, game_id = await open_lobby(fake, bot, fake.user("alice"))
    first = fake.hold_next(CALLBACK)  # Bob's answer: held before Discord applies it
    second = fake.hold_next(CALLBACK, after_work=True)  # Carol's: applied, its reply held
    bob = asyncio.create_task(fake.click(fake.user("bob"), lobby, "Join"))
    await first.reached()
    carol = asyncio.create_task(fake.click(fake.user("carol"), lobby, "Join"))
    await second.reached()
    assert "Carol" in lobby.text
    first.release()  # Bob's older answer lands last: the message shows Bob alone
    await bob
    assert "Carol" not in lobby.text
    second.release()
    await carol
    await settle(bot, game_id)
    assert "Bob" in lobby.text and "Carol" in lobby.text
