"""The Activity's live channel: one WebSocket per open Activity, the channel's game pushed to
it as it changes, and its requests made through the game service.

Every socket follows the game of its session's channel (or the game thread it is in); one that
connects just after that game ended gets its end, as a socket that watched it end has it
(`FINAL_SCREEN_S`), until the next game opens there. The game service tells the hub of every
commit of this process (a listener, in the commit's own task): each socket of that place is
marked and its sender, woken at once, sends a fresh
`state` built from the process's copy — no Discord REST budget involved, well within 100 ms.
Bursts coalesce: a sender always sends the newest state, never a queue of stale ones.

Where other processes write the database (PostgreSQL), a socket may sit on a process that
did not commit the move. While sockets are open, the hub polls every `poll_every` seconds
(at most 250 ms apart): the marks of the watched games and the games of watched places
without one, a few statements for all of them (hosting/watch.py); a copy that differs is
reloaded and its sockets are sent the new state.

Whoever has a socket open is at the table of the game it shows: the hub tells `Presence`
(hosting/presence.py) when a socket shows a game, leaves it (closed, or on to the next game)
and makes a request of it, so the bot sends them no hand DM or turn ping while they play
here (docs/turn-pings.md).

A session that expires while its socket is open is told (`expired`) and closed: the page
signs in again. Closing the site closes every socket (1001, going away): pages reconnect,
to this process after a restart or to another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import WSMsgType, web

import i18n
from hosting import GameService, GameUpdate, Presence, Status
from hosting.clock import Clock

from .actions import Actions, BadRequest, Request
from .refusals import PlaceName, explain
from .sessions import LIFETIME_S, Session
from .view import build_view

log = logging.getLogger(__name__)

POLL_EVERY_S = 0.2  # between two polls of the stored games (the contract: at most 250 ms)
GOING_AWAY = 1001
# How long after a game ended in a channel a page that connects there is shown that game's end
# (standings, rating changes, Rematch) instead of no game, until a game opens there: a page
# reloaded, a socket that dropped at the wrong moment, a bot restarted, a player who opens the
# Activity from the "Game over" post a minute later. Longer than a session (LIFETIME_S): a page
# that watched the end signs in again within a session's lifetime, and its new socket shows the
# end still. Its Rematch never runs out in Discord, but a channel's Activity is there for the
# next game: after a while a newcomer is better offered to open a lobby than shown old scores.
FINAL_SCREEN_S = LIFETIME_S + 5 * 60


@dataclass(eq=False)
class Viewer:
    """One open socket: whose it is, the game it shows, and whether it has a state to send."""

    session: Session
    ws: web.WebSocketResponse
    game_id: int | None = None
    frames: int = 0  # states sent: each one's `version`
    dirty: asyncio.Event = field(default_factory=asyncio.Event)

    def follow(self, game_id: int) -> None:
        """The place's game is now `game_id` (a newer game: a rematch, the next lobby)."""
        if self.game_id is None or game_id >= self.game_id:
            self.game_id = game_id
        self.dirty.set()


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


