"""Timers and AI turns with several processes on one database (issue 16 point 3): two
GameServices, each with a Store of its own on one database (a SQLite file, a PostgreSQL
server), stand for two bot processes. Whoever fires a due timer claims it in the transaction
that applies it, so a game held by both fires each timer once, and a game whose process died
goes on in the other process soon after its timer falls due, not a turn time later."""

from __future__ import annotations

import asyncio

import pytest

from hosting import GameOptions, GameService
from hosting.loader import ADOPT_GRACE_S
from hosting.sweeper import MIN_GAP_S, TimerSweeper
from hosting.turns import CLAIM_RETRY_S
from hosting.views import NoticeKind
from lama import DRAW
from store import Actor, Store
from store.game_rows import lock_game_rows
from tests.hosting.support import ALICE, BOB, CHANNEL, GUILD

TURN = 600  # seconds: a long turn, so that waiting for it could never pass for a takeover
AI_DELAY = 1.0


def heard(service: GameService) -> list:
    """Every update the service's listeners hear (what its process would show)."""
    updates: list = []

    async def collect(update):
        updates.append(update)

    service.add_listener(collect)
    return updates


def notices(updates, kind: NoticeKind) -> list:
    return [n for u in updates for n in u.notices if n.kind is kind]


async def started(service: GameService, *, ai_seats: int = 0, channel: int = CHANNEL,
                  host: int = ALICE) -> int:
    options = GameOptions(turn_timeout=TURN, ai_delay=AI_DELAY)
    opened = await service.open_lobby(GUILD, channel, host, "Alice", options, ai_seats)
    game_id = opened.view.game_id
    if not ai_seats:
        await service.join(game_id, BOB, "Bob")
    await service.start(game_id, host)
    return game_id


async def with_the_ai_on_turn(service: GameService, channel: int = CHANNEL,
                              host: int = ALICE) -> int:
    """Alice and an AI; Alice moves if she is first, so the AI's move is the next timer."""
    game_id = await started(service, ai_seats=1, channel=channel, host=host)
    view = service.view(game_id)
    if view.seats[view.current_seat].user_id == host:
        await service.human_move(game_id, host, DRAW)
    view = service.view(game_id)
    assert view.seats[view.current_seat].ai_level is not None
    return game_id


async def actors(store: Store, game_id: int) -> list[Actor]:
    return [m.actor for m in await store.games.list_moves(game_id)]


async def test_an_ai_due_in_a_game_of_a_dead_process_moves_on_its_peer_after_its_delay(
    services, stores, clock
) -> None:
    died, survivor = services
    game_id = await with_the_ai_on_turn(died)  # then its process is gone
    before = await actors(stores[0], game_id)
    clock.advance(AI_DELAY + ADOPT_GRACE_S - 0.1)
    assert await survivor.loader.adopt_overdue(clock.now()) == []  # its own process may fire
    clock.advance(0.2)  # seconds after its delay: a turn time (600 s) is far off
    assert await survivor.loader.adopt_overdue(clock.now()) == [game_id]
    assert await survivor.loader.adopt_overdue(clock.now()) == []  # held now: not twice
    await survivor.fire_due_timers()
    assert await actors(stores[1], game_id) == [*before, Actor.AI]
    assert survivor.view(game_id).move_count == len(before) + 1


async def test_a_human_turn_of_a_dead_process_times_out_on_its_peer(services, stores, clock):
    died, survivor = services
    game_id = await started(died)
    updates = heard(survivor)
    clock.advance(TURN + ADOPT_GRACE_S + 0.1)  # reminder and turn's end both passed
    assert await survivor.loader.adopt_overdue(clock.now()) == [game_id]
    await survivor.fire_due_timers()
    assert await actors(stores[1], game_id) == [Actor.TIMER]
    assert [n.kind for u in updates for n in u.notices] == [NoticeKind.TIMED_OUT]


async def test_a_reminder_in_a_game_held_by_both_processes_is_sent_once(services, clock):
    here, elsewhere = services
    await started(here)
    await elsewhere.find_route(BOB, None, None)  # a DM command loaded it there too
    told = [heard(here), heard(elsewhere)]
    clock.advance(TURN / 2)
    await asyncio.gather(here.fire_due_timers(), elsewhere.fire_due_timers())
    assert len(notices(told[0] + told[1], NoticeKind.REMINDER)) == 1


