"""A timer that meets a busy store is tried again quietly and fires once the store is back
(issue 35 point 6).

Another program holds SQLite's write lock past the store's busy timeout (5 s), as a backup
would: the AI's move cannot be saved (`StoreBusy`). That is no error of the bot's: it logged
an ERROR with a traceback per try, and tried again only 5 s later. Now the store warns once
for the whole stretch, the timer says at INFO that it waits, and it fires at its next try
after the lock is gone."""

from __future__ import annotations

import logging

import pytest

from hosting import GameOptions
from tests.hosting.support import ALICE, CHANNEL, GUILD
from tests.support.sqlite_lock import write_lock_held

pytestmark = pytest.mark.parametrize("db_backend", ["sqlite"])  # SQLite's write lock



async def an_ai_on_turn(service) -> int:
    """Alice and an AI, the AI on turn (Alice quits whenever it is hers)."""
    options = GameOptions(ai_level="easy", turn_timeout=600, ai_delay=1)
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, "Alice", options, ai_seats=1)
    game_id = opened.view.game_id
    await service.start(game_id, ALICE)
    view = service.view(game_id)
    if view.seats[view.current_seat].user_id == ALICE:
        await service.quit_round(game_id, ALICE)
    return game_id


async def test_a_timer_the_busy_store_refused_waits_quietly_and_fires_once_it_is_back(
    service, clock, store, db_location, caplog
):
    game_id = await an_ai_on_turn(service)
    moves = len(await store.games.list_moves(game_id))
    caplog.set_level(logging.INFO)
    # Held until both tries are refused, however long they take on a loaded machine.
    async with write_lock_held(db_location, None) as released:
        for _ in range(2):  # two tries inside the lock: each waits 5 s and is refused
            clock.advance(1)
            assert await service.fire_due_timers() == 1
            assert len(await store.games.list_moves(game_id)) == moves
    assert released.is_set()
    clock.advance(1)
    await service.fire_due_timers()

    assert len(await store.games.list_moves(game_id)) == moves + 1  # the AI's move, at last
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(loud) == 1 and loud[0].levelno == logging.WARNING, [r.getMessage() for r in loud]
    assert not [r for r in caplog.records if r.exc_info], "a retried timer is not an error"
