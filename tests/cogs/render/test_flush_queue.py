"""The renderer's queue when a flush fails: the game is handed to the outbox's retry either
way; a lost connection to Discord (it happens: a keep-alive connection closed as it was
reused) is a warning, a fault of the bot's own an error with its traceback."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from cogs.render.queue import FlushQueue
from hosting.views import GameOptions, GameUpdate, GameView, SeatView, Status

ALICE = 101


class Shown:
    """The outbox's side: which games failed, which flushes ended."""

    def __init__(self) -> None:
        self.failed_games: list[int] = []

    def failed(self, game_id: int, error: BaseException) -> None:
        self.failed_games.append(game_id)

    async def flushed(self, game_id: int, seqs, *, retry: bool) -> None:
        pass


def a_move(game_id: int = 7) -> GameUpdate:
    view = GameView(game_id=game_id, guild_id=1, channel_id=2, host_id=ALICE,
                    status=Status.RUNNING, options=GameOptions(target=40),
                    seats=(SeatView(0, "Alice", ALICE, None),), round_number=1)
    return GameUpdate(view=view, actor_seat=0, seqs=(3,))


async def flushed_with(error: BaseException) -> tuple[Shown, FlushQueue]:
    async def flush(work) -> None:
        raise error

    shown = Shown()
    queue = FlushQueue(flush, shown, lambda *_: None, coalesce_delay=0)  # type: ignore[arg-type]
    queue.add(a_move())
    await queue.game_shown(7)
    return shown, queue


async def test_a_lost_connection_is_retried_with_a_warning(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="cogs.render.queue"):
        shown, _ = await flushed_with(aiohttp.ServerDisconnectedError())
    assert shown.failed_games == [7]
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("seat")])
async def test_a_fault_of_the_bots_own_is_an_error_with_its_traceback(caplog, error) -> None:
    with caplog.at_level(logging.WARNING, logger="cogs.render.queue"):
        shown, _ = await flushed_with(error)
    assert shown.failed_games == [7]
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
