"""Due timers as rows any process claims exactly once (issue 16 point 3), on SQLite and on a
real PostgreSQL: the claim is taken in the transaction that applies the timer's move, so a
second claimer finds nothing, a crash before the commit leaves the timer due, and on
PostgreSQL a claimer never waits for a peer holding the row (FOR UPDATE SKIP LOCKED)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from store import (
    Actor,
    Dialect,
    DueGame,
    DueTimer,
    FinishedGame,
    GameStore,
    NewSeat,
    SeatResult,
    Store,
    TimerClaim,
    TimerNotClaimed,
    load_migrations,
    open_database,
)
from store.db import connect
from store.move_commit import lock_for_move
from store.timers import claim_condition
from tests.store.support import CHANNEL, GUILD, HOST
from tests.support.backends import two_stores

T0 = 1_700_000_000
DUE = DueTimer("ai", T0 * 1000 + 1500)
NEXT = DueTimer("reminder", T0 * 1000 + 60_000)
NOW = DUE.due_ms  # the timer's own millisecond: due
CLAIM = TimerClaim(DUE, NOW)


async def running(games: GameStore, channel: int = CHANNEL, timer: DueTimer = DUE) -> int:
    lobby = await games.create_lobby(
        guild_id=GUILD, channel_id=channel, host_user_id=HOST, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1.5, now=T0,
        seats=[NewSeat.human(HOST, "Host"), NewSeat.ai("Lama", "normal")])
    await games.start_game(lobby.id, seed=42, state={"round": 1}, now=T0, timer=timer)
    return lobby.id


async def started_before_the_migration(db, channel: int = CHANNEL) -> int:
    """A running game with its AI's timer due, its rows as a start wrote them before migration
    0015, in SQL of that schema (today's GameStore reads and writes columns of later
    migrations too)."""
    async with db.transaction() as tx:
        game_id = await tx.insert(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, seed, state_json, created_at, started_at, "
            "updated_at, timer_kind, timer_due_ms) "
            "VALUES (?, ?, ?, 'classic', 40, 120, 1.5, 'running', 42, '{}', ?, ?, ?, ?, ?)",
            (GUILD, channel, HOST, T0, T0, T0, DUE.kind, DUE.due_ms))
        for index, (user_id, name, level) in enumerate([(HOST, "Host", None),
                                                        (None, "Lama", "normal")]):
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, ai_level, "
                "joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, index, user_id, name, int(user_id is None), level, T0))
    return game_id


async def fire(store: Store, game_id: int, claim: TimerClaim = CLAIM, *,
               finished: FinishedGame | None = None):
    """The AI's move that the due timer fires, committed with its claim."""
    return await store.games.commit_move(
        game_id, 1, 1, {"draw": True}, Actor.AI, {"after": 1}, T0 + 2, round_number=1,
        timer=NEXT, claim=claim, finished=finished)


async def log_of(store: Store, game_id: int) -> list[tuple[int, Actor]]:
    return [(m.seq, m.actor) for m in await store.games.list_moves(game_id)]


async def test_a_due_timer_is_fired_with_its_claim_and_sets_the_next_one(stores):
    store = stores[0]
    game_id = await running(store.games)
    await fire(store, game_id)
    assert await log_of(store, game_id) == [(1, Actor.AI)]
    assert (await store.games.get_game(game_id)).timer == NEXT


async def test_a_timer_is_not_claimed_before_it_is_due(stores):
    store = stores[0]
    game_id = await running(store.games)
    with pytest.raises(TimerNotClaimed):
        await fire(store, game_id, TimerClaim(DUE, NOW - 1))
    assert await log_of(store, game_id) == []


