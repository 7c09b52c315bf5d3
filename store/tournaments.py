"""Swiss tournaments: sign-ups, each round's tables and their games. Standings are derived
(hosting/swiss.py) from the tables' results, which this store reads from game_results."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from store.db import Database, Row, Transaction


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


class TournamentConflict(Exception):
    """The change does not fit the tournament as stored (status, sign-ups, the channel)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Entry:
    entry: int  # sign-up order, 1-based
    user_id: int | None  # None: an AI entrant
    ai_level: str | None
    display_name: str


@dataclass(frozen=True, slots=True)
class TableRecord:
    round: int
    table_no: int
    entries: tuple[int, ...]  # seats 0, 1, … in this order
    ai_seats: int  # filling seats after the entries
    game_id: int | None


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """A table's game as it ended: per seat, place and final score (None: not finished)."""

    table: TableRecord
    status: str | None  # the game's status; None before it opened
    places: dict[int, int]  # seat -> place
    scores: dict[int, int]  # seat -> final score
    left: dict[int, bool]  # seat -> its human left mid-game (an AI finished for them)
    ai: dict[int, bool]  # seat -> an AI played it from the start (for an entrant: a stand-in)


@dataclass(frozen=True, slots=True)
class TableKey:
    """A tournament table, as the game played at it names it."""

    tournament_id: int
    round: int
    table_no: int


async def link_table_game(tx: Transaction, table: TableKey, game_id: int) -> None:
    """The game a table is played as (in the transaction that creates the game)."""
    await tx.execute(
        "UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? AND round = ? "
        "AND table_no = ? AND game_id IS NULL",
        (game_id, table.tournament_id, table.round, table.table_no))


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int | None
    name: str
    rounds: int
    table_size: int
    variant: str
    status: TournamentStatus
    round: int
    signup_message_id: int | None
    entries: tuple[Entry, ...]

    def entry_of(self, user_id: int) -> Entry | None:
        return next((e for e in self.entries if e.user_id == user_id), None)


def _tournament(row: Row, entries: Sequence[Entry]) -> Tournament:
    return Tournament(row["id"], row["guild_id"], row["channel_id"], row["organiser_id"],
                      row["name"], row["rounds"], row["table_size"], row["variant"],
                      TournamentStatus(row["status"]), row["round"], row["signup_message_id"],
                      tuple(entries))


def _table(row: Row) -> TableRecord:
    return TableRecord(row["round"], row["table_no"], tuple(json.loads(row["entries"])),
                       row["ai_seats"], row["game_id"])


async def _load(tx: Transaction, tournament_id: int) -> Tournament | None:
    row = await tx.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        return None
    rows = await tx.fetchall(
        "SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY entry",
        (tournament_id,),
    )
    entries = [Entry(r["entry"], r["user_id"], r["ai_level"], r["display_name"]) for r in rows]
    return _tournament(row, entries)