async def test_a_time_out_in_a_game_held_by_both_processes_is_one_move_told_once(
    services, stores, clock
) -> None:
    here, elsewhere = services
    game_id = await started(here)
    await elsewhere.find_route(BOB, None, None)
    told = [heard(here), heard(elsewhere)]
    clock.advance(TURN)
    await asyncio.gather(here.fire_due_timers(), elsewhere.fire_due_timers())
    assert await actors(stores[0], game_id) == [Actor.TIMER]
    assert len(notices(told[0] + told[1], NoticeKind.TIMED_OUT)) == 1


async def test_an_ai_move_in_a_game_held_by_both_processes_is_made_once(
    services, stores, clock
) -> None:
    here, elsewhere = services
    game_id = await with_the_ai_on_turn(here)
    await elsewhere.find_route(ALICE, None, None)
    before = await actors(stores[0], game_id)
    told = [heard(here), heard(elsewhere)]
    clock.advance(AI_DELAY)
    await asyncio.gather(here.fire_due_timers(), elsewhere.fire_due_timers())
    assert await actors(stores[0], game_id) == [*before, Actor.AI]
    assert len([u for u in told[0] + told[1] if u.actor_seat is not None]) == 1


async def test_a_copy_whose_timer_was_fired_elsewhere_catches_up_with_the_stored_game(
    services, clock
) -> None:
    here, elsewhere = services
    game_id = await with_the_ai_on_turn(here)
    await elsewhere.find_route(ALICE, None, None)
    clock.advance(AI_DELAY)
    await here.fire_due_timers()  # `here` claims and moves first
    told = heard(elsewhere)
    await elsewhere.fire_due_timers()  # its own timer finds the row moved on: it reloads
    assert told == []
    assert elsewhere.view(game_id).move_count == here.view(game_id).move_count


async def test_a_process_that_lost_a_claim_leaves_the_games_next_timers_to_the_claimer(
    services, stores, clock
) -> None:
    here, elsewhere = services
    game_id = await started(here)
    await elsewhere.find_route(BOB, None, None)
    clock.advance(TURN / 2)
    await here.fire_due_timers()  # the reminder
    await elsewhere.fire_due_timers()  # lost: catches up (the turn's end is stored now)
    assert elsewhere.timers.pending(game_id) == [] and here.timers.pending(game_id)
    told = [heard(here), heard(elsewhere)]
    clock.advance(TURN / 2)
    await elsewhere.fire_due_timers()
    await here.fire_due_timers()
    assert await actors(stores[0], game_id) == [Actor.TIMER]
    assert len(notices(told[0] + told[1], NoticeKind.TIMED_OUT)) == 1


async def test_a_game_whose_claimer_died_goes_on_in_the_process_that_lost_the_claim(
    services, stores, clock
) -> None:
    standing_by, died = services
    game_id = await with_the_ai_on_turn(standing_by)
    await died.find_route(ALICE, None, None)
    clock.advance(AI_DELAY)
    await died.fire_due_timers()  # the AI's move; then that process is gone
    await standing_by.fire_due_timers()  # lost the claim: stands by
    moved = await actors(stores[0], game_id)
    assert standing_by.timers.pending(game_id) == []
    clock.advance(TURN + ADOPT_GRACE_S)  # whatever came next is overdue, unfired
    assert await standing_by.loader.adopt_overdue(clock.now()) == [game_id]
    await standing_by.fire_due_timers()
    assert len(await actors(stores[1], game_id)) == len(moved) + 1


async def test_a_stale_copy_of_a_game_whose_process_died_is_brought_up_to_date_and_fired(
    services, stores, clock
) -> None:
    """The surviving process holds an old copy (from a DM move): the sweep reloads it, for
    its own timer is of a move long past."""
    died, survivor = services
    game_id = await started(died)
    await survivor.find_route(BOB, None, None)
    first = died.view(game_id)
    player = first.seats[first.current_seat].user_id
    await died.human_move(game_id, player, DRAW)  # `survivor` has not heard
    clock.advance(TURN + ADOPT_GRACE_S + 0.1)
    assert await survivor.loader.adopt_overdue(clock.now()) == [game_id]
    await survivor.fire_due_timers()
    assert await actors(stores[1], game_id) == [Actor.HUMAN, Actor.TIMER]


async def test_the_sweep_waits_until_the_soonest_timer_would_be_overdue(
    services, stores, clock
) -> None:
    here = services[0]
    sweeper = TimerSweeper(stores[0], clock, here.loader)
    assert await sweeper.next_in(every=60) == 60  # no timer anywhere: the longest wait
    await with_the_ai_on_turn(here)
    assert await sweeper.next_in(every=60) == pytest.approx(AI_DELAY + ADOPT_GRACE_S)
    assert await sweeper.next_in(every=1) == 1  # a timer set elsewhere is seen within that
    clock.advance(AI_DELAY + ADOPT_GRACE_S + 5)  # overdue, nobody fired it yet
    assert await sweeper.next_in(every=60) == MIN_GAP_S


