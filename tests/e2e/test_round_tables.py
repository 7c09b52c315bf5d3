"""Each round's table is its own message, also across a restart: the close of round 1 that a
restart replays from the render outbox edits round 1's table, never round 2's live one.

The crash window: the move that ends round 1 (and deals round 2) is shown, round 2's table is
posted and its id stored, and the process dies before the move is marked shown. Here the bot
is stopped with the mark held back (the same database state: the table id stored, the move's
outbox row left), and a new bot on that database shows what the outbox still holds."""

from __future__ import annotations

from hosting.views import Status
from lama import events as ev
from loopback.running import run_bot
from store import GuildSettings
from tests.e2e.round_tables import TABLE_BUTTONS, WAIT, a_bot, quit_for, quit_until_a_quit_would_end
from tests.support.e2e import two_humans, wait_until
from tests.support.lamabot import CHANNEL_PERIOD

UNSEEN_SEED = 7  # a deal whose game to 40, everyone quitting at once, lasts three rounds




def tables(fake, channel) -> list:
    return [m for m in fake.public_messages(channel) if m.components_v2]


async def round_ended_unmarked(fake, bot, monkeypatch):
    """A game whose round 1 ended and round 2 began, all of it on Discord, with the move
    that did it never marked shown (the process dies first)."""
    fake.ratelimits.channel_period = CHANNEL_PERIOD
    await bot.service.save_guild_settings(
        GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
    game_id, channel = await two_humans(fake, bot)
    await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)

    async def dies_before_marking(game_id: int, seqs) -> None:
        return None

    monkeypatch.setattr(bot.service, "render_shown", dies_before_marking)
    events = await quit_for(bot, game_id)
    assert any(isinstance(e, ev.RoundStarted) and e.round_number == 2 for e in events)
    await bot.renderer.flush_all()
    return channel


async def restarted_in_the_window(fake, tmp_path, monkeypatch) -> tuple:
    """Round 1's table and round 2's, once a new bot has shown what the outbox held."""
    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        channel = await round_ended_unmarked(fake, bot, monkeypatch)
        first, second = tables(fake, channel)
        assert "Round 1 is over" in first.text and first.buttons == []
        assert [b.label for b in second.buttons] == TABLE_BUTTONS
    monkeypatch.undo()

    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)
        await bot.renderer.flush_all()
        await bot.service.flush_message_refs()
        assert await bot.store.renders.pending() == []  # the replay was shown and marked
    assert tables(fake, channel) == [first, second]  # round 2's table not posted twice
    return first, second


async def test_a_round_close_replayed_after_a_restart_closes_that_rounds_table(
    fake_discord, tmp_path, bot_errors, monkeypatch
):
    first, second = await restarted_in_the_window(fake_discord, tmp_path, monkeypatch)
    assert "Round 1 is over" in first.text and first.buttons == []
    assert "round 2" in second.text and "Round 1 is over" not in second.text
    assert [b.label for b in second.buttons] == TABLE_BUTTONS  # live, for round 2


async def test_a_hand_replayed_after_a_restart_links_no_later_rounds_table_as_round_over(
    fake_discord, tmp_path, bot_errors, monkeypatch
):
    fake = fake_discord
    _first, second = await restarted_in_the_window(fake, tmp_path, monkeypatch)
    summed_up = [m for u in ("alice", "bob") for m in fake.dms(fake.user(u))
                 if "Round 1 is over" in m.text]
    assert summed_up and not any(f"/{second.id}" in m.text for m in summed_up)


async def test_rounds_played_out_unseen_before_a_restart_each_get_one_closed_table(
    fake_discord, tmp_path, bot_errors, monkeypatch
):
    """The process dies before showing anything after round 1's table: the rest of the game
    (rounds that began and ended unseen, then its end) comes back from the outbox in one go.
    Each of those rounds gets its own table with its result, like round 1."""
    fake = fake_discord
    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await bot.service.save_guild_settings(
            GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
        game_id, channel = await two_humans(fake, bot, seed=UNSEEN_SEED, target=40)
        monkeypatch.setattr(bot.renderer.queue, "add", lambda update, retry=False: None)
        while bot.service.view(game_id).status is Status.RUNNING:
            await quit_for(bot, game_id)
        rounds = bot.service.view(game_id).round_number
        assert rounds >= 3 and len(tables(fake, channel)) == 1  # only round 1's was shown
    monkeypatch.undo()

    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)
        await bot.renderer.flush_all()
    for number in range(1, rounds + 1):
        shown = [m for m in tables(fake, channel) if f": round {number}\n" in m.text]
        assert len(shown) == 1, f"round {number}"
        assert f"Round {number} is over" in shown[0].text and shown[0].buttons == []


LAST_ROUND_UNSEEN = {"seed": 0, "target": 30}  # everyone quitting: a game of two rounds


async def test_a_last_round_shown_unseen_before_a_crash_is_closed_again_without_a_picture(
    fake_discord, tmp_path, bot_errors, monkeypatch
):
    """The game's last round began and ended unseen; a process showed it (its table posted
    closed, with no picture: nothing of it was drawn; the table's id stored) and died before
    marking it shown. The next process closes that stored table again: it may not refer to
    a picture the message never had (Discord refuses the whole edit)."""
    fake = fake_discord
    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await bot.service.save_guild_settings(
            GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
        game_id, channel = await two_humans(fake, bot, **LAST_ROUND_UNSEEN)
        await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
        monkeypatch.setattr(bot.renderer.queue, "add", lambda update, retry=False: None)
        while bot.service.view(game_id).status is Status.RUNNING:
            await quit_for(bot, game_id)
        assert bot.service.view(game_id).round_number == 2
    monkeypatch.undo()

    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:

        async def dies_before_marking(game_id: int, seqs) -> None:
            return None

        monkeypatch.setattr(bot.service, "render_shown", dies_before_marking)
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)
        await bot.renderer.flush_all()
        await bot.service.flush_message_refs()
    monkeypatch.undo()
    closed_unseen = tables(fake, channel)[-1]
    assert "Round 2 is over" in closed_unseen.text and closed_unseen.attachments == []

    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)
        await bot.renderer.flush_all()
        await bot.service.flush_message_refs()
        assert await bot.store.renders.pending() == []  # shown again, and marked this time
    assert fake.take_errors() == []
    assert tables(fake, channel)[-1] is closed_unseen and len(tables(fake, channel)) == 2
    assert "Round 2 is over" in closed_unseen.text and closed_unseen.buttons == []


async def test_a_round_close_replayed_where_the_bot_may_not_read_history_still_closes_it(
    fake_discord, tmp_path, bot_errors, monkeypatch
):
    """The round-ending move was committed, never shown; after the restart the bot cannot
    look at the stored table (no Read Message History): it closes it without its picture
    rather than naming one Discord might not find."""
    fake = fake_discord
    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await bot.service.save_guild_settings(
            GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
        game_id, channel = await two_humans(fake, bot)
        await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
        monkeypatch.setattr(bot.renderer.queue, "add", lambda update, retry=False: None)
        await quit_for(bot, game_id)
    monkeypatch.undo()
    await fake.deny_bot(channel, "read_message_history")
    (first,) = tables(fake, channel)

    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)
        await bot.renderer.flush_all()
    assert "Round 1 is over" in first.text and first.buttons == [] and first.media_urls == []
    assert len(tables(fake, channel)) == 2  # round 2's, live
