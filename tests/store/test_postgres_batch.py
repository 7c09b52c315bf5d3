"""PostgreSQL's batches as one statement (store/postgres_batch.py): which batches may go as
one, and that one behaves as the batch in a transaction would (tests/store/test_db.py has
the batch's meaning on both backends)."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

from store import open_database
from store.backend import Statement
from store.postgres_batch import guards_lead, independent, one_statement
from tests.support.backends import INTEGRITY_ERRORS


def insert(key: str, value: str = "v") -> Statement:
    return Statement("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))


def update_game(guard: bool = True) -> Statement:
    return Statement("UPDATE games SET last_seq = ? WHERE id = ? AND last_seq = ?", (2, 1, 1),
                     guard=guard)


LOG_MOVE = Statement("INSERT INTO moves (game_id, seq) VALUES (?, ?)", (1, 2))


def test_statements_on_tables_of_their_own_go_as_one():
    sql, args = one_statement([update_game(), LOG_MOVE])
    assert sql == (
        "WITH s0 AS (UPDATE games SET last_seq = ? WHERE id = ? AND last_seq = ? RETURNING 1), "
        "s1 AS (INSERT INTO moves (game_id, seq) VALUES (?, ?)) "
        "SELECT 1 / (SELECT count(*) FROM s0)"
    )
    assert args == [2, 1, 1, 1, 2]


def test_a_statement_reading_what_an_earlier_one_wrote_keeps_the_batch_in_order():
    reads_moves = Statement("UPDATE seats SET n = (SELECT count(*) FROM moves) WHERE id = ?",
                            (1,))
    assert not independent([LOG_MOVE, reads_moves])
    assert independent([reads_moves, LOG_MOVE])  # it reads before the write, as in order


def test_two_writes_of_one_table_keep_the_batch_in_order():
    assert one_statement([insert("a"), insert("b")]) is None


def test_a_select_or_named_parameters_keep_the_batch_in_order():
    assert not independent([Statement("SELECT 1")])
    assert not independent([Statement("DELETE FROM meta WHERE key = :key", {"key": "a"})])


def test_a_guard_after_another_statement_does_not_lead():
    assert guards_lead([update_game(), LOG_MOVE])
    assert not guards_lead([LOG_MOVE, update_game()])


# ---- on a real PostgreSQL


@pytest.fixture
async def pg(postgres_url):
    db = await open_database(postgres_url)
    yield db
    await db.close()


def without_transactions(db, monkeypatch) -> None:
    @asynccontextmanager
    async def refused():
        raise AssertionError("a transaction was opened")
        yield

    monkeypatch.setattr(db, "transaction", refused)


async def keys(db) -> list[tuple[str, str]]:
    async with db.read() as tx:
        return sorted(tuple(r) for r in await tx.fetchall("SELECT key, value FROM meta"))


def locale_then_meta(user_id: int, key: str) -> list[Statement]:
    """A guarded update of a user's locale, then an insert into another table."""
    return [
        Statement("UPDATE user_locales SET locale = 'cs' WHERE user_id = ?", (user_id,),
                  guard=True),
        insert(key),
    ]


async def add_user(db, user_id: int) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO user_locales (user_id, locale, updated_at) "
                         "VALUES (?, 'en', 0)", (user_id,))


async def test_an_independent_batch_needs_no_transaction(pg, monkeypatch):
    await add_user(pg, 7)
    without_transactions(pg, monkeypatch)
    assert await pg.batch(locale_then_meta(7, "a"))
    assert await keys(pg) == [("a", "v")]


async def test_a_guard_that_changes_nothing_undoes_the_one_statement(pg, monkeypatch):
    without_transactions(pg, monkeypatch)  # a leading guard's refusal needs no second try
    assert not await pg.batch(locale_then_meta(8, "a"))  # no user 8
    assert await keys(pg) == []


async def test_an_error_in_the_one_statement_is_raised_by_the_batch_in_order(pg):
    await pg.batch([insert("a")])
    with pytest.raises(INTEGRITY_ERRORS):
        await pg.batch([Statement("INSERT INTO user_locales (user_id, locale, updated_at) "
                                  "VALUES (9, 'en', 0)"), insert("a")])
    async with pg.read() as tx:
        assert await tx.fetchall("SELECT * FROM user_locales") == []


async def test_racing_guards_on_one_row_let_exactly_one_batch_through(pg):
    await add_user(pg, 7)

    def claim(n: int) -> list[Statement]:
        return [Statement("UPDATE user_locales SET locale = ? WHERE user_id = 7 AND locale = 'en'",
                          (f"x{n}",), guard=True), insert(f"k{n}")]

    done = await asyncio.gather(*(pg.batch(claim(n)) for n in range(8)))
    assert done.count(True) == 1
    winner = done.index(True)
    assert await keys(pg) == [(f"k{winner}", "v")]


async def test_a_single_read_needs_no_transaction(pg, monkeypatch):
    await add_user(pg, 7)
    monkeypatch.setattr(pg, "read", None)  # a read() block would fail
    assert [tuple(r) for r in await pg.fetchall("SELECT user_id, locale FROM user_locales")] == [
        (7, "en")]
    assert (await pg.fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (7,)))[0] == "en"
    assert await pg.fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (8,)) is None
