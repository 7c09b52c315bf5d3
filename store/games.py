"""Hosted games: lobbies, seats, the move log, state and message ids (issue 4).

Each running game's next timer is stored with the commit that sets it; store/timers.py
claims due ones."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from store.backend import Dialect, Transaction
from store.db import Database
from store.errors import ChannelHasActiveGame, LobbyFull, SeatNotFound
from store.game_rows import (
    ACTIVE,
    ACTIVE_IN_PLACE,
    active_game_in_channel,
    check_lobby,
    check_status,
    dumps,
    games_where,
    insert_seat,
    load_game,
    lock_game_rows,
    message_ref_statements,
    move_from_row,
    seat_from_row,
    set_timer,
    touch,
)
from store.move_commit import commit_checked, move_statements
from store.rating_records import RatingRules
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
    TimerClaim,
)
from store.renders import DEFAULT_PROCESS, mark_shown, needs_showing, shown_statements
from store.timers import claim_condition
from store.tournaments import TableKey, link_table_game
from store.versions import Versions


class GameStore:
    """Every query about hosted games. Mutations bump the game's updated_at to `now`."""

    def __init__(
        self, db: Database, rules: RatingRules | None = None, process: str = DEFAULT_PROCESS
    ) -> None:
        """`rules`: rate every finished game with them, in the transaction that stores it.
        `process`: this process's name, holding the renders of what it commits (renders.py)."""
        self._db = db
        self._rules = rules
        self._process = process
        self._versions = Versions(db)

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
        rematch_of: int | None = None,
        thread_id: int | None = None,
        table: TableKey | None = None,
    ) -> Game:
        """A new lobby with `seats` (e.g. the host and requested AIs) in that order;
        `rematch_of` names the finished game a rematch replays; `thread_id` the thread it
        shows itself in; `table` the tournament table it is played as (linked in the same
        transaction, so a table never loses its game to a crash).

        Raises ChannelHasActiveGame (with the existing game's id) if the channel is busy.
        """
        async def create(tx: Transaction) -> Game:
            existing = await active_game_in_channel(tx, channel_id)
            if existing is not None:
                raise ChannelHasActiveGame(channel_id, existing)
            game_id = await tx.insert(
                "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
                "turn_timeout_s, ai_delay_s, status, created_at, updated_at, rematch_of, "
                "thread_id) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (guild_id, channel_id, host_user_id, variant, target, turn_timeout_s,
                 ai_delay_s, now, now, rematch_of, thread_id),
            )
            for index, new in enumerate(seats):
                await insert_seat(tx, game_id, index, new, now)
            if table is not None:
                await link_table_game(tx, table, game_id)
            return await load_game(tx, game_id)
        return await self._db.write(create)

    async def add_seat(
        self, game_id: int, new: NewSeat, *, now: int, max_seats: int | None = None,
        seated: Sequence[int | None] | None = None,
    ) -> Seat:
        """Seat someone at the end of the lobby (seat order is join order). `seated`, here and
        below: the seats the caller's copy has, else LobbyChanged (`check_lobby`)."""
        async def seat(tx: Transaction) -> Seat:
            await check_lobby(tx, game_id, seated)
            row = await tx.fetchone(
                "SELECT COUNT(*) AS n FROM seats WHERE game_id = ?", (game_id,)
            )
            count = row["n"] if row else 0
            if max_seats is not None and count >= max_seats:
                raise LobbyFull(game_id, max_seats)
            await insert_seat(tx, game_id, count, new, now)
            await touch(tx, game_id, now)
            seat_row = await tx.fetchone(
                "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, count)
            )
            assert seat_row is not None
            return seat_from_row(seat_row)
        return await self._db.write(seat)

    async def remove_seat(self, game_id: int, seat: int, *, now: int,
                          seated: Sequence[int | None] | None = None) -> None:
        """Take a seat out of a lobby; later seats move up one, keeping join order. An AI
        keeps what it is called by: one stored without a number (NULL: called by its place,
        as lobbies were before every AI got one) takes the place it leaves as its number."""
        async def unseat(tx: Transaction) -> None:
            await check_lobby(tx, game_id, seated)
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
                    "UPDATE seats SET seat = seat - 1, ai_number = CASE WHEN is_ai = 1 "
                    "THEN COALESCE(ai_number, seat + 1) ELSE ai_number END "
                    "WHERE game_id = ? AND seat = ?",
                    (game_id, row["seat"]),
                )
            await touch(tx, game_id, now)
        await self._db.write(unseat)

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        state: JsonDict,
        now: int,
        timer: DueTimer | None = None,
        seated: Sequence[int | None] | None = None,
    ) -> Game:
        """Lobby → running with the engine's initial state (and the first turn's timer)."""
        state_json = dumps(state)
        async def start(tx: Transaction) -> Game:
            await check_lobby(tx, game_id, seated)
            await tx.execute(
                "UPDATE games SET status = 'running', seed = ?, state_json = ?, "
                "started_at = ?, updated_at = ? WHERE id = ?",
                (seed, state_json, now, now, game_id),
            )
            await set_timer(tx, game_id, timer)
            await needs_showing(tx, game_id, 0, now, self._process)  # the deal
            return await load_game(tx, game_id)
        return await self._db.write(start)

    async def cancel_game(self, game_id: int, *, now: int,
                          seated: Sequence[int | None] | None = None) -> None:
        """Lobby or running → cancelled. No results are recorded. With `seated` (a host
        leaving a lobby they hold alone), only a lobby with exactly those seats."""
        async def cancel(tx: Transaction) -> None:
            if seated is None:
                await check_status(tx, game_id, GameStatus.LOBBY, GameStatus.RUNNING)
            else:
                await check_lobby(tx, game_id, seated)
            await tx.execute(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ?, "
                "timer_kind = NULL, timer_due_ms = NULL WHERE id = ?",
                (now, now, game_id),
            )
        await self._db.write(cancel)

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
        interaction_id: int | None = None,
        timer: DueTimer | None = None,
        claim: TimerClaim | None = None,
    ) -> Move:
        """Append move `expected_seq` and save the state it led to, and the timer of the turn
        it starts (None: no timer, e.g. the game is over), in one transaction.

        `expected_seq` must be the game's last_seq + 1, else SeqConflict (someone committed
        first; reload). A move of an `interaction_id` already in the log raises
        InteractionAlreadyApplied instead (the same interaction delivered twice). A timer move
        counts towards the seat's timeouts_in_a_row, a human move resets it. `finished` ends
        the game: status finished, finished_games and game_results written. `claim`: a due
        timer's move (AI, time-out), applied only by the transaction that claims the timer
        (store/timers.py), else TimerNotClaimed. Any failure rolls back all of it.
        """
        action_json, state_json = dumps(action), dumps(new_state)
        move = Move(game_id, expected_seq, round_number, seat, action, Actor(actor), now)
        claimed = claim_condition(game_id, expected_seq - 1, claim, self._db.dialect)
        if finished is None and await self._db.batch(
            move_statements(move, action_json, state_json, interaction_id, timer,
                            self._process, claimed)
        ):
            return move
        # A game's last move (results, ratings), or the guard found the game not as expected:
        # checked step by step, which raises the precise error (a timer's: not claimed).
        await self._db.write(partial(
            commit_checked, move=move, action_json=action_json, state_json=state_json,
            interaction_id=interaction_id, timer=timer, claimed=claimed, finished=finished,
            process=self._process, rules=self._rules))
        return move

    async def list_moves(self, game_id: int) -> list[Move]:
        """The game's move log in order, for replays."""
        rows = await self._db.fetchall(
            "SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
        return [move_from_row(row) for row in rows]

    async def moves_to_replay(self, game_id: int, round_number: int,
                              first_seq: int | None = None) -> list[Move]:
        """The game's moves of round `round_number` on, in order: with that round's deal,
        enough to replay it. If move `first_seq` (needed too) is of an earlier round, the
        whole log instead, since only round 1's deal needs no earlier round. One read."""
        rows = await self._db.fetchall(
            "SELECT * FROM moves WHERE game_id = :game AND round_number >= CASE"
            " WHEN COALESCE((SELECT round_number FROM moves WHERE game_id = :game"
            " AND seq = :first), :round) >= :round THEN :round ELSE 1 END ORDER BY seq",
            {"game": game_id, "round": round_number, "first": first_seq})
        return [move_from_row(row) for row in rows]

    # --- reading games --------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game | None:
        async with self._db.read() as tx:
            games = await games_where(tx, "g.id = ?", (game_id,))
        return games[0] if games else None

    async def round_table(self, game_id: int, round_number: int) -> tuple[int, int] | None:
        """The message (channel, id) that showed that round's table, if one was stored."""
        row = await self._db.fetchone(
            "SELECT channel_id, message_id FROM round_tables "
            "WHERE game_id = ? AND round_number = ?", (game_id, round_number))
        return None if row is None else (row["channel_id"], row["message_id"])

    async def rematch_of(self, game_id: int) -> Game | None:
        """The game that replays a finished one (its newest, if several), unless it was
        cancelled: a cancelled rematch leaves the finished game free to be replayed."""
        async with self._db.read() as tx:
            games = await games_where(
                tx, "g.rematch_of = ? AND g.status != 'cancelled'", (game_id,))
        return games[-1] if games else None

    async def version(self, game_id: int) -> tuple[GameStatus, int] | None:
        """A game's status and last_seq as stored now (another process may have moved it);
        on PostgreSQL read with the others asked for meanwhile (store/versions.py)."""
        return await self._versions.version(game_id)

    async def active_game_ids_of(self, user_id: int) -> list[int]:
        """The lobbies and running games where this user holds a seat, whichever process
        hosts them."""
        rows = await self._db.fetchall(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND s.has_left = 0 AND g.status IN ('lobby', 'running') "
            "ORDER BY g.id", (user_id,))
        return [row["id"] for row in rows]

    async def active_game_in_place(self, place_id: int) -> int | None:
        """The lobby or running game of this channel, or of the game thread `place_id` is,
        whichever process opened it; the channel's own game first, as hosting routes."""
        row = await self._db.fetchone(ACTIVE_IN_PLACE, (place_id, place_id))
        return None if row is None else int(row["id"])

    async def explain_active_game_in_place(self, *, as_if_large: bool = False) -> list[str]:
        """The plan of `active_game_in_place` (`Transaction.explain`), for tests."""
        async with self._db.read() as tx:
            return await tx.explain(ACTIVE_IN_PLACE, (1, 1), as_if_large=as_if_large)

    async def unfinished_games(self) -> list[Game]:
        """Every lobby and running game, for restoring them after a restart."""
        async with self._db.read() as tx:
            return await games_where(tx, ACTIVE, ())

    # --- messages and seats ---------------------------------------------------------------

    async def set_host(self, game_id: int, user_id: int, *, now: int,
                       seated: Sequence[int | None] | None = None) -> None:
        """The lobby's host left: another seated human hosts it now."""
        async def hand_over(tx: Transaction) -> None:
            await check_lobby(tx, game_id, seated)
            await tx.execute(
                "UPDATE games SET host_user_id = ?, updated_at = ? WHERE id = ?",
                (user_id, now, game_id),
            )
        await self._db.write(hand_over)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """The thread the game shows itself in; like message ids, it keeps `updated_at`."""
        async def move_in(tx: Transaction) -> None:
            await check_status(tx, game_id, GameStatus.LOBBY, GameStatus.RUNNING)
            await tx.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))
        await self._db.write(move_in)

    async def save_message_refs(
        self, refs: Sequence[MessageRef], shown: Sequence[tuple[int, int]] = ()
    ) -> None:
        """Many games' message ids in one transaction (hosting writes them behind moves),
        and `shown`: (game, seq) pairs, each a move now shown on Discord (exactly that one:
        renders.py). Both in one transaction: a crash never keeps the mark without the ids
        of what showed it.

        updated_at stays: it is the time of the game's last move, which turn timers count from.
        """
        ids = [statement for ref in refs for statement in message_ref_statements(ref)]
        if self._db.dialect is Dialect.SQLITE:
            # one trip, committed with the moves' batches; BEGIN IMMEDIATE makes it the only
            # writer, so there are no row locks to take in order
            await self._db.batch([*shown_statements(shown), *ids])
            return
        async with self._db.transaction() as tx:
            await lock_game_rows(tx, {g for g, _ in shown} | {ref.game_id for ref in refs})
            await mark_shown(tx, shown)
            for statement in ids:
                await tx.execute(statement.sql, statement.params)

    async def hand_seat_to_ai(
        self,
        game_id: int,
        seat: int,
        *,
        ai_level: str,
        now: int,
        quit_pending_round: int | None = None,
        timer: DueTimer | None = None,
        kicked: bool = False,
    ) -> Seat:
        """The human left (or timed out too often, or was `kicked`): an AI of `ai_level`
        plays on.

        The seat keeps its user_id, so the finished game counts (as last place) for them,
        unless they were kicked: then it is neither rated nor counted in their statistics.
        It keeps the game's last move (`left_after_seq`): up to it was the human's doing.
        `quit_pending_round`: they left during that round, which the AI quits for them.
        `timer`: the game's timer from now on, if this changes it (the seat is on turn).
        """
        async def hand_over(tx: Transaction) -> Seat:
            game = await check_status(tx, game_id, GameStatus.RUNNING)
            if not await tx.execute(
                "UPDATE seats SET has_left = 1, ai_level = ?, quit_pending_round = ?, "
                "left_after_seq = COALESCE(left_after_seq, ?), "
                # a seat that left already keeps why (a stale process's kick changes nothing)
                "kicked = CASE WHEN has_left = 1 THEN kicked ELSE ? END "
                "WHERE game_id = ? AND seat = ? AND is_ai = 0",
                (ai_level, quit_pending_round, game["last_seq"], int(kicked), game_id, seat),
            ):
                raise SeatNotFound(game_id, seat)
            await touch(tx, game_id, now)
            if timer is not None:
                await set_timer(tx, game_id, timer)
            row = await tx.fetchone(
                "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            assert row is not None
            return seat_from_row(row)
        return await self._db.write(hand_over)
