"""The table of each game on Discord: posted once per round, edited as moves land, closed.

Jobs for one game run in order in one task: post a round's table, edit it, close it (its
result, no buttons). Edits coalesce: while an edit waits for its slot in the REST budget,
newer moves only replace the state it will show, so a busy process edits each table less
often and a quiet one shows every move at once. When a game's jobs ran out, `ShownGames`
hears it (a game counts as shown only once its table is); a failed call is told there too.
`/lama table` posts the table anew (`repost`) and closes the old one: no buttons, a link down.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from hosting import TABLE
from hosting.views import GameView
from lama import events as ev

from .outbox import ShownGames
from .scheduler import Priority, RestBudget
from .table_view import table_layout, table_message
from .text import jump_link

if TYPE_CHECKING:
    from bot import LamaBot

log = logging.getLogger(__name__)


@dataclass
class _Job:
    kind: str  # "post", "edit", "close", "moved" (the old table after a repost)
    view: GameView
    ended: ev.RoundEnded | None = None
    nonce: str | None = None  # a round's table: posted once, also when shown again
    old: tuple[int, int] | None = None  # "moved": the old table's channel and message


class Tables:
    def __init__(self, bot: LamaBot, budget: RestBudget, shown: ShownGames) -> None:
        self.bot = bot
        self.service = bot.service
        self.budget = budget
        self.shown = shown
        self._jobs: dict[int, deque[_Job]] = {}
        self._tasks: dict[int, asyncio.Task] = {}
        self.shown_at: dict[int, float] = {}  # game -> loop time of its last table edit/post

    def post(self, view: GameView, *, nonce: str | None = None) -> None:
        self._add(_Job("post", view, nonce=nonce))

    def repost(self, view: GameView) -> None:
        old = self.service.message_ref(view.game_id, TABLE)
        self._add(_Job("post", view))
        if old is not None:
            self._add(_Job("moved", view, old=old))

    def edit(self, view: GameView) -> None:
        self._add(_Job("edit", view))

    def close(self, view: GameView, ended: ev.RoundEnded) -> None:
        self._add(_Job("close", view, ended))

    def _add(self, job: _Job) -> None:
        jobs = self._jobs.setdefault(job.view.game_id, deque())
        if job.kind == "edit" and jobs and jobs[-1].kind == "edit":
            jobs[-1] = job  # coalesce: the newest state is all a waiting edit must show
        else:
            jobs.append(job)
        game_id = job.view.game_id
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    def busy_with(self, game_id: int) -> bool:
        return game_id in self._tasks

    async def wait_idle(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        try:
            jobs = self._jobs[game_id]
            while jobs:
                job = jobs[0]
                kind = "create" if job.kind == "post" else "edit"
                async with self.budget.slot(Priority.TABLE, job.view.shown_in, kind):
                    job = jobs.popleft()  # the newest state, if edits coalesced meanwhile
                    await self._do(job)
        except Exception as error:
            log.exception("showing the table of game %s failed", game_id)
            self.shown.failed(game_id, error)
        finally:
            self._jobs.pop(game_id, None)
            self._tasks.pop(game_id, None)
        await self.shown.tables_idle(game_id)

    async def _do(self, job: _Job) -> None:
        view = job.view
        locale = self.bot.public_locale_of(view.guild_id)
        try:
            if job.kind == "post":
                await self._post(job, locale)
            elif job.kind == "moved":
                await self._moved(job, locale)
            else:
                await self._edit(job, locale)
        except discord.HTTPException as error:
            log.warning("could not show the table of game %s: %s", view.game_id, error)
            self.shown.failed(view.game_id, error)
            return
        self.shown_at[view.game_id] = asyncio.get_running_loop().time()

    async def _post(self, job: _Job, locale: str) -> None:
        view = job.view
        content = await table_message(view, locale)
        if job.nonce is not None:
            content["nonce"] = job.nonce
        message = await self.bot.get_partial_messageable(view.shown_in).send(**content)
        await self.service.remember_message(view.game_id, TABLE, view.shown_in, message.id)

    async def _moved(self, job: _Job, locale: str) -> None:
        """The table was posted anew: the old one keeps its picture, loses its buttons and
        says where the live one is."""
        new = self.service.message_ref(job.view.game_id, TABLE)
        if job.old is None or new is None or new == job.old:
            return
        link = jump_link(job.view.guild_id, new[0], new[1])
        closed = table_layout(job.view, locale, picture=True, moved_to=link)
        await self.bot.get_partial_messageable(job.old[0]).get_partial_message(
            job.old[1]).edit(view=closed)

    async def _edit(self, job: _Job, locale: str) -> None:
        ref = self.service.message_ref(job.view.game_id, TABLE)
        if ref is None:
            return
        content = await table_message(job.view, locale, edit=True, ended=job.ended)
        await self.bot.get_partial_messageable(ref[0]).get_partial_message(ref[1]).edit(
            **content)
