"""Rendering from any process (issue 16 point 4): two or three GameServices, each with a Store
of its own on one database (a SQLite file, a PostgreSQL server), stand for bot processes. The
process that commits a move shows it and renews its hold while it is showing it; a process
that dies between commit and Discord leaves its moves to a peer, which shows them once,
exactly them. Nobody shows anything here (no renderer): a sweep names the games its process's
renderer would be showing."""

from __future__ import annotations

import asyncio

import pytest

from hosting import GameOptions, GameService
from hosting.outbox import RENDER_LEASE_S, RENEW_S
from lama import DRAW, QUIT
from lama import events as ev
from store import Store
from tests.hosting.support import ALICE, BOB, CHANNEL, GUILD
from tests.support.backends import move_log_reads


@pytest.fixture
async def stores(db_location):
    """Three stores on one database, as three processes have."""
    opened = [await Store.open(db_location, process=name) for name in ("one", "two", "three")]
    yield opened
    for store in reversed(opened):
        await store.close()


async def started(service: GameService) -> int:
    options = GameOptions(turn_timeout=600)
    game_id = (await service.open_lobby(GUILD, CHANNEL, ALICE, "alice", options)).view.game_id
    await service.join(game_id, BOB, "bob")
    await service.start(game_id, ALICE)
    return game_id


async def quit_on_turn(service: GameService, game_id: int):
    """The player on turn (as stored) quits the round, through this process."""
    hosted = await service.loader.hosted(game_id)  # loaded here if never held
    await service.loader.refresh(hosted)  # another process may have moved it
    view = service.view(game_id)
    return await service.human_move(game_id, view.seats[view.current_seat].user_id, QUIT)


async def round_ended(service: GameService, game_id: int) -> tuple[int, ...]:
    """Both players quit, which ends round 1: the moves committed (none of them shown)."""
    seqs: tuple[int, ...] = ()
    while True:
        update = await quit_on_turn(service, game_id)
        seqs += update.seqs
        if any(isinstance(e, ev.RoundEnded) for e in update.events):
            return seqs


def summaries(updates) -> list[int]:
    return [e.round_number for u in updates for e in u.events if isinstance(e, ev.RoundEnded)]


async def shown(service: GameService, updates) -> None:
    """What a renderer does once these updates are on Discord."""
    for update in updates:
        await service.render_shown(update.view.game_id, update.seqs)


async def test_a_round_ended_by_a_process_that_died_is_summed_up_by_a_peer(
        services, clock):
    one, two, _ = services
    game_id = await started(one)
    await round_ended(one, game_id)  # and process one dies before showing any of it
    clock.advance(RENDER_LEASE_S + 1)
    [update] = await two.outbox.sweep(showing=())
    assert update.view.game_id == game_id and update.seqs == (0, 1, 2)
    assert summaries([update]) == [1] and update.view.round_number == 2


async def test_a_peer_that_showed_a_dead_process_s_round_leaves_nothing_to_show_again(
        services, clock):
    one, two, three = services
    game_id = await started(one)
    await round_ended(one, game_id)
    clock.advance(RENDER_LEASE_S + 1)
    await shown(two, await two.outbox.sweep(showing=()))
    clock.advance(RENDER_LEASE_S + 1)
    assert await three.outbox.sweep(showing=()) == [] and await two.outbox.sweep(showing=()) == []


async def test_two_peers_sweeping_at_once_show_a_lost_round_once(services, clock):
    one, two, three = services
    game_id = await started(one)
    await round_ended(one, game_id)
    clock.advance(RENDER_LEASE_S + 1)
    taken = await asyncio.gather(two.outbox.sweep(showing=()), three.outbox.sweep(showing=()))
    assert summaries([u for updates in taken for u in updates]) == [1]


async def test_a_live_process_s_slow_render_is_not_repaired_by_a_peer(services, clock):
    one, two, _ = services
    game_id = await started(one)
    await round_ended(one, game_id)  # its render waits for the REST budget, for long
    for _ in range(3 * int(RENDER_LEASE_S / RENEW_S)):
        clock.advance(RENEW_S)
        assert await one.outbox.sweep(showing={game_id}) == []  # renews its hold
        assert await two.outbox.sweep(showing=()) == []


