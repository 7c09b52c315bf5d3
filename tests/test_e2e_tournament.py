"""A Swiss tournament end to end on the loopback Discord: sign-ups by button, three rounds of
8 entrants (5 humans, 3 AIs) at tables of 4, the bot restarted in the middle of round 2, and
the final standings announced in the channel."""

from __future__ import annotations

import random
from dataclasses import replace

from bot import LamaBot, Settings
from hosting import Status
from store.tournaments import TournamentStatus
from tests.e2e_support import on_turn, refused, settle, wait_until
from tests.fakediscord.fixtures import BOT_TOKEN, run_bot


def signup_message(channel):
    return next(m for m in reversed(channel.messages)
                if any(c.startswith("lama:tn:") for c in m.custom_ids))


def table_running(bot, channel) -> bool:
    view = bot.service.game_in_channel(channel.id)
    return view is not None and view.status is Status.RUNNING


async def play_table(fake, bot, channel, rng) -> int:
    """The channel's current table, played to its end by its humans (by slash command)."""
    await wait_until(lambda: table_running(bot, channel), timeout=20)
    view = bot.service.game_in_channel(channel.id)
    assert view is not None and view.status is Status.RUNNING
    game_id = view.game_id
    await settle(bot, game_id)
    for _ in range(600):
        if bot.service.view(game_id).status is not Status.RUNNING:
            return game_id
        user, obs = on_turn(fake, bot, game_id)
        if obs.legal_plays and rng.random() < 0.7:
            result = await fake.slash(user, channel, "play", card=obs.legal_plays[0].code)
        else:
            result = await fake.slash(user, channel, "quit")
        assert result.ephemeral, result.text
        await settle(bot, game_id)
    raise AssertionError("the table did not finish")


async def test_a_three_round_tournament_survives_a_restart_in_round_two(
    fake_discord, tmp_path, bot_errors
):
    fake = fake_discord
    channel = fake.channel("lama")
    organiser, *others = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    others += fake.add_users(1)
    humans = [organiser, *others]
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3",
                        render_delay=0)
    rng = random.Random(15)

    bot = LamaBot(settings, guild_ready_timeout=0.05)
    async with run_bot(fake, bot, sync_commands=False):
        current = await bot.preferences.guild_settings(fake.guild.id)
        await bot.preferences.save_guild_settings(replace(current, ai_delay_s=0.0, target=10))
        opened = await fake.slash(organiser, channel, "lama tournament new", name="Spring Cup",
                                  rounds=3, table_size=4)
        assert not opened.ephemeral and "Spring Cup" in opened.message.embed_text
        for user in humans:
            joined = await fake.click(user, signup_message(channel), "Join")
            assert joined.refused is None
        twice = await fake.click(others[0], signup_message(channel), "Join")
        refused(twice, "already signed up")
        not_yours = await fake.click(others[0], signup_message(channel), "Start")
        refused(not_yours, "Only the organiser")
        for _ in range(3):
            await fake.click(organiser, signup_message(channel), "Add AI")
        assert "8 entrants" in signup_message(channel).embed_text
        started = await fake.click(organiser, signup_message(channel), "Start")
        assert started.refused is None
        await wait_until(lambda: table_running(bot, channel), timeout=20)
        tournament = await bot.tournaments.in_channel(channel.id)
        assert tournament is not None and tournament.status is TournamentStatus.RUNNING
        for _ in range(3):  # round 1's two tables, then round 2's first; round 2's second opens
            await play_table(fake, bot, channel, rng)
        await wait_until(lambda: table_running(bot, channel), timeout=20)
        running = bot.service.game_in_channel(channel.id)
        assert running is not None and (await bot.tournaments.get(tournament.id)).round == 2
        user, _ = on_turn(fake, bot, running.game_id)
        await fake.slash(user, channel, "quit")  # a move, then the bot goes down mid-game

    bot = LamaBot(settings, guild_ready_timeout=0.05)  # same database, a fresh process
    async with run_bot(fake, bot, sync_commands=False):
        assert bot.service.game_in_channel(channel.id).game_id == running.game_id
        for _ in range(3):  # round 2's tables, then round 3's two
            await play_table(fake, bot, channel, rng)
        await wait_until(lambda: any("Spring Cup: final standings" in m.embed_text
                                     for m in channel.messages), timeout=20)
        final = await bot.tournaments.get(tournament.id)
        assert final.status is TournamentStatus.FINISHED
        signup = next(m for m in channel.messages if m.id == final.signup_message_id)
        assert "Finished." in signup.embed_text and not signup.buttons
        announced = next(m.embed_text for m in reversed(channel.messages)
                         if "Spring Cup: final standings" in m.embed_text)
        assert all(f"<@{u.id}>" in announced for u in humans)
        assert announced.count("3 games") == 8
        standings = await fake.slash(others[0], channel, "lama tournament standings")
        assert not standings.ephemeral and "final standings" in standings.message.embed_text
        lines = standings.message.embeds[0]["description"].splitlines()
        assert len(lines) == 8
