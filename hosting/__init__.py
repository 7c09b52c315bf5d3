"""Hosting LAMA games: lobbies, seats, moves, timers and AI turns, with no Discord in sight.

Interfaces (the Discord cogs, the terminal) call `GameService` and render the `GameUpdate`s
it publishes; the service keeps the engine (`lama`) and the store (`store`) in step. Its
parts are named in hosting/service.py; every limit is in hosting/options.py.
"""

from .clock import Clock, FakeClock, SystemClock
from .errors import HostingError, Problem
from .playable import CardsHere
from .preferences import Preferences
from .presence import Presence
from .service import GameService
from .views import (
    END,
    LOBBY,
    TABLE,
    GameOptions,
    GameUpdate,
    GameView,
    MessageKey,
    Notice,
    NoticeKind,
    SeatRating,
    SeatView,
    Status,
)

__all__ = [
    "END",
    "LOBBY",
    "TABLE",
    "CardsHere",
    "Clock",
    "FakeClock",
    "GameOptions",
    "GameService",
    "GameUpdate",
    "GameView",
    "HostingError",
    "MessageKey",
    "Notice",
    "NoticeKind",
    "Preferences",
    "Presence",
    "Problem",
    "SeatRating",
    "SeatView",
    "Status",
    "SystemClock",
]
