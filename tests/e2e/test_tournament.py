"""Swiss tournaments end to end on the loopback Discord.

A round's tables play at the same time, each in a thread of its own where commands reach
that table's game (also after a restart); and a 3-round tournament of 8 entrants (5 humans,
3 AIs) played by hand-message buttons reaches its final standings although the real bot.py
process is killed with SIGKILL in the middle of round 2."""

from __future__ import annotations

import asyncio
import inspect
import sys
from pathlib import Path

import pytest

from bot import LamaBot, Settings
from hosting import HostingError, Problem, Status
from loopback.running import BOT_TOKEN, run_bot, run_bot_process
from store import GuildSettings, Store
from store.tournaments import TournamentStatus
from tests.e2e.tournaments import (
    CUP,
    QUICK,
    embeds_saying,
    one_table_cup_played,
    play_to_its_end,
    round_games,
    sign_up,
    signup_message,
)
from tests.support.crash import enabled_buttons, newest_hand, wait_disconnected
from tests.support.e2e import names_game, on_turn, refused, settle, spy_on_rest_budget

REPO = Path(__file__).resolve().parents[2]










async def test_a_rounds_tables_play_at_once_each_in_a_thread_of_its_own(
    fake_discord, tmp_path, bot_errors
):
    fake = fake_discord
    channel = fake.channel("lama")
    humans = [fake.user(n) for n in ("alice", "bob", "carol", "dave")] + fake.add_users(2)
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3",
                        render_delay=0)
    bot = LamaBot(settings, guild_ready_timeout=0.05)
    async with run_bot(fake, bot, sync_commands=False):
        await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
        await sign_up(fake, channel, humans[0], humans, ais=2, rounds=2)
        slots = spy_on_rest_budget(bot)
        started = await fake.click(humans[0], signup_message(channel), "Start")
        assert started.refused is None
        tournament = await bot.tournaments.in_channel(channel.id)
        games = await round_games(bot, tournament.id, 1)
        for game_id in games:
            await settle(bot, game_id)
        views = [bot.service.view(g) for g in games]
        assert len(views) == 2 and all(v.status is Status.RUNNING for v in views)  # at once
        threads = [fake.channels[v.channel_id] for v in views]
        assert all(th.thread is not None and th.thread.parent is channel for th in threads)
        assert threads[0].name == f"{CUP} · round 1 · table 1"
        assert bot.service.game_in_channel(channel.id) is None  # no lobby, no game here
        assert not [m for m in fake.public_messages(channel) if m.custom_ids and
                    not any(c.startswith("lama:tn:") for c in m.custom_ids)]
        assert embeds_saying(channel, "each in a thread of its own")
        # the round's post, the sign-up's edit, the threads and their welcomes: each through
        # the REST budget, as the renderer's calls
        assert {(channel.id, "create"), (channel.id, "edit"), (None, "create")} <= set(slots)
        assert all((th.id, "create") in slots for th in threads)
        for view, thread in zip(views, threads, strict=True):
            welcome = fake.public_messages(thread)[0].text
            assert "round 1, table" in welcome
            assert all(f"<@{s.user_id}>" in welcome for s in view.seats if s.user_id)
            assert any(m.custom_ids for m in fake.public_messages(thread))  # its table
        for game_id, other, thread in ((games[0], games[1], threads[0]),
                                       (games[1], games[0], threads[1])):
            before = bot.service.view(other).move_count
            user, _ = on_turn(fake, bot, game_id)
            moved = await fake.slash(user, thread, "quit")
            assert moved.ephemeral and bot.service.view(game_id).move_count >= 1
            assert bot.service.view(other).move_count == before  # only its own game
            await settle(bot, game_id)
        refused(await fake.slash(humans[0], channel, "quit"), "no LAMA game in this channel")

    bot = LamaBot(settings, guild_ready_timeout=0.05)  # same database, a fresh process
    async with run_bot(fake, bot, sync_commands=False):
        for game_id, thread in zip(games, threads, strict=True):
            await settle(bot, game_id)
            before = bot.service.view(game_id).move_count
            user, _ = on_turn(fake, bot, game_id)
            moved = await fake.slash(user, thread, "quit")
            assert moved.ephemeral and bot.service.view(game_id).move_count > before


def newest_hand_of(fake, user, games: set[int] | None):
    """The user's newest hand DM (of one of `games`, if given)."""
    if games is None:
        return newest_hand(fake, user)
    hands = [m for m in fake.dms(user)
             if any(names_game(c, "h", g) for c in m.custom_ids for g in games)]
    return hands[-1] if hands else None


