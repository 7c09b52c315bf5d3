"""Each player's hand on Discord: at most one live hand message per player, and their pings
(the policy and the calls; which message shows which hand is `HandLedger`'s, ledger.py, and
the DMs' channels are `DirectMessages`', dms.py).

A player's hand shows in one of three places: a DM from the bot (with card buttons), the
private answer to a slash move or to the table's My hand / Draw / Quit round (an ephemeral
message), or nowhere yet. This part remembers, per seat, the newest message that shows the
hand (`ShownHand`) and keeps the promise that no older one keeps live buttons or "your turn":
whenever a newer message shows the hand, the older live one is closed (no buttons, a note
that the hand moved on, the hand it showed: an earlier round's never turns into the current
one). Until that close lands, a press on the older one plays if it shows the same turn as the
newest (the same moves on offer; the newer one is closed instead) and moves nothing if it
shows an older state (`replaced`). Once the game is over, only the newest says so. A player
who leaves keeps no live hand either (`close_private`, Flush._close_for_ai).

Cost (rate-limited calls; anything through an interaction's token is free for 15 minutes):
- a DM-button player: one hand DM, edited in place on their turn while they keep up (they
  moved, looked or got a DM of the game within `AT_TABLE_FOR`: their phone buzzed lately, or
  they are playing along; the Activity open on the game, or left or used within it, counts:
  `Present`, cogs/render/ports.py); a new one (the older one closed) only after a quiet minute, the
  rule of the table players' pings below. Their press redraws it for free;
- a player who moved by slash command or from the table in this game ("table player" of
  the game; in their other games they keep their hand DMs until they move that way there):
  their newest ephemeral hand, if its token is fresh, turns live for free, and an older one
  is deleted when a newer one shows their hand (free, through its token: one private hand
  on their screen at a time); a plain
  notification DM (no buttons to close) only if they have not moved or looked at their
  hand in the game for `AT_TABLE_FOR` (one watching the table is not pinged every turn;
  the half-time reminder nudges one who walked away); pressing a DM hand's button makes
  them a DM-button player of that game again;
- `/lama notify off`: no DMs at all; the table shows whose turn it is, My hand works;
- closed DMs: one notice in the channel per game, then as with notify off (the notice is a
  job of the game's table task, so it lands below the table whose My hand it points to).
Closing an older DM hand costs one edit (a ping's priority: the player's next live hand
waits for it); closing an ephemeral is free.

After a restart the stored hand DMs of every game are `recall`ed as live, so the first new
hand of a seat closes the one from before the crash. Every DM carries the nonce the renderer
names it by (cogs/render/outbox.py); a failed send or edit is told to `failed`, for a retry.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from hosting import GameService, MessageKey
from hosting.clock import Clock
from hosting.views import GameView, Status
from lama.observation import Observation

from .. import images
from ..pings import quiet
from ..text import jump_link, t
from .dms import DirectMessages
from .hand_records import AnswerReach, HandAnswer, Pressed, ShownHand, answer_out, made_by
from .handed_back import shows
from .ledger import HandLedger
from .outbox import CALL_FAILED
from .outbox import nonce as nonce_of
from .ports import Discord, Present, PublicLocales, TurnDms
from .scheduler import Priority, RestBudget
from .tables import Tables

log = logging.getLogger(__name__)


class HandMessages:
    def __init__(
        self, discord_: Discord, service: GameService, locales: PublicLocales,
        turn_dms: TurnDms, clock: Clock, budget: RestBudget,
        failed: Callable[[int, BaseException], None], tables: Tables, present: Present,
    ) -> None:
        self._discord = discord_
        self.service = service
        self._locales = locales
        self._turn_dms = turn_dms
        self._clock = clock
        self.budget = budget
        self.tables = tables  # the channel's notices go out in turn with the table's jobs
        self.failed = failed  # (game, error): a call that showed a game failed
        self.ledger = HandLedger(present)  # the Activity counts as being at the table
        self.dms = DirectMessages(discord_, budget, failed, self._tell_dms_closed)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def locale(self, user_id: int, view: GameView) -> str:
        return await self._locales.dm_locale(user_id, view.guild_id)

    # --------------------------------------------------------- bookkeeping

    def answered(
        self, view: GameView, seat: int, answer: HandAnswer, obs: Observation | None = None
    ) -> ShownHand | None:
        """An interaction shows this seat's hand now (`obs`, if known); returns the older live
        message to close."""
        interaction = answer.interaction
        pressed = interaction.message
        message_id = pressed.id if answer.on_dm_hand and pressed else None
        channel_id = interaction.channel_id if answer.on_dm_hand else None
        live = view.current_seat == seat and view.round_number > 0
        redrawn = pressed is not None and (answer.on_dm_hand or pressed.flags.ephemeral)
        first_id = pressed.id if redrawn and pressed else interaction.id
        newest = self.ledger.newest(view.game_id, seat)
        new = ShownHand(message_id, channel_id, AnswerReach(answer), self._now(), live,
                        view.move_count,
                        first_id, obs, made_by(answer, newest))
        return self.ledger.answered(view.game_id, seat, answer.user_id, new,
                                    on_dm_hand=answer.on_dm_hand, seen=self._clock.now())

    def replaced(self, game_id: int, user_id: int, pressed: discord.Message) -> bool:
        """Whether a press on this hand message must move nothing (HandLedger.replaced)."""
        return self.ledger.replaced(game_id, user_id, Pressed.of(pressed))

    def recall(self, game_id: int, seat: int, user_id: int, ref: tuple[int, int]) -> None:
        """After a restart: the seat's stored hand DM may still have live buttons."""
        self.ledger.recall(game_id, seat, user_id, ref, self._now())
        self.dms.knows(user_id, ref[0])

    def has_dm(self, game_id: int, seat: int) -> bool:
        return self.ledger.has_dm(game_id, seat)

    def is_live(self, game_id: int, seat: int) -> bool:
        return self.ledger.is_live(game_id, seat)

    def forget_game(self, game_id: int) -> None:
        self.ledger.forget_game(game_id)

    # ------------------------------------------------------------- showing

    async def ping(
        self, view: GameView, obs: Observation, seat: int, header: str | None = None, *, nonce: str,
    ) -> None:
        """It is this seat's turn: tell its player where they look."""
        user_id = view.seats[seat].user_id
        if user_id is None:
            return
        shown = self.ledger.newest(view.game_id, seat)
        free = shown is not None and shown.token_fresh(self._now()) and shown.message_id is None
        wants_dms = await self._turn_dms.load_turn_dms(user_id)
        table_player = self.ledger.table_player(view.game_id, user_id)
        if table_player or not wants_dms or self.dms.closed(user_id):
            if free and shown is not None:  # their ephemeral hand turns live, for free
                await self._redraw(view, obs, seat, shown, header=header)
            at_table = self.ledger.at_table(view.game_id, user_id, self._clock.now())
            if wants_dms and not self.dms.closed(user_id):
                if not at_table:  # else the half-time reminder
                    await self._notify(view, user_id, nonce)
            elif self.dms.closed(user_id):
                self._tell_dms_closed(view, user_id)
            return
        if (shown is not None and shown.message_id is not None
                and self.ledger.heard_lately(view.game_id, user_id, self._clock.now())):
            # keeping up: their hand DM turns live in place, no new notification
            await self._redraw(view, obs, seat, shown, header=header, urgent=True)
            return
        await self.send_dm_hand(view, obs, seat, header=header, nonce=nonce)

    async def show(
        self, view: GameView, obs: Observation, seat: int, header: str | None = None, *, nonce: str
    ) -> None:
        """Show the seat's current hand where it is shown (a new round, the game's end, a
        turn lost to the timer): edit in place, or a first DM if there is none."""
        shown = self.ledger.newest(view.game_id, seat)
        if shown is None:
            user_id = view.seats[seat].user_id
            if (user_id is not None and not self.dms.closed(user_id)
                    and await self._turn_dms.load_turn_dms(user_id)):
                await self.send_dm_hand(view, obs, seat, header=header, nonce=nonce)
            return
        await self._redraw(view, obs, seat, shown, header=header)

    async def close(self, view: GameView, obs: Observation, seat: int, shown: ShownHand) -> None:
        """An older hand message: the hand it showed (else `obs`, the hand as it is), no
        buttons, a note where it went; once the game is over, only its cards: no newer message
        has buttons either, and the newest says the game is over (once is enough). One that a
        press made the newest again stays as it is."""
        if self.ledger.is_newest(view.game_id, seat, shown):
            return
        if shown.message_id is None:  # a private hand: gone, one on screen at a time
            await self._delete_private(view, shown)
            return
        if shown.obs is not None:
            obs = shown.obs
        if view.status is not Status.RUNNING:
            await self._redraw(view, obs, seat, shown, keep=False, turn=False)
            return
        await self._redraw(view, obs, seat, shown, note=t("hand.moved", await self.locale(
            view.seats[seat].user_id or 0, view)), keep=False)

    async def close_private(self, view: GameView, seat: int, content: dict[str, Any]) -> None:
        """The seat is not its player's any more (an AI took it): their newest hand, if it
        is a private one, shows `content` instead, without buttons, while its interaction's
        token reaches it (free). A hand DM is closed through its stored message
        (Renderer._close_for_ai)."""
        shown = self.ledger.newest(view.game_id, seat)
        if (shown is None or shown.message_id is not None or shown.reach is None
                or not shown.token_fresh(self._now()) or not shown.reach.out()):
            return
        try:
            await shown.reach.token.edit(**content)
        except discord.HTTPException as error:
            log.info("could not close the private hand of seat %s: %s", seat, error)
            self.failed(view.game_id, error)
            return
        shown.live = False

    async def _delete_private(self, view: GameView, shown: ShownHand) -> None:
        """Delete an older private hand through its interaction's token (free, for 15
        minutes); one whose token expired stays, nothing can reach it."""
        reach = shown.reach
        if reach is None or not shown.token_fresh(self._now()):
            return
        if not await answer_out(reach, shows_now=False):
            return
        try:
            await reach.token.delete()
        except discord.NotFound:
            pass  # gone already
        except discord.HTTPException as error:
            log.info("could not delete an older private hand: %s", error)
            self.failed(view.game_id, error)
            return
        shown.live = False

    async def _redraw(
        self, view: GameView, obs: Observation, seat: int, shown: ShownHand, *,
        header: str | None = None, note: str | None = None, keep: bool = True,
        turn: bool = True, urgent: bool = False,
    ) -> None:
        """`urgent`: an edit that is the player's turn ping (else a clean-up, or closing an
        older hand: a note)."""
        user_id = view.seats[seat].user_id or 0
        locale = await self.locale(user_id, view)
        content = await images.hand_message(view, obs, locale, edit=True, header=header,
                                            note=note, turn=turn)
        live = note is None and obs.is_my_turn and view.round_number == obs.round_number
        try:
            if shown.token_fresh(self._now()) and shown.reach is not None:
                if not await answer_out(shown.reach, shows_now=shown.moves >= view.move_count):
                    return  # its own response is on the way and shows this state already
                await shown.reach.token.edit(**content)
            elif shown.channel_id is not None and shown.message_id is not None:
                # closing an older hand: the player's next live hand waits for it
                priority = Priority.PING if note or urgent else Priority.TABLE
                async with self.budget.slot(priority, shown.channel_id, "edit"):
                    if not keep and self.ledger.is_newest(view.game_id, seat, shown):
                        return  # pressed while its close waited: the newest again
                    partial = self._discord.get_partial_messageable(shown.channel_id)
                    await partial.get_partial_message(shown.message_id).edit(**quiet(content))
            else:
                return  # an ephemeral whose token expired: nothing can reach it any more
        except discord.HTTPException as error:
            log.info("could not redraw the hand of user %s: %s", user_id, error)
            self.failed(view.game_id, error)
            return
        if keep:
            shown.live, shown.moves, shown.obs = live, view.move_count, obs

    # ----------------------------------------------------------------- DMs

    async def send_dm_hand(
        self, view: GameView, obs: Observation, seat: int, header: str | None = None, *, nonce: str,
    ) -> None:
        user_id = view.seats[seat].user_id
        if user_id is None:
            return
        locale = await self.locale(user_id, view)
        content = await images.hand_message(view, obs, locale, header=header)
        message = await self.dms.send(view, user_id, nonce=nonce, **content)
        if message is None:
            return
        if not shows(message, content) and not await self._handed_back(
                view, obs, message, header, locale):
            return
        live = obs.is_my_turn and view.round_number == obs.round_number
        sent = ShownHand(message.id, message.channel.id, None, self._now(), live,
                         view.move_count, message.id, obs)
        stale = self.ledger.sent(view.game_id, seat, user_id, sent, now=self._clock.now())
        if self.ledger.newest(view.game_id, seat) is sent:
            await self.service.remember_message(
                view.game_id, MessageKey.hand(seat), message.channel.id, message.id)
        if stale is not None:
            await self.close(view, obs, seat, stale)

    async def _handed_back(
        self, view: GameView, obs: Observation, message: discord.Message, header: str | None,
        locale: str,
    ) -> bool:
        """Discord handed back a hand DM posted before under this nonce (by a process that
        died, or a send whose answer was lost) as it was posted: a seat's deal from before it
        was their turn, say. It is edited to the hand as it is now (a ping's slot: it may be
        the player's turn); False if that failed."""
        log.info("a hand DM of game %s was sent before: edited to the hand now", view.game_id)
        content = await images.hand_message(view, obs, locale, edit=True, header=header)
        try:
            async with self.budget.slot(Priority.PING, message.channel.id, "edit"):
                await message.edit(**quiet(content))
        except CALL_FAILED as error:
            log.warning("could not redraw the hand DM of game %s: %s", view.game_id, error)
            self.failed(view.game_id, error)
            return False
        return True

    async def send_text(self, view: GameView, user_id: int, text: str, *, nonce: str) -> bool:
        """A plain DM (e.g. the half-time reminder); False if it could not be sent."""
        if self.dms.closed(user_id):
            return False
        return await self.dms.send(view, user_id, content=text, nonce=nonce) is not None

    async def _notify(self, view: GameView, user_id: int, nonce: str) -> None:
        """A turn ping with no buttons: it never goes stale, so nothing must close it."""
        locale = await self.locale(user_id, view)
        # this round's table; a new round's first ping may go out before its table is
        # posted: then the channel, never the last round's closed table. A link either way:
        # the ping's words are a masked link to it, as a round's end is in a hand
        ref = self.service.table_of_round(view.game_id, view.round_number)
        where = jump_link(view.guild_id, *(ref or (view.shown_in, None)))
        text = t("hand.turn_ping", locale, table=where)
        await self.dms.send(view, user_id, content=text, nonce=nonce)

    def _tell_dms_closed(self, view: GameView, user_id: int) -> None:
        """Once per game: say in the channel that this player's hand is behind My hand. A job
        of the game's table task: below the table this flush shows (whose My hand it means),
        however long that table waits for its slot."""
        if not self.ledger.tell_once(view.game_id, user_id):
            return
        locale = self._locales.public_locale_of(view.guild_id)
        text = t("table.dms_closed", locale, mention=f"<@{user_id}>")
        self.tables.notice(view, text, nonce=nonce_of(view.game_id, "dms-closed", user_id),
                           ping=user_id)

