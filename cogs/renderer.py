"""Shows committed game updates on Discord: the lobby, the table, the hands, the news.

The service calls `on_update` after every commit. Work is collected per game and flushed
shortly after, so a burst of moves (an AI answering at once, a forced quit) costs one table
edit, not several. An interaction that will show a change itself — a button press answered
by editing its own message — claims that part, so it is not edited twice.

REST budget per move (rate-limited calls; interaction responses are free):
- the table: one edit, coalesced across moves that land within `coalesce_delay`, and at
  most one edit per game every `table_interval` seconds (later moves wait and share one edit;
  the players lose nothing, their hand DMs show the top card and whose turn it is);
- the next human on turn: one fresh DM with their hand and buttons — that DM is the ping;
- the mover: nothing when they used their hand's buttons (the response edits it);
- a new round: one DM, to its starter (round 1 deals every human's hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from hosting import LOBBY, TABLE, MessageKey
from hosting.views import GameUpdate, GameView, NoticeKind, Status
from lama import events as ev

from . import embeds, images
from .components import lobby_view, rematch_view
from .mentions import command
from .notices import notice_text, personal_notice_text
from .text import t
from .threads import GameThreads

log = logging.getLogger(__name__)
DMS_CLOSED = 50007


@dataclass
class _Work:
    view: GameView
    hands: dict = field(default_factory=dict)
    lobby: bool = False
    table: bool = False
    new_table: bool = False
    send_hands: set[int] = field(default_factory=set)
    edit_hands: set[int] = field(default_factory=set)
    posts: list = field(default_factory=list)  # (embed | str, view | None), in order
    pings: list[int] = field(default_factory=list)  # seats to remind
    closed: list = field(default_factory=list)  # AI_TOOK_OVER notices: hands to close


class Renderer:
    def __init__(
        self, bot, service, *, coalesce_delay: float = 0.3, table_interval: float = 0.0
    ) -> None:
        self.bot = bot
        self.service = service
        self.coalesce_delay = coalesce_delay
        self.table_interval = table_interval
        self._table_shown: dict[int, float] = {}  # game id -> loop time of its last table
        self._table_due: dict[int, GameView] = {}  # game id -> the newest view not shown yet
        self._table_later: dict[int, tuple[asyncio.Task, asyncio.Event]] = {}
        self._work: dict[int, _Work] = {}
        self._flushing: dict[int, asyncio.Task] = {}
        self._dm_channel: dict[int, int] = {}
        self._dms_closed: set[int] = set()
        self.threads = GameThreads(bot.http, service)

    # ------------------------------------------------------------ bookkeeping

    async def _dm_locale(self, user_id: int, view: GameView) -> str:
        """A DM's language: the user's /lama language choice, else the locale of their last
        interaction, else the game's public language (e.g. right after a restart)."""
        await self.bot.preferences.load_user_choice(user_id)  # read once per process
        return self.bot.preferences.dm_locale(user_id, self.locale_for_view(view))

    def locale_for_view(self, view: GameView) -> str:
        """Public messages: the server's language setting, else its preferred locale."""
        return self.bot.public_locale_of(view.guild_id)

    def handled_by_interaction(self, game_id: int, seat: int | None = None, *, lobby=False):
        """The answering interaction shows this seat's hand (or the lobby) itself."""
        work = self._work.get(game_id)
        if work is None:
            return
        if lobby:
            work.lobby = False
        if seat is not None:
            work.edit_hands.discard(seat)

    # --------------------------------------------------------------- updates

    async def on_update(self, update: GameUpdate) -> None:
        view = update.view
        work = self._work.get(view.game_id)
        if work is None:
            work = self._work[view.game_id] = _Work(view)
        work.view, work.hands = view, update.hands
        self._collect(work, update)
        if view.game_id not in self._flushing:
            self._flushing[view.game_id] = asyncio.create_task(self._flush_later(view.game_id))

    def _collect(self, work: _Work, update: GameUpdate) -> None:
        view = update.view
        just_started = (
            view.status is Status.RUNNING and view.move_count == 0 and update.actor_seat is None
        )
        if view.status in (Status.LOBBY, Status.CANCELLED) or just_started:
            work.lobby = True  # the lobby message shows who sits, or that the game began
        humans = {s.index for s in view.seats if s.ai_level is None and s.user_id}
        if view.status is Status.CANCELLED and view.round_number:
            work.table = True  # the table says so, and no hand keeps live buttons
            work.edit_hands |= set(update.hands)
        for event in update.events:
            if isinstance(event, ev.RoundEnded):
                work.posts.append(("summary", event))
            elif isinstance(event, ev.RoundStarted):
                work.new_table = True
                work.edit_hands -= humans
                if event.round_number == 1:
                    work.send_hands |= humans  # the game starts: everyone sees their cards
                elif event.starting_seat in humans:
                    # Later rounds: the starter's hand is their ping; the others get theirs at
                    # their first turn (the summary says so; /lama hand shows it now, free).
                    work.send_hands.add(event.starting_seat)
            elif isinstance(event, ev.GameEnded):
                work.posts.append(("end", None))
                work.table = True
        if update.actor_seat is not None and not work.new_table:
            work.table = True
            if update.actor_seat in humans:
                work.edit_hands.add(update.actor_seat)
            current = view.current_seat
            if current is not None and current != update.actor_seat and current in humans:
                work.send_hands.add(current)
        for notice in update.notices:
            self._collect_notice(work, notice, humans)

    def _collect_notice(self, work: _Work, notice, humans: set[int]) -> None:
        if notice.kind is NoticeKind.REMINDER:
            work.pings.append(notice.seat)
        elif notice.kind in (NoticeKind.TIMED_OUT, NoticeKind.AI_TOOK_OVER):
            work.posts.append((f"notice.{notice.kind.value}", notice))
            work.table = True
            if notice.kind is NoticeKind.AI_TOOK_OVER:
                work.closed.append(notice)  # an AI's seat has no hand in `hands` to show

    async def _flush_later(self, game_id: int) -> None:
        try:
            if self.coalesce_delay:
                await asyncio.sleep(self.coalesce_delay)
            while (work := self._work.pop(game_id, None)) is not None:
                await self._flush(work)
        except Exception:
            log.exception("rendering game %s failed", game_id)
        finally:
            self._flushing.pop(game_id, None)

    async def flush_all(self) -> None:
        """Wait until every pending update is on Discord (tests and shutdown); table edits
        held back by `table_interval` go out now."""
        while self._flushing or self._table_later:
            await asyncio.gather(*list(self._flushing.values()), return_exceptions=True)
            for _task, hurry in self._table_later.values():
                hurry.set()
            tasks = [task for task, _hurry in self._table_later.values()]
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _flush(self, work: _Work) -> None:
        view = work.view
        locale = self.locale_for_view(view)
        if work.new_table and self.service.message_ref(view.game_id, TABLE) is None:
            view = await self.threads.open(view, locale)  # before its first table, if wanted
        if work.lobby:
            await self._edit(
                view, LOBBY, embed=embeds.lobby_embed(view, locale), view=lobby_view(view, locale)
            )
        if work.table and not work.new_table:
            await self._show_table(view, locale)
        for kind, payload in work.posts:
            await self._post(view, kind, payload, locale)
        if work.new_table and view.status is Status.RUNNING:
            await self._new_table(view, locale)
        for seat in sorted(work.edit_hands - work.send_hands):
            await self._edit_hand(view, work.hands.get(seat), seat)
        for seat in sorted(work.send_hands):
            await self._send_hand(view, work.hands.get(seat), seat)
        for seat in work.pings:
            await self._remind(view, seat)
        for notice in work.closed:
            await self._close_hand(view, notice)
        await self.threads.close(view)  # a game that is over: its thread is archived

    # ------------------------------------------------------------- channel

    def _channel(self, channel_id: int):
        return self.bot.get_partial_messageable(channel_id)

    async def _edit(self, game: GameView, key: MessageKey, **content) -> None:
        """Edit a message the game put somewhere earlier (`content` may hold a ui `view`)."""
        ref = self.service.message_ref(game.game_id, key)
        if ref is None:
            return
        channel_id, message_id = ref
        try:
            await self._channel(channel_id).get_partial_message(message_id).edit(**content)
        except discord.NotFound:
            log.info("the %s message of game %s is gone", key.kind, game.game_id)
        except discord.HTTPException as error:
            log.warning("could not edit the %s of game %s: %s", key.kind, game.game_id, error)

    async def _send(self, channel_id: int, **content) -> discord.Message | None:
        try:
            return await self._channel(channel_id).send(**content)
        except discord.HTTPException as error:
            log.warning("could not post in channel %s: %s", channel_id, error)
            return None

    async def _show_table(self, view: GameView, locale: str) -> None:
        """Edit the table now, or once `table_interval` has passed since it was last shown."""
        game_id, now = view.game_id, asyncio.get_running_loop().time()
        wait = self._table_shown.get(game_id, -1e9) + self.table_interval - now
        if wait > 0 or game_id in self._table_later:
            self._table_due[game_id] = view  # the newest state wins; one edit shows it
            if game_id not in self._table_later:
                hurry = asyncio.Event()
                task = asyncio.create_task(self._table_after(game_id, wait, hurry))
                self._table_later[game_id] = (task, hurry)
            return
        await self._edit_table(view, locale)

    async def _edit_table(self, view: GameView, locale: str) -> None:
        if view.status is Status.RUNNING:
            self._table_shown[view.game_id] = asyncio.get_running_loop().time()
        else:  # its last edit: forget the game
            self._table_shown.pop(view.game_id, None)
        await self._edit(view, TABLE, **await images.table_message(view, locale, edit=True))

    async def _table_after(self, game_id: int, wait: float, hurry: asyncio.Event) -> None:
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hurry.wait(), wait)
            view = self._table_due.pop(game_id, None)  # None: a new table was posted since
            if view is not None:
                await self._edit_table(view, self.locale_for_view(view))
        except Exception:
            log.exception("editing the table of game %s failed", game_id)
        finally:
            self._table_later.pop(game_id, None)

    async def _new_table(self, view: GameView, locale: str) -> None:
        self._table_due.pop(view.game_id, None)  # an older round's table is not shown anymore
        self._table_shown[view.game_id] = asyncio.get_running_loop().time()
        message = await self._send(view.shown_in, **await images.table_message(view, locale))
        if message is not None:
            await self.service.remember_message(view.game_id, TABLE, view.shown_in, message.id)

    async def _post(self, view: GameView, kind: str, payload, locale: str) -> None:
        if kind == "summary":
            await self._send(
                view.shown_in, embed=embeds.round_summary_embed(view, payload, locale)
            )
        elif kind == "end":
            await self._send(
                view.shown_in,
                embed=embeds.game_end_embed(view, locale),
                view=rematch_view(view, locale),
            )
        else:
            text = notice_text(view, payload, locale)
            await self._send(
                view.shown_in, content=text, allowed_mentions=discord.AllowedMentions.none()
            )

    async def refresh_tables(self, views) -> None:
        """After a restart: edit each running game's table to its current state."""
        for view in views:
            if view.status is Status.RUNNING:
                locale = self.locale_for_view(view)
                content = await images.table_message(view, locale, edit=True)
                await self._edit(view, TABLE, **content)

    async def refresh_table(self, view: GameView) -> None:
        """Re-post the table at the bottom of the channel (`/lama table`, restarts)."""
        await self._new_table(view, self.locale_for_view(view))

    # ---------------------------------------------------------------- hands

    async def _dm(self, user_id: int):
        channel_id = self._dm_channel.get(user_id)
        if channel_id is None:
            data = await self.bot.http.start_private_message(user_id)
            channel_id = self._dm_channel[user_id] = int(data["id"])
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _send_hand(self, view: GameView, observation, seat: int) -> None:
        user_id = view.seats[seat].user_id
        if observation is None or user_id is None:
            return
        locale = await self._dm_locale(user_id, view)
        content = await images.hand_message(view, observation, locale)  # text, buttons and picture
        try:
            channel = await self._dm(user_id)
            message = await channel.send(**content)
        except discord.Forbidden as error:
            await self._dms_closed_for(view, seat, error)
            return
        except discord.HTTPException as error:
            log.warning("could not DM the hand of user %s: %s", user_id, error)
            return
        self._dms_closed.discard(user_id)
        key = MessageKey.hand(seat)
        await self.service.remember_message(view.game_id, key, channel.id, message.id)

    async def _edit_hand(self, view: GameView, observation, seat: int) -> None:
        user_id = view.seats[seat].user_id
        if observation is None or user_id is None or user_id in self._dms_closed:
            return
        locale = await self._dm_locale(user_id, view)
        content = await images.hand_message(view, observation, locale, edit=True)
        await self._edit(view, MessageKey.hand(seat), **content)

    async def _close_hand(self, view: GameView, notice) -> None:
        """The seat is an AI's now: its former player's hand keeps no live buttons."""
        if notice.user_id is None or notice.user_id in self._dms_closed:
            return
        locale = await self._dm_locale(notice.user_id, view)
        text = personal_notice_text(notice, locale)
        closed: dict[str, Any] = {"content": text, "embeds": [], "attachments": [], "view": None}
        await self._edit(view, MessageKey.hand(notice.seat), **closed)  # no "your turn" left

    async def _dms_closed_for(self, view: GameView, seat: int, error: discord.Forbidden) -> None:
        """Say in the channel how to get the hand another way; the game carries on."""
        user_id = view.seats[seat].user_id
        if user_id is None:  # an AI's seat has no DMs
            return
        if error.code != DMS_CLOSED:
            log.warning("DM to user %s refused: %s", user_id, error)
        locale = self.locale_for_view(view)
        first_time = user_id not in self._dms_closed
        self._dms_closed.add(user_id)
        mention = f"<@{user_id}>"
        if first_time:
            text = t("error.dms_closed", locale, mention=mention, command=command("lama hand"))
        elif view.current_seat == seat:
            text = t("table.your_turn", locale, mention=mention)
            text += " " + t("table.hand_by_dm", locale, command=command("lama hand"))
        else:
            return
        await self._send(
            view.shown_in, content=text, allowed_mentions=discord.AllowedMentions(users=True)
        )

    async def _remind(self, view: GameView, seat_index: int) -> None:
        seat = view.seats[seat_index]
        if seat.user_id is None:
            return
        seconds = view.options.turn_timeout - view.options.turn_timeout // 2
        mention = f"<@{seat.user_id}>"
        if seat.user_id not in self._dms_closed:
            locale = await self._dm_locale(seat.user_id, view)
            try:
                channel = await self._dm(seat.user_id)
                await channel.send(
                    content=t("timer.reminder", locale, mention=mention, count=seconds)
                )
                return
            except discord.HTTPException:
                pass
        text = t("timer.reminder", self.locale_for_view(view), mention=mention, count=seconds)
        await self._send(
            view.shown_in, content=text, allowed_mentions=discord.AllowedMentions(users=True)
        )
