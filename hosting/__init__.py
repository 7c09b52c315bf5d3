"""Hosting LAMA games: lobbies, seats, moves, timers and AI turns, with no Discord in sight.

Interfaces (the Discord cogs, the terminal) call `GameService` and render the `GameUpdate`s
it publishes; the service keeps the engine (`lama`) and the store (`store`) in step.
"""

from .clock import Clock, FakeClock, SystemClock
from .errors import HostingError, Problem
from .service import GameService
from .views import GameOptions, GameUpdate, GameView, Notice, NoticeKind, SeatView, Status

__all__ = [
    "Clock",
    "FakeClock",
    "GameOptions",
    "GameService",
    "GameUpdate",
    "GameView",
    "HostingError",
    "Notice",
    "NoticeKind",
    "Problem",
    "SeatView",
    "Status",
    "SystemClock",
]
