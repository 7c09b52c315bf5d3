"""On PostgreSQL a process hears of a timer another process commits as it commits it
(LISTEN/NOTIFY, migration 0026), so the sweep for a dead process's timers comes when that
timer falls overdue, not at the sweep's next look (issue 35 point 6). The periodic look stays,
as the fallback for a lost notification and for SQLite, which has no one to tell."""

from __future__ import annotations

import asyncio

import pytest

from hosting import GameOptions, GameService
from hosting.loader import ADOPT_GRACE_S
from hosting.sweeper import TimerSweeper
from lama import DRAW
from store import Actor
from tests.hosting.support import ALICE, CHANNEL, GUILD
from tests.support.e2e import wait_until

LONG = 60.0  # a sweep period no test waits out


async def an_ai_due_now(service: GameService, *, ai_delay: float = 0, host: int = ALICE,
                        channel: int = CHANNEL) -> int:
    """A human and an AI that moves after `ai_delay`, on turn (the human draws if first)."""
    options = GameOptions(turn_timeout=600, ai_delay=ai_delay)
    opened = await service.open_lobby(GUILD, channel, host, "Host", options, ai_seats=1)
    game_id = opened.view.game_id
    await service.start(game_id, host)
    view = service.view(game_id)
    if view.seats[view.current_seat].user_id == host:
        await service.human_move(game_id, host, DRAW)
    return game_id


async def stored_due_ms(store, game_id: int) -> int:
    timer = (await store.games.get_game(game_id)).timer
    assert timer is not None
    return timer.due_ms


@pytest.mark.parametrize("db_backend", ["postgresql"])
async def test_a_timer_a_peer_commits_brings_the_sweep_when_it_falls_overdue(
    services, stores, clock
) -> None:
    here, peer = services  # the peer commits its AI's turn, and dies before firing it
    sweeper = TimerSweeper(stores[0], clock, here.loader)
    await sweeper.listen()
    try:
        waiting = asyncio.create_task(sweeper.wait(every=LONG))  # no timer yet: a long wait
        game_id = await an_ai_due_now(peer)
        await asyncio.wait_for(waiting, timeout=ADOPT_GRACE_S + 10)  # not after LONG
        clock.advance(ADOPT_GRACE_S)  # (the fake clock: as much as the wait took)
        assert await sweeper.sweep() == [game_id]
        await here.fire_due_timers()
        assert Actor.AI in [m.actor for m in await stores[0].games.list_moves(game_id)]
    finally:
        await sweeper.close()


@pytest.mark.parametrize("db_backend", ["postgresql"])
async def test_only_a_timer_due_before_every_other_is_told(services, stores, clock) -> None:
    """A notifying commit takes a lock every other one waits for: only a timer that changes
    the sweeps' plan (a new soonest one) is told, not every move's."""
    peer = services[1]
    told: list[int] = []
    watch = await stores[0].timers.watch(told.append)
    assert watch is not None
    try:
        first = await an_ai_due_now(peer, ai_delay=5)
        later = await an_ai_due_now(peer, ai_delay=9, host=ALICE + 10, channel=CHANNEL + 1)
        sooner = await an_ai_due_now(peer, ai_delay=1, host=ALICE + 20, channel=CHANNEL + 2)
        first_due, later_due, sooner_due = [
            await stored_due_ms(stores[1], g) for g in (first, later, sooner)]
        await wait_until(lambda: sooner_due in told)  # told in commit order, `later` between
        assert first_due in told and later_due not in told, (told, later_due)
    finally:
        await watch.close()


@pytest.mark.parametrize("db_backend", ["sqlite"])
async def test_without_notifications_the_sweep_keeps_its_period(
    services, stores, clock
) -> None:
    here, _peer = services
    sweeper = TimerSweeper(stores[0], clock, here.loader)
    await sweeper.listen()
    assert not sweeper.listening  # SQLite: nobody to tell; the periodic look finds timers
    await sweeper.close()
