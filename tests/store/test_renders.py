"""The render outbox: each committed move is noted as due in its own transaction, held by the
process that committed it, and stays due until a process marks exactly that move shown; a
move whose holder stopped renewing it is claimed by another process, once (issues 12, 16)."""

from __future__ import annotations

import asyncio

import pytest

from store import GameStore, MessageRef, PendingRender, RenderStore, SeqConflict, Store
from store.db import connect, open_database
from store.renders import needs_showing
from tests.store.support import T0, all_results, lobby, migrated, move, running


@pytest.fixture
def renders(db):
    return RenderStore(db)


@pytest.fixture
async def processes(db_location):
    """Two stores on one database, as two processes have, named "one" and "two"."""
    one = await Store.open(db_location, process="one")
    two = await Store.open(db_location, process="two")
    yield one, two
    await two.close()
    await one.close()


async def test_a_lobby_has_nothing_to_show(games, renders):
    await lobby(games)
    assert await renders.pending() == []


async def test_a_started_game_must_show_its_deal(games, renders):
    game = await running(games)
    assert await renders.pending() == [PendingRender(game.id, (0,), T0 + 10)]


async def test_every_unshown_move_is_due(games, renders):
    game = await running(games)
    await games.save_message_refs([], shown=[(game.id, 0)])
    await move(games, game.id, 1)
    await move(games, game.id, 2, seat=1)
    assert await renders.held_of(game.id) == PendingRender(game.id, (1, 2), T0 + 101)


async def test_marking_the_moves_shown_clears_them(games, renders):
    game = await running(games)
    await move(games, game.id, 1)
    await games.save_message_refs([], shown=[(game.id, 0), (game.id, 1)])
    assert await renders.pending() == []


async def test_marking_a_newer_move_shown_leaves_an_older_unshown_one_due(games, renders):
    game = await running(games)
    await games.save_message_refs([], shown=[(game.id, 0)])
    await move(games, game.id, 1)
    await move(games, game.id, 2, seat=1)
    await games.save_message_refs([], shown=[(game.id, 2)])
    assert await renders.pending() == [PendingRender(game.id, (1,), T0 + 101)]


async def test_a_mark_repeated_changes_nothing(games, renders):
    game = await running(games)
    await move(games, game.id, 1)
    await games.save_message_refs([], shown=[(game.id, 1)])
    await games.save_message_refs([], shown=[(game.id, 1), (game.id, 1)])
    assert await renders.pending() == [PendingRender(game.id, (0,), T0 + 10)]


async def test_the_move_that_ends_a_game_is_due_like_any_other(games, renders):
    game = await running(games)
    await games.save_message_refs([], shown=[(game.id, 0)])
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False)]))
    assert await renders.held_of(game.id) == PendingRender(game.id, (1,), T0 + 101)


async def test_a_refused_move_notes_nothing(games, renders):
    game = await running(games)
    await move(games, game.id, 1)
    await games.save_message_refs([], shown=[(game.id, 0), (game.id, 1)])
    with pytest.raises(SeqConflict):
        await move(games, game.id, 1)
    assert await renders.pending() == []


