"""A request from the Activity, made through the same `GameService` as a slash command or a
button: the same checks, the same refusals, the same commits, outbox and listeners (so the
table message and the DM hands follow a move made here, and the ratings count it).

The actor is always the session's user, in the session's channel: a request cannot name
another player or another place. A lobby opened here (or a rematch's) has no interaction to
answer with it, so the interface that shows lobbies in Discord is asked to post it
(`ShowLobby`, the renderer's, handed in by the composition root).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hosting import GameService, GameUpdate, HostingError, Problem
from lama.cards import CARDS

from .sessions import Session

ShowLobby = Callable[[GameUpdate], Awaitable[None]]
ACTIONS = ("play", "draw", "quit", "open_lobby", "join", "add_ai", "start", "rematch")
LONGEST_ID = 64  # characters of a request id the page may choose


class BadRequest(Exception):
    """Not a request the contract knows (a missing field, a wrong type, an unknown action)."""


@dataclass(frozen=True)
class Request:
    request_id: str
    action: str
    card: str | None = None  # a card's code ("3", "3+", "L", "P")

    @classmethod
    def parse(cls, message: Any) -> Request:
        if not isinstance(message, dict) or message.get("type") != "request":
            raise BadRequest("not a request")
        request_id, action, card = (message.get("request_id"), message.get("action"),
                                    message.get("card"))
        if not isinstance(request_id, str) or not 0 < len(request_id) <= LONGEST_ID:
            raise BadRequest("request_id")
        if action not in ACTIONS:
            raise BadRequest("action")
        if action == "play":
            if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(CARDS):
                card = CARDS[card].code  # the `value` a view gave the card
            if not isinstance(card, str) or not 0 < len(card) <= 3:
                raise BadRequest("card")
            return cls(request_id, action, card)
        return cls(request_id, action)


class Actions:
    def __init__(self, service: GameService, show_lobby: ShowLobby) -> None:
        self._service = service
        self._show_lobby = show_lobby

    async def perform(self, session: Session, request: Request, last_game: int | None) -> None:
        """Do what `request` asks, as the session's user (`last_game`: the game the page
        shows, for a rematch of it); raises the refusal (HostingError, IllegalAction, …)."""
        service, user, action = self._service, session.user_id, request.action
        if session.guild_id is None:  # launched in a DM: games are a server's
            raise HostingError(Problem.WRONG_CHANNEL)
        if action == "open_lobby":
            await self._open_lobby(session)
        elif action == "rematch":
            if last_game is None:
                raise HostingError(Problem.NO_GAME_HERE)
            await self._show_lobby(await service.rematch(last_game, user, session.name))
        else:
            await service.on_channel_game(session.channel_id, self._command(session, request))

    def _command(self, session: Session,
                 request: Request) -> Callable[[int], Awaitable[GameUpdate]]:
        service, user, action = self._service, session.user_id, request.action
        if action == "play":
            card = request.card or ""
            return lambda game_id: service.play(game_id, user, card)
        if action == "draw":
            return lambda game_id: service.draw(game_id, user)
        if action == "quit":
            return lambda game_id: service.quit_round(game_id, user)
        if action == "join":
            return lambda game_id: service.join(game_id, user, session.name)
        if action == "add_ai":
            return lambda game_id: service.add_ai(game_id, user)
        return lambda game_id: service.start(game_id, user)

    async def _open_lobby(self, session: Session) -> None:
        """A lobby in the session's channel with the server's defaults, as `/lama new`
        with no options opens one."""
        service, guild_id = self._service, session.guild_id
        assert guild_id is not None
        options = await service.guild_defaults(guild_id)  # the server's settings, read first
        service.check_channel_allowed(guild_id, session.channel_id)
        update = await service.open_lobby(guild_id, session.channel_id, session.user_id,
                                          session.name, options)
        await self._show_lobby(update)