class LiveHub:
    def __init__(self, service: GameService, actions: Actions, place_name: PlaceName,
                 clock: Clock, presence: Presence, *, poll_every: float = POLL_EVERY_S) -> None:
        self._service = service
        self._presence = presence
        self._watch = service.watch
        self._actions = actions
        self._place_name = place_name
        self._clock = clock
        self.poll_every = poll_every
        self._places: dict[int, set[Viewer]] = {}
        self._poller: asyncio.Task[None] | None = None
        service.add_listener(self.on_update)

    @property
    def viewers(self) -> int:
        return sum(len(v) for v in self._places.values())

    async def on_update(self, update: GameUpdate) -> None:
        """A commit of this process: the sockets of its place get the new state."""
        view = update.view
        for place in {view.channel_id, view.thread_id}:
            for viewer in self._places.get(place or 0, ()):
                self._follow(viewer, view.game_id)

    async def serve(self, ws: web.WebSocketResponse, session: Session) -> None:
        """The socket's life: its first state, then requests until it closes."""
        viewer = Viewer(session, ws)
        self._places.setdefault(session.channel_id, set()).add(viewer)
        sender = asyncio.create_task(self._send_loop(viewer), name="activity-sender")
        try:
            await self._first_state(viewer)
            self._start_polling()
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._answer(viewer, message.data)
        finally:
            if viewer.game_id is not None:
                self._presence.left(viewer.game_id, session.user_id)
            viewers = self._places.get(session.channel_id, set())
            viewers.discard(viewer)
            if not viewers:
                self._places.pop(session.channel_id, None)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    async def _first_state(self, viewer: Viewer) -> None:
        watch = self._watch
        ended_since = self._clock.now() - FINAL_SCREEN_S  # a game that just ended: its end
        game_id = await watch.game_in_place(viewer.session.channel_id, ended_since=ended_since)
        if game_id is not None and watch.shared:
            await watch.catch_up([game_id], [])  # a copy this process holds may be behind
        if game_id is not None:
            self._follow(viewer, game_id)
        viewer.dirty.set()  # the first state, a game or none

    def _follow(self, viewer: Viewer, game_id: int) -> None:
        """`Viewer.follow`, and the player's presence moved with the socket's game."""
        shown = viewer.game_id
        viewer.follow(game_id)
        if viewer.game_id != shown:
            user_id = viewer.session.user_id
            if shown is not None:
                self._presence.left(shown, user_id)
            self._presence.opened(game_id, user_id)

    async def _send_loop(self, viewer: Viewer) -> None:
        session = viewer.session
        while not viewer.ws.closed:
            left = session.expires_at - self._clock.now()
            if left <= 0:
                await self._send(viewer, {"type": "expired"})
                await viewer.ws.close(code=4401, message=b"session expired")
                return
            try:
                await asyncio.wait_for(viewer.dirty.wait(), left)
            except TimeoutError:
                continue
            viewer.dirty.clear()
            viewer.frames += 1
            await self._send(viewer, {"type": "state", "version": viewer.frames,
                                      "view": self.view_of(viewer)})

    def view_of(self, viewer: Viewer) -> dict[str, Any]:
        session, watch, game_id = viewer.session, self._watch, viewer.game_id
        view = watch.view(game_id) if game_id is not None else None
        hand = watch.hand(game_id, session.user_id) if game_id is not None else None
        ends = watch.turn_ends_at(game_id) if game_id is not None else None
        return build_view(view, hand, viewer=session.user_id, locale=session.locale,
                          turn_ends_at=ends, in_server=session.guild_id is not None,
                          now=self._clock.now())

    async def _send(self, viewer: Viewer, message: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):  # closed meanwhile
            await viewer.ws.send_str(encode(message))

    async def _answer(self, viewer: Viewer, data: str) -> None:
        """One request: `ok` once made, or `refused` with the reason in the user's words."""
        locale = viewer.session.locale
        try:
            request = Request.parse(orjson.loads(data))
        except (BadRequest, orjson.JSONDecodeError):
            text = i18n.translate("error.bad_request", locale)
            await self._send(viewer, {"type": "refused", "request_id": None, "message": text})
            return
        if viewer.game_id is not None:  # at the table, whatever the request's outcome
            self._presence.acted(viewer.game_id, viewer.session.user_id)
        try:
            await self._actions.perform(viewer.session, request, viewer.game_id)
        except Exception as error:
            view = self._watch.view(viewer.game_id) if viewer.game_id is not None else None
            text = explain(error, locale, view, self._place_name)
            await self._send(viewer, {"type": "refused", "request_id": request.request_id,
                                      "message": text})
            return
        await self._send(viewer, {"type": "ok", "request_id": request.request_id})

    # ------------------------------------------------------------------ other processes

    def _start_polling(self) -> None:
        if self._watch.shared and (self._poller is None or self._poller.done()):
            self._poller = asyncio.create_task(self._poll_loop(), name="activity-poll")

    async def _poll_loop(self) -> None:
        while self._places:
            try:
                await self.poll()
            except Exception:
                log.exception("the Activity's poll of the stored games failed")
            await asyncio.sleep(self.poll_every)

    async def poll(self) -> None:
        """Once: copies brought up to what other processes stored, and their sockets told."""
        games: set[int] = set()
        empty: set[int] = set()
        for place, viewers in self._places.items():
            for viewer in viewers:
                view = self._watch.view(viewer.game_id) if viewer.game_id is not None else None
                if view is not None and view.status in (Status.LOBBY, Status.RUNNING):
                    games.add(view.game_id)
                else:
                    empty.add(place)
        caught = await self._watch.catch_up(games, empty)
        for place, viewers in list(self._places.items()):
            for viewer in viewers:
                if place in caught.opened:
                    self._follow(viewer, caught.opened[place])
                elif viewer.game_id in caught.moved:
                    viewer.dirty.set()

    async def close(self) -> None:
        """Every socket closes (going away); pages reconnect wherever the site is served."""
        if self._poller is not None:
            self._poller.cancel()
        for viewers in list(self._places.values()):
            for viewer in list(viewers):
                await viewer.ws.close(code=GOING_AWAY, message=b"going away")
