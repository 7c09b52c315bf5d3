"""Every limit, level and list a game or a server setting accepts, and the one check of them.

The cogs build their slash-command ranges and choices from these names, the service and the
settings both refuse through `validate`, so a limit is changed here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from i18n import SUPPORTED_LOCALES
from lama.game import MAX_SEATS, MIN_SEATS
from lama.rules import RULESETS

from .errors import HostingError, Problem
from .ratings import SeasonCadence

__all__ = [
    "AI_DELAY",
    "AI_LEVELS",
    "AI_SEATS",
    "LANGUAGES",
    "MAX_SEATS",
    "MIN_SEATS",
    "POLICY_OF_LEVEL",
    "ROUNDS",
    "SEASON_CADENCES",
    "SERVER_LANGUAGE_AUTO",
    "SLOW_AI_LEVELS",
    "TABLE_SIZE",
    "TARGET",
    "TIMEOUTS_BEFORE_AI",
    "TURN_TIMEOUT",
    "VARIANTS",
    "Bounds",
    "validate",
]


@dataclass(frozen=True)
class Bounds:
    """An inclusive range of numbers; anything that is not a number is outside it."""

    low: int | float
    high: int | float

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return self.low <= value <= self.high


VARIANTS: tuple[str, ...] = tuple(RULESETS)  # the engine's rule sets, in its order
# A level as players see it -> the engine's policy that plays it (lama.ai.POLICIES).
POLICY_OF_LEVEL = {"easy": "random", "normal": "normal", "hard": "hard"}
AI_LEVELS: tuple[str, ...] = tuple(POLICY_OF_LEVEL)
SLOW_AI_LEVELS = frozenset({"hard"})  # decided in a worker thread (milliseconds of rollouts)
TARGET = Bounds(10, 200)  # points that end a game
TURN_TIMEOUT = Bounds(10, 3600)  # seconds a human has for a turn; 0 ("no timer") is refused
AI_DELAY = Bounds(0.0, 10.0)  # seconds an AI "thinks" before it moves
AI_SEATS = Bounds(0, MAX_SEATS - 1)  # AI seats a new lobby may open with (the host sits too)
TIMEOUTS_BEFORE_AI = 3  # turn time-outs in a row after which an AI takes the seat
SERVER_LANGUAGE_AUTO = "auto"  # a server setting: follow the server's preferred locale
LANGUAGES: tuple[str, ...] = (*SUPPORTED_LOCALES, SERVER_LANGUAGE_AUTO)
SEASON_CADENCES: tuple[str, ...] = tuple(SeasonCadence)  # rating seasons: off, monthly, …
ROUNDS = Bounds(1, 10)  # a tournament's rounds
TABLE_SIZE = Bounds(3, 5)  # entrants per tournament table

_ALLOWED: dict[str, Bounds | tuple[str, ...]] = {
    "variant": VARIANTS,
    "target": TARGET,
    "turn_timeout": TURN_TIMEOUT,
    "ai_delay": AI_DELAY,
    "ai_level": AI_LEVELS,
    "ai_seats": AI_SEATS,
    "language": LANGUAGES,
    "seasons": SEASON_CADENCES,
    "rounds": ROUNDS,
    "table_size": TABLE_SIZE,
}


def validate(**values: object) -> None:
    """Refuse the first value outside what games accept; None means "not given".

    Raises `HostingError(Problem.BAD_OPTION, option=…, value=…)`; interfaces explain it.
    """
    for option, value in values.items():
        if value is None:
            continue
        if value not in _ALLOWED[option]:
            raise HostingError(Problem.BAD_OPTION, option=option, value=value)