async def _require(tx: Transaction, tournament_id: int, *allowed: TournamentStatus) -> Tournament:
    """The tournament, its row locked until `tx` ends (another writer of it waits), if its
    status is one of `allowed`."""
    await tx.fetchone(f"SELECT id FROM tournaments WHERE id = ?{tx.for_update}", (tournament_id,))
    found = await _load(tx, tournament_id)
    if found is None:
        raise TournamentConflict("not_found")
    if found.status not in allowed:
        raise TournamentConflict(f"status_{found.status.value}")
    return found


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self, *, guild_id: int, channel_id: int, organiser_id: int, name: str, rounds: int,
        table_size: int, variant: str, now: int,
    ) -> Tournament:
        async def open_one(tx: Transaction) -> Tournament | None:
            await tx.lock("tournaments of channel", channel_id)  # one opens, the next waits
            busy = await tx.fetchone(
                "SELECT id FROM tournaments WHERE channel_id = ? "
                "AND status IN ('signup', 'running')", (channel_id,))
            if busy is not None:
                raise TournamentConflict("channel_busy")
            tournament_id = await tx.insert(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, rounds, "
                "table_size, variant, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, organiser_id, name, rounds, table_size, variant, now, now),
            )
            return await _load(tx, tournament_id)
        found = await self._db.write(open_one)
        assert found is not None
        return found

    async def get(self, tournament_id: int) -> Tournament | None:
        async with self._db.read() as tx:
            return await _load(tx, tournament_id)

    async def latest_in_channel(self, channel_id: int) -> Tournament | None:
        """The channel's open tournament, else its most recent one."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT id FROM tournaments WHERE channel_id = ? "
                "ORDER BY status IN ('signup', 'running') DESC, id DESC LIMIT 1", (channel_id,))
            return None if row is None else await _load(tx, row["id"])

    async def of_table_channel(self, channel_id: int) -> Tournament | None:
        """The tournament whose table was played in this channel (a table's thread)."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT t.tournament_id FROM tournament_tables t "
                "JOIN games g ON g.id = t.game_id WHERE g.channel_id = ? "
                "ORDER BY t.tournament_id DESC LIMIT 1", (channel_id,))
            return None if row is None else await _load(tx, row["tournament_id"])

    async def open_tournaments(self) -> list[Tournament]:
        """Every tournament in sign-up or running, for resuming them after a restart."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT id FROM tournaments WHERE status IN ('signup', 'running') ORDER BY id")
            found = [await _load(tx, row["id"]) for row in rows]
        return [t for t in found if t is not None]

    async def add_entry(
        self, tournament_id: int, *, user_id: int | None, ai_level: str | None, name: str,
        limit: int, now: int,
    ) -> Tournament:
        async def enter(tx: Transaction) -> Tournament | None:
            found = await _require(tx, tournament_id, TournamentStatus.SIGNUP)
            if user_id is not None and found.entry_of(user_id) is not None:
                raise TournamentConflict("already_entered")
            if len(found.entries) >= limit:
                raise TournamentConflict("full")
            number = 1 + max((e.entry for e in found.entries), default=0)
            await tx.execute(
                "INSERT INTO tournament_entries (tournament_id, entry, user_id, ai_level, "
                "display_name) VALUES (?, ?, ?, ?, ?)",
                (tournament_id, number, user_id, ai_level, name))
            await tx.execute("UPDATE tournaments SET updated_at = ? WHERE id = ?",
                             (now, tournament_id))
            return await _load(tx, tournament_id)
        loaded = await self._db.write(enter)
        assert loaded is not None
        return loaded

    async def remove_entry(self, tournament_id: int, user_id: int, *, now: int) -> Tournament:
        async def leave(tx: Transaction) -> Tournament | None:
            await _require(tx, tournament_id, TournamentStatus.SIGNUP)
            if not await tx.execute(
                "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id)):
                raise TournamentConflict("not_entered")
            await tx.execute("UPDATE tournaments SET updated_at = ? WHERE id = ?",
                             (now, tournament_id))
            return await _load(tx, tournament_id)
        loaded = await self._db.write(leave)
        assert loaded is not None
        return loaded

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        async def save(tx: Transaction) -> None:
            await tx.execute("UPDATE tournaments SET signup_message_id = ? WHERE id = ?",
                             (message_id, tournament_id))
        await self._db.write(save)

    async def start_round(
        self, tournament_id: int, round_number: int,
        tables: Sequence[tuple[Sequence[int], int]], *, now: int,
    ) -> Tournament:
        """Seat round `round_number` (its tables as (entries, ai seats)) and make it current;
        the first round also closes the sign-ups."""
        async def seat(tx: Transaction) -> Tournament | None:
            found = await _require(tx, tournament_id, TournamentStatus.SIGNUP,
                                   TournamentStatus.RUNNING)
            if found.round != round_number - 1:
                raise TournamentConflict("round_already_seated")
            await tx.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, table_no, entries, "
                "ai_seats) VALUES (?, ?, ?, ?, ?)",
                [(tournament_id, round_number, n, json.dumps(list(entries)), ai)
                 for n, (entries, ai) in enumerate(tables, start=1)])
            await tx.execute(
                "UPDATE tournaments SET status = 'running', round = ?, updated_at = ? "
                "WHERE id = ?", (round_number, now, tournament_id))
            return await _load(tx, tournament_id)
        loaded = await self._db.write(seat)
        assert loaded is not None
        return loaded

    async def finish(self, tournament_id: int, status: TournamentStatus, *, now: int) -> None:
        async def end(tx: Transaction) -> None:
            await _require(tx, tournament_id, TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
            await tx.execute("UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ?",
                             (status.value, now, tournament_id))
        await self._db.write(end)

    async def claim_wait_notice(self, table: TableKey, *, now: int) -> bool:
        """Whether the notice that this table waits for a casual game in the tournament's
        channel is still to be posted: True once per table, to the first claimer (of any
        process, also after a restart), which then posts it."""
        async def claim(tx: Transaction) -> int:
            return await tx.execute(
                "UPDATE tournament_tables SET wait_told_at = ? WHERE tournament_id = ? "
                "AND round = ? AND table_no = ? AND wait_told_at IS NULL",
                (now, table.tournament_id, table.round, table.table_no))
        return bool(await self._db.write(claim))

    async def tournament_of_game(self, game_id: int) -> int | None:
        table = await self.table_of_game(game_id)
        return None if table is None else table.tournament_id

    async def table_of_game(self, game_id: int) -> TableKey | None:
        """The tournament table a game is played as; None: a casual game."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT tournament_id, round, table_no FROM tournament_tables WHERE game_id = ?",
                (game_id,))
        if row is None:
            return None
        return TableKey(int(row["tournament_id"]), int(row["round"]), int(row["table_no"]))

    async def outcomes(self, tournament_id: int) -> list[TableOutcome]:
        """Every table so far with its game's status and results, by round and table."""
        async with self._db.read() as tx:
            tables = await tx.fetchall(
                "SELECT t.*, g.status AS game_status FROM tournament_tables t "
                "LEFT JOIN games g ON g.id = t.game_id WHERE t.tournament_id = ? "
                "ORDER BY t.round, t.table_no", (tournament_id,))
            results = await tx.fetchall(
                "SELECT r.game_id, r.seat, r.place, r.final_score, r.left_game, r.is_ai "
                "FROM game_results r "
                "JOIN tournament_tables t ON t.game_id = r.game_id WHERE t.tournament_id = ?",
                (tournament_id,))
        by_game: dict[int, list[Row]] = {}
        for row in results:
            by_game.setdefault(row["game_id"], []).append(row)
        outcomes = []
        for row in tables:
            seats = by_game.get(row["game_id"], [])
            outcomes.append(TableOutcome(
                _table(row), row["game_status"],
                {r["seat"]: r["place"] for r in seats},
                {r["seat"]: r["final_score"] for r in seats},
                {r["seat"]: bool(r["left_game"]) for r in seats},
                {r["seat"]: bool(r["is_ai"]) for r in seats}))
        return outcomes
