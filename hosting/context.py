"""What every part of the game service shares: the store, the clock, the games, the timers
and the listeners. Built once by `GameService`."""

from __future__ import annotations

from dataclasses import dataclass

from store import Store

from .clock import Clock
from .listeners import Listeners
from .registry import GameRegistry
from .timers import TimerQueue


@dataclass(frozen=True)
class Context:
    store: Store
    clock: Clock
    registry: GameRegistry
    timers: TimerQueue
    listeners: Listeners

    def now(self) -> int:
        """Whole seconds, as the store keeps them."""
        return int(self.clock.now())
