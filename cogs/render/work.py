"""What the renderer's next flush of a game shows: its updates since the last flush, merged
(cogs/render/renderer.py). The newest view wins; events, notices and the moves shown add up."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hosting.views import GameUpdate, GameView, Notice, NoticeKind, Status
from lama import events as ev
from lama.observation import Observation

from .hand_records import HandAnswer, ShownHand

# The hands hear that an interaction shows a seat's hand (`obs`, if known); they return the
# older live hand message it replaces, to close (HandMessages.answered).
Answered = Callable[[GameView, int, HandAnswer, Any], ShownHand | None]


@dataclass
class Work:
    """What one flush of a game shows, collected from the updates since the last one."""

    view: GameView
    hands: Mapping[int, Observation] = field(default_factory=dict)
    actor: int | None = None
    lobby: bool = False
    table: bool = False
    ended: list[ev.RoundEnded] = field(default_factory=list)
    new_round: int = 0  # the round that started (0: none)
    started: set[int] = field(default_factory=set)  # every round that started
    game_over: bool = False
    answered: set[int] = field(default_factory=set)  # seats an interaction shows
    stale: list[tuple[int, ShownHand]] = field(default_factory=list)  # older live hands
    posts: list[tuple[Notice, int, int]] = field(default_factory=list)  # at which move, round
    reminders: list[Notice] = field(default_factory=list)
    to_ai: list = field(default_factory=list)  # AI_TOOK_OVER notices: hands to close
    retry: bool = False  # rebuilt by the outbox after a failed call
    seqs: set[int] = field(default_factory=set)  # the committed moves it shows

    def collect(
        self, update: GameUpdate, answered: Answered) -> None:
        """Add an update; `answered` tells the hands that an interaction shows a seat's
        hand, and which (returning the older live hand it replaces, if any)."""
        self.view, self.hands = update.view, update.hands
        self.seqs.update(update.seqs)
        view = update.view
        just_started = any(  # the deal (also when replayed after a crash, moves later)
            isinstance(e, ev.RoundStarted) and e.round_number == 1 for e in update.events
        )
        if view.status in (Status.LOBBY, Status.CANCELLED) or just_started:
            self.lobby = True  # the lobby message shows who sits, or that the game began
        if view.status is Status.CANCELLED and view.round_number:
            self.table, self.game_over = True, True
        self.actor = update.actor_seat
        if update.actor_seat is not None or update.notices:
            self.table = True
            self.answered.clear()  # a hand an earlier answer showed is out of date now
        if isinstance(update.shown_by, HandAnswer):
            seat = view.seat_of(update.shown_by.user_id)
            if seat is not None:
                self.answered.add(seat.index)
                stale = answered(view, seat.index, update.shown_by,
                                 update.hands.get(seat.index))
                if stale is not None:
                    self.stale.append((seat.index, stale))
        for event in update.events:
            if isinstance(event, ev.RoundEnded):
                self.ended.append(event)
            elif isinstance(event, ev.RoundStarted):
                self.new_round = event.round_number
                self.started.add(event.round_number)
            elif isinstance(event, ev.GameEnded):
                self.game_over = True
        for notice in update.notices:
            if notice.kind is NoticeKind.REMINDER:
                self.reminders.append(notice)
            elif notice.kind in (NoticeKind.TIMED_OUT, NoticeKind.AI_TOOK_OVER):
                at = view.move_count if notice.seq is None else notice.seq
                # a time-out: its move, live or replayed, in the round it ended if it did
                self.posts.append((notice, at, _round_of_notices(update)))
                if notice.kind is NoticeKind.AI_TOOK_OVER:
                    self.to_ai.append(notice)


def _round_of_notices(update: GameUpdate) -> int:
    """The round an update's notices are about: the one its move ended, where it began the
    next (the notices come before that round's table), else the round being played."""
    started = [e.round_number for e in update.events if isinstance(e, ev.RoundStarted)]
    return started[0] - 1 if started else update.view.round_number