def took(result) -> bool:
    """Whether the bot took the press (it redrew the pressed hand) rather than refusing it
    privately, e.g. "you have quit this round" from a hand that still looked live."""
    return result.refused is None and not result.ephemeral


async def press_every_live_hand(fake, users, games: set[int] | None = None,
                                limit: int | None = None) -> int:
    """Each user with a live hand (of `games`, if given) plays its first card, else quits the
    round (asked, then confirmed), `limit` moves at most; moves made."""
    moves = 0
    for user in users:
        if limit is not None and moves >= limit:
            break
        message = newest_hand_of(fake, user, games)
        buttons = [b for b in enabled_buttons(message)
                   if b.custom_id.startswith("lama:h:") and not b.custom_id.endswith(":draw")]
        if not buttons:
            continue
        cards = [b for b in buttons if not b.custom_id.endswith(":quit")]
        pressed = (cards or buttons)[0].custom_id
        result = await fake.click(user, message, pressed)
        moves += took(result) and not pressed.endswith(":quit")  # the question is no move
    return moves


def table_thread(fake, channel, user):
    """The open thread of the user's current table (its welcome message mentions them)."""
    threads = [c for c in fake.channels.values()
               if c.thread is not None and c.thread.parent is channel and not c.thread.archived
               and c.messages and f"<@{user.id}>" in c.messages[0].text]
    return threads[-1] if threads else None


async def quit_by_slash(fake, channel, users, limit: int | None = None) -> int:
    """What a player does whose hand message never came, or not yet (a crash between their
    move and the ping, a slow process): /quit in their table's thread (refused unless it is
    their turn), `limit` moves at most; moves made. From then on that player plays from the
    table: their turns come as plain "your turn" DMs, no hand buttons (cogs/render/hands.py)."""
    moves = 0
    for user in users:
        thread = table_thread(fake, channel, user)
        if thread is None or (limit is not None and moves >= limit):
            continue
        answer = await fake.slash(user, thread, "quit")
        moves += answer.message is not None and any(  # their hand, not a refusal
            c.startswith("lama:h:") for c in answer.message.custom_ids)
    return moves


async def stored_round(db_path, channel) -> tuple[int, set[int]]:
    """The channel's tournament as the bot process stored it: the round being played and
    that round's games (none until every one of its tables is open)."""
    store = await Store.open(db_path)
    try:
        tournament = await store.tournaments.latest_in_channel(channel.id)
        outcomes = [] if tournament is None else await store.tournaments.outcomes(tournament.id)
    finally:
        await store.close()
    if tournament is None:
        return 0, set()
    games = [o.table.game_id for o in outcomes if o.table.round == tournament.round]
    return tournament.round, set() if None in games else {g for g in games if g is not None}


async def games_of_round(db_path, channel, number: int) -> set[int]:
    """Round `number`'s games, once every one of its tables is open."""
    for _ in range(600):
        played, games = await stored_round(db_path, channel)
        if played == number and games:
            return games
        await asyncio.sleep(0.05)
    raise AssertionError(f"round {number}'s tables did not open")


class Moves:
    """Moves made so far (by hand buttons, or by /quit where no live hand came)."""

    count = 0


