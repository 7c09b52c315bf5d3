"""The render outbox: a committed change is noted as due in its own transaction, and stays
due until the interface marks it shown (issue 12)."""

from __future__ import annotations

import pytest

from store import PendingRender, RenderStore, SeqConflict
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
