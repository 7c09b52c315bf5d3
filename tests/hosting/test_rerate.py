"""A rerate recomputes exactly what the live updates wrote: a few hundred random games, with
ties, leavers, kicked players, AI levels, two servers, games ending in the same second and
monthly seasons."""

from __future__ import annotations

import asyncio
import logging
import random

from bot import LamaBot, Settings
from hosting.clock import FakeClock
from hosting.rated_store import open_rated_store
from hosting.ratings import RULES
from hosting.rerate import main
from hosting.rerating import rate_unrated, rerate_all
from loopback.running import BOT_TOKEN, run_bot
from store import (
    Actor,
    FinishedGame,
    GameStore,
    NewSeat,
    SeatResult,
    SettingsStore,
    Store,
    open_database,
)
from store.bulk import BulkGame, BulkSeat, insert_finished_games
from store.migrate import load_migrations
from store.records import GuildSettings
from tests.store.support import snapshot, ts

GUILDS = (10, 11)
USERS = list(range(1, 16))
LEVELS = ("easy", "normal", "hard")


async def random_game(games: GameStore, rng: random.Random, guild: int, when: int) -> None:
    size = rng.randint(2, 6)
    humans = rng.sample(USERS, rng.randint(1, min(size, 4)))
    seats = [NewSeat.human(u, f"P{u}") for u in humans]
    seats += [NewSeat.ai(f"AI {i}", rng.choice(LEVELS)) for i in range(size - len(humans))]
    rng.shuffle(seats)
    game = await games.create_lobby(
        guild_id=guild, channel_id=guild * 1000 + rng.randint(0, 9999), host_user_id=humans[0],
        variant="classic", target=40, turn_timeout_s=120, ai_delay_s=1, now=when - 600,
        seats=seats)
    await games.start_game(game.id, seed=1, state={}, now=when - 500)
    for index, seat in enumerate(seats):
        if seat.user_id is not None and rng.random() < 0.2:  # half of them kicked
            await games.hand_seat_to_ai(game.id, index, ai_level="normal", now=when - 10,
                                        kicked=rng.random() < 0.5)
    scores = [rng.choice([0, 5, 10, 10, 20, 41]) for _ in seats]  # plenty of ties
    results = tuple(
        SeatResult(i, s, 1 + sum(o < s for o in scores), s == min(scores), s, 0)
        for i, s in enumerate(scores))
    await games.commit_move(game.id, 1, 0, {}, Actor.HUMAN, {}, when, round_number=1,
                            finished=FinishedGame(1, results))


async def test_rerating_every_game_reproduces_the_live_ratings_exactly(db_location):
    store = await Store.open(db_location, rules=RULES)
    rng = random.Random(15)
    await SettingsStore(store.db).save_settings(GuildSettings(11, season_cadence="monthly"),
                                                now=ts(2026, 1, 1))
    when = ts(2026, 1, 1)
    for _ in range(300):
        when += rng.choice([0, 0, 60, 3600, 86400 * 3])  # some finish in the same second
        await random_game(store.games, rng, rng.choice(GUILDS), when)
    live = await snapshot(store)
    assert len(live[1]) > 1000 and len({r[1] for r in live[0] if r[0] == 11}) > 3  # seasons

    done = await rerate_all(store)
    assert sum(r.games for r in done) == 300
    assert await snapshot(store) == live
    await store.close()


async def test_games_stored_before_ratings_existed_are_rated_by_a_rerate(tmp_path):
    rated = await Store.open(tmp_path / "rated.sqlite3", rules=RULES)
    db = await open_database(tmp_path / "old.sqlite3")
    unrated = GameStore(db)  # as before ratings: results only
    for store_games in (rated.games, unrated):
        rng, when = random.Random(7), ts(2026, 3, 1)
        for _ in range(40):
            when += 3600
            await random_game(store_games, rng, 10, when)
    await db.close()
    old = await Store.open(tmp_path / "old.sqlite3", rules=RULES)
    (done,) = await rerate_all(old)
    assert done.games == 40
    assert await snapshot(old) == await snapshot(rated)
    await old.close()
    await rated.close()


