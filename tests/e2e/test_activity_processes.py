"""The Activity across processes (issue 37 point 5): two real bot.py processes (SHARD_COUNT=2,
SHARD_IDS=0 and 1) on one real PostgreSQL, each serving the Activity on its own port, and the
loopback Discord. The game's server lives on shard 1: its slash commands go to process 1.

Alice's page talks to process 0, Bob's to process 1. Each plays from their own page, and now
and then by slash command (answered by process 1): every move, wherever it was committed, must
reach both sockets, showing exactly the stored game. The socket of the process that did not
commit a move learns it by polling the stored games."""

from __future__ import annotations

import socket
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from lama import game_from_dict
from loopback.running import BOT_TOKEN, run_bot_process
from store import GameStatus, Store
from tests.support.activity import PUBLIC_URL, Page, activity_url

pytestmark = pytest.mark.timeout(300)

REPO = Path(__file__).resolve().parents[2]
MOVES = 14  # enough moves for both processes to commit several, each seen by both sockets


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(fake, url: str, shard: int, port: int):
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_URL": url, "SHARD_COUNT": "2",
           "SHARD_IDS": str(shard), "DISCORD_CHANNEL_WINDOW": "0.5", "RENDER_DELAY": "0",
           "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1", "WEB_PUBLIC_URL": PUBLIC_URL,
           "DISCORD_CLIENT_SECRET": fake.activities.client_secret}
    return run_bot_process(fake, [sys.executable, "bot.py"], env=env, cwd=REPO,
                           shard_id=shard, timeout=60)


def shows(view: dict, record) -> bool:
    """The page's view is the stored game: its status, top card, piles, cards and turn."""
    if record.status is not GameStatus.RUNNING:
        return view["status"] == record.status.value
    game = game_from_dict(record.state)
    on_turn = [s["index"] for s in view["seats"] if s["on_turn"]]
    return (view["status"] == "running" and view["top_card"]["code"] == game.top_card.code
            and view["draw_pile"] == game.draw_pile_size
            and [s["cards"] for s in view["seats"]] == [len(game.hand(i))
                                                       for i in range(game.num_seats)]
            and on_turn == [game.current_seat])


async def test_a_socket_on_either_process_sees_every_move(fake_discord, postgres_url):
    fake = fake_discord
    fake.shard_count = 2
    fake.enable_activities()
    far = await fake.add_guild("Far Club", channels=("lama",), shard=(1, 2))
    channel = far.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    ports = free_port(), free_port()
    store = await Store.open(postgres_url)
    pages: list[Page] = []
    try:
        async with AsyncExitStack() as processes:
            for shard in (0, 1):
                await processes.enter_async_context(start(fake, postgres_url, shard,
                                                          ports[shard]))
            pages = [Page(fake, activity_url(ports[0]), alice, channel),
                     Page(fake, activity_url(ports[1]), bob, channel)]
            for made in pages:
                assert (await made.sign_in())[0] == 200
                await made.connect()
            assert (await pages[0].request("open_lobby"))["type"] == "ok"  # on process 0
            await pages[1].state(lambda v: v["status"] == "lobby")  # seen on process 1
            await fake.slash(bob, channel, "lama join")  # process 1
            await pages[0].state(lambda v: len(v["seats"]) == 2)
            assert (await pages[0].request("start"))["type"] == "ok"
            game_id = max(g.id for g in await store.games.unfinished_games())
            by_process = {0: 0, 1: 0, "slash": 0}
            for turn in range(MOVES):
                record = await store.games.get_game(game_id)
                for made in pages:
                    await made.state(lambda v, r=record: shows(v, r))
                if record.status is not GameStatus.RUNNING:
                    break
                seat = game_from_dict(record.state).current_seat
                mover = pages[seat]
                view = mover.view
                playable = [c["code"] for c in view["hand"] if c["playable"]]
                action = "play" if playable else "draw" if view["can"]["draw"] else "quit"
                if turn % 5 == 4:  # now and then by slash command: process 1 answers
                    command = {"card": playable[0]} if playable else {}
                    moved = await fake.slash(mover.user, channel, action, **command)
                    assert moved.refused is None, moved.text
                    by_process["slash"] += 1
                else:
                    answer = await mover.request(action, playable[0] if playable else None)
                    assert answer["type"] == "ok", answer
                    by_process[seat] += 1
                after = await store.games.get_game(game_id)
                assert after.last_seq == record.last_seq + 1
            assert by_process[0] and by_process[1] and by_process["slash"], by_process
    finally:
        for made in pages:
            await made.close()
        await store.close()
