"""The half-time reminder of a turn: a DM to the player on turn, or, with their DMs off or
closed, a line in the channel that pings them, queued with the table's jobs like the other
notices (below the table this flush shows, above what the next one shows).

A reminder speaks of one turn, the one that began after move `Notice.seq`. A flush can show
it together with that player's later move (both came in before it), and a line in the channel
can wait behind the table's calls while they move: "it's still your turn" then comes after
they moved. So it is sent only while the game has not moved since, checked before it goes out (the
DM's just before it is sent; the channel's line when the table's task reaches it, and again
after its slot). A move in the instant the request is under way can still cross it."""

from __future__ import annotations

import math

from hosting import GameService
from hosting.clock import Clock
from hosting.views import GameView, Notice

from ..text import t
from .hands import HandMessages
from .outbox import nonce
from .ports import PublicLocales, TurnDms
from .tables import Tables


class Reminders:
    def __init__(
        self, service: GameService, locales: PublicLocales, turn_dms: TurnDms,
        hands: HandMessages, tables: Tables, clock: Clock,
    ) -> None:
        self._service = service
        self._clock = clock
        self._locales = locales
        self._turn_dms = turn_dms
        self.hands = hands
        self.tables = tables

    def _due(self, view: GameView, reminder: Notice) -> bool:
        """Whether the turn it speaks of is still on (a reminder of no known turn: is)."""
        return reminder.seq is None or self._service.still_at(view.game_id, reminder.seq)

    async def remind(self, view: GameView, reminder: Notice) -> None:
        """Half the turn is gone: a DM to the player (it speaks to its reader, so it does not
        mention them); with their DMs off or closed, a line in the channel that pings them."""
        seat = view.seats[reminder.seat]
        if seat.user_id is None or not self._due(view, reminder):
            return
        locale = await self.hands.locale(seat.user_id, view)
        turn = view.move_count if reminder.seq is None else reminder.seq
        once = nonce(view.game_id, "reminder", turn, reminder.seat)
        if await self._turn_dms.load_turn_dms(seat.user_id):
            if not self._due(view, reminder):  # they moved while their settings were read
                return
            text = t("timer.reminder.dm", locale, count=self.seconds_left(view, reminder))
            if await self.hands.send_text(view, seat.user_id, text, nonce=once):
                return
        text = t("timer.reminder", self._locales.public_locale_of(view.guild_id),
                 mention=f"<@{seat.user_id}>", count=self.seconds_left(view, reminder))
        self.tables.notice(view, text, nonce=once, ping=seat.user_id, turn=reminder.seq)

    def seconds_left(self, view: GameView, reminder: Notice) -> int:
        """The turn's time left now, as the reminder goes out (whole seconds, at least 1): a
        reminder shown late (a busy flush, a retry, a restart) says what is really left."""
        if reminder.ends_at is not None:
            return max(1, math.ceil(reminder.ends_at - self._clock.now()))
        timeout = view.options.turn_timeout
        return reminder.seconds_left or timeout - timeout // 2
