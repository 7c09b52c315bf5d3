"""Hosted games: lobbies, seats, the move log, state and message ids (issue 4).

Timers are not stored: hosting derives them from a game's state and its last commit time."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from store.db import Database, Transaction
from store.errors import (
    AlreadySeated,
    ChannelHasActiveGame,
    GameNotFound,
    LobbyFull,
    SeatNotFound,
    SeqConflict,
    WrongGameStatus,
)
from store.records import (
    Actor,
    FinishedGame,
    Game,
    GameStatus,
    JsonDict,
    MessageRef,
    Move,
    NewSeat,
    Seat,
)

_ACTIVE = "g.status IN ('lobby', 'running')"  # the partial index's own condition


def _dumps(value: JsonDict) -> str:
    # allow_nan=False: NaN is not JSON; better to fail here than in a later json.loads.
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _seat(row: sqlite3.Row) -> Seat:
    return Seat(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_ai=bool(row["is_ai"]),
        ai_level=row["ai_level"],
        joined_at=row["joined_at"],
        has_left=bool(row["has_left"]),
        timeouts_in_a_row=row["timeouts_in_a_row"],
        dm_channel_id=row["dm_channel_id"],
        hand_message_id=row["hand_message_id"],
        hand_round=row["hand_round"],
        quit_pending_round=row["quit_pending_round"],
    )


def _game(row: sqlite3.Row, seats: tuple[Seat, ...]) -> Game:
    return Game(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_user_id=row["host_user_id"],
        variant=row["variant"],
        target=row["target"],
        turn_timeout_s=row["turn_timeout_s"],
        ai_delay_s=row["ai_delay_s"],
        status=GameStatus(row["status"]),
        seed=row["seed"],
        state=None if row["state_json"] is None else json.loads(row["state_json"]),
        last_seq=row["last_seq"],
        table_channel_id=row["table_channel_id"],
        table_message_id=row["table_message_id"],
        lobby_message_id=row["lobby_message_id"],
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        updated_at=row["updated_at"],
        seats=seats,
    )


def _move(row: sqlite3.Row) -> Move:
    return Move(
        game_id=row["game_id"],
        seq=row["seq"],
        round_number=row["round_number"],
        seat=row["seat"],
        action=json.loads(row["action_json"]),
        actor=Actor(row["actor"]),
        created_at=row["created_at"],
    )


async def _games_where(tx: Transaction, where: str, params: Sequence[Any]) -> list[Game]:
    """Games matching `where` (about table alias g), each with its seats, by id."""
    game_rows = await tx.fetchall(f"SELECT g.* FROM games g WHERE {where} ORDER BY g.id", params)
    seat_rows = await tx.fetchall(
        f"SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id WHERE {where} "
        "ORDER BY s.game_id, s.seat",
        params,
    )
    seats: dict[int, list[Seat]] = {}
    for row in seat_rows:
        seats.setdefault(row["game_id"], []).append(_seat(row))
    return [_game(row, tuple(seats.get(row["id"], ()))) for row in game_rows]


async def _load(tx: Transaction, game_id: int) -> Game:
    games = await _games_where(tx, "g.id = ?", (game_id,))
    if not games:
        raise GameNotFound(game_id)
    return games[0]


async def _status(tx: Transaction, game_id: int, *allowed: GameStatus) -> sqlite3.Row:
    """The game's row, if its status is one of `allowed`."""
    row = await tx.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    if row["status"] not in allowed:
        raise WrongGameStatus(game_id, row["status"], tuple(str(s) for s in allowed))
    return row


async def _touch(tx: Transaction, game_id: int, now: int) -> None:
    await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


async def _insert_seat(
    tx: Transaction, game_id: int, index: int, new: NewSeat, now: int
) -> None:
    if new.user_id is not None:
        taken = await tx.fetchone(
            "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?", (game_id, new.user_id)
        )
        if taken:
            raise AlreadySeated(game_id, new.user_id)
    await tx.execute(
        "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, ai_level, joined_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, index, new.user_id, new.display_name, int(new.is_ai), new.ai_level, now),
    )


async def _count_timeout(tx: Transaction, game_id: int, seat: int, actor: Actor) -> None:
    # Issue 4: three expired turns in a row hand the seat to an AI; any move by the human
    # resets the count. AI and system moves leave it alone.
    if actor is Actor.TIMER:
        change = "timeouts_in_a_row + 1"
    elif actor is Actor.HUMAN:
        change = "0"
    else:
        return
    await tx.execute(
        f"UPDATE seats SET timeouts_in_a_row = {change} WHERE game_id = ? AND seat = ?",
        (game_id, seat),
    )