async def test_a_player_who_left_before_kicks_were_stored_still_counts_as_last(tmp_path):
    """Migration 24 told kicks from leaves apart; a hand-over stored before it was a leave
    (or a kick, not known): the game still counts, as last place, for its player."""
    path = tmp_path / "old.sqlite3"
    steps = load_migrations()
    version = next(m.version for m in steps if m.name == "seat_kicked")
    db = await open_database(path, migrations=steps[:version - 1])
    seats = [BulkSeat(1, "Ana", 5, 1, False, 5, 1), BulkSeat(2, "Bo", 20, 2, False, 20, 0)]
    await insert_finished_games(db, [BulkGame(10, 100, "classic", 40, 3, ts(2026, 3, 1), seats)])
    async with db.transaction() as tx:  # Ana's seat was handed to an AI: she counts as last
        await tx.execute("UPDATE seats SET has_left = 1, ai_level = 'normal' WHERE seat = 0")
        await tx.execute("UPDATE game_results SET left_game = 1 WHERE seat = 0")
    await db.close()
    store = await Store.open(path, rules=RULES)
    await rerate_all(store)
    ana, bo = await store.ratings.changes_of_game(1)
    assert ana.delta < 0 < bo.delta
    assert (await store.stats.player_stats(10, 1)).games == 1
    await store.close()


async def games_from_before_ratings(path, count: int = 40) -> None:
    db = await open_database(path)
    unrated = GameStore(db)  # as before ratings: results only
    rng, when = random.Random(7), ts(2026, 3, 1)
    for _ in range(count):
        when += 3600
        await random_game(unrated, rng, 10, when)
    await db.close()


async def test_games_from_before_ratings_are_rated_at_start_up_once(tmp_path):
    await games_from_before_ratings(tmp_path / "old.sqlite3")
    store = await Store.open(tmp_path / "old.sqlite3", rules=RULES)
    (done,) = await rate_unrated(store)
    assert (done.guild_id, done.games) == (10, 40)
    rated = await snapshot(store)
    assert await rate_unrated(store) == []  # nothing left: the next start does nothing
    await random_game(store.games, random.Random(8), 10, ts(2026, 4, 1))  # rated live
    assert await rate_unrated(store) == []
    assert await snapshot(store) != rated
    await store.close()


async def test_a_server_with_older_unrated_and_newer_rated_games_is_found(tmp_path):
    await games_from_before_ratings(tmp_path / "old.sqlite3", count=5)
    store = await Store.open(tmp_path / "old.sqlite3", rules=RULES)
    await random_game(store.games, random.Random(9), 10, ts(2026, 5, 1))  # rated live
    await random_game(store.games, random.Random(9), 11, ts(2026, 5, 1))  # a newer server
    assert await store.ratings.guilds_with_unrated_games() == [10]
    await store.close()


async def test_the_bot_rates_older_games_when_it_starts(fake_discord, tmp_path, caplog):
    await games_from_before_ratings(tmp_path / "lama.sqlite3")
    bot = LamaBot(Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3"),
                  guild_ready_timeout=0.05)
    with caplog.at_level(logging.INFO, logger="hosting.rerating"):
        async with run_bot(fake_discord, bot, sync_commands=False):
            assert await bot.store.ratings.guilds_with_unrated_games() == []
            assert (await bot.store.ratings.leaderboard(10, 1))[1] > 0  # ranked humans
    assert "server 10: 40 games from before ratings existed" in caplog.text


def test_the_command_line_rerates_a_database_file(tmp_path, capsys):
    async def fill() -> None:
        store = await Store.open(tmp_path / "lama.sqlite3", rules=RULES)
        rng = random.Random(1)
        for i in range(5):
            await random_game(store.games, rng, 10, ts(2026, 3, 1) + i)
        await store.close()

    import asyncio

    asyncio.run(fill())
    main(["--database", str(tmp_path / "lama.sqlite3")])
    out = capsys.readouterr().out
    assert "server 10: 5 games" in out and "games/s" in out


async def test_two_processes_starting_at_once_rate_older_games_as_one_would(
        db_location, caplog):
    """Issue 33: two bot processes on one database both find the unrated games at start-up;
    both rerate (under the server's ratings lock), neither fails, and what they leave is what
    one rerate of the same games leaves."""
    await games_from_before_ratings(db_location)
    clock = FakeClock(ts(2026, 6, 1))
    with caplog.at_level(logging.INFO, logger="hosting.rerating"):
        first, second = await asyncio.gather(open_rated_store(db_location, clock),
                                             open_rated_store(db_location, clock))
    rerates = caplog.text.count("server 10: 40 games from before ratings existed")
    assert rerates in (1, 2)  # both, or one over before the other looked (often SQLite's)
    assert await first.ratings.guilds_with_unrated_games() == []
    left = await snapshot(first)
    assert left[1] and await snapshot(second) == left  # ratings changes written, seen by both
    await rerate_all(first)
    assert await snapshot(first) == left
    await first.close()
    await second.close()
