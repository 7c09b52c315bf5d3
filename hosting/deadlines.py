"""When a running game's next timer falls due, to the millisecond.

A turn's first timer is set by the commit that starts the turn (a move, the start, a seat
handed to an AI) and stored with it (`store.DueTimer`), so a restart keeps every deadline
exactly; they used to be counted from `updated_at`, kept in whole seconds, and fired up to
1 s early after a restart. A human's turn has two: the half-time reminder, then the end.
Only the next one is stored; the end follows from the reminder and the game's turn time.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from store import DueTimer

from .views import GameOptions


class TimerKind(StrEnum):
    AI = "ai"  # an AI seat is on turn and moves after its delay
    REMINDER = "reminder"  # half of a human's turn time is gone
    TURN = "turn"  # a human's turn time is over: the bot quits the round for them


def to_ms(seconds: float) -> int:
    return round(seconds * 1000)


@dataclass(frozen=True)
class Deadline:
    kind: TimerKind
    due_ms: int  # milliseconds since the Unix epoch

    @property
    def due_at(self) -> float:
        """Seconds since the Unix epoch, as the clock tells time."""
        return self.due_ms / 1000

    @classmethod
    def first_of_turn(cls, started_at: float, options: GameOptions, *, ai: bool) -> Deadline:
        """The first timer of a turn that starts at `started_at` (seconds)."""
        start = to_ms(started_at)
        if ai:
            return cls(TimerKind.AI, start + to_ms(options.ai_delay))
        return cls(TimerKind.REMINDER, start + _half(options))

    def turn_end(self, options: GameOptions) -> Deadline:
        """When the human's turn is over: this deadline, or the one after its reminder."""
        if self.kind is not TimerKind.REMINDER:
            return self
        timeout = to_ms(options.turn_timeout)
        return Deadline(TimerKind.TURN, self.due_ms + timeout - _half(options))

    @classmethod
    def from_row(cls, row: DueTimer) -> Deadline:
        return cls(TimerKind(row.kind), row.due_ms)

    def row(self) -> DueTimer:
        return DueTimer(self.kind.value, self.due_ms)


def _half(options: GameOptions) -> int:
    return to_ms(options.turn_timeout) // 2