async def test_a_peer_showing_a_newer_move_leaves_the_older_unshown_one_to_repair(
        services, clock):
    one, two, three = services
    game_id = await started(one)
    await shown(one, [await one.pending_render(game_id)])  # the deal is on Discord
    lost = await round_ended(one, game_id)  # process one dies before showing it
    newer = await quit_on_turn(two, game_id)  # a DM press at process two, shown at once
    await shown(two, [newer])
    clock.advance(RENDER_LEASE_S + 1)
    [update] = await three.outbox.sweep(showing=())
    assert update.seqs == lost and summaries([update]) == [1]
    assert newer.seqs[0] not in update.seqs
    assert update.view.move_count == newer.view.move_count  # the table as it is now


async def behind_when_its_peer_died(one: GameService, two: GameService) -> int:
    """Process two's copy is a move behind the round process one ended, unshown, and died."""
    game_id = await started(one)
    await quit_on_turn(two, game_id)  # process two holds a copy from here
    await shown(two, [await two.pending_render(game_id)])
    await shown(one, [await one.pending_render(game_id)])
    await quit_on_turn(one, game_id)  # ends the round; process one dies
    return game_id


async def test_a_peer_whose_copy_is_behind_repairs_with_the_stored_game(services, clock):
    one, two, _ = services
    game_id = await behind_when_its_peer_died(one, two)
    clock.advance(RENDER_LEASE_S + 1)
    [update] = await two.outbox.sweep(showing=())
    assert update.view.move_count == 2 and summaries([update]) == [1]
    assert two.view(game_id).move_count == 2


async def test_a_peer_whose_copy_is_behind_reads_the_move_log_once_to_repair(
        services, stores, clock, monkeypatch):
    one, two, _ = services
    await behind_when_its_peer_died(one, two)
    clock.advance(RENDER_LEASE_S + 1)
    reads = move_log_reads(stores[1], monkeypatch)
    [update] = await two.outbox.sweep(showing=())
    assert len(reads) == 1 and summaries([update]) == [1]


async def test_a_lost_render_within_a_round_is_replayed_from_that_rounds_deal(
        services, stores, clock, monkeypatch):
    one, two, _ = services
    game_id = await started(one)
    await shown(one, [await one.pending_render(game_id)])  # the deal is on Discord
    await one.render_shown(game_id, await round_ended(one, game_id))  # and round 1
    view = one.view(game_id)
    lost = await one.human_move(game_id, view.seats[view.current_seat].user_id, DRAW)
    assert lost.view.round_number == 2  # a move within round 2; process one dies
    clock.advance(RENDER_LEASE_S + 1)
    reads = move_log_reads(stores[1], monkeypatch)
    [update] = await two.outbox.sweep(showing=())
    assert reads == [list(lost.seqs)]
    assert (update.seqs, update.events) == (lost.seqs, lost.events)
    assert update.view.recent == lost.view.recent[-len(update.view.recent):]


async def test_a_peer_that_repaired_a_running_game_holds_it_from_then_on(services, clock):
    one, two, _ = services
    game_id = await started(one)
    await round_ended(one, game_id)
    clock.advance(RENDER_LEASE_S + 1)
    await two.outbox.sweep(showing=())
    update = await quit_on_turn(two, game_id)  # its next turn, moved by the peer
    assert update.view.move_count == 3


async def test_a_render_a_live_process_lost_is_taken_up_again(services, clock):
    one, *_ = services
    game_id = await started(one)
    await round_ended(one, game_id)  # its update never reached a renderer
    clock.advance(RENDER_LEASE_S + 1)
    [update] = await one.outbox.sweep(showing=())
    assert update.view.game_id == game_id and summaries([update]) == [1]


async def test_a_move_shown_but_not_marked_yet_stays_held(services, clock):
    one, two, _ = services
    game_id = await started(one)
    one.messages._writer_running = True  # marks wait for the writer's next batch
    await one.render_shown(game_id, [0])
    clock.advance(RENDER_LEASE_S - 1)
    assert await one.outbox.sweep(showing=()) == []
    clock.advance(2)
    assert await two.outbox.sweep(showing=()) == []
