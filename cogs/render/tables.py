"""The table of each game on Discord: posted once per round, edited as moves land, closed.

Jobs for one game run in order in one task: post a round's table, edit it, close it (its
result, no buttons). Edits coalesce: while an edit waits for its slot in the REST budget,
newer moves only replace the state it will show, so a busy process edits each table less
often and a quiet one shows every move at once. When a game's jobs ran out, `ShownGames`
hears it (a game counts as shown only once its table is); a failed call is told there too.
`/lama table` posts the table anew (`repost`) and closes the old one: no buttons, a link down.
The notices a flush shows (a time-out, an AI taking a seat, a turn reminder the channel hears,
a player whose DMs are closed) are jobs of the same task, so each lands on its side of the
tables however slow the calls around it: before the table job that shows what it tells (the
renderer queues it first; closed DMs, found as the hands go out, come below the table whose
My hand they point to), and never overtaken by an edit that waited for its slot (an edit
coalesces only with the edit right before it, never across a notice).

Closing a round edits *that round's* table, which is not always the game's newest: a close
retried after its failure (cogs/render/outbox.py) comes after the next round's table was posted
(rounds after, if the failure lasted), and a close replayed after a crash may find the next
round's table stored already (posted, its id written, the round-ending move not yet marked
shown). So each round's table message is remembered as it is posted and stored per round
(`round_table`: memory first, then the store). A round that began and ended before its table
was shown gets its table posted closed (`_unseen`).

A round's table posted again under its nonce (a replay after a crash, a retry whose answer was
lost) comes back as Discord first posted it, an older state: it is edited next (`_handed_back`).

A closed table keeps its round's last picture by referring to the file the message carries;
Discord refuses an edit that refers to a file the message does not have (a table posted
closed and unseen, one whose picture could not be drawn). So what each table carries is
remembered from Discord's answer to each post and edit, and a table this process never
touched (the stored one, after a restart) is looked at once before its picture is named.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, replace

import discord

from hosting import TABLE, GameService
from hosting.views import GameView, Status
from lama import events as ev

from .. import images
from ..pings import NOBODY, only
from ..table_view import table_layout, table_message
from ..text import jump_link
from .handed_back import shows
from .outbox import CALL_FAILED, ShownGames
from .ports import Discord, PublicLocales
from .scheduler import Priority, RestBudget
from .table_pictures import TablePictures

log = logging.getLogger(__name__)


@dataclass
class _Job:
    kind: str  # "post", "edit", "close", "moved" (the old table after a repost), "notice"
    view: GameView
    ended: ev.RoundEnded | None = None
    nonce: str | None = None  # a round's table: posted once, also when shown again
    old: tuple[int, int] | None = None  # "moved": the old table's channel and message
    picture: bool = True  # False: a round that began and ended unseen (no state drawn)
    text: str = ""  # "notice": the line to post
    ping: int | None = None  # "notice": the user it speaks to (mentioned, notified)
    turn: int | None = None  # "notice": the move after which the turn it speaks of began


class Tables:
    def __init__(
        self, discord_: Discord, service: GameService, locales: PublicLocales,
        budget: RestBudget, shown: ShownGames,
    ) -> None:
        self._discord = discord_
        self.service = service
        self._locales = locales
        self.budget = budget
        self.shown = shown
        self._jobs: dict[int, deque[_Job]] = {}
        self._tasks: dict[int, asyncio.Task] = {}
        self._of_round: dict[int, dict[int, tuple[int, int]]] = {}  # game -> round -> table
        self._pictured: dict[int, dict[tuple[int, int], bool]] = {}  # game -> table -> has it
        self.pictures = TablePictures()  # which picture each carries: uploaded only if changed
        service.loader.moved_elsewhere.append(self.pictures.forget)  # edited there since

    def post(self, view: GameView, *, nonce: str | None = None) -> None:
        self._add(_Job("post", view, nonce=nonce))

    def repost(self, view: GameView) -> None:
        old = self.service.message_ref(view.game_id, TABLE)
        self._add(_Job("post", view))
        if old is not None:
            self._add(_Job("moved", view, old=old))

    def edit(self, view: GameView) -> None:
        self._add(_Job("edit", view))

    def close(self, view: GameView, ended: ev.RoundEnded, *, nonce: str | None = None) -> None:
        """Close that round's table. `nonce`: the round began in the same update, so its
        table may never have been posted (see `_unseen`)."""
        self._add(_Job("close", view, ended, nonce=nonce))

    def notice(
        self, view: GameView, text: str, *, nonce: str, ping: int | None = None,
        turn: int | None = None,
    ) -> None:
        """Post a line about the game (a time-out, an AI taking a seat, a reminder or closed
        DMs that ping their player) where its table is, in turn with the table's jobs: above
        the table jobs queued after it (the next round's table, the edit that shows what it
        tells). `turn`: the line speaks of the turn that began after that move (a reminder),
        and is dropped if the game moved on before its turn to be posted came."""
        self._add(_Job("notice", view, nonce=nonce, text=text, ping=ping, turn=turn))

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

    async def wait_idle(self, game_id: int | None = None) -> None:
        """Until the table jobs of every game, or only of `game_id`, ran out."""
        while tasks := [task for game, task in self._tasks.items() if game_id in (None, game)]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        try:
            jobs = self._jobs[game_id]
            while jobs:
                await self._unseen(jobs)
                job = jobs[0]
                if self._passed(job):  # before its slot: a channel's posts are few
                    jobs.popleft()
                    continue
                kind = "create" if job.kind in ("post", "notice") else "edit"
                async with self.budget.slot(Priority.TABLE, job.view.shown_in, kind):
                    job = jobs.popleft()  # the newest state, if edits coalesced meanwhile
                    await self._do(job)
                    if job.kind != "notice" and job.view.status is not Status.RUNNING:
                        self._of_round.pop(game_id, None)
                        self._pictured.pop(game_id, None)
                        self.pictures.forget(game_id)
        except Exception as error:
            log.exception("showing the table of game %s failed", game_id)
            self.shown.failed(game_id, error)
        finally:
            self._jobs.pop(game_id, None)
            self._tasks.pop(game_id, None)
        await self.shown.tables_idle(game_id)

    async def _unseen(self, jobs: deque[_Job]) -> None:
        """A round that began and ended before its table was shown (a flush that took in a
        whole round, a replay after a crash) and whose table is not known here: its close
        becomes posting the table with its result, under the round table's nonce, then
        closing that message (Discord hands back the live table a crashed process posted).
        Nothing of that round was drawn: no picture."""
        job = jobs[0]
        if (job.kind != "close" or job.nonce is None or job.ended is None
                or await self.round_table(job.view.game_id, job.ended.round_number)):
            return
        jobs.popleft()
        jobs.extendleft([replace(job, nonce=None, picture=False),  # extendleft: reversed
                         replace(job, kind="post", picture=False)])

    async def _do(self, job: _Job) -> None:
        view = job.view
        locale = self._locales.public_locale_of(view.guild_id)
        try:
            if job.kind == "post":
                await self._post(job, locale)
            elif job.kind == "notice":
                await self._notice(job)
            elif job.kind == "moved":
                await self._moved(job, locale)
            else:
                await self._edit(job, locale)
        except CALL_FAILED as error:
            log.warning("could not show the table of game %s: %s", view.game_id, error)
            self.shown.failed(view.game_id, error)

    def _passed(self, job: _Job) -> bool:
        """A notice about a turn that has passed ("it's your turn", after they moved): said
        too late is wrong."""
        return (job.kind == "notice" and job.turn is not None
                and not self.service.still_at(job.view.game_id, job.turn))

    async def _notice(self, job: _Job) -> None:
        """The line, notifying nobody but the player it speaks to (if any)."""
        if self._passed(job):  # it waited for its slot, and the player moved meanwhile
            return
        await self._discord.get_partial_messageable(job.view.shown_in).send(
            job.text, nonce=job.nonce or discord.utils.MISSING, allowed_mentions=only([job.ping]))

    async def _post(self, job: _Job, locale: str) -> None:
        view = job.view
        content = await table_message(view, locale, ended=job.ended, picture=job.picture)
        if job.nonce is not None:
            content["nonce"] = job.nonce
        shown = self.pictures.uploading(content)  # a new message: its picture is uploaded
        message = await self._discord.get_partial_messageable(view.shown_in).send(**content)
        number = job.ended.round_number if job.ended else view.round_number
        older = self.service.message_ref(view.game_id, TABLE)
        new = (view.shown_in, message.id)
        tables = self._of_round.setdefault(view.game_id, {})
        handed_back = job.nonce is not None and (
            new == older or new in tables.values() or not shows(message, content))
        if job.nonce is not None and older is not None and older != new:
            tables.setdefault(number - 1, older)  # a round's table: the last one's
        tables[number] = new
        for old_round in [r for r in tables if r < number - 1]:
            del tables[old_round]
        pictured = self._pictured.setdefault(view.game_id, {})
        for gone in [ref for ref in pictured if ref not in tables.values() and ref != older]:
            del pictured[gone]  # the previous table stays known: a repost's "moved" edits it
        pictured[new] = _carries_picture(message)  # a nonce may hand back an older message
        self.pictures.forget(view.game_id, keep={*tables.values(), new})
        self.pictures.posted(view.game_id, new, message, shown, handed_back=handed_back)
        await self.service.remember_message(view.game_id, TABLE, view.shown_in, message.id, number)
        if job.nonce is not None and job.ended is None and not shows(message, content):
            self._handed_back(job)

    def _handed_back(self, job: _Job) -> None:
        """Discord handed back the round's table as posted before (by a process that died,
        or a post whose answer was lost), showing an older state: it is edited to this
        post's state next, unless an edit of a newer state is next anyway."""
        log.info("round %s's table of game %s was posted before: edited to its state now",
                 job.view.round_number, job.view.game_id)
        jobs = self._jobs[job.view.game_id]
        if not (jobs and jobs[0].kind == "edit"):
            jobs.appendleft(_Job("edit", job.view))

    async def _moved(self, job: _Job, locale: str) -> None:
        """The table was posted anew: the old one keeps its picture, loses its buttons and
        says where the live one is."""
        new = self.service.message_ref(job.view.game_id, TABLE)
        if job.old is None or new is None or new == job.old:
            return
        link = jump_link(job.view.guild_id, new[0], new[1])
        picture = await self._has_picture(job.view.game_id, job.old)
        closed = table_layout(job.view, locale, picture=picture, moved_to=link)
        await self._message(job.old).edit(view=closed, allowed_mentions=NOBODY)

    def table_of(self, game_id: int, round_number: int) -> tuple[int, int] | None:
        """The message showing that round's table, as known in memory: the one this process
        posted for it, else the game's table if it shows that round. None: not known here (a
        later round's table is posted already); `round_table` asks the store then."""
        tables = self._of_round.get(game_id, {})
        if round_number in tables:
            return tables[round_number]
        if any(later > round_number for later in tables):
            return None
        return self.service.table_of_round(game_id, round_number)

    async def round_table(self, game_id: int, round_number: int) -> tuple[int, int] | None:
        """The message showing that round's table, however long ago it was posted and by
        which process: each round's table is stored (migration 0026). None: never posted (or
        before that migration): better unclosed than the wrong one."""
        ref = self.table_of(game_id, round_number)
        if ref is None:
            ref = await self.service.round_table(game_id, round_number)
        return ref

    async def _edit(self, job: _Job, locale: str) -> None:
        if job.ended is not None:
            ref = await self.round_table(job.view.game_id, job.ended.round_number)
        else:
            ref = self.service.message_ref(job.view.game_id, TABLE)
        if ref is None:
            return
        picture = job.picture
        if job.ended is not None and picture:  # closed: the picture it has stays, if any
            picture = await self._has_picture(job.view.game_id, ref)
        content = await table_message(job.view, locale, edit=True, ended=job.ended,
                                      picture=picture)
        shown = self.pictures.reuse(job.view.game_id, ref, content)  # kept if unchanged
        try:
            edited = await self._message(ref).edit(**content)
        except discord.HTTPException as error:
            if error.status != 400 or not self.pictures.keeps(content):
                raise
            # The attachment it kept is gone: another process edited this table since and
            # uploaded the picture again (docs/scaling.md). Once more, uploading it.
            log.info("table of game %s: its kept picture is gone, uploading it", job.view.game_id)
            self.pictures.drop(job.view.game_id, ref)
            content = await table_message(job.view, locale, edit=True, ended=job.ended,
                                          picture=picture)
            shown = self.pictures.reuse(job.view.game_id, ref, content)
            edited = await self._message(ref).edit(**content)
        self._pictured.setdefault(job.view.game_id, {})[ref] = _carries_picture(edited)
        if job.ended is None:  # a closed table keeps what it carries, and is not edited again
            self.pictures.carried(job.view.game_id, ref, edited, shown)

    async def _has_picture(self, game_id: int, ref: tuple[int, int]) -> bool:
        """Whether that table message carries the table's picture: known if this process
        posted or edited it, else (the stored table, after a restart) looked at once; where
        the bot may not read it, taken as not (no picture beats a refused close)."""
        pictured = self._pictured.setdefault(game_id, {})
        if ref not in pictured:
            try:
                pictured[ref] = _carries_picture(await self._message(ref).fetch())
            except discord.Forbidden:  # no Read Message History: an edit Discord takes
                log.info("table %s of game %s not readable: closed without its picture",
                         ref[1], game_id)
                pictured[ref] = False
        return pictured[ref]

    def _message(self, ref: tuple[int, int]) -> discord.PartialMessage:
        return self._discord.get_partial_messageable(ref[0]).get_partial_message(ref[1])


def _carries_picture(message: discord.Message) -> bool:
    return any(a.filename == images.TABLE_FILE for a in message.attachments)
