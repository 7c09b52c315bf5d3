"""A move's commit (`GameStore.commit_move`): its usual case as one batch of fixed
statements, and the checked path, step by step, that a game's last move takes (results,
ratings) and that names the refusal when the batch's guard found the game not as expected.
For store/games.py's `commit_move`."""

from __future__ import annotations

from store.backend import Params, Statement
from store.db import Row, Transaction
from store.errors import InteractionAlreadyApplied, SeqConflict, TimerNotClaimed
from store.game_rows import check_status, count_timeout, set_timer, timeout_count_sql, write_results
from store.rating_records import RatingRules
from store.ratings import rate_stored_game
from store.records import DueTimer, FinishedGame, GameStatus, Move
from store.renders import needs_showing, needs_showing_statement
from store.results_versions import results_changed


def move_statements(
    move: Move, action_json: str, state_json: str, interaction_id: int | None,
    timer: DueTimer | None, process: str, claimed: tuple[str, Params] | None = None,
) -> list[Statement]:
    """commit_move's usual case as one batch: the state (and the next turn's timer) is saved
    only if the game is running, at the expected seq and the interaction not applied yet (the
    guard; `claimed`: a due timer's claim instead, store/timers.py); then the move and the
    seat's timeout count. Plain statements, whose parameters both dialects type by column."""
    where, where_params = claimed or (
        "id = ? AND status = ? AND last_seq = ?",
        (move.game_id, GameStatus.RUNNING.value, move.seq - 1))
    once, once_params = "", tuple[int, ...]()
    if interaction_id is not None:
        once = " AND NOT EXISTS (SELECT 1 FROM moves WHERE interaction_id = ?)"
        once_params = (interaction_id,)
    statements = [
        Statement(
            "UPDATE games SET state_json = ?, last_seq = ?, updated_at = ?, timer_kind = ?, "
            f"timer_due_ms = ? WHERE {where}{once}",
            (state_json, move.seq, move.created_at, timer and timer.kind, timer and timer.due_ms,
             *where_params, *once_params),
            guard=True,
        ),
        Statement(
            "INSERT INTO moves (game_id, seq, round_number, seat, action_json, actor, "
            "created_at, interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (move.game_id, move.seq, move.round_number, move.seat, action_json,
             move.actor.value, move.created_at, interaction_id),
        ),
    ]
    timeout_sql = timeout_count_sql(move.actor) if move.seat is not None else None
    if timeout_sql is not None:
        statements.append(Statement(timeout_sql, (move.game_id, move.seat)))
    statements.append(needs_showing_statement(move.game_id, move.seq, move.created_at, process))
    return statements


async def commit_checked(
    tx: Transaction, move: Move, action_json: str, state_json: str, *,
    interaction_id: int | None, timer: DueTimer | None, claimed: tuple[str, Params] | None,
    finished: FinishedGame | None, process: str, rules: RatingRules | None,
) -> None:
    """`commit_move` step by step, each check raising its own error; `finished`: the game's
    last move, with its results and (`rules`) its ratings."""
    game_id, seq = move.game_id, move.seq
    game = await lock_for_move(tx, game_id, claimed)
    if interaction_id is not None:  # after the game's row: a racing twin has committed
        await refuse_applied(tx, interaction_id)
    if seq != game["last_seq"] + 1:
        raise SeqConflict(game_id, seq, game["last_seq"] + 1)
    await tx.execute(
        "INSERT INTO moves (game_id, seq, round_number, seat, action_json, actor, "
        "created_at, interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, seq, move.round_number, move.seat, action_json, move.actor.value,
         move.created_at, interaction_id),
    )
    await tx.execute(
        "UPDATE games SET state_json = ?, last_seq = ?, updated_at = ? WHERE id = ?",
        (state_json, seq, move.created_at, game_id),
    )
    await set_timer(tx, game_id, None if finished is not None else timer)
    if move.seat is not None:
        await count_timeout(tx, game_id, move.seat, move.actor)
    await needs_showing(tx, game_id, seq, move.created_at, process)
    if finished is not None:
        await _finish(tx, game, finished, move.created_at, rules)


async def _finish(tx: Transaction, game: Row, finished: FinishedGame, now: int,
                  rules: RatingRules | None) -> None:
    """A game's last move: status finished, its results, its ratings, and its server's
    results version raised."""
    await tx.execute(
        "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?",
        (now, game["id"]),
    )
    await write_results(tx, game, finished, now)
    if rules is not None:
        await rate_stored_game(tx, rules, game, finished, now)
    await results_changed(tx, [game["guild_id"]])  # last: results_versions.py


async def lock_for_move(
    tx: Transaction, game_id: int, claimed: tuple[str, Params] | None
) -> Row:
    """The running game's row, locked until `tx` ends (`check_status`); `claimed`: only if
    this transaction claims its due timer (store/timers.py), else TimerNotClaimed."""
    if claimed is None:
        return await check_status(tx, game_id, GameStatus.RUNNING)
    row = await tx.fetchone(f"SELECT * FROM games WHERE {claimed[0]}", claimed[1])
    if row is None:
        raise TimerNotClaimed(game_id)  # another transaction holds it, or it moved on
    return row


async def refuse_applied(tx: Transaction, interaction_id: int) -> None:
    """InteractionAlreadyApplied if this interaction's move is in the log already."""
    done = await tx.fetchone(
        "SELECT game_id, seq FROM moves WHERE interaction_id = ?", (interaction_id,))
    if done is not None:
        raise InteractionAlreadyApplied(done["game_id"], done["seq"], interaction_id)