async def _write_results(
    tx: Transaction, game: sqlite3.Row, finished: FinishedGame, now: int
) -> None:
    game_id = game["id"]
    rows = await tx.fetchall("SELECT * FROM seats WHERE game_id = ?", (game_id,))
    seats = {row["seat"]: _seat(row) for row in rows}
    given = [r.seat for r in finished.results]
    if sorted(given) != sorted(seats):
        raise ValueError(f"game {game_id}: results for seats {given}, the game has {list(seats)}")
    ai_controlled = {s.seat for s in seats.values() if s.ai_controlled}
    ai_count = sum(s.is_ai for s in seats.values())
    await tx.execute(
        "INSERT INTO finished_games (game_id, guild_id, variant, target, rounds, finished_at, "
        "player_count, human_count, ai_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, game["guild_id"], game["variant"], game["target"], finished.rounds, now,
         len(seats), len(seats) - ai_count, ai_count),
    )
    await tx.executemany(
        "INSERT INTO game_results (game_id, seat, guild_id, variant, finished_at, user_id, "
        "is_ai, final_score, place, won, tokens_collected, clean_rounds, vs_ai, left_game) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, r.seat, game["guild_id"], game["variant"], now,
             seats[r.seat].user_id, int(seats[r.seat].is_ai), r.final_score, r.place,
             int(r.won), r.tokens_collected, r.clean_rounds,
             int(bool(ai_controlled - {r.seat})), int(seats[r.seat].has_left))
            for r in finished.results
        ],
    )


