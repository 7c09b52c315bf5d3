"""Shard settings: a process may run part of the shards only when every process shares one
database (PostgreSQL); with SQLite each process would keep games of its own and DM buttons,
which Discord sends to shard 0 only, would reach another process's games of the same number."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from bot import Settings
from hosting.shards import shard_problem
from loopback.running import bot_environment

REPO = Path(__file__).resolve().parents[2]


def shards(count: str = "", ids: str = "") -> Settings:
    return Settings.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids})


def shared(count: int | None, *ids: int) -> str | None:
    return shard_problem(count, ids, shared_database=True)


@pytest.mark.parametrize("count, ids", [("", ""), ("2", ""), ("2", "0,1"), ("3", "2,0,1")])
def test_one_process_running_every_shard_may_use_sqlite(count, ids) -> None:
    assert shards(count, ids).shard_problem() is None


def test_part_of_the_shards_with_sqlite_is_refused_with_the_way_out() -> None:
    problem = shards("2", "1").shard_problem()
    assert problem is not None and "\n" not in problem
    assert "SHARD_IDS=1" in problem and "SHARD_COUNT=2" in problem
    assert "PostgreSQL" in problem and "SQLite" in problem


@pytest.mark.parametrize("ids", [(0,), (1,), (0, 2)])
def test_part_of_the_shards_is_allowed_on_a_shared_database(ids) -> None:
    assert shared(3, *ids) is None


def test_shard_ids_without_a_count_are_refused() -> None:
    assert "needs SHARD_COUNT" in (shared(None, 0) or "")
    assert "needs SHARD_COUNT" in (shards("", "0").shard_problem() or "")


@pytest.mark.parametrize("ids", [(2,), (0, 5), (-1,)])
def test_a_shard_outside_the_count_is_refused(ids) -> None:
    assert "outside 0..1" in (shared(2, *ids) or "")


async def test_bot_py_with_part_of_the_shards_on_sqlite_exits_with_one_line(tmp_path) -> None:
    env = bot_environment({"DISCORD_TOKEN": "some-token", "SHARD_COUNT": "2", "SHARD_IDS": "1",
                           "DATABASE_PATH": str(tmp_path / "lama.sqlite3")})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "bot.py", cwd=REPO, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and "must share one PostgreSQL database" in lines[0], err.decode()
    assert not out and not (tmp_path / "lama.sqlite3").exists()  # nothing opened


@pytest.mark.parametrize("count, ids, share", [
    ("", "", 30), ("4", "", 30), ("4", "0,1,2,3", 30), ("4", "0", 7), ("4", "2,3", 15),
    ("64", "5", 1),
])
def test_each_process_takes_its_shards_share_of_the_rest_budget(count, ids, share) -> None:
    settings = Settings.from_env({"SHARD_COUNT": count, "SHARD_IDS": ids,
                                  "REST_CALLS_PER_SECOND": "30"})
    assert settings.shards.rest_share(settings.rest_per_second) == share


def test_a_process_runs_the_servers_of_its_shards() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"})
    on_one, on_zero = 5 << 22 | 7, 6 << 22 | 7  # (id >> 22) % 2 is 1, then 0
    assert settings.shards.runs_guild(on_one) and not settings.shards.runs_guild(on_zero)
    assert Settings.from_env({}).shards.runs_guild(on_zero)  # every shard: every server