async def test_a_timer_left_overdue_by_a_live_process_is_looked_at_less_and_less_often(
    services, stores, clock
) -> None:
    """The process holding the game fires its timer (late: its loop was busy), so the sweep
    rightly takes nothing up; it looks again after `MIN_GAP_S`, then twice as long after each
    sweep that took nothing, up to its period, not four times a second for as long as it
    lasts. Once the timer fired, the next one is waited for as before."""
    here = services[0]
    sweeper = TimerSweeper(stores[0], clock, here.loader)
    game_id = await with_the_ai_on_turn(here)
    clock.advance(AI_DELAY + ADOPT_GRACE_S + 5)  # overdue; its holder has not fired it yet
    waits = []
    for _ in range(5):
        waits.append(await sweeper.next_in(every=1))
        assert await sweeper.sweep() == []  # held and queued here: nothing to take up
    assert waits == [MIN_GAP_S, MIN_GAP_S, 2 * MIN_GAP_S, 1, 1]
    moved = len(await actors(stores[0], game_id))
    await here.fire_due_timers()
    assert len(await actors(stores[0], game_id)) == moved + 1  # Alice's turn: 300 s
    assert await sweeper.next_in(every=1000) == pytest.approx(TURN / 2 + ADOPT_GRACE_S)


async def test_a_sweep_that_takes_a_game_up_starts_its_back_off_over(services, stores, clock):
    """Behind a timer its live process fires late, a dead process's game falls overdue: it is
    seen within the back-off (at most a second), and taken up, the sweep looks again soon."""
    here, died = services
    sweeper = TimerSweeper(stores[0], clock, here.loader)
    await with_the_ai_on_turn(here)  # its holder, `here`, is late to fire it
    clock.advance(10)
    dead_game = await with_the_ai_on_turn(died, channel=CHANNEL + 1, host=BOB)
    waits = []
    for _ in range(3):
        waits.append(await sweeper.next_in(every=1))
        assert await sweeper.sweep() == []
    assert waits == [MIN_GAP_S, MIN_GAP_S, 2 * MIN_GAP_S]
    clock.advance(AI_DELAY + ADOPT_GRACE_S)  # the dead process's AI move is overdue now
    assert await sweeper.next_in(every=1) == 1
    assert await sweeper.sweep() == [dead_game]
    assert await sweeper.next_in(every=1) == MIN_GAP_S


async def test_an_ai_whose_claim_met_a_passing_row_lock_moves_once_the_lock_is_gone(
    postgres_url, clock
) -> None:
    """On PostgreSQL a claim skips a game row another transaction holds (SKIP LOCKED): a
    peer claiming, or only this process writing the game's message ids. The row unchanged,
    nobody claimed the timer: it is tried again shortly. (It used to be dropped: with one
    process and no sweep, the AI never moved and the game stood still for good.)"""
    store = await Store.open(postgres_url)
    try:
        service = GameService(store, clock, seed_source=lambda: 7)
        game_id = await with_the_ai_on_turn(service)
        before = await actors(store, game_id)
        held, release = asyncio.Event(), asyncio.Event()

        async def write_message_ids() -> None:
            async with store.db.transaction() as tx:
                await lock_game_rows(tx, [game_id])
                held.set()
                await release.wait()

        writer = asyncio.create_task(write_message_ids())
        await held.wait()
        clock.advance(AI_DELAY + 0.1)
        await service.fire_due_timers()  # meets the lock
        release.set()
        await writer
        clock.advance(CLAIM_RETRY_S)
        await service.fire_due_timers()
        assert await actors(store, game_id) == [*before, Actor.AI]
    finally:
        await store.close()


async def test_a_game_that_cannot_be_loaded_does_not_keep_the_sweep_from_the_others(
    services, stores, clock
) -> None:
    died, survivor = services
    broken = await with_the_ai_on_turn(died)
    game_id = await with_the_ai_on_turn(died, channel=CHANNEL + 1, host=BOB)
    async with stores[1].db.transaction() as tx:
        await tx.execute("UPDATE games SET state_json = 'not json' WHERE id = ?", (broken,))
    clock.advance(AI_DELAY + ADOPT_GRACE_S + 0.1)
    assert await survivor.loader.adopt_overdue(clock.now()) == [game_id]
