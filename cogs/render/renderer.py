"""The outbound adapter's front door: shows committed game updates on Discord (the lobby,
the table, the hands, the news).

The service calls `on_update` after every commit. Work is collected per game and flushed
shortly after (`FlushQueue`, cogs/render/queue.py); a flush (`Flush`, flush.py) hands it to
parts with one job each: `Tables` (post, edit, close a round's table, and the notices between
tables: a time-out, an AI taking a seat, a turn reminder for a player without DMs),
`HandMessages` (each player's one live hand, their turn pings), `StaleHands` (closing an
older hand in the background), `Reminders` (the half-time reminder, dropped once its turn has
passed), `LobbyMessages` (the lobby, edited where no answer showed it already), `GameChannel`
(the "Game over" post with Rematch). Every rate-limited call first takes a slot in the
process's `RestBudget` (scheduler.py): turn pings (and closing the hand a player moved away
from) first, tables and posts next, other clean-ups last. The game-end post waits for the
game's table task, however slow its calls: the last round's closed table stays above "Game
over" (no REST call more; move answers never wait for a flush).

An interaction that shows a change itself (a press redrawing its hand message, a slash
move's private answer) travels inside the update (`GameUpdate.shown_by`, a `HandAnswer`), so
the renderer knows at once that this seat's hand needs no message of its own.

What a flush shows is derived from the update's committed view and events alone, so the
render outbox (issue 12; hosting/outbox.py, outbox.py) can rebuild it after a crash or a
failed call: each game is marked shown up to a move once Discord has it, and whatever is
left is shown again (`Restarts`, `ShownGames`), with nonces that keep it from posting twice.

It is given what it needs from outside (ports.py), never the bot.
"""

from __future__ import annotations

import asyncio

from hosting import GameService
from hosting.clock import Clock
from hosting.views import GameUpdate, GameView
from lama.observation import Observation

from .channel import GameChannel
from .flush import Flush, Parts
from .hand_records import HandAnswer
from .hands import HandMessages
from .lobby_messages import LobbyMessages
from .outbox import ShownGames
from .ports import Discord, PlayedAsLookup, Present, PublicLocales, TurnDms
from .queue import FlushQueue
from .rematches import RematchOffers
from .reminders import Reminders
from .restart import Restarts
from .scheduler import RestBudget
from .stale import StaleHands
from .tables import Tables
from .threads import GameThreads


class Renderer:
    def __init__(
        self, discord_: Discord, service: GameService, *, locales: PublicLocales,
        turn_dms: TurnDms, present: Present, played_as: PlayedAsLookup, clock: Clock,
        coalesce_delay: float = 0.3, budget: RestBudget | None = None,
    ) -> None:
        self.budget = budget or RestBudget()
        self._locales = locales
        self.shown = ShownGames(service, self._retry, self._tables_busy)
        self.tables = Tables(discord_, service, locales, self.budget, self.shown)
        self.hands = HandMessages(discord_, service, locales, turn_dms, clock, self.budget,
                                  self.shown.failed, self.tables, present)
        self.lobbies = LobbyMessages(discord_, service, self.budget, self.shown.failed)
        self.stale = StaleHands(service, self.hands)
        parts = Parts(
            tables=self.tables, hands=self.hands, stale=self.stale,
            reminders=Reminders(service, locales, turn_dms, self.hands, self.tables, clock),
            lobbies=self.lobbies, rematches=RematchOffers(discord_, service, self.budget),
            threads=GameThreads(discord_.http, service),
            channel=GameChannel(discord_, service, self.budget, self.shown.failed, played_as),
        )
        self.flush = Flush(service, locales, turn_dms, self.budget, parts)
        self.queue = FlushQueue(self.flush.show, self.shown, self.hands.answered,
                                coalesce_delay=coalesce_delay)
        self.restarts = Restarts(service, self.queue, self.hands, self.tables)

    # ------------------------------------------------------------ what comes in

    async def on_update(self, update: GameUpdate) -> None:
        """hosting.Listener: a committed change, queued to show."""
        self.queue.add(update)

    def hand_shown(
        self, view: GameView, answer: HandAnswer, obs: Observation | None = None
    ) -> None:
        """An interaction shows its user's hand (`obs`) without a move (My hand, /lama hand)."""
        seat = view.seat_of(answer.user_id)
        if seat is None:
            return
        stale = self.hands.answered(view, seat.index, answer, obs)
        if stale is not None:  # closed with the hand just shown: the game may be over by then
            self.stale.close_later(view, seat.index, stale, obs)

    async def post_lobby(self, update: GameUpdate) -> None:
        """Show a lobby no interaction answers with (opened from the Activity) in its
        channel, in the server's language."""
        view = update.view
        await self.lobbies.post(view, self._locales.public_locale_of(view.guild_id))

    async def refresh_table(self, view: GameView) -> None:
        """Post the table again at the bottom of the channel (`/lama table`); the old one
        keeps no buttons."""
        self.tables.repost(view)

    def _retry(self, update: GameUpdate) -> None:
        self.queue.add(update, retry=True)

    def _tables_busy(self, game_id: int) -> bool:
        return self.tables.busy_with(game_id)

    # ------------------------------------------------------------ restarts

    async def restart(self, restored: list[GameView], *, alone: bool) -> None:
        """Before the bot connects (cogs/render/restart.py)."""
        await self.restarts.restart(restored, alone=alone)

    def repair(self, updates: list[GameUpdate]) -> None:
        """Changes a dead process left unshown (hosting.GameService.run_render_repairs)."""
        self.restarts.repair(updates)

    def go(self) -> None:
        """Connected: show what `restart` queued."""
        self.restarts.go()

    # ------------------------------------------------------------ waiting

    def showing(self) -> set[int]:
        """The games with changes on their way to Discord (queued, flushing, waiting for
        their tables or a retry): the outbox keeps what this process holds of them."""
        return {*self.queue.queued(), *self.shown.busy()}

    async def game_shown(self, game_id: int) -> None:
        """Wait until what is queued for the game is on Discord: what a tournament posts once
        a table is over follows that table's "Game over"."""
        await self.queue.game_shown(game_id)

    async def flush_all(self) -> None:
        """Wait until every pending update is on Discord (tests and shutdown); a retry
        waiting for its backoff is not waited for (the outbox keeps it)."""
        while self.queue.flushing or self.stale.closing or self.tables.busy:
            await asyncio.gather(*self.queue.flushing.values(), *self.stale.closing.values(),
                                 return_exceptions=True)
            await self.tables.wait_idle()

    def close(self) -> None:
        """Shutdown, after `flush_all`: what is still due stays in the outbox."""
        self.budget.close()
        self.shown.close()
        self.restarts.close()
