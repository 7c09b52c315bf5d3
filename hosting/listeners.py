"""Who hears about committed changes: interfaces register here and are told in order."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from .views import GameUpdate

log = logging.getLogger(__name__)

Listener = Callable[[GameUpdate], Awaitable[None]]


class Listeners:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def add(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, update: GameUpdate) -> None:
        """Tell every listener; one that fails is logged and does not stop the others."""
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("listener failed for game %s", update.view.game_id)
