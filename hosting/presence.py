"""Who is at a game's table in a window that is not a Discord message: the Activity (web/),
open on the game or used a moment ago. The window reports (`opened`, `left`, `acted`); the
Discord renderer asks (`seen_since`) before it sends a player a new hand DM or a turn ping:
one watching the game in the Activity needs no notification (docs/turn-pings.md).

Per process, in memory, as the renderer's own note of a player's moves and looks is
(cogs/render/ledger.py). With several processes on one database (PostgreSQL), a socket on
one process is not known to another: a turn that another process's commit brings (the other
player's move made there) pings the Activity's player as if they were away, which is the
old behaviour. The Activity's own moves are committed, and so shown, by the socket's process.
"""

from __future__ import annotations

from .clock import Clock

# A window left or used longer ago than this is forgotten (checked at most once per this
# time): far beyond any "a moment ago" a caller asks about.
KEPT_FOR = 3600.0


class Presence:
    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._open: dict[tuple[int, int], int] = {}  # (game, user): windows open on it now
        self._seen: dict[tuple[int, int], float] = {}  # (game, user): last opened, used, left
        self._pruned = clock.now()

    def opened(self, game_id: int, user_id: int) -> None:
        """A window shows the game to the player (it shows their hand, if they hold one)."""
        key = (game_id, user_id)
        self._open[key] = self._open.get(key, 0) + 1
        self._note(key)

    def left(self, game_id: int, user_id: int) -> None:
        """A window that `opened` on the game closed (or went on to another game)."""
        key = (game_id, user_id)
        count = self._open.get(key, 0) - 1
        if count > 0:
            self._open[key] = count
        else:
            self._open.pop(key, None)
        self._note(key)

    def acted(self, game_id: int, user_id: int) -> None:
        """The player made a request of the game through a window (a move, or one refused)."""
        self._note((game_id, user_id))

    def seen_since(self, game_id: int, user_id: int, since: float) -> bool:
        """Whether the player has a window open on the game, or opened, used or left one
        after clock time `since`."""
        key = (game_id, user_id)
        seen = self._seen.get(key)
        return key in self._open or (seen is not None and seen > since)

    def _note(self, key: tuple[int, int]) -> None:
        now = self._clock.now()
        self._seen[key] = now
        if now - self._pruned >= KEPT_FOR:
            self._pruned = now
            self._seen = {k: seen for k, seen in self._seen.items()
                          if k in self._open or now - seen < KEPT_FOR}
