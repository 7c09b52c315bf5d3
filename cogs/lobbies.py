"""A lobby's message: its embed, its buttons and, for a rematch, the line naming the players
the rematch seated without their asking ("@Ana @Bob: you're seated for the rematch").

The line pings them when the lobby is posted, so nobody is seated without knowing it and can
Leave in time. It is rebuilt with every edit of the lobby, from the seats as they are: it
names only those still seated, and goes once nobody of them is, or the lobby is cancelled.
"""

from __future__ import annotations

from typing import Any

from discord.utils import MISSING

from hosting.views import GameView, Status

from . import embeds
from .components import lobby_view
from .pings import NOBODY, only
from .text import t


def rematch_line(view: GameView, locale: str) -> str | None:
    """The players the rematch seated (not whoever pressed Rematch) who are still seated."""
    if view.rematch_of is None or view.status is not Status.LOBBY:  # started, cancelled: gone
        return None
    seated = [f"<@{user_id}>" for user_id in _seated_by_rematch(view)]
    if not seated:
        return None
    return t("lobby.rematch_ping", locale, count=len(seated), mentions=" ".join(seated))


def _seated_by_rematch(view: GameView) -> list[int]:
    return [s.user_id for s in view.seats
            if s.seated_by_rematch and not s.left and s.user_id is not None]


def new_lobby(view: GameView, locale: str) -> dict[str, Any]:
    """A new lobby message; a rematch's pings the players it seated (and nobody else)."""
    content: dict[str, Any] = {
        "embed": embeds.lobby_embed(view, locale),
        "view": lobby_view(view, locale) or MISSING,  # None: no longer a lobby
    }
    line = rematch_line(view, locale)
    if view.rematch_of is not None:  # None too: what the flush compares its edit with
        content["content"] = line
    content["allowed_mentions"] = only(_seated_by_rematch(view)) if line is not None else NOBODY
    return content


def lobby_edit(view: GameView, locale: str) -> dict[str, Any]:
    """The lobby message as it stands now (`view` None: its buttons go); a rematch's line
    is rewritten too (None: it goes). An edit pings nobody."""
    content: dict[str, Any] = {
        "embed": embeds.lobby_embed(view, locale),
        "view": lobby_view(view, locale),
        "allowed_mentions": NOBODY,
    }
    if view.rematch_of is not None:
        content["content"] = rematch_line(view, locale)
    return content
