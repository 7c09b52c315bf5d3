"""The table of each game on Discord: posted once per round, edited as moves land, closed.

Jobs for one game run in order in one task: post a round's table, edit it, close it (its
result, no buttons). Edits coalesce: while an edit waits for its slot in the REST budget,
newer moves only replace the state it will show, so a busy process edits each table less
often and a quiet one shows every move at once.
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

from .scheduler import Priority, RestBudget
from .table_view import table_message

if TYPE_CHECKING:
    from bot import LamaBot

log = logging.getLogger(__name__)


@dataclass
class _Job:
    kind: str  # "post", "edit", "close"
    view: GameView
    ended: ev.RoundEnded | None = None


class Tables:
    def __init__(self, bot: LamaBot, budget: RestBudget) -> None:
        self.bot = bot
        self.service = bot.service
        self.budget = budget
        self._jobs: dict[int, deque[_Job]] = {}
        self._tasks: dict[int, asyncio.Task] = {}
        self.shown_at: dict[int, float] = {}  # game -> loop time of its last table edit/post

    def post(self, view: GameView) -> None:
        self._add(_Job("post", view))

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
        except Exception:
            log.exception("showing the table of game %s failed", game_id)
        finally:
            self._jobs.pop(game_id, None)
            self._tasks.pop(game_id, None)

    async def _do(self, job: _Job) -> None:
        view = job.view
        locale = self.bot.public_locale_of(view.guild_id)
        if job.kind == "post":
            content = await table_message(view, locale)
            try:
                message = await self.bot.get_partial_messageable(view.shown_in).send(**content)
            except discord.HTTPException as error:
                log.warning("could not post the table of game %s: %s", view.game_id, error)
                return
            await self.service.remember_message(view.game_id, TABLE, view.shown_in, message.id)
        else:
            ref = self.service.message_ref(view.game_id, TABLE)
            if ref is None:
                return
            content = await table_message(view, locale, edit=True, ended=job.ended)
            try:
                partial = self.bot.get_partial_messageable(ref[0])
                await partial.get_partial_message(ref[1]).edit(**content)
            except discord.HTTPException as error:
                log.info("could not edit the table of game %s: %s", view.game_id, error)
                return
        self.shown_at[view.game_id] = asyncio.get_running_loop().time()
