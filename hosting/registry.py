"""Which games this process holds, where they are, and who may sit where.

The registry maps game ids and channels to the `HostedGame`s in memory, keeps a bounded
number of ended games for late edits and quick answers, routes a command to its game, and
holds the locks under which a seat is checked and taken (one seat per player per server;
seat_locks.py). It does no I/O.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager

from .errors import HostingError, Problem
from .hosted import HostedGame, Seat
from .seat_locks import SeatLocks
from .views import GameView, Status

RETIRED_KEPT = 256  # ended games kept in memory


class GameRegistry:
    def __init__(self) -> None:
        self._games: dict[int, HostedGame] = {}
        self._active: dict[int, HostedGame] = {}  # lobbies and running games: who sits where
        self._by_channel: dict[int, int] = {}
        self._by_thread: dict[int, int] = {}  # a game's thread: commands there reach it
        self._retired: deque[int] = deque()  # ended games still in memory, oldest first
        self._seat_locks = SeatLocks()
        self.registrations = 0  # games registered so far: what is remembered absent may be stale

    def register(self, hosted: HostedGame) -> None:
        self._games[hosted.id] = hosted
        self.registrations += 1
        if hosted.is_active:
            self._active[hosted.id] = hosted
            self._by_channel[hosted.channel_id] = hosted.id
            if hosted.thread_id is not None:
                self._by_thread[hosted.thread_id] = hosted.id

    def retire(self, hosted: HostedGame) -> None:
        """A game ended or was cancelled: free its channel; keep it a while, then forget it.

        The last few hundred stay in memory for the renderer's final edits and quick answers
        to their buttons; older ones live only in the store (rematch and stale presses
        fall back to it), so a long-running bot's memory stays bounded.
        """
        self._active.pop(hosted.id, None)
        if self._by_channel.get(hosted.channel_id) == hosted.id:
            del self._by_channel[hosted.channel_id]
        if hosted.thread_id is not None:
            self._by_thread.pop(hosted.thread_id, None)
        self._retired.append(hosted.id)
        while len(self._retired) > RETIRED_KEPT:
            self._games.pop(self._retired.popleft(), None)

    # ---------------------------------------------------------------- lookups

    def find(self, game_id: int) -> HostedGame | None:
        return self._games.get(game_id)

    def still_at(self, game_id: int, seq: int) -> bool:
        """Whether the game is running and has not moved since move `seq` (its turn is on)."""
        hosted = self._games.get(game_id)
        return hosted is not None and hosted.status is Status.RUNNING and hosted.seq == seq

    def get(self, game_id: int) -> HostedGame:
        hosted = self._games.get(game_id)
        if hosted is None:
            raise HostingError(Problem.NO_GAME_HERE)
        return hosted

    def running(self, game_id: int) -> HostedGame:
        hosted = self.get(game_id)
        if hosted.status is Status.LOBBY:
            raise HostingError(Problem.GAME_NOT_STARTED)
        if hosted.status is not Status.RUNNING:
            raise HostingError(Problem.GAME_FINISHED)
        return hosted

    def refuse_lobby_bystander(self, game_id: int, user_id: int) -> None:
        """A move or a hand asked of a lobby by someone with no seat in it: they are not in
        this game (that it has not started yet is for its players to hear)."""
        hosted = self._games.get(game_id)
        if hosted is not None and hosted.status is Status.LOBBY and (
                hosted.seat_of(user_id) is None):
            raise HostingError(Problem.NOT_IN_GAME)

    def lobby(self, game_id: int) -> HostedGame:
        hosted = self.get(game_id)
        if hosted.status is Status.RUNNING:
            raise HostingError(Problem.NOT_A_LOBBY)
        if hosted.status is not Status.LOBBY:
            raise HostingError(Problem.GAME_FINISHED)
        return hosted

    def in_channel(self, channel_id: int) -> HostedGame | None:
        """The active game of a channel, or of the game thread `channel_id` names."""
        game_id = self._by_channel.get(channel_id, self._by_thread.get(channel_id))
        return self._games[game_id] if game_id is not None else None

    def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameView]:
        return [g.view() for g in self.active_hosted_of(user_id, guild_id)]

    def active_hosted_of(self, user_id: int, guild_id: int | None = None) -> list[HostedGame]:
        """The lobbies and running games the user sits in (in this server, if given). Looked
        up before every slash move: only active games are searched, and no view is built."""
        return [
            g for g in self._active.values()
            if (guild_id is None or g.guild_id == guild_id)
            and g.is_active  # ended in place by a refresh, not yet retired
            and g.seat_of(user_id) is not None
        ]

    def channel_game(self, channel_id: int | None) -> HostedGame:
        """The game of this server channel (or game thread), or the refusal that none is."""
        hosted = self.in_channel(channel_id) if channel_id is not None else None
        if hosted is None:
            raise HostingError(Problem.NO_GAME_HERE)
        return hosted

    def route(self, user_id: int, channel_id: int | None, guild_id: int | None) -> GameView:
        """The game a command from this user in this place is about.

        In a server channel: that channel's game. In a DM: the caller's only running game.
        """
        if guild_id is not None:
            return self.channel_game(channel_id).view()
        mine = [v for v in self.active_games_of(user_id) if v.status is Status.RUNNING]
        if not mine:
            raise HostingError(Problem.NO_GAME_HERE, in_dm=True)
        if len(mine) > 1:
            raise HostingError(Problem.AMBIGUOUS_GAME, channel_ids=[v.channel_id for v in mine])
        return mine[0]

    # ------------------------------------------------------------------ seats

    def seating(self, guild_id: int, user_ids: Iterable[int | None],
                channel_id: int | None = None) -> AbstractAsyncContextManager[None]:
        """One seat per player per server, one open game per channel: a seat is checked and
        stored holding the locks of the players it seats and of the channel (seat_locks.py)."""
        return self._seat_locks.holding(guild_id, user_ids, channel_id)

    def seating_held(self, guild_id: int, user_id: int) -> bool:
        return self._seat_locks.held(guild_id, user_id)

    def check_not_seated_elsewhere(self, user_id: int, guild_id: int, game_id: int) -> None:
        for other in self.active_games_of(user_id, guild_id):
            if other.game_id != game_id:
                raise HostingError(Problem.SEATED_ELSEWHERE, channel_id=other.channel_id)


def seat_of(hosted: HostedGame, user_id: int) -> Seat:
    """The user's seat in this game, or the refusal that they have none."""
    seat = hosted.seat_of(user_id)
    if seat is None:
        raise HostingError(Problem.NOT_IN_GAME)
    return seat
