"""benchmarks/answer_trace.py times LamaBot's answer path by wrapping the code it names: a
rename or a new signature there broke `--trace` unnoticed (the writer's transactions stopped
taking a `reading` flag, and the first traced transaction raised TypeError)."""

from __future__ import annotations

from benchmarks import answer_trace
from store import Store, sqlite


def test_every_step_the_tracer_times_is_still_there() -> None:
    for owner, name, step in answer_trace.timed_steps():
        assert callable(getattr(owner, name, None)), (owner, name, step)
    assert callable(sqlite.SqliteDatabase._run_units) and callable(sqlite.run_body)


async def test_the_tracer_times_a_transaction_of_the_store_as_it_is(tmp_path) -> None:
    store = await Store.open(tmp_path / "lama.sqlite3")
    try:
        traced = answer_trace._traced_transactions(sqlite.SqliteDatabase._locked)
        async with traced(store.db, "BEGIN IMMEDIATE") as tx:
            await tx.execute("SELECT 1")
    finally:
        await store.close()
    assert any(caller.startswith("write ") for caller in answer_trace._db)
