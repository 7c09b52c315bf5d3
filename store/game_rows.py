"""The rows of one hosted game: reading them into records, and the writes a game's steps
share (status checks, seats, timeouts, results). Used by store/games.py and
store/move_commit.py only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import orjson

from store.backend import Statement
from store.db import Row, Transaction
from store.errors import (
    AlreadySeated,
    GameNotFound,
    LobbyChanged,
    WrongGameStatus,
)
from store.records import (
    Actor,
    DueTimer,
    FinishedGame,
    Game,
    GameStatus,
    JsonDict,
    MessageRef,
    Move,
    NewSeat,
    Seat,
)

ACTIVE = "g.status IN ('lobby', 'running')"  # the partial index's own condition
# The lobby or running game of a channel, or of the game thread it is (parameters: the place
# twice), the channel's own game first: one lookup in each partial index of active games (per
# channel, per thread; an OR of the two would scan every active game on SQLite).
ACTIVE_IN_PLACE = (
    f"SELECT g.id, 0 AS by_thread FROM games g WHERE g.channel_id = ? AND {ACTIVE} "
    f"UNION ALL SELECT g.id, 1 AS by_thread FROM games g WHERE g.thread_id = ? AND {ACTIVE} "
    "ORDER BY by_thread LIMIT 1")


def dumps(value: JsonDict) -> str:
    """Compact JSON for a game's state and a move's action (every move stores both): orjson
    writes a 3-seat game's state in 0.6 µs, json in 7 (issue 14). Keys that are not strings
    become strings, as with json.dumps. (The engine's state holds no floats, so orjson's
    NaN-as-null never applies.)"""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def seat_from_row(row: Row) -> Seat:
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
        ai_number=row["ai_number"],
        left_after_seq=row["left_after_seq"],
        seated_by_rematch=bool(row["seated_by_rematch"]),
        kicked=bool(row["kicked"]),
    )


def game_from_row(row: Row, seats: tuple[Seat, ...]) -> Game:
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
        state=None if row["state_json"] is None else orjson.loads(row["state_json"]),
        last_seq=row["last_seq"],
        table_channel_id=row["table_channel_id"],
        table_message_id=row["table_message_id"],
        lobby_message_id=row["lobby_message_id"],
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        updated_at=row["updated_at"],
        seats=seats,
        rematch_of=row["rematch_of"],
        thread_id=row["thread_id"],
        timer=(DueTimer(row["timer_kind"], row["timer_due_ms"])
               if row["timer_due_ms"] is not None else None),
        table_round=row["table_round"],
        end_message_id=row["end_message_id"],
    )


def move_from_row(row: Row) -> Move:
    return Move(
        game_id=row["game_id"],
        seq=row["seq"],
        round_number=row["round_number"],
        seat=row["seat"],
        action=orjson.loads(row["action_json"]),
        actor=Actor(row["actor"]),
        created_at=row["created_at"],
    )


async def games_where(tx: Transaction, where: str, params: Sequence[Any]) -> list[Game]:
    """Games matching `where` (about table alias g), each with its seats, by id."""
    game_rows = await tx.fetchall(f"SELECT g.* FROM games g WHERE {where} ORDER BY g.id", params)
    seat_rows = await tx.fetchall(
        f"SELECT s.* FROM seats s JOIN games g ON g.id = s.game_id WHERE {where} "
        "ORDER BY s.game_id, s.seat",
        params,
    )
    seats: dict[int, list[Seat]] = {}
    for row in seat_rows:
        seats.setdefault(row["game_id"], []).append(seat_from_row(row))
    return [game_from_row(row, tuple(seats.get(row["id"], ()))) for row in game_rows]


async def load_game(tx: Transaction, game_id: int) -> Game:
    games = await games_where(tx, "g.id = ?", (game_id,))
    if not games:
        raise GameNotFound(game_id)
    return games[0]


async def active_game_in_channel(tx: Transaction, channel_id: int) -> int | None:
    """The channel's lobby or running game, under the channel's lock until `tx` ends: a
    second lobby for the channel waits for this transaction, then finds its game (PostgreSQL;
    the unique index alone would only fail it with an integrity error)."""
    await tx.lock("games of channel", channel_id)
    row = await tx.fetchone(f"SELECT id FROM games g WHERE channel_id = ? AND {ACTIVE}",
                            (channel_id,))
    return None if row is None else int(row["id"])


async def lock_game_row(tx: Transaction, game_id: int) -> Row | None:
    """The game's row, locked until `tx` ends: another transaction that changes this game
    (in this process or another) waits for `tx` to commit, then sees what it wrote. PostgreSQL
    locks the row (FOR UPDATE); SQLite's BEGIN IMMEDIATE already shuts out every other writer.
    """
    return await tx.fetchone(f"SELECT * FROM games WHERE id = ?{tx.for_update}", (game_id,))


async def lock_game_rows(tx: Transaction, game_ids: Iterable[int]) -> None:
    """Lock several games' rows, in id order: a transaction that writes to many games (their
    message ids, their render marks) takes each game's lock before any of its other rows, as a
    move does, and in one order, so two of them never wait for each other (a deadlock)."""
    ordered = sorted(game_ids)
    if ordered and tx.for_update:
        marks = ", ".join("?" * len(ordered))
        await tx.fetchall(
            f"SELECT id FROM games WHERE id IN ({marks}) ORDER BY id{tx.for_update}", ordered)


async def check_status(tx: Transaction, game_id: int, *allowed: GameStatus) -> Row:
    """The game's row, locked (`lock_game_row`), if its status is one of `allowed`."""
    row = await lock_game_row(tx, game_id)
    if row is None:
        raise GameNotFound(game_id)
    if row["status"] not in allowed:
        raise WrongGameStatus(game_id, row["status"], tuple(str(s) for s in allowed))
    return row