async def play_until(fake, channel, users, done, timeout: float = 90.0,
                     moves: Moves | None = None, games: set[int] | None = None,
                     limit: int | None = None) -> None:
    """Press live hands (of `games`, at most `limit` moves a time) until `done()`, a bool or
    an awaitable one; where none came for a while, the player on turn uses /quit."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    idle = 0
    while not (await finished if inspect.isawaitable(finished := done()) else finished):
        assert loop.time() < deadline, "the tournament did not get there in time"
        made = await press_every_live_hand(fake, users, games, limit)
        idle = 0 if made else idle + 1
        if idle == 40:
            made += await quit_by_slash(fake, channel, users, limit)
            idle = 0
        if moves is not None:
            moves.count += made
        await asyncio.sleep(0.05)


async def test_a_three_round_tournament_reaches_its_standings_despite_a_sigkill_in_round_two(
    fake_discord, tmp_path
):
    fake = fake_discord
    channel = fake.channel("lama")
    db_path = tmp_path / "lama.sqlite3"
    store = await Store.open(db_path)
    await store.settings.save_settings(GuildSettings(fake.guild.id, **QUICK), now=0)
    await store.close()
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": str(db_path), "RENDER_DELAY": "0"}
    args = [sys.executable, "bot.py"]
    organiser, *others = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
    humans = [organiser, *others, *fake.add_users(1)]

    async with run_bot_process(fake, args, env=env, cwd=REPO) as process:
        await sign_up(fake, channel, organiser, humans, ais=3, rounds=3)
        twice = await fake.click(others[0], signup_message(channel), "Join")
        refused(twice, "already signed up")
        refused(await fake.click(others[0], signup_message(channel), "Start"),
                "Only the organiser")
        assert "8 entrants" in signup_message(channel).embed_text
        assert (await fake.click(organiser, signup_message(channel), "Start")).refused is None
        # Round 1's hands only, until the stored tournament is in round 2 (its announcement
        # may come later: pressing on until then could play round 2 to its end as well).
        first = await games_of_round(db_path, channel, 1)

        async def in_round_two() -> bool:
            return (await stored_round(db_path, channel))[0] >= 2

        await play_until(fake, channel, humans, in_round_two, games=first)
        # One move into round 2 (every table seats a human, so its games wait for them: the
        # round cannot end), then the process dies on the spot.
        second = await games_of_round(db_path, channel, 2)
        moves = Moves()
        await play_until(fake, channel, humans, lambda: moves.count >= 1, moves=moves,
                         games=second, limit=1)
        process.kill()
    await wait_disconnected(fake)
    store = await Store.open(db_path)
    try:
        killed = (await store.tournaments.latest_in_channel(channel.id))
    finally:
        await store.close()
    assert killed is not None and killed.round == 2 and killed.status is TournamentStatus.RUNNING

    async with run_bot_process(fake, args, env=env, cwd=REPO):
        await play_until(fake, channel, humans,
                         lambda: embeds_saying(channel, f"{CUP}: final standings"))
        standings = await fake.slash(others[0], channel, "lama tournament standings")
    announced = embeds_saying(channel, f"{CUP}: final standings")[0]
    assert all(f"<@{u.id}>" in announced for u in humans)
    assert announced.count("3 games") == 8  # every entrant played every round
    assert standings.ephemeral and "final standings" in standings.message.embed_text
    signup = signup_message_after(channel, killed.signup_message_id)
    assert "Finished." in signup.embed_text and not signup.buttons


def signup_message_after(channel, message_id):
    return next(m for m in channel.messages if m.id == message_id)




async def test_a_tournament_tables_game_over_says_what_comes_next_instead_of_rematch(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob, carol = (fake.user(n) for n in ("alice", "bob", "carol"))
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    await sign_up(fake, channel, alice, [alice, bob, carol], ais=0, rounds=2)
    await fake.click(alice, signup_message(channel), "Start")
    tournament = await bot.tournaments.in_channel(channel.id)
    (game_id,) = await round_games(bot, tournament.id, 1)
    await play_to_its_end(bot, game_id)

    place = fake.channels[bot.service.view(game_id).shown_in]
    (over,) = [m for m in fake.public_messages(place) if "Game over" in m.text]
    assert "Rematch" not in {b.label for b in over.buttons}, over.buttons
    assert f"{CUP}: round 1 of 2" in over.text
    # the round's only table: the round is over with it, and nothing is said of other tables
    assert f"This round is over: the next round's seating is in <#{channel.id}>." in over.text
    assert "Table 1" not in over.text and "last" not in over.text
    standings = await fake.click(bob, over, "Standings")
    assert standings.ephemeral and f"{CUP}: standings" in standings.text, standings.text
    with pytest.raises(HostingError) as no_rematch:  # an older message's Rematch button
        await bot.service.rematch(game_id, bob.id, "Bob")
    assert no_rematch.value.problem is Problem.TOURNAMENT_TABLE




async def test_the_only_tables_game_over_says_the_tournament_is_over(fake_discord, lamabot):
    channel, over = await one_table_cup_played(fake_discord, lamabot)
    assert f"{CUP}: round 1 of 1" in over.text
    assert f"The tournament is over: the final standings are in <#{channel.id}>." in over.text
    assert "once every table" not in over.text and "was the last" not in over.text


async def test_the_final_standings_are_posted_after_the_last_tables_game_over(
    fake_discord, lamabot
):
    # the production render delay: the tournament finishes well before the game's flush
    channel, over = await one_table_cup_played(fake_discord, lamabot, render_delay=0.3)
    (final,) = [m for m in fake_discord.public_messages(channel)
                if f"{CUP}: final standings" in m.embed_text]
    assert over.id < final.id
