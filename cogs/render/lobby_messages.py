"""Each game's lobby message, edited only when what it shows is not the committed state.

A lobby is shown by the interaction that changed it (the answer to `/lama new` posts it, a
rematch posts it, a lobby button's answer redraws it) or by the renderer's flush of a change
no answer showed (a `/lama join`, a kick, a game that started in a thread). What each showing
sent is remembered, so the flush, which comes a moment after every change, edits the message
only where the committed lobby looks different (another player joined meanwhile): not again
to the content its answer has just shown, a rate-limited call for nothing.

An answer still on its way when the flush comes (the renderer's delay is short, an answer
may take longer) is waited for, a few seconds at most: it may show that very state. An answer
that failed, or that redrew another message than the stored lobby, leaves nothing
remembered, and the flush edits. So do answers that were on their way at once (two players
pressing Join together): Discord keeps whichever it applied last, which need not be the one
whose reply came back last, so what they showed says nothing of what the message shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import discord

from hosting import LOBBY, GameService
from hosting.views import GameView, Status

from ..lobbies import lobby_edit, new_lobby
from .outbox import CALL_FAILED, nonce
from .ports import Discord
from .scheduler import Priority, RestBudget

log = logging.getLogger(__name__)

ANSWER_WAIT = 3.0  # seconds a flush waits for lobby answers in flight (Discord's own window)


def _looks(content: dict[str, Any]) -> dict[str, str]:
    """What a lobby message's content shows, comparable, field by field (an edit changes
    only the fields it sends: a line the post carried stays)."""
    looks = {}
    for name, value in content.items():
        if name == "embed":
            value = value.to_dict()
        elif name == "view":
            value = value.to_components() if isinstance(value, discord.ui.View) else None
        elif name == "allowed_mentions":
            continue  # who a post pinged: nothing a reader sees
        looks[name] = json.dumps(value, sort_keys=True, default=str)
    return looks


class LobbyMessages:
    def __init__(
        self, discord_: Discord, service: GameService, budget: RestBudget,
        failed: Callable[[int, BaseException], None],
    ) -> None:
        self._discord = discord_
        self.service = service
        self.budget = budget
        self.failed = failed  # (game, error): a call that showed a game failed
        self._shown: dict[int, tuple[int, dict[str, str]]] = {}  # game -> message, its looks
        self._answering: dict[int, set[asyncio.Future[None]]] = {}  # game -> answers in flight
        self._overlapping: set[int] = set()  # games two of whose answers were in flight at once

    @contextlib.contextmanager
    def answering(self, game_id: int) -> Iterator[None]:
        """Around an interaction that changes the game's lobby and shows it in its answer:
        a flush meanwhile waits for it before it decides whether to edit."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        pending = self._answering.setdefault(game_id, set())
        if pending:  # answers at once: Discord keeps whichever it applies last, unknown here
            self._overlapping.add(game_id)
        pending.add(done)
        try:
            yield
        finally:
            done.set_result(None)
            pending.discard(done)
            if not pending and self._answering.get(game_id) is pending:
                del self._answering[game_id]
                self._overlapping.discard(game_id)

    async def post(self, view: GameView, locale: str) -> None:
        """A lobby opened where no interaction answers with it (from the Activity): posted in
        its channel (with a nonce: a retried call posts it once), remembered, and what it shows
        noted, so that a flush meanwhile waits for it and then edits only what changed."""
        with self.answering(view.game_id):
            content = new_lobby(view, locale)
            try:
                async with self.budget.slot(Priority.TABLE, view.channel_id, "create"):
                    channel = self._discord.get_partial_messageable(view.channel_id,
                                                                    guild_id=view.guild_id)
                    message = await channel.send(nonce=nonce(view.game_id, "lobby"), **content)
            except CALL_FAILED as error:
                log.warning("could not post the lobby of game %s: %s", view.game_id, error)
                return
            await self.service.remember_message(view.game_id, LOBBY, view.channel_id, message.id)
            self.shown(view.game_id, message.id, content)

    def shown(self, game_id: int, message_id: int | None, content: dict[str, Any]) -> None:
        """The lobby was shown: `content` went out in message `message_id` (posted, or an
        edit of it: the fields it did not send stay as they were). Where answers to the lobby
        overlapped, Discord may have applied them in another order than their replies came
        back: nothing is known of what it shows, and the flush edits it."""
        if message_id is None:
            return
        if game_id in self._overlapping:
            self._shown.pop(game_id, None)
            return
        earlier = self._shown.get(game_id)
        looks = earlier[1] if earlier is not None and earlier[0] == message_id else {}
        self._shown[game_id] = (message_id, {**looks, **_looks(content)})

    async def show(self, view: GameView, locale: str) -> None:
        """The flush: edit the lobby message to the committed state, unless it shows it."""
        pending = self._answering.get(view.game_id)
        if pending:
            await asyncio.wait(set(pending), timeout=ANSWER_WAIT)
        ref = self.service.message_ref(view.game_id, LOBBY)
        content = lobby_edit(view, locale)
        if ref is not None and not self._shows(view.game_id, ref[1], _looks(content)):
            async with self.budget.slot(Priority.TABLE, view.channel_id, "edit"):
                if await self._edit(view.game_id, ref, content):
                    self.shown(view.game_id, ref[1], content)
        if view.status is not Status.LOBBY:  # its last change: nothing more to compare
            self._shown.pop(view.game_id, None)

    def _shows(self, game_id: int, message_id: int, looks: dict[str, str]) -> bool:
        """Whether that lobby message shows `looks` already, as far as this process knows."""
        shown = self._shown.get(game_id)
        if shown is None or shown[0] != message_id:
            return False
        return all(shown[1].get(name) == value for name, value in looks.items())

    async def _edit(self, game_id: int, ref: tuple[int, int], content: dict[str, Any]) -> bool:
        try:
            partial = self._discord.get_partial_messageable(ref[0])
            await partial.get_partial_message(ref[1]).edit(**content)
        except discord.NotFound:
            log.info("the lobby message of game %s is gone", game_id)
        except discord.HTTPException as error:
            log.warning("could not edit the lobby of game %s: %s", game_id, error)
            self.failed(game_id, error)
        else:
            return True
        return False
