"""A cancelled rematch frees the game it replays: its "Game over" post offers Rematch again
(the link to the cancelled lobby goes), however the lobby ended without starting — its host
or an admin cancelled it, or its last player left — also after a restart. A rematch that
starts keeps the link: it points at the game being played."""

from __future__ import annotations

from hosting import LOBBY
from tests.e2e.games import edits_of, finish_by_quitting
from tests.e2e.rematches import finished_game, forget_in_memory, press_rematch, rematch_link


def offers_rematch(message) -> bool:
    """The message shows a Rematch button again, and no link to a rematch."""
    return (any(b.custom_id and b.custom_id.startswith("lama:r:") for b in message.buttons)
            and not any(b.url for b in message.buttons))


async def test_a_cancelled_rematch_lobby_gives_the_game_over_post_its_rematch_back(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, _channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, bob, end)
    assert rematch_link(end) is not None
    await fake.click(alice, lobby, "Cancel")
    await bot.renderer.flush_all()
    assert offers_rematch(end), end.buttons
    assert "Game over" in end.text  # the standings stay


async def test_rematch_pressed_again_after_a_cancel_opens_a_new_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    cancelled = await press_rematch(fake, bob, end)
    await fake.click(alice, cancelled, "Cancel")
    await bot.renderer.flush_all()
    result = await fake.click(alice, end, "Rematch")
    assert result.message is end and not result.followups, result
    rematch = bot.service.game_in_channel(channel.id)
    assert rematch is not None and rematch.game_id == 3
    link = rematch_link(end)
    assert link is not None and link.label == "Rematch: game #3", end.buttons
    assert link.url.endswith(f"/{channel.id}/{bot.service.message_ref(3, LOBBY)[1]}")


async def test_an_admin_cancelling_the_rematch_lobby_gives_rematch_back(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    bob, owner = fake.user("bob"), fake.user("owner")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    await press_rematch(fake, bob, end)
    await fake.grant(owner, manage_guild=True)
    result = await fake.slash(owner, channel, "lama cancel")
    assert result.ephemeral, result
    await bot.renderer.flush_all()
    assert offers_rematch(end), end.buttons


async def test_a_rematch_lobby_its_last_player_left_gives_rematch_back(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, bob, end)
    await fake.click(bob, lobby, "Leave")
    await fake.slash(alice, channel, "lama leave")  # the host, last: the lobby is cancelled
    await bot.renderer.flush_all()
    assert bot.service.game_in_channel(channel.id) is None
    assert offers_rematch(end), end.buttons


async def test_a_rematch_lobby_cancelled_after_a_restart_gives_rematch_back(
    fake_discord, lamabot
):
    """Where the game-end post is comes from the store: neither game is in memory."""
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id, channel, end = await finished_game(fake, bot, bob)
    await press_rematch(fake, bob, end)
    rematch_id = bot.service.game_in_channel(channel.id).game_id
    await bot.service.flush_message_refs()  # as close() does before a restart
    forget_in_memory(bot, game_id, rematch_id)
    await bot.service.restore()
    await fake.slash(alice, channel, "lama cancel")
    await bot.renderer.flush_all()
    assert offers_rematch(end), end.buttons


async def test_a_started_rematch_keeps_the_link_on_the_game_over_post(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, bob, end)
    await fake.click(alice, lobby, "Start")
    await bot.renderer.flush_all()
    link = rematch_link(end)
    assert link is not None and link.url.endswith(f"/{channel.id}/{lobby.id}"), end.buttons


async def test_a_rematch_cancelled_while_it_runs_gives_rematch_back(fake_discord, lamabot):
    """A cancelled game is no rematch (store: `rematch_of`), started or not: the game it
    replayed is free again, and says so."""
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, bob, end)
    await fake.click(alice, lobby, "Start")
    await fake.slash(alice, channel, "lama cancel")
    await bot.renderer.flush_all()
    assert offers_rematch(end), end.buttons


async def test_cancelling_a_game_that_is_no_rematch_edits_no_game_over_post(
    fake_discord, lamabot
):
    """Only the game a cancelled rematch replays is edited: another game's post is not."""
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    _game_id, _channel, end = await finished_game(fake, bot, bob)
    lobby = await press_rematch(fake, bob, end)
    await fake.click(alice, lobby, "Start")
    before = end.edits
    await fake.slash(fake.user("carol"), fake.channel("lama-2"), "lama new")
    await fake.slash(fake.user("carol"), fake.channel("lama-2"), "lama cancel")
    await bot.renderer.flush_all()
    assert end.edits == before and rematch_link(end) is not None


async def test_a_thread_games_game_over_is_not_edited_when_its_rematch_is_cancelled(
    fake_discord, lamabot
):
    """Its "Game over" post is in the game's thread, archived with the game: Discord refuses
    an edit there (50083), so the bot does not spend a call on one."""
    from tests.e2e.games import game_in_a_thread

    fake, bot = fake_discord, lamabot
    game_id, channel, _lobby, thread = await game_in_a_thread(fake, bot, target=10)
    await finish_by_quitting(bot, game_id)
    end = fake.public_messages(thread)[-1]
    result = await fake.click(fake.user("bob"), end, "Rematch")
    await result.followup()
    await bot.renderer.flush_all()
    edits = len(edits_of(fake, end))
    lobby = fake.public_messages(channel)[-1]
    await fake.click(fake.user("alice"), lobby, "Cancel")
    await bot.renderer.flush_all()
    assert bot.service.game_in_channel(channel.id) is None
    assert len(edits_of(fake, end)) == edits
