"""Random crashes (issue 12): the real bot.py killed with SIGKILL at random moments while two
games are played; after each restart, nothing acknowledged is lost, everything is shown
exactly once, and the table and the hands show each running game as stored (issue 35).
Bounded: two tables, three kills, a few moves between them. The seed is in every failure
message (`LAMA_CRASH_SEED=<seed>` replays it)."""

from __future__ import annotations

import os
import random
import re

from tests.support.crash import (
    all_shown,
    kill_after,
    live_hands,
    on_turn,
    press,
    read_db,
    rematch_posts,
    running_bot,
    start,
    stored_game,
)
from tests.support.e2e import enabled_hand_buttons
from tests.support.shown import hands_wrong, table_wrong

KILLS = 3
TABLES = (("lama", "alice", "bob"), ("lama-2", "carol", "dave"))


def newest_game(db, channel) -> int | None:
    rows = read_db(db, "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                   (channel.id,))
    return rows[0][0] if rows else None


def of_game(fake, channel, game_id: int) -> list:
    footer = re.compile(rf"Game #{game_id}\b")
    return [m for m in fake.public_messages(channel) if footer.search(m.text)]


def check_shown(fake, db, games, acknowledged, seed) -> None:
    """Every acknowledged move stored; every ended round and game shown once; the player on
    turn of every running game holds exactly one live hand, everyone else none."""
    for game_id, (channel, players) in games.items():
        where = f"(seed {seed}, game {game_id})"
        moves = read_db(db, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))[0][0]
        assert moves == acknowledged[game_id], where
        status, game = stored_game(db, game_id)
        messages = of_game(fake, channel, game_id)
        last_ended = game.round_number if status == "finished" else game.round_number - 1
        for number in range(1, game.round_number + 1):
            tables = [m for m in messages if re.search(rf": round {number}\b", m.text)]
            assert len(tables) == 1, f"round {number}'s table {where}"
            summed_up = f"Round {number} is over" in tables[0].text
            assert summed_up == (number <= last_ended), f"round {number}'s summary {where}"
        rematches = rematch_posts(fake, channel, game_id)
        assert len(rematches) == (status == "finished"), f"the game's end {where}"
        for seat, user in enumerate(players):
            live = live_hands(fake, user, game_id)
            on_turn_here = status == "running" and seat == game.current_seat
            assert len(live) == on_turn_here, f"{user.name}'s live hands {where}"
        if status == "running":  # what they show is the stored game
            assert table_wrong(fake, channel, db, game_id) is None, where
            assert hands_wrong(fake, players, db, game_id) is None, where


async def play_some(fake, db, rng, games, acknowledged, count) -> None:
    for _ in range(count):
        running = [g for g in games if stored_game(db, g)[0] == "running"]
        if not running:
            return
        game_id = rng.choice(running)
        players = games[game_id][1]
        user = await on_turn(fake, players, game_id, db)
        can_draw = any(c.endswith(":draw") for c in enabled_hand_buttons(
            live_hands(fake, user, game_id)[-1]))
        await press(fake, user, game_id, "draw" if can_draw and rng.random() < 0.6 else "quit")
        acknowledged[game_id] += 1


async def open_tables(fake, db, games, acknowledged) -> None:
    """Each channel without a running game gets a new one (a finished game stays checked)."""
    for name, host, guest in TABLES:
        channel = fake.channel(name)
        newest = newest_game(db, channel)
        if newest is not None and stored_game(db, newest)[0] == "running":
            continue
        players = [fake.user(host), fake.user(guest)]
        await start(fake, channel, *players, target=15)
        game_id = newest_game(db, channel)
        games[game_id] = (channel, players)
        acknowledged[game_id] = 0
        await on_turn(fake, players, game_id, db)


async def test_random_kills_lose_no_move_and_show_everything_exactly_once(
    fake_discord, tmp_path
):
    seed = int(os.environ.get("LAMA_CRASH_SEED") or random.SystemRandom().getrandbits(32))
    rng = random.Random(seed)
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    games: dict[int, tuple] = {}
    acknowledged: dict[int, int] = {}
    for kill in range(KILLS + 1):
        async with running_bot(fake, db, rng.choice(["0", "0.3"])) as bot:
            if kill:
                await all_shown(db)
                check_shown(fake, db, games, acknowledged, seed)
            if kill == KILLS:
                break
            await open_tables(fake, db, games, acknowledged)
            await play_some(fake, db, rng, games, acknowledged, rng.randint(3, 10))
            await kill_after(bot, fake, rng.uniform(0.0, 0.05))
    assert any(acknowledged.values()), f"seed {seed}: no move was played"