class GameStore:
    """Every query about hosted games. Mutations bump the game's updated_at to `now`."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # --- lobby ----------------------------------------------------------------------------

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_user_id: int,
        variant: str,
        target: int,
        turn_timeout_s: int,
        ai_delay_s: float,
        now: int,
        seats: Sequence[NewSeat] = (),
    ) -> Game:
        """A new lobby with `seats` (e.g. the host and requested AIs) in that order.

        Raises ChannelHasActiveGame (with the existing game's id) if the channel is busy.
        """
        async with self._db.transaction() as tx:
            existing = await tx.fetchone(
                f"SELECT id FROM games g WHERE channel_id = ? AND {_ACTIVE}", (channel_id,)
            )
            if existing is not None:
                raise ChannelHasActiveGame(channel_id, existing["id"])
            game_id = await tx.insert(
                "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
                "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, host_user_id, variant, target, turn_timeout_s,
                 ai_delay_s, now, now),
            )
            for index, new in enumerate(seats):
                await _insert_seat(tx, game_id, index, new, now)
            return await _load(tx, game_id)

    async def add_seat(
        self, game_id: int, new: NewSeat, *, now: int, max_seats: int | None = None
    ) -> Seat:
        """Seat someone at the end of the lobby (seat order is join order)."""
        async with self._db.transaction() as tx:
            await _status(tx, game_id, GameStatus.LOBBY)
            row = await tx.fetchone(
                "SELECT COUNT(*) AS n FROM seats WHERE game_id = ?", (game_id,)
            )
            count = row["n"] if row else 0
            if max_seats is not None and count >= max_seats:
                raise LobbyFull(game_id, max_seats)
            await _insert_seat(tx, game_id, count, new, now)
            await _touch(tx, game_id, now)
            seat_row = await tx.fetchone(
                "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, count)
            )
        assert seat_row is not None
        return _seat(seat_row)

    async def remove_seat(self, game_id: int, seat: int, *, now: int) -> None:
        """Take a seat out of a lobby; later seats move up one, keeping join order."""
        async with self._db.transaction() as tx:
            await _status(tx, game_id, GameStatus.LOBBY)
            if not await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ):
                raise SeatNotFound(game_id, seat)
            later = await tx.fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                (game_id, seat),
            )
            # One row at a time, lowest first: the slot below is always free, whereas one
            # UPDATE could collide with the primary key half-way.
            for row in later:
                await tx.execute(
                    "UPDATE seats SET seat = seat - 1 WHERE game_id = ? AND seat = ?",
                    (game_id, row["seat"]),
                )
            await _touch(tx, game_id, now)

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        state: JsonDict,
        now: int,
    ) -> Game:
        """Lobby → running with the engine's initial state."""
        state_json = _dumps(state)
        async with self._db.transaction() as tx:
            await _status(tx, game_id, GameStatus.LOBBY)
            await tx.execute(
                "UPDATE games SET status = 'running', seed = ?, state_json = ?, "
                "started_at = ?, updated_at = ? WHERE id = ?",
                (seed, state_json, now, now, game_id),
            )
            return await _load(tx, game_id)

    async def cancel_game(self, game_id: int, *, now: int) -> None:
        """Lobby or running → cancelled. No results are recorded."""
        async with self._db.transaction() as tx:
            await _status(tx, game_id, GameStatus.LOBBY, GameStatus.RUNNING)
            await tx.execute(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ? "
                "WHERE id = ?",
                (now, now, game_id),
            )

    # --- moves ----------------------------------------------------------------------------

    async def commit_move(
        self,
        game_id: int,
        expected_seq: int,
        seat: int | None,
        action: JsonDict,
        actor: Actor,
        new_state: JsonDict,
        now: int,
        *,
        round_number: int,
        finished: FinishedGame | None = None,
    ) -> Move:
        """Append move `expected_seq` and save the state it led to, in one transaction.

        `expected_seq` must be the game's last_seq + 1, else SeqConflict (someone committed
        first; reload). A timer move counts towards the seat's timeouts_in_a_row, a human move
        resets it. `finished` ends the game: status finished, finished_games and
        game_results written.
        Any failure rolls back all of it.
        """
        action_json, state_json = _dumps(action), _dumps(new_state)
        async with self._db.transaction() as tx:
            game = await _status(tx, game_id, GameStatus.RUNNING)
            if expected_seq != game["last_seq"] + 1:
                raise SeqConflict(game_id, expected_seq, game["last_seq"] + 1)
            await tx.execute(
                "INSERT INTO moves (game_id, seq, round_number, seat, action_json, actor, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, expected_seq, round_number, seat, action_json, Actor(actor).value,
                 now),
            )
            await tx.execute(
                "UPDATE games SET state_json = ?, last_seq = ?, updated_at = ? WHERE id = ?",
                (state_json, expected_seq, now, game_id),
            )
            if seat is not None:
                await _count_timeout(tx, game_id, seat, Actor(actor))
            if finished is not None:
                await tx.execute(
                    "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?",
                    (now, game_id),
                )
                await _write_results(tx, game, finished, now)
        return Move(game_id, expected_seq, round_number, seat, action, Actor(actor), now)

    async def list_moves(self, game_id: int) -> list[Move]:
        """The game's move log in order, for replays."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        return [_move(row) for row in rows]

    # --- reading games --------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game | None:
        async with self._db.read() as tx:
            games = await _games_where(tx, "g.id = ?", (game_id,))
        return games[0] if games else None

    async def unfinished_games(self) -> list[Game]:
        """Every lobby and running game, for restoring them after a restart."""
        async with self._db.read() as tx:
            return await _games_where(tx, _ACTIVE, ())

    # --- messages and seats ---------------------------------------------------------------

    async def set_host(self, game_id: int, user_id: int, *, now: int) -> None:
        """The lobby's host left: another seated human hosts it now."""
        async with self._db.transaction() as tx:
            await _status(tx, game_id, GameStatus.LOBBY)
            await tx.execute(
                "UPDATE games SET host_user_id = ?, updated_at = ? WHERE id = ?",
                (user_id, now, game_id),
            )

    async def save_message_refs(self, refs: Sequence[MessageRef]) -> None:
        """Many games' message ids in one transaction (hosting writes them behind moves).

        updated_at stays: it is the time of the game's last move, which turn timers count from.
        """
        async with self._db.transaction() as tx:
            for ref in refs:
                if ref.kind == "lobby":
                    await tx.execute(
                        "UPDATE games SET lobby_message_id = ? WHERE id = ?",
                        (ref.message_id, ref.game_id),
                    )
                elif ref.kind == "table":
                    await tx.execute(
                        "UPDATE games SET table_channel_id = ?, table_message_id = ? WHERE id = ?",
                        (ref.channel_id, ref.message_id, ref.game_id),
                    )
                elif ref.kind == "hand":
                    await tx.execute(
                        "UPDATE seats SET dm_channel_id = ?, hand_message_id = ?, hand_round = ? "
                        "WHERE game_id = ? AND seat = ?",
                        (ref.channel_id, ref.message_id, ref.round_number, ref.game_id, ref.seat),
                    )
                else:
                    raise ValueError(f"unknown message kind {ref.kind!r}")

    async def hand_seat_to_ai(
        self,
        game_id: int,
        seat: int,
        *,
        ai_level: str,
        now: int,
        quit_pending_round: int | None = None,
    ) -> Seat:
        """The human left (or timed out too often): an AI of `ai_level` plays on.

        The seat keeps its user_id, so the finished game counts (as a loss) for them.
        `quit_pending_round`: they left during that round, which the AI quits for them.
        """
        async with self._db.transaction() as tx:
            await _status(tx, game_id, GameStatus.RUNNING)
            if not await tx.execute(
                "UPDATE seats SET has_left = 1, ai_level = ?, quit_pending_round = ? "
                "WHERE game_id = ? AND seat = ? AND is_ai = 0",
                (ai_level, quit_pending_round, game_id, seat),
            ):
                raise SeatNotFound(game_id, seat)
            await _touch(tx, game_id, now)
            row = await tx.fetchone(
                "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
        assert row is not None
        return _seat(row)