async def check_lobby(tx: Transaction, game_id: int, seated: Sequence[int | None] | None) -> Row:
    """The lobby's row, locked (`check_status`). `seated`: the seats the caller's copy has
    (user ids in seat order, None for an AI); stored ones that differ raise LobbyChanged."""
    row = await check_status(tx, game_id, GameStatus.LOBBY)
    if seated is not None:
        stored = await tx.fetchall(
            "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        if [r["user_id"] for r in stored] != list(seated):
            raise LobbyChanged(game_id)
    return row


async def touch(tx: Transaction, game_id: int, now: int) -> None:
    await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


async def set_timer(tx: Transaction, game_id: int, timer: DueTimer | None) -> None:
    """The game's next timer, in the transaction of the change that sets it."""
    kind, due = (timer.kind, timer.due_ms) if timer is not None else (None, None)
    await tx.execute(
        "UPDATE games SET timer_kind = ?, timer_due_ms = ? WHERE id = ?", (kind, due, game_id)
    )


async def insert_seat(
    tx: Transaction, game_id: int, index: int, new: NewSeat, now: int
) -> None:
    if new.user_id is not None:
        taken = await tx.fetchone(
            "SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?", (game_id, new.user_id)
        )
        if taken:
            raise AlreadySeated(game_id, new.user_id)
    await tx.execute(
        "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, ai_level, ai_number, "
        "seated_by_rematch, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, index, new.user_id, new.display_name, int(new.is_ai), new.ai_level,
         new.ai_number, int(new.seated_by_rematch), now),
    )


def timeout_count_sql(actor: Actor) -> str | None:
    """The UPDATE that counts a move towards the seat's expired turns in a row, if any.

    Issue 4: three expired turns in a row hand the seat to an AI; any move by the human
    resets the count. AI and system moves leave it alone. A count that is 0 already is left
    as it is: not written again by every human move (a page of SQLite's WAL, a row version
    and its WAL record on PostgreSQL, in every move's commit)."""
    if actor is Actor.TIMER:
        return ("UPDATE seats SET timeouts_in_a_row = timeouts_in_a_row + 1 "
                "WHERE game_id = ? AND seat = ?")
    if actor is Actor.HUMAN:
        return ("UPDATE seats SET timeouts_in_a_row = 0 "
                "WHERE game_id = ? AND seat = ? AND timeouts_in_a_row <> 0")
    return None


async def count_timeout(tx: Transaction, game_id: int, seat: int, actor: Actor) -> None:
    sql = timeout_count_sql(actor)
    if sql is not None:
        await tx.execute(sql, (game_id, seat))


async def write_results(
    tx: Transaction, game: Row, finished: FinishedGame, now: int
) -> None:
    game_id = game["id"]
    rows = await tx.fetchall("SELECT * FROM seats WHERE game_id = ?", (game_id,))
    seats = {row["seat"]: seat_from_row(row) for row in rows}
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
        "is_ai, final_score, place, won, tokens_collected, clean_rounds, vs_ai, left_game, "
        "kicked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, r.seat, game["guild_id"], game["variant"], now,
             seats[r.seat].user_id, int(seats[r.seat].is_ai), r.final_score, r.place,
             int(r.won), r.tokens_collected, r.clean_rounds,
             int(bool(ai_controlled - {r.seat})), int(seats[r.seat].has_left),
             int(seats[r.seat].kicked))
            for r in finished.results
        ],
    )


def message_ref_statements(ref: MessageRef) -> list[Statement]:
    """Store where a game's lobby, table (the game's newest, and its round's), game-end post
    or a seat's hand message is (its ids; the game-end post is in the game's thread, else its
    channel)."""
    if ref.kind == "table" and ref.round_number is not None:
        return [message_ref_statement(ref), Statement(
            "INSERT INTO round_tables (game_id, round_number, channel_id, message_id) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (game_id, round_number) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id",
            (ref.game_id, ref.round_number, ref.channel_id, ref.message_id))]
    return [message_ref_statement(ref)]


def message_ref_statement(ref: MessageRef) -> Statement:
    """The statement of `message_ref_statements` that stores it with the game or seat."""
    if ref.kind == "lobby":
        return Statement("UPDATE games SET lobby_message_id = ? WHERE id = ?",
                         (ref.message_id, ref.game_id))
    if ref.kind == "table":
        return Statement(
            "UPDATE games SET table_channel_id = ?, table_message_id = ?, table_round = ? "
            "WHERE id = ?",
            (ref.channel_id, ref.message_id, ref.round_number, ref.game_id))
    if ref.kind == "end":
        return Statement("UPDATE games SET end_message_id = ? WHERE id = ?",
                         (ref.message_id, ref.game_id))
    if ref.kind == "hand":
        return Statement(
            "UPDATE seats SET dm_channel_id = ?, hand_message_id = ?, hand_round = ? "
            "WHERE game_id = ? AND seat = ?",
            (ref.channel_id, ref.message_id, ref.round_number, ref.game_id, ref.seat))
    raise ValueError(f"unknown message kind {ref.kind!r}")