async def test_of_two_claimers_of_a_due_timer_one_wins(stores):
    game_id = await running(stores[0].games)
    outcomes = await asyncio.gather(*(fire(store, game_id) for store in stores),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["Move", "TimerNotClaimed"], outcomes
    assert await log_of(stores[1], game_id) == [(1, Actor.AI)]


async def test_a_claim_of_a_timer_the_game_has_moved_past_writes_nothing(stores):
    store = stores[0]
    game_id = await running(store.games)
    await store.games.commit_move(game_id, 1, 0, {"draw": True}, Actor.HUMAN, {"after": 1},
                                  T0 + 1, round_number=1, timer=NEXT)  # the human moved first
    with pytest.raises(TimerNotClaimed):  # the claim's seq is behind: the caller reloads
        await store.games.commit_move(
            game_id, 1, 1, {"draw": True}, Actor.AI, {"x": 1}, T0 + 2, round_number=1,
            claim=TimerClaim(DUE, NOW))
    with pytest.raises(TimerNotClaimed):  # at the stored seq, but not the stored timer
        await store.games.commit_move(
            game_id, 2, 1, {"draw": True}, Actor.AI, {"x": 2}, T0 + 2, round_number=1,
            claim=TimerClaim(DUE, NEXT.due_ms))
    assert await log_of(store, game_id) == [(1, Actor.HUMAN)]


async def test_a_claim_rolled_back_by_a_crash_inside_its_transaction_is_claimable_again(stores):
    game_id = await running(stores[0].games)
    wrong = FinishedGame(rounds=1, results=(SeatResult(7, 0, 1, True, 0, 0),))  # no seat 7
    with pytest.raises(ValueError):  # fails after the claim, inside its transaction
        await fire(stores[0], game_id, finished=wrong)
    assert (await stores[1].games.get_game(game_id)).timer == DUE  # still due
    await fire(stores[1], game_id)  # a peer claims it
    assert await log_of(stores[0], game_id) == [(1, Actor.AI)]


async def test_a_reminder_is_claimed_once_and_moves_the_row_on(stores):
    game_id = await running(stores[0].games, timer=NEXT)
    claim, end = TimerClaim(NEXT, NEXT.due_ms), DueTimer("turn", NEXT.due_ms + 60_000)
    claimed = await asyncio.gather(
        *(store.timers.claim_timer(game_id, 0, claim, end) for store in stores))
    assert sorted(claimed) == [False, True]
    assert (await stores[0].games.get_game(game_id)).timer == end


async def test_the_sweep_finds_running_games_whose_timer_is_due_soonest_first(stores):
    store = stores[0]
    later = await running(store.games, CHANNEL, NEXT)
    sooner = await running(store.games, CHANNEL + 1, DUE)
    cancelled = await running(store.games, CHANNEL + 2, DUE)
    await store.games.cancel_game(cancelled, now=T0 + 1)  # its timer goes with it
    assert await store.timers.next_due_ms() == DUE.due_ms
    assert await store.timers.due_games(DUE.due_ms - 1) == []
    assert await store.timers.due_games(NEXT.due_ms) == [
        DueGame(sooner, 0, DUE), DueGame(later, 0, NEXT)]
    assert await store.timers.due_games(NEXT.due_ms, limit=1) == [DueGame(sooner, 0, DUE)]
    assert (await store.games.get_game(cancelled)).timer is None


async def test_no_running_game_means_no_next_due_timer(stores):
    assert await stores[0].timers.next_due_ms() is None


async def test_the_sweep_reads_the_index_of_running_timers(stores):
    plan = await stores[0].timers.explain_due_games(as_if_large=True)
    if stores[0].db.dialect is Dialect.SQLITE:
        assert any("USING INDEX games_running_timer_due" in line for line in plan), plan
    else:
        assert any("games_running_timer_due" in line for line in plan), plan


# --- PostgreSQL: several claimers side by side --------------------------------------------


@pytest.fixture
async def pg_stores(postgres_url):
    async with two_stores(postgres_url) as pair:
        yield pair


async def test_a_claimer_skips_a_row_a_peer_holds_instead_of_waiting(pg_stores):
    """While one transaction holds the claimed row, another claim comes back at once with
    nothing (were it to wait, it would wait for ever: the holder ends only after it)."""
    holder, peer = pg_stores
    game_id = await running(holder.games)
    claimed = claim_condition(game_id, 0, TimerClaim(DUE, NOW), holder.db.dialect)
    async with holder.db.transaction() as tx:
        await lock_for_move(tx, game_id, claimed)  # a process firing it, not committed yet
        with pytest.raises(TimerNotClaimed):
            await asyncio.wait_for(fire(peer, game_id), timeout=60)
        reminded = peer.timers.claim_timer(game_id, 0, TimerClaim(DUE, NOW), NEXT)
        assert not await asyncio.wait_for(reminded, timeout=60)
    await fire(peer, game_id)  # the holder wrote nothing: the timer is still due
    assert await log_of(peer, game_id) == [(1, Actor.AI)]


async def test_a_claim_whose_process_died_before_its_commit_is_claimable_again(pg_stores):
    """The claimer's connection dies inside the transaction (its process was killed): the
    server rolls it back and frees the row, and a peer claims the timer."""
    holder, peer = pg_stores
    game_id = await running(holder.games)
    claimed = claim_condition(game_id, 0, CLAIM, holder.db.dialect)
    with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError)):
        async with holder.db.transaction() as tx:
            await lock_for_move(tx, game_id, claimed)
            pid = (await tx.fetchone("SELECT pg_backend_pid() AS pid"))["pid"]
            async with peer.db.transaction() as killer:  # waits until the backend is gone
                await killer.fetchone("SELECT pg_terminate_backend(?, 30000)", (pid,))
            await tx.execute("SELECT 1")  # its connection is gone
    await fire(peer, game_id)
    assert await log_of(peer, game_id) == [(1, Actor.AI)]


async def test_the_sweep_is_not_held_up_by_a_claimed_row(pg_stores):
    holder, peer = pg_stores
    game_id = await running(holder.games)
    claimed = claim_condition(game_id, 0, TimerClaim(DUE, NOW), holder.db.dialect)
    async with holder.db.transaction() as tx:
        await lock_for_move(tx, game_id, claimed)
        found = await asyncio.wait_for(peer.timers.due_games(NOW), timeout=60)
        assert found == [DueGame(game_id, 0, DUE)]


# --- migration 0015 -----------------------------------------------------------------------


async def test_the_migration_clears_the_timers_of_games_cancelled_before_it(empty_db_location):
    """A cancel used to keep its game's timer; the sweep's index holds running games only."""
    probe = await connect(empty_db_location)
    dialect = probe.dialect
    await probe.close()
    step = next(m.version for m in load_migrations(dialect) if m.name == "running_timers")
    db = await open_database(empty_db_location, migrations=load_migrations(dialect)[:step - 1])
    running_id = await started_before_the_migration(db)
    cancelled = await started_before_the_migration(db, CHANNEL + 1)
    async with db.transaction() as tx:  # a cancel as it was written before 0015
        await tx.execute("UPDATE games SET status = 'cancelled' WHERE id = ?", (cancelled,))
    await db.close()
    migrated = await Store.open(empty_db_location)
    try:
        assert (await migrated.games.get_game(cancelled)).timer is None
        assert (await migrated.games.get_game(running_id)).timer == DUE
        assert await migrated.timers.due_games(NOW) == [DueGame(running_id, 0, DUE)]
    finally:
        await migrated.close()
