"""What committed changes still have to show: the store's render outbox, as game updates.

A game's start and each move note in their own transaction that the game must be shown up to
that move (store/renders.py); the interface says when it has shown a game up to a move
(`shown`, written behind moves with the message ids, see messages.py). Whatever is left
after a crash, or after Discord kept refusing a call, comes back from here as one
`GameUpdate` per game, rebuilt from committed state alone: the game as stored (a finished one
too) and the events of its unshown moves, replayed from the move log. No Discord types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lama import Game
from lama.actions import action_from_dict
from lama.events import Event, RoundStarted
from store import Actor, Move, PendingRender, Store

from .hosted import RECENT_EVENTS, HostedGame
from .messages import MessageRefs
from .registry import GameRegistry
from .table import Table
from .views import GameUpdate, Notice, NoticeKind


class Outbox:
    def __init__(
        self, store: Store, registry: GameRegistry, messages: MessageRefs, table: Table
    ) -> None:
        self._store = store
        self._registry = registry
        self._messages = messages
        self._table = table

    async def pending(self, hosts: Callable[[int], bool] | None = None) -> list[GameUpdate]:
        """Every game with committed changes not yet shown (after a restart), oldest first;
        of the servers `hosts` says this process serves (its shards), if given."""
        updates = []
        for row in await self._store.renders.pending():
            update = await self._update(row, hosts)
            if update is not None:
                updates.append(update)
        return updates

    async def pending_of(self, game_id: int) -> GameUpdate | None:
        """The game's unshown changes up to its newest state (a retry), or None if shown."""
        row = await self._store.renders.pending_of(game_id)
        return None if row is None else await self._update(row)

    async def shown(self, game_id: int, seq: int) -> None:
        """The interface has shown the game up to move `seq` (0: its deal)."""
        await self._messages.shown(game_id, seq)

    async def _update(
        self, row: PendingRender, hosts: Callable[[int], bool] | None = None
    ) -> GameUpdate | None:
        hosted = self._registry.find(row.game_id) or await self._load(row.game_id, hosts)
        if hosted is None:  # another process's server, or deleted (that row is gone too)
            return None
        if hosted.game is None:  # never started: nothing to show
            await self.shown(row.game_id, row.to_seq)
            return None
        moves = [m for m in await self._store.games.list_moves(hosted.id) if m.seq <= hosted.seq]
        events, shown = _replay(hosted.game, moves, row.from_seq)
        unshown = [m for m in moves if m.seq >= row.from_seq]
        if not hosted.recent:  # restored from the store: its table's last moves, known again
            hosted.recent.extend(events[-RECENT_EVENTS:])
        return GameUpdate(
            view=hosted.view(),
            events=tuple(shown),
            notices=tuple(_time_outs(hosted, unshown)),
            hands=hosted.hands(),
            actor_seat=unshown[-1].seat if unshown else None,
        )

    async def _load(
        self, game_id: int, hosts: Callable[[int], bool] | None
    ) -> HostedGame | None:
        """A game that ended before the restart: in memory again, for its last messages."""
        record = await self._store.games.get_game(game_id)
        if record is None or (hosts is not None and not hosts(record.guild_id)):
            return None
        hosted = HostedGame.from_record(record)
        hosted.ratings = await self._table.rating_changes(hosted.id)
        self._registry.register(hosted)
        if not hosted.is_active:
            self._registry.retire(hosted)
        return hosted


def _replay(game: Game, moves: Sequence[Move], from_seq: int) -> tuple[list[Event], list[Event]]:
    """Every event of the game, and those of moves `from_seq`.. (0: the deal too)."""
    replay = Game.new(game.ruleset, game.num_seats, game.seed, target=game.target)
    deal = RoundStarted(replay.round_number, replay.seat_on_turn, replay.top_card)
    events: list[Event] = [deal]
    shown: list[Event] = [deal] if from_seq == 0 else []
    for move in moves:
        if move.seat is None:
            continue
        happened = replay.apply(move.seat, action_from_dict(move.action))
        events += happened
        if move.seq >= from_seq:
            shown += happened
    return events, shown


def _time_outs(hosted: HostedGame, moves: Sequence[Move]) -> list[Notice]:
    """The turn timer quit a round for someone: said in the channel, as it was live."""
    return [
        Notice(NoticeKind.TIMED_OUT, m.seat, hosted.seats[m.seat].user_id, seq=m.seq)
        for m in moves if m.actor is Actor.TIMER and m.seat is not None
    ]
