"""A board the web site asks for and nobody kept is made in one of the site's read turns
(web/limits.py `read_turn`): a flood's first second over every board made them all at once,
each window's totals 100-200 ms of a read connection, and took every core from the moves."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from hosting import GameService
from hosting.stats import StatsService
from store import LeaderboardSort
from store.background import background_reads, in_background
from tests.hosting.support import GUILD, finish_a_game


class Turns:
    """A read turn that records whether it is held."""

    def __init__(self) -> None:
        self.held = False
        self.taken = 0

    @asynccontextmanager
    async def turn(self):
        self.taken += 1
        self.held = True
        try:
            yield
        finally:
            self.held = False


async def test_a_board_nobody_kept_is_read_while_its_turn_is_held(store, clock, monkeypatch):
    await finish_a_game(GameService(store, clock), GUILD)
    turns, held_while_read = Turns(), []
    real = store.stats.player_totals

    async def read(*args, **kwargs):
        held_while_read.append(turns.held)
        return await real(*args, **kwargs)

    monkeypatch.setattr(store.stats, "player_totals", read)
    board = await StatsService(store, clock).leaderboard(
        GUILD, LeaderboardSort.WINS, turn=turns.turn)
    assert board.rows and held_while_read == [True] and not turns.held


async def test_a_kept_board_is_answered_without_a_turn(store, clock):
    await finish_a_game(GameService(store, clock), GUILD)
    stats, turns = StatsService(store, clock), Turns()
    first = await stats.leaderboard(GUILD, LeaderboardSort.WINS, turn=turns.turn)
    assert await stats.leaderboard(GUILD, LeaderboardSort.WINS, turn=turns.turn) is first
    assert turns.taken == 1


async def test_a_board_that_waited_for_its_turn_while_a_game_finished_is_kept(store, clock):
    """Its reads began after the game finished: it is as fresh as they are."""
    await finish_a_game(GameService(store, clock), GUILD)
    stats, opened = StatsService(store, clock), asyncio.Event()

    @asynccontextmanager
    async def line():
        await opened.wait()
        yield

    waiting = asyncio.create_task(stats.leaderboard(GUILD, LeaderboardSort.WINS, turn=line))
    await asyncio.sleep(0.01)
    stats.boards.game_finished(GUILD)  # while the board waits in line
    opened.set()
    board = await waiting
    turns = Turns()
    assert await stats.leaderboard(GUILD, LeaderboardSort.WINS, turn=turns.turn) is board
    assert turns.taken == 0


async def test_a_board_made_in_the_sites_turn_reads_what_discord_shares_in_the_foreground(
        store, clock, monkeypatch):
    """The site's turn reads in the background (store/background.py), but a window's totals
    and the server's version are made once for everyone who asks meanwhile, Discord's
    /leaderboard too: those are read in the foreground, the turn held all the same."""
    await finish_a_game(GameService(store, clock), GUILD)
    turns, seen = Turns(), {}
    real_totals, real_version = store.stats.player_totals, store.stats.results_version

    async def totals(*args, **kwargs):
        seen["totals"] = (in_background(), turns.held)
        return await real_totals(*args, **kwargs)

    async def version(*args, **kwargs):
        seen["version"] = in_background()
        return await real_version(*args, **kwargs)

    monkeypatch.setattr(store.stats, "player_totals", totals)
    monkeypatch.setattr(store.stats, "results_version", version)

    @asynccontextmanager
    async def sites_turn():
        async with turns.turn():
            with background_reads():
                yield

    await StatsService(store, clock).leaderboard(GUILD, LeaderboardSort.WINS, turn=sites_turn)
    assert seen == {"totals": (False, True), "version": False}


async def test_discords_board_never_waits_for_totals_read_in_the_background(
        store, clock, monkeypatch):
    """The site's board and Discord's (its asker's rank: another board) share the window's
    totals: read once, in the foreground, whoever asked first."""
    await finish_a_game(GameService(store, clock), GUILD)
    stats, read_in, opened = StatsService(store, clock), [], asyncio.Event()
    real_totals = store.stats.player_totals

    async def totals(*args, **kwargs):
        read_in.append(in_background())
        await opened.wait()
        return await real_totals(*args, **kwargs)

    monkeypatch.setattr(store.stats, "player_totals", totals)

    @asynccontextmanager
    async def sites_turn():
        with background_reads():
            yield

    sites = asyncio.create_task(stats.leaderboard(GUILD, LeaderboardSort.WINS, turn=sites_turn))
    await asyncio.sleep(0.01)
    discords = asyncio.create_task(stats.leaderboard(GUILD, LeaderboardSort.WINS, user_id=1))
    await asyncio.sleep(0.01)
    opened.set()
    await asyncio.gather(sites, discords)
    assert read_in == [False]
