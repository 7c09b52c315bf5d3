"""A database's whole schema as text, to compare what the migrations build with a snapshot.

SQLite: every object of sqlite_master with the exact SQL text SQLite keeps (ALTER TABLE
edits it), and the version. PostgreSQL: every column (type, nullability, default, identity),
constraint, index, trigger and function of the public schema, as the catalogue states them,
and the version. `tests/store/data/schema.{sqlite,postgresql}.txt` hold the snapshot of the
schema the per-dialect migration files built before they became one source per step
(`python -m tests.store.schemas` rewrites it; only a new migration step may change it).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from loopback.postgres_cluster import PostgresCluster, start_cluster
from store import Dialect, open_database

DATA = Path(__file__).parent / "data"

_SQLITE = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
_PG_COLUMNS = """
SELECT table_name, ordinal_position, column_name, data_type, is_nullable,
       coalesce(column_default, ''), is_identity, coalesce(identity_generation, '')
FROM information_schema.columns WHERE table_schema = 'public'
ORDER BY table_name, ordinal_position"""
_PG_CONSTRAINTS = """
SELECT rel.relname, con.conname, con.contype, pg_get_constraintdef(con.oid)
FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
JOIN pg_namespace ns ON ns.oid = rel.relnamespace WHERE ns.nspname = 'public'
ORDER BY rel.relname, con.conname"""
_PG_INDEXES = """
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
ORDER BY tablename, indexname"""
_PG_TRIGGERS = """
SELECT rel.relname, tg.tgname, pg_get_triggerdef(tg.oid)
FROM pg_trigger tg JOIN pg_class rel ON rel.oid = tg.tgrelid
JOIN pg_namespace ns ON ns.oid = rel.relnamespace
WHERE ns.nspname = 'public' AND NOT tg.tgisinternal ORDER BY rel.relname, tg.tgname"""
_PG_FUNCTIONS = """
SELECT p.proname, pg_get_functiondef(p.oid)
FROM pg_proc p JOIN pg_namespace ns ON ns.oid = p.pronamespace
WHERE ns.nspname = 'public' ORDER BY p.proname"""
_PG_SEQUENCES = """
SELECT sequencename, data_type, start_value, increment_by FROM pg_sequences
WHERE schemaname = 'public' ORDER BY sequencename"""


async def schema_dump(location) -> str:
    """The schema of the database at `location`, migrated by the packaged steps."""
    database = await open_database(location)
    try:
        lines = [f"version {await database.schema_version()}"]
        async with database.read() as tx:
            queries = ((_SQLITE,) if database.dialect is Dialect.SQLITE else
                       (_PG_COLUMNS, _PG_CONSTRAINTS, _PG_INDEXES, _PG_TRIGGERS, _PG_FUNCTIONS,
                        _PG_SEQUENCES))
            for query in queries:
                lines.extend(" | ".join(str(value) for value in row)
                             for row in await tx.fetchall(query))
    finally:
        await database.close()
    return "\n".join(lines) + "\n"


def snapshot_path(dialect: Dialect) -> Path:
    return DATA / f"schema.{dialect.value}.txt"


async def _write_snapshots(cluster: PostgresCluster) -> None:
    with tempfile.TemporaryDirectory() as folder:
        locations = {Dialect.SQLITE: Path(folder) / "lama.sqlite3",
                     Dialect.POSTGRESQL: await cluster.create_database("snapshot", "template0")}
        for dialect, location in locations.items():
            snapshot_path(dialect).write_text(await schema_dump(location), encoding="utf-8")


if __name__ == "__main__":  # python -m tests.store.schemas: a throwaway cluster for its half
    DATA.mkdir(exist_ok=True)
    throwaway = start_cluster()
    try:
        asyncio.run(_write_snapshots(throwaway))
    finally:
        throwaway.stop()
