"""Tournament news on Discord: sign-ups, round seatings and the final standings in the
tournament's channel, a thread of that channel for each table, where its players are welcomed
(the /lama tournament commands and buttons are in cogs/tournaments.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, cast

import discord

from hosting.tournament import TournamentEvent, TournamentUpdate
from store.tournaments import TableRecord, Tournament

from ..pings import NOBODY, only
from ..text import fit, t
from ..tournaments import (
    called,
    entrant_names,
    round_embed,
    signup_embed,
    signup_view,
    standings_embed,
)
from .ports import Channels, PublicLocales
from .scheduler import Priority, RestBudget
from .threads import ARCHIVE_AFTER_MINUTES, NAME_LIMIT

log = logging.getLogger(__name__)


class TournamentAnnouncer:
    """Turns TournamentUpdates into Discord messages: sign-ups, round seatings and the final
    standings in the tournament's channel, each table's welcome in its own thread. Every call
    takes a slot in the process's REST budget, as the renderer's do. A round's seating or the
    final standings come after the "Game over" of the round just played, however quickly the
    tournament moved on: they wait for its flush (Renderer.game_shown), never a move's
    answer."""

    def __init__(
        self, channels: Channels, locales: PublicLocales, budget: RestBudget,
        game_shown: Callable[[int], Awaitable[None]],
    ) -> None:
        self._channels = channels
        self._locales = locales
        self._budget = budget
        self._game_shown = game_shown  # until a game's "Game over" is on Discord

    def _slot(
        self, channel_id: int | None, kind: str = "create"
    ) -> AbstractAsyncContextManager[None]:
        return self._budget.slot(Priority.TABLE, channel_id, kind)

    async def open_table_thread(self, tournament: Tournament, table: TableRecord) -> int | None:
        """hosting.tournament.TablePlaces: a public thread of the tournament's channel for
        one table; None where the bot may not start one (the table plays in the channel)."""
        name = t("tournament.thread_name", self._locales.public_locale_of(tournament.guild_id),
                 name=called(tournament, markdown=False), round=table.round,
                 table=table.table_no)
        try:
            async with self._slot(None):
                data = await self._channels.http.start_thread_without_message(
                    tournament.channel_id, name=fit(name, NAME_LIMIT),
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                    type=discord.ChannelType.public_thread.value)
        except discord.HTTPException as error:
            log.warning("tournament %s table %s plays in the channel: no thread (%s)",
                        tournament.id, table.table_no, error)
            return None
        return int(data["id"])

    async def on_update(self, update: TournamentUpdate) -> None:
        tournament = update.tournament
        locale = self._locales.public_locale_of(tournament.guild_id)
        if update.event is TournamentEvent.TABLE_OPENED:
            await self._welcome(update, locale)
            return
        for game_id in update.after:  # the round's tables: their "Game over" comes first
            await self._game_shown(game_id)
        channel = cast(discord.abc.Messageable,
                       self._channels.get_channel(tournament.channel_id)
                       or await self._channels.fetch_channel(tournament.channel_id))
        closes = update.event is TournamentEvent.ROUND_SEATED and tournament.round == 1
        if closes or update.event is TournamentEvent.FINISHED:  # "Under way", then "Finished"
            await self._edit_signup(channel, tournament, locale)
        if update.event is TournamentEvent.ROUND_SEATED:
            embed = round_embed(update, locale, in_threads=_may_start_threads(channel))
            await self._send(channel, embed=embed)  # mentions in an embed ping nobody
        elif update.event is TournamentEvent.FINISHED:
            await self._send(channel, embed=standings_embed(tournament, update.standings, locale,
                                                            final=True))
        elif update.event is TournamentEvent.TABLE_WAITING:
            (table,) = update.tables
            await self._send(channel, content=t("tournament.table_waits", locale,
                                                name=called(tournament), round=table.round,
                                                table=table.table_no))
        elif update.event is TournamentEvent.CANCELLED:
            await self._send(channel, content=t("tournament.cancelled", locale,
                                                name=called(tournament)))

    async def _welcome(self, update: TournamentUpdate, locale: str) -> None:
        """The table's players mentioned in its thread (which adds them to it), and who an AI
        stands in for: they are pinged, nobody else."""
        tournament, (table,) = update.tournament, update.tables
        if update.channel_id is None or update.channel_id == tournament.channel_id:
            return  # a table in the tournament's channel: the round's post named its players
        lines = [t("tournament.table_opened", locale, name=called(tournament), round=table.round,
                   table=table.table_no, players=entrant_names(tournament, table.entries, locale))]
        lines += [t("tournament.stand_in", locale, mention=f"<@{user}>")
                  for user in update.stand_ins]
        thread = self._channels.get_partial_messageable(update.channel_id)
        by_entry = {e.entry: e.user_id for e in tournament.entries}
        players = [by_entry[n] for n in table.entries] + list(update.stand_ins)
        await self._send(thread, content="\n".join(lines), allowed_mentions=only(players))

    async def _send(self, channel: Any, **content: Any) -> None:
        try:
            async with self._slot(channel.id):
                await channel.send(**content)
        except discord.HTTPException as error:
            log.warning("could not post in channel %s: %s", channel.id, error)

    async def _edit_signup(self, channel: Any, tournament: Tournament, locale: str) -> None:
        if tournament.signup_message_id is None:
            return
        message = channel.get_partial_message(tournament.signup_message_id)
        try:
            async with self._slot(channel.id, "edit"):
                await message.edit(embed=signup_embed(tournament, locale),
                                   view=signup_view(tournament, locale), allowed_mentions=NOBODY)
        except discord.HTTPException:
            log.warning("could not update the sign-up message of tournament %s", tournament.id)


def _may_start_threads(channel: object) -> bool:
    """Whether the tables will get threads (else they play in the channel)."""
    me = getattr(getattr(channel, "guild", None), "me", None)
    if me is None or not isinstance(channel, discord.TextChannel):
        return True  # not knowable here: the threads are tried
    return channel.permissions_for(me).create_public_threads
