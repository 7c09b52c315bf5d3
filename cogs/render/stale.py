"""Closing a seat's older hand message in the background: a clean-up waits for the REST
budget's spare slots, and the game's next updates (the next turn ping) must not wait with
it; only that seat's next live hand waits for it (`closed`)."""

from __future__ import annotations

import asyncio
import logging

from hosting import GameService
from hosting.views import GameView
from lama.observation import Observation

from .hand_records import ShownHand
from .hands import HandMessages

log = logging.getLogger(__name__)


class StaleHands:
    def __init__(self, service: GameService, hands: HandMessages) -> None:
        self._service = service
        self._hands = hands
        self.closing: dict[tuple[int, int], asyncio.Task[None]] = {}  # (game, seat)

    def close_later(
        self, view: GameView, seat: int, stale: ShownHand, obs: Observation | None = None
    ) -> None:
        """Close `stale` in the background; `obs`: the hand as the update showed it (None:
        as it is now)."""
        key = (view.game_id, seat)
        task = asyncio.create_task(self._close(view, seat, stale, obs))
        self.closing[key] = task
        task.add_done_callback(lambda done: self.closing.pop(key, None) if
                               self.closing.get(key) is done else None)

    async def closed(self, game_id: int, seat: int) -> None:
        """Before a seat's hand turns live again, its older one has lost its buttons."""
        task = self.closing.get((game_id, seat))
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def _close(
        self, view: GameView, seat: int, stale: ShownHand, obs: Observation | None
    ) -> None:
        try:
            user_id = view.seats[seat].user_id
            if user_id is not None:
                if obs is None:
                    obs = self._service.observation(view.game_id, user_id)
                await self._hands.close(view, obs, seat, stale)
        except Exception:
            log.exception("closing an older hand of game %s failed", view.game_id)
