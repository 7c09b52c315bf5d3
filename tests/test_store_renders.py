"""The render outbox: a committed change is noted as due in its own transaction, and stays
due until the interface marks it shown (issue 12)."""

from __future__ import annotations

import asyncio

import pytest

from store import GameStore, MessageRef, PendingRender, RenderStore, SeqConflict
from store.db import open_database
from store.renders import needs_showing
from tests.test_store_games import T0, all_results, lobby, move, running


@pytest.fixture
def games(db):
    from store import GameStore

    return GameStore(db)


@pytest.fixture
def renders(db):
    return RenderStore(db)


async def test_a_lobby_has_nothing_to_show(games, renders):
    await lobby(games)
    assert await renders.pending() == []


async def test_a_started_game_must_show_its_deal(games, renders):
    game = await running(games)
    assert await renders.pending() == [PendingRender(game.id, 0, 0, T0 + 10)]


async def test_a_move_is_due_from_the_first_unshown_one(games, renders):
    game = await running(games)
    await games.save_message_refs([], shown=[(game.id, 0)])
    await move(games, game.id, 1)
    await move(games, game.id, 2, seat=1)
    assert await renders.pending_of(game.id) == PendingRender(game.id, 1, 2, T0 + 101)


async def test_marking_a_game_shown_up_to_its_newest_move_clears_it(games, renders):
    game = await running(games)
    await move(games, game.id, 1)
    await games.save_message_refs([], shown=[(game.id, 1)])
    assert await renders.pending_of(game.id) is None


async def test_a_move_committed_after_the_shown_one_stays_due(games, renders):
    game = await running(games)
    await move(games, game.id, 1)
    await move(games, game.id, 2, seat=1)
    await games.save_message_refs([], shown=[(game.id, 1)])
    assert await renders.pending_of(game.id) == PendingRender(game.id, 2, 2, T0 + 10)


async def test_a_late_mark_of_an_older_move_changes_nothing(games, renders):
    game = await running(games)
    await move(games, game.id, 1)
    await games.save_message_refs([], shown=[(game.id, 1)])
    await move(games, game.id, 2, seat=1)
    await games.save_message_refs([], shown=[(game.id, 1)])
    assert await renders.pending_of(game.id) == PendingRender(game.id, 2, 2, T0 + 102)


async def test_the_move_that_ends_a_game_is_due_like_any_other(games, renders):
    game = await running(games)
    await games.save_message_refs([], shown=[(game.id, 0)])
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False)]))
    assert await renders.pending_of(game.id) == PendingRender(game.id, 1, 1, T0 + 101)


async def test_a_refused_move_notes_nothing(games, renders):
    game = await running(games)
    await games.save_message_refs([], shown=[(game.id, 0)])
    await move(games, game.id, 1)
    await games.save_message_refs([], shown=[(game.id, 1)])
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
            await needs_showing(move_half_done, game.id, 1, T0 + 50)
        await marking
        stored = await games.get_game(game.id)
        assert stored is not None and stored.table_message_id == 901
    finally:
        await db.close()
