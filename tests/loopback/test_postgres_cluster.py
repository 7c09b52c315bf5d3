"""The throwaway PostgreSQL cluster that tests and benchmarks start (loopback/postgres_cluster)."""

from __future__ import annotations

import asyncpg
import pytest

from loopback import postgres_cluster as cluster_module
from loopback.postgres_cluster import PostgresMissing, start_cluster


def test_without_the_server_binaries_one_line_says_what_to_install(monkeypatch):
    monkeypatch.setattr(cluster_module, "server_bindir", lambda: None)
    with pytest.raises(PostgresMissing, match="apt-get install postgresql"):
        start_cluster()


async def test_the_session_cluster_serves_databases_over_its_socket(postgres_cluster):
    url = await postgres_cluster.create_database("cluster_check")
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SHOW fsync") == "off"  # throwaway: speed, not durability
        assert await conn.fetchval("SELECT current_database()") == "cluster_check"
    finally:
        await conn.close()
    await postgres_cluster.drop_database("cluster_check")
