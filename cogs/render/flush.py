"""One flush of a game: what its updates since the last flush show, handed to the parts
with one job each, in the order players read it. A thread is opened before the first table
(if the server wants one); the lobby; the tables and the notices between them (`Tables`, in
the game's table task); the hands and turn pings (`HandMessages`); the "Game over" post
below the last round's closed table, however slow that table's calls; the half-time
reminders; the hands of seats an AI took over closed; the thread archived at the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hosting import TABLE, GameService, MessageKey
from hosting.views import GameView, Notice, Status
from lama import events as ev

from ..notices import notice_text, personal_notice_text
from ..text import jump_link, t
from .channel import GameChannel
from .hands import HandMessages
from .lobby_messages import LobbyMessages
from .outbox import nonce
from .ports import PublicLocales, TurnDms
from .rematches import RematchOffers
from .reminders import Reminders
from .scheduler import Priority, RestBudget
from .stale import StaleHands
from .tables import Tables
from .threads import GameThreads
from .work import Work


@dataclass(frozen=True)
class Parts:
    """The renderer's parts a flush hands its work to."""

    tables: Tables
    hands: HandMessages
    stale: StaleHands
    reminders: Reminders
    lobbies: LobbyMessages
    rematches: RematchOffers
    threads: GameThreads
    channel: GameChannel


class Flush:
    def __init__(
        self, service: GameService, locales: PublicLocales, turn_dms: TurnDms,
        budget: RestBudget, parts: Parts,
    ) -> None:
        self._service = service
        self._locales = locales
        self._turn_dms = turn_dms
        self._budget = budget
        self._parts = parts

    async def show(self, work: Work) -> None:
        parts, view = self._parts, work.view
        locale = self._locales.public_locale_of(view.guild_id)
        if work.new_round == 1 and self._service.message_ref(view.game_id, TABLE) is None:
            view = await parts.threads.open(view, locale)  # before its first table, if wanted
        if work.lobby:
            await parts.lobbies.show(view, locale)
            if view.status is Status.CANCELLED and view.rematch_of is not None:
                await parts.rematches.cancelled(view.rematch_of, locale)
        self.show_tables(work, view, locale)
        await self.show_hands(work, view, locale)
        if work.game_over and view.status is Status.FINISHED:
            # below the last round's closed table, which its own task may still be showing
            await parts.tables.wait_idle(view.game_id)
            await parts.channel.game_over(view, locale)
        for reminder in work.reminders:
            await parts.reminders.remind(view, reminder)
        for notice in work.to_ai:
            await self._close_for_ai(view, notice)
        if view.status is not Status.RUNNING:
            await parts.tables.wait_idle(view.game_id)  # the thread is archived after them
            parts.hands.forget_game(view.game_id)
        await parts.threads.close(view)  # a game that is over: its thread is archived

    def show_tables(self, work: Work, view: GameView, locale: str) -> None:
        """The table's jobs, and the notices between them in the order they happened, each
        before the first table job that shows what it tells (readers read the reason first):
        a time-out that ended a round is told above that round's closed table and the next
        round's table, one within a round above the edit (or new table) that shows it;
        however busy the process (they are posted by the game's table task, in turn)."""
        tables = self._parts.tables
        notices = sorted(work.posts, key=lambda post: post[2])  # by round, stable

        def tell(until: ev.RoundEnded | None = None) -> None:  # None: every one left
            while notices and (until is None or notices[0][2] <= until.round_number):
                notice, seq, _round = notices.pop(0)
                tables.notice(view, notice_text(view, notice, locale),
                              nonce=nonce(view.game_id, notice.kind, seq, notice.seat))

        for ended in work.ended:  # that round's table: its result, no buttons
            tell(until=ended)
            began = ended.round_number in work.started  # maybe never posted: its nonce
            tables.close(view, ended, nonce=nonce(
                view.game_id, "table", ended.round_number) if began else None)
        tell()
        if work.new_round and view.status is Status.RUNNING:
            tables.post(view, nonce=nonce(view.game_id, "table", view.round_number))
        elif work.table and not work.ended:
            tables.edit(view)

    async def show_hands(self, work: Work, view: GameView, locale: str) -> None:
        """Each human's hand where it belongs. A message created carries a nonce naming it:
        the deal once per seat, a turn ping once per seat and move (the turn's first)."""
        hands, stale = self._parts.hands, self._parts.stale
        header = self._round_over_header(work, view)
        game, seq = view.game_id, view.move_count
        for seat in sorted(work.hands):
            if seat in work.answered:
                continue  # the interaction's own response shows it
            on_turn = view.current_seat == seat and view.status is Status.RUNNING
            user_id = view.seats[seat].user_id
            deal = work.new_round == 1 and not hands.has_dm(game, seat)
            pinged = not deal and on_turn and (work.new_round or work.actor != seat)
            if not (deal or pinged or work.new_round or work.game_over
                    or hands.is_live(game, seat)):
                continue  # nothing shows this seat's hand: not even made (hosting Hands)
            obs = work.hands[seat]
            line = header(await hands.locale(user_id or 0, view)) if header else None
            turn = nonce(game, "turn", seq, seat)
            if deal:
                # the deal: everyone sees their cards (the starter: live); replayed after a
                # crash, a deal already sent is shown as the hand it is now, below
                if await self._dms_on(user_id):
                    await hands.send_dm_hand(view, obs, seat, nonce=nonce(game, "deal", seat))
                elif on_turn:
                    await stale.closed(game, seat)
                    await hands.ping(view, obs, seat, nonce=turn)
            elif pinged:
                await stale.closed(game, seat)
                await hands.ping(view, obs, seat, header=line, nonce=turn)
            else:
                await hands.show(view, obs, seat, header=line,
                                 nonce=nonce(game, "hand", seq, seat))
        for seat, older in work.stale:  # lowest priority: never holds up the next ping
            if seat in work.hands:
                stale.close_later(view, seat, older, work.hands[seat])

    async def _dms_on(self, user_id: int | None) -> bool:
        return user_id is not None and await self._turn_dms.load_turn_dms(user_id)

    def _round_over_header(self, work: Work, view: GameView) -> Callable[[str], str] | None:
        """ "[Round 2 is over](<its closed table>): see the scores.", in each reader's language."""
        if not work.ended:
            return None
        ended = work.ended[-1]
        ref = self._parts.tables.table_of(view.game_id, ended.round_number)  # else: channel
        link = jump_link(view.guild_id, *(ref or (view.shown_in, None)))  # a URL either way

        def line(locale: str) -> str:
            return t("hand.round_over", locale, round=ended.round_number, link=link)

        return line

    async def _close_for_ai(self, view: GameView, notice: Notice) -> None:
        """The seat is an AI's now: its former player's hand keeps no live buttons, neither
        their private one (a table player's) nor their hand DM."""
        if notice.user_id is None:
            return
        hands = self._parts.hands
        locale = await hands.locale(notice.user_id, view)
        text = personal_notice_text(notice, locale)
        closed: dict[str, Any] = {"content": text, "embeds": [], "attachments": [], "view": None}
        await hands.close_private(view, notice.seat, closed)  # free: its token
        key = MessageKey.hand(notice.seat)
        ref = self._service.message_ref(view.game_id, key)
        if ref is None:
            return
        async with self._budget.slot(Priority.CLEANUP, ref[0], "edit"):
            await self._parts.channel.edit(view, key, **closed)  # no "your turn" left
