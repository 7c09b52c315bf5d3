"""Shows committed game updates on Discord: the lobby, the table, the hands, the news.

The service calls `on_update` after every commit. Work is collected per game and flushed
shortly after (`coalesce_delay`), then handed to parts with one job each: `Tables` (post,
edit, close a round's table, and the notices between tables: a time-out, an AI taking a seat,
a turn reminder for a player without DMs), `HandMessages` (each player's one live hand, their
turn pings), `Reminders` (the half-time reminder, dropped once its turn has passed),
`LobbyMessages` (the lobby, edited where no answer showed it already), and the game-end post
with Rematch here. Every rate-limited call first takes a
slot in the process's `RestBudget` (cogs/render/scheduler.py): turn pings (and closing the hand a
player moved away from) first, tables and posts next, other clean-ups last. The game-end post
waits for the game's table task, however slow its calls: the last round's closed table stays
above "Game over" (no REST call more; move answers never wait for a flush).

An interaction that shows a change itself (a press redrawing its hand message, a slash
move's private answer) travels inside the update (`GameUpdate.shown_by`, a `HandAnswer`), so
the renderer knows at once that this seat's hand needs no message of its own.

What a flush shows is derived from the update's committed view and events alone, so the
render outbox (issue 12; hosting/outbox.py, cogs/render/outbox.py) can rebuild it after a crash or
a failed call: each game is marked shown up to a move once Discord has it, and whatever is
left is shown again (`restart`, `ShownGames`), with nonces that keep it from posting twice.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from hosting import END, TABLE, MessageKey
from hosting.views import GameUpdate, GameView, Status
from lama import events as ev

from ..notices import notice_text, personal_notice_text
from ..pings import quiet
from ..text import jump_link, t
from .game_end import game_end_post
from .hands import HandAnswer, HandMessages, ShownHand
from .lobby_messages import LobbyMessages
from .outbox import ShownGames, nonce
from .rematches import RematchOffers
from .reminders import Reminders
from .scheduler import Priority, RestBudget
from .tables import Tables
from .threads import GameThreads
from .work import Work

if TYPE_CHECKING:
    from bot import LamaBot

log = logging.getLogger(__name__)


class Renderer:
    def __init__(
        self, bot: LamaBot, service: Any, *, coalesce_delay: float = 0.3,
        budget: RestBudget | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.coalesce_delay = coalesce_delay
        self.budget = budget or RestBudget()
        self.shown = ShownGames(service, self._retry, self._tables_busy)
        self.tables = Tables(bot, self.budget, self.shown)
        self.hands = HandMessages(bot, self.budget, self.shown.failed, self.tables)
        self.reminders = Reminders(bot, self.hands, self.tables)
        self.lobbies = LobbyMessages(bot, self.budget, self.shown.failed)
        self.rematches = RematchOffers(bot, self.budget)
        self.threads = GameThreads(bot.http, service)
        self._ready = asyncio.Event()
        self._ready.set()  # `restart` holds flushes until the bot is connected
        self._restored: list[GameView] = []  # tables to refresh once connected
        self._refreshing: asyncio.Task | None = None
        self._work: dict[int, Work] = {}
        self._flushing: dict[int, asyncio.Task] = {}
        self._closing: dict[tuple[int, int], asyncio.Task] = {}  # (game, seat): older hand

    def locale_for_view(self, view: GameView) -> str:
        """Public messages: the server's language setting, else its preferred locale."""
        return self.bot.public_locale_of(view.guild_id)

    def hand_shown(self, view: GameView, answer: HandAnswer, obs: Any = None) -> None:
        """An interaction shows its user's hand (`obs`) without a move (My hand, /lama hand)."""
        seat = view.seat_of(answer.interaction.user.id)
        if seat is None:
            return
        stale = self.hands.answered(view, seat.index, answer, obs)
        if stale is not None:
            self._close_later(view, seat.index, stale)

    def _close_later(
        self, view: GameView, seat: int, stale: ShownHand, obs: Any = None
    ) -> None:
        """Close an older hand in the background: a clean-up waits for the budget's spare
        slots, and the game's next updates (the next turn ping) must not wait with it."""
        key = (view.game_id, seat)
        task = asyncio.create_task(self._close_stale(view, seat, stale, obs))
        self._closing[key] = task
        task.add_done_callback(lambda done: self._closing.pop(key, None) if
                               self._closing.get(key) is done else None)

    async def _closed(self, game_id: int, seat: int) -> None:
        """Before a seat's hand turns live again, its older one has lost its buttons."""
        task = self._closing.get((game_id, seat))
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def _close_stale(
        self, view: GameView, seat: int, stale: ShownHand, obs: Any = None
    ) -> None:
        """`obs`: the hand as the update showed it (None: as it is now)."""
        try:
            user_id = view.seats[seat].user_id
            if user_id is not None:
                if obs is None:
                    obs = self.service.observation(view.game_id, user_id)
                await self.hands.close(view, obs, seat, stale)
        except Exception:
            log.exception("closing an older hand of game %s failed", view.game_id)

    # --------------------------------------------------------------- updates

    async def on_update(self, update: GameUpdate) -> None:
        self._enqueue(update)

    def _retry(self, update: GameUpdate) -> None:
        self._enqueue(update, retry=True)

    def _tables_busy(self, game_id: int) -> bool:
        return self.tables.busy_with(game_id)

    def _enqueue(self, update: GameUpdate, *, retry: bool = False) -> None:
        view = update.view
        work = self._work.get(view.game_id)
        if work is None:
            work = self._work[view.game_id] = Work(view)
        work.retry = work.retry or retry
        work.collect(update, self.hands.answered)
        if view.game_id not in self._flushing:
            self._flushing[view.game_id] = asyncio.create_task(self._flush_later(view.game_id))

    async def restart(self, restored: list[GameView], *, alone: bool) -> None:
        """Before the bot connects: recall which hand messages may still be live, and queue
        the committed changes never shown (the outbox; `alone`: every one, else those no
        live process holds) to show once it is connected (`go`); every other restored game's
        table is edited to its current state then."""
        self._ready.clear()
        for view in restored:
            self._recall_hands(view)
        pending = await self.service.claim_renders(alone=alone)
        self.repair(pending)
        replayed = {update.view.game_id for update in pending}
        self._restored = [v for v in restored if v.game_id not in replayed]
        log.info("Restored %d unfinished games; %d to show again", len(restored), len(pending))

    def showing(self) -> set[int]:
        """The games with changes on their way to Discord (queued, flushing, waiting for
        their tables or a retry): the outbox keeps what this process holds of them."""
        return {*self._work, *self._flushing, *self.shown.busy()}

    def repair(self, updates: list[GameUpdate]) -> None:
        """Show changes rebuilt from the outbox (a restart's, or a dead process's): as they
        were live, with whatever hand messages of theirs may still be live recalled."""
        for update in updates:
            self._recall_hands(update.view)
            self._enqueue(update)

    def go(self) -> None:
        """Connected: show what `restart` queued (once; a reconnect changes nothing)."""
        self._ready.set()
        restored, self._restored = self._restored, []
        if restored:
            self._refreshing = asyncio.create_task(self.refresh_tables(restored), name="refresh")

    def close(self) -> None:
        """Shutdown, after `flush_all`: what is still due stays in the outbox."""
        self.budget.close()
        self.shown.close()
        if self._refreshing is not None:
            self._refreshing.cancel()

    def _recall_hands(self, view: GameView) -> None:
        for seat in view.seats:
            ref = self.service.message_ref(view.game_id, MessageKey.hand(seat.index))
            if ref is not None and seat.user_id is not None:
                self.hands.recall(view.game_id, seat.index, seat.user_id, ref)

    async def _flush_later(self, game_id: int) -> None:
        try:
            await self._ready.wait()
            if self.coalesce_delay:
                await asyncio.sleep(self.coalesce_delay)
            while (work := self._work.pop(game_id, None)) is not None:
                try:
                    await self._flush(work)
                except Exception as error:
                    log.exception("rendering game %s failed", game_id)
                    self.shown.failed(game_id, error)
                if work.view.status is not Status.LOBBY:
                    await self.shown.flushed(game_id, work.seqs, retry=work.retry)
        finally:
            self._flushing.pop(game_id, None)

    async def game_shown(self, game_id: int) -> None:
        """Wait until what is queued for the game is on Discord (its flush ended): what a
        tournament posts once a table is over follows that table's "Game over". Not while
        flushes are held for a restart (they wait for the connection, which waits for this)."""
        while self._ready.is_set() and (task := self._flushing.get(game_id)) is not None:
            await asyncio.wait({task})

    async def flush_all(self) -> None:
        """Wait until every pending update is on Discord (tests and shutdown); a retry
        waiting for its backoff is not waited for (the outbox keeps it)."""
        while self._flushing or self._closing or self.tables.busy:
            await asyncio.gather(*self._flushing.values(), *self._closing.values(),
                                 return_exceptions=True)
            await self.tables.wait_idle()

    async def _flush(self, work: Work) -> None:
        view = work.view
        locale = self.locale_for_view(view)
        if work.new_round == 1 and self.service.message_ref(view.game_id, TABLE) is None:
            view = await self.threads.open(view, locale)  # before its first table, if wanted
        if work.lobby:
            await self.lobbies.show(view, locale)
            if view.status is Status.CANCELLED and view.rematch_of is not None:
                await self.rematches.cancelled(view.rematch_of, locale)
        self._show_tables(work, view, locale)
        await self._show_hands(work, view, locale)
        if work.game_over and view.status is Status.FINISHED:
            # below the last round's closed table, which its own task may still be showing
            await self.tables.wait_idle(view.game_id)
            played_as = await self.bot.tournaments.table_of_game(view.game_id)
            posted = await self._post(view, **game_end_post(view, locale, played_as),
                                      nonce=nonce(view.game_id, "end"))
            if posted is not None:  # its Rematch comes back if the rematch is cancelled
                await self.service.remember_message(view.game_id, END, view.shown_in, posted.id)
        for reminder in work.reminders:
            await self.reminders.remind(view, reminder)
        for notice in work.to_ai:
            await self._close_for_ai(view, notice)
        if view.status is not Status.RUNNING:
            await self.tables.wait_idle(view.game_id)  # the thread is archived after them
            self.hands.forget_game(view.game_id)
        await self.threads.close(view)  # a game that is over: its thread is archived

    def _show_tables(self, work: Work, view: GameView, locale: str) -> None:
        """The table's jobs, and the notices between them in the order they happened, each
        before the first table job that shows what it tells (readers read the reason first):
        a time-out that ended a round is told above that round's closed table and the next
        round's table, one within a round above the edit (or new table) that shows it;
        however busy the process (they are posted by the game's table task, in turn)."""
        notices = sorted(work.posts, key=lambda post: post[2])  # by round, stable

        def tell(until: ev.RoundEnded | None = None) -> None:  # None: every one left
            while notices and (until is None or notices[0][2] <= until.round_number):
                notice, seq, _round = notices.pop(0)
                self.tables.notice(view, notice_text(view, notice, locale),
                                   nonce=nonce(view.game_id, notice.kind, seq, notice.seat))

        for ended in work.ended:  # that round's table: its result, no buttons
            tell(until=ended)
            began = ended.round_number in work.started  # maybe never posted: its nonce
            self.tables.close(view, ended, nonce=nonce(
                view.game_id, "table", ended.round_number) if began else None)
        tell()
        if work.new_round and view.status is Status.RUNNING:
            self.tables.post(view, nonce=nonce(view.game_id, "table", view.round_number))
        elif work.table and not work.ended:
            self.tables.edit(view)

    async def _show_hands(self, work: Work, view: GameView, locale: str) -> None:
        """Each human's hand where it belongs. A message created carries a nonce naming it:
        the deal once per seat, a turn ping once per seat and move (the turn's first)."""
        header = self._round_over_header(work, view)
        game, seq = view.game_id, view.move_count
        for seat in sorted(work.hands):
            obs = work.hands[seat]
            if seat in work.answered:
                continue  # the interaction's own response shows it
            on_turn = view.current_seat == seat and view.status is Status.RUNNING
            user_id = view.seats[seat].user_id
            dm_locale = await self.hands.locale(user_id or 0, view)
            line = header(dm_locale) if header else None
            turn = nonce(game, "turn", seq, seat)
            if work.new_round == 1 and not self.hands.has_dm(game, seat):
                # the deal: everyone sees their cards (the starter: live); replayed after a
                # crash, a deal already sent is shown as the hand it is now, below
                if await self._dms_on(user_id):
                    await self.hands.send_dm_hand(view, obs, seat, deal=True,
                                                  nonce=nonce(game, "deal", seat))
                elif on_turn:
                    await self._closed(game, seat)
                    await self.hands.ping(view, obs, seat, nonce=turn)
            elif on_turn and (work.new_round or work.actor != seat):
                await self._closed(game, seat)
                after_ai = work.actor is not None and view.seats[work.actor].ai_level is not None
                await self.hands.ping(view, obs, seat, header=line, nonce=turn,
                                      after_ai=after_ai)
            elif work.new_round or work.game_over or self.hands.is_live(game, seat):
                await self.hands.show(view, obs, seat, header=line,
                                      nonce=nonce(game, "hand", seq, seat))
        for seat, stale in work.stale:  # lowest priority: never holds up the next ping
            if seat in work.hands:
                self._close_later(view, seat, stale, work.hands[seat])

    async def _dms_on(self, user_id: int | None) -> bool:
        return user_id is not None and await self.bot.preferences.load_turn_dms(user_id)

    def _round_over_header(self, work: Work, view: GameView):
        """ "[Round 2 is over](<its closed table>): see the scores.", in each reader's language."""
        if not work.ended:
            return None
        ended = work.ended[-1]
        ref = self.tables.table_of(view.game_id, ended.round_number)  # else: the channel
        link = jump_link(view.guild_id, *(ref or (view.shown_in, None)))  # a URL either way

        def line(locale: str) -> str:
            return t("hand.round_over", locale, round=ended.round_number, link=link)

        return line

    # ------------------------------------------------------------- channel

    async def _edit(self, game: GameView, key: MessageKey, **content) -> None:
        """Edit a message the game put somewhere earlier (`content` may hold a ui `view`)."""
        ref = self.service.message_ref(game.game_id, key)
        if ref is None:
            return
        channel_id, message_id = ref
        try:
            partial = self.bot.get_partial_messageable(channel_id)
            await partial.get_partial_message(message_id).edit(**quiet(content))
        except discord.NotFound:
            log.info("the %s message of game %s is gone", key.kind, game.game_id)
        except discord.HTTPException as error:
            log.warning("could not edit the %s of game %s: %s", key.kind, game.game_id, error)
            self.shown.failed(game.game_id, error)

    async def _post(self, game: GameView, *, nonce: str, **content) -> discord.Message | None:
        """Post in the game's channel (or thread): the message, None if Discord refused."""
        try:
            async with self.budget.slot(Priority.TABLE, game.shown_in, "create"):
                channel = self.bot.get_partial_messageable(game.shown_in)
                return await channel.send(nonce=nonce, **content)
        except discord.HTTPException as error:
            log.warning("could not post in channel %s: %s", game.shown_in, error)
            self.shown.failed(game.game_id, error)
        return None

    async def refresh_tables(self, views) -> None:
        """After a restart: edit each running game's table to its current state."""
        for view in views:
            if view.status is Status.RUNNING:
                self.tables.edit(view)

    async def refresh_table(self, view: GameView) -> None:
        """Post the table again at the bottom of the channel (`/lama table`); the old one
        keeps no buttons."""
        self.tables.repost(view)

    # ---------------------------------------------------------------- hands

    async def _close_for_ai(self, view: GameView, notice) -> None:
        """The seat is an AI's now: its former player's hand keeps no live buttons, neither
        their private one (a table player's) nor their hand DM."""
        if notice.user_id is None:
            return
        locale = await self.hands.locale(notice.user_id, view)
        text = personal_notice_text(notice, locale)
        closed: dict[str, Any] = {"content": text, "embeds": [], "attachments": [], "view": None}
        await self.hands.close_private(view, notice.seat, closed)  # free: its token
        ref = self.service.message_ref(view.game_id, MessageKey.hand(notice.seat))
        if ref is None:
            return
        async with self.budget.slot(Priority.CLEANUP, ref[0], "edit"):
            await self._edit(view, MessageKey.hand(notice.seat), **closed)  # no "your turn" left