async def _until_a_transaction_waits_for_a_lock(db) -> None:
    """Poll PostgreSQL until some session waits for a row lock (a condition, not a sleep)."""
    for _ in range(1000):
        async with db.read() as tx:
            row = await tx.fetchone(
                "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        if row is not None and row["n"]:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("nothing ever waited for the lock")


async def test_marking_shown_while_a_move_commits_waits_for_it_instead_of_deadlocking(
        postgres_url):
    """A move locks its game, then notes it must be shown; marking a game shown (with its
    message ids) used to lock the note first, then the game: two processes' ordinary work
    deadlocked and a player's /play failed. Both now lock the game first."""
    db = await open_database(postgres_url)
    games = GameStore(db)
    try:
        game = await running(games)
        async with db.transaction() as move_half_done:
            await move_half_done.execute(
                "UPDATE games SET updated_at = ? WHERE id = ?", (T0 + 50, game.id))
            marking = asyncio.create_task(games.save_message_refs(
                [MessageRef(game.id, "table", 900, 901)], shown=[(game.id, 0)]))
            await asyncio.create_task(_until_a_transaction_waits_for_a_lock(db))
            await needs_showing(move_half_done, game.id, 1, T0 + 50, "main")
        await marking
        stored = await games.get_game(game.id)
        assert stored is not None and stored.table_message_id == 901
    finally:
        await db.close()


# ----------------------------------------------------------- several processes


async def test_a_process_holds_the_moves_it_commits(processes):
    one, two = processes
    game = await running(one.games)
    await move(two.games, game.id, 1)
    assert await one.renders.held_of(game.id) == PendingRender(game.id, (0,), T0 + 10)
    assert await two.renders.held_of(game.id) == PendingRender(game.id, (1,), T0 + 101)


async def test_a_move_held_recently_is_not_claimed(processes):
    one, two = processes
    await running(one.games)
    assert await two.renders.claim(T0 + 20, held_before=T0 + 10) == []


async def test_a_move_whose_holder_went_quiet_is_claimed_by_another_process(processes):
    one, two = processes
    game = await running(one.games)
    claimed = await two.renders.claim(T0 + 30, held_before=T0 + 11)
    assert claimed == [PendingRender(game.id, (0,), T0 + 10)]
    assert await two.renders.held_of(game.id) == claimed[0]
    assert await one.renders.held_of(game.id) is None


async def test_a_renewed_move_is_not_claimed(processes):
    one, two = processes
    game = await running(one.games)
    await one.renders.renew(T0 + 25, [game.id])
    assert await two.renders.claim(T0 + 30, held_before=T0 + 20) == []


async def test_renewing_other_games_leaves_a_move_claimable(processes):
    one, two = processes
    game = await running(one.games)
    other = await running(one.games, channel=99)
    await one.renders.renew(T0 + 25, [other.id])
    assert await two.renders.claim(T0 + 30, held_before=T0 + 20) == [
        PendingRender(game.id, (0,), T0 + 10)]


async def test_a_process_does_not_renew_another_process_s_move(processes):
    one, two = processes
    game = await running(one.games)
    await two.renders.renew(T0 + 25, [game.id])
    assert await two.renders.claim(T0 + 30, held_before=T0 + 20) == [
        PendingRender(game.id, (0,), T0 + 10)]


async def test_a_process_takes_back_a_move_of_its_own_it_stopped_renewing(processes):
    one, _ = processes
    game = await running(one.games)
    assert await one.renders.claim(T0 + 30, held_before=T0 + 20) == [
        PendingRender(game.id, (0,), T0 + 10)]


async def test_a_claimed_move_is_held_anew_and_not_claimed_again(processes):
    one, two = processes
    game = await running(one.games)
    await two.renders.claim(T0 + 30, held_before=T0 + 11)
    assert await one.renders.claim(T0 + 31, held_before=T0 + 11) == []
    assert await two.renders.held_of(game.id) == PendingRender(game.id, (0,), T0 + 10)


async def test_claiming_everything_takes_even_a_fresh_move(processes):
    one, two = processes
    game = await running(one.games)
    assert await two.renders.claim(T0 + 10, held_before=None) == [
        PendingRender(game.id, (0,), T0 + 10)]


async def test_two_processes_claiming_at_once_take_each_move_once(db_location):
    stores = [await Store.open(db_location, process=name) for name in ("one", "two", "three")]
    try:
        one, *claimers = stores
        for channel in range(20):
            await running(one.games, channel=100 + channel)
        taken = await asyncio.gather(
            *(c.renders.claim(T0 + 30, held_before=T0 + 11) for c in claimers))
        ids = [p.game_id for claimed in taken for p in claimed]
        assert sorted(ids) == sorted(p.game_id for p in await one.renders.pending())
        assert len(ids) == len(set(ids)) == 20
    finally:
        for store in stores:
            await store.close()


async def test_migration_16_keeps_every_unshown_move_of_a_game_and_frees_them(
        empty_db_location):
    before = await migrated(empty_db_location, 15)
    async with before.transaction() as tx:
        await tx.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
            "VALUES (1, 2, 3, 'classic', 40, 120, 1, 'lobby', 0, 0)")
        await tx.execute("INSERT INTO render_outbox (game_id, from_seq, to_seq, created_at) "
                         "VALUES (1, 3, 5, 77)")
    await before.close()
    await (await migrated(empty_db_location, 16)).close()
    database = await connect(empty_db_location)
    try:
        assert await RenderStore(database, "new").claim(80, held_before=70) == [
            PendingRender(1, (3, 4, 5), 77)]
    finally:
        await database.close()
