"""Games in their own thread, a server setting: the lobby stays in the channel; the table,
the summaries and the notices go to a thread started from the lobby message when the game
starts; commands used in the thread reach the game; the thread is archived when it ends."""

from __future__ import annotations

from hosting import TABLE, Status
from tests.e2e.games import finish_by_quitting, game_in_a_thread, threads_on
from tests.support.e2e import on_turn, open_game, refused, settle

UPDATE_MESSAGE = 7






def table_message(fake, bot, game_id: int):
    """The game's table, wherever it was posted (its look is the renderer's business)."""
    channel_id, message_id = bot.service.message_ref(game_id, TABLE)
    channel = fake.channels[channel_id]
    return channel, next(m for m in fake.public_messages(channel) if m.id == message_id)


async def test_the_setting_is_off_by_default_and_can_be_turned_on(fake_discord, lamabot):
    fake = fake_discord
    owner = fake.user("owner")
    await fake.grant(owner, manage_guild=True)
    shown = await fake.slash(owner, fake.channel("general"), "lama settings")
    assert "Games in threads: Off" in shown.text.replace("\n", ": "), shown.text
    await threads_on(fake)
    assert (await lamabot.preferences.guild_settings(fake.guild.id)).game_threads


async def test_a_started_game_shows_itself_in_a_thread_of_the_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, lobby, thread = await game_in_a_thread(fake, bot)
    assert thread.thread.parent is channel and not thread.thread.archived
    assert f"#{game_id}" in thread.name
    assert [m.id for m in fake.public_messages(channel)] == [lobby.id]  # only the lobby
    assert table_message(fake, bot, game_id)[0] is thread  # bystanders follow it there
    assert thread.mention in lobby.text  # the lobby points to the thread
    user, _ = on_turn(fake, bot, game_id)
    hand = [m for m in fake.dms(user) if m.custom_ids][-1]
    assert thread.mention in hand.text  # "Game in <#thread>"


async def test_commands_used_in_the_thread_reach_the_game(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, _channel, _lobby, thread = await game_in_a_thread(fake, bot)
    user, obs = on_turn(fake, bot, game_id)
    shown = await fake.slash(user, thread, "lama hand")
    assert shown.ephemeral and "Your hand" in shown.text
    moved = await fake.slash(user, thread, "draw" if obs.can_draw else "quit")
    assert moved.ephemeral and bot.service.view(game_id).move_count == 1
    await settle(bot, game_id)
    refused(await fake.slash(fake.user("carol"), thread, "lama join"), "already started")


async def test_the_thread_is_archived_when_the_game_ends(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, lobby, thread = await game_in_a_thread(fake, bot, target=10)
    await finish_by_quitting(bot, game_id)
    assert bot.service.view(game_id).status is Status.FINISHED
    texts = [m.text for m in fake.public_messages(thread)]
    assert any("Round 1 is over" in t for t in texts) and "Game over" in texts[-1]
    assert thread.thread.archived
    assert [m.id for m in fake.public_messages(channel)] == [lobby.id]


async def test_a_cancelled_game_archives_its_thread(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    _game_id, channel, _lobby, thread = await game_in_a_thread(fake, bot)
    await fake.slash(fake.user("alice"), thread, "lama cancel")
    await bot.renderer.flush_all()
    assert thread.thread.archived
    assert bot.service.game_in_channel(channel.id) is None


async def test_rematch_from_the_thread_opens_the_lobby_in_the_channel(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, _lobby, thread = await game_in_a_thread(fake, bot, target=10)
    await finish_by_quitting(bot, game_id)
    end = fake.public_messages(thread)[-1]
    result = await fake.click(fake.user("bob"), end, "Rematch")
    told = await result.followup()
    assert told.ephemeral and "The [rematch lobby](https://discord.com/" in told.text, told.text
    await bot.renderer.flush_all()
    rematch = bot.service.game_in_channel(channel.id)
    assert rematch is not None and rematch.rematch_of == game_id
    lobby = fake.public_messages(channel)[-1]
    assert lobby.button("Start") is not None and f"/{channel.id}/{lobby.id}" in told.text
    assert thread.thread.archived  # nothing new was posted in the old game's thread


async def test_without_the_setting_the_game_stays_in_the_channel(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"))
    assert not any(c.is_thread for c in fake.channels.values())
    assert table_message(fake, bot, game_id)[0] is channel


async def test_without_create_threads_permission_the_game_stays_in_the_channel(
    fake_discord, lamabot, caplog
):
    fake, bot = fake_discord, lamabot
    await threads_on(fake)
    channel = fake.channel("lama")
    await fake.deny_bot(channel, "create_public_threads")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"))
    assert table_message(fake, bot, game_id)[0] is channel
    assert not any(c.is_thread for c in fake.channels.values())
    assert any("stays in its channel" in r.getMessage() for r in caplog.records)
