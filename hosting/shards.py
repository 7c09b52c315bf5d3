"""Which shards a process may run, and its share of the bot's REST calls.

Discord sends a server's events (and the interactions used in it) to shard
`(guild_id >> 22) % shard_count` and everything outside a server (DMs, DM buttons, DM slash
commands) to shard 0 only. Processes that run different shards therefore see different
servers' commands but all DM presses arrive at shard 0's process: they must share one database
(PostgreSQL), or one process must run every shard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SQLITE_SHARDS_HELP = (
    "SHARD_IDS={ids} runs only part of SHARD_COUNT={count} shards, but with SQLite "
    "(DATABASE_PATH) every process keeps games of its own and they would mix: run every shard "
    "in one process (leave SHARD_IDS empty); processes that split the shards must share one "
    "PostgreSQL database (see docs/scaling.md)."
)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula: the shard that receives a server's events."""
    return (guild_id >> 22) % shard_count


def runs_guild(guild_id: int, shard_count: int | None, shard_ids: Sequence[int] | None) -> bool:
    """Whether a process running `shard_ids` of `shard_count` receives this server's events
    (no ids: it runs every shard)."""
    if shard_ids is None or not shard_count:
        return True
    return shard_of(guild_id, shard_count) in shard_ids


def shard_problem(
    shard_count: int | None, shard_ids: Sequence[int] | None, *, shared_database: bool
) -> str | None:
    """Why a process must not start with these shard settings (one line), or None."""
    if shard_ids is None:
        return None  # every shard (SHARD_COUNT, else Discord's advice) in this process
    ids = ",".join(str(i) for i in shard_ids)
    if shard_count is None:
        return f"SHARD_IDS={ids} needs SHARD_COUNT, the number of shards of every process."
    if not all(0 <= i < shard_count for i in shard_ids):
        return (f"SHARD_IDS={ids} names a shard outside 0..{shard_count - 1} "
                f"(SHARD_COUNT={shard_count}).")
    if not shared_database and set(shard_ids) != set(range(shard_count)):
        return SQLITE_SHARDS_HELP.format(ids=ids, count=shard_count)
    return None


def rest_share(
    per_second: int, shard_count: int | None, shard_ids: Sequence[int] | None
) -> int:
    """A process's share of the bot's rate-limited calls a second: the token's limit is one
    for every process, so each takes the fraction of the shards it runs (at least one)."""
    if shard_ids is None or not shard_count:
        return per_second
    return max(1, per_second * len(set(shard_ids)) // shard_count)


@dataclass(frozen=True)
class ShardPlan:
    """The shards one process runs: `ids` of `count` (None: every shard, in this process)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @property
    def split(self) -> bool:
        """Whether other processes run the other shards."""
        return self.ids is not None

    def problem(self, *, shared_database: bool) -> str | None:
        return shard_problem(self.count, self.ids, shared_database=shared_database)

    def runs_guild(self, guild_id: int) -> bool:
        return runs_guild(guild_id, self.count, self.ids)

    def rest_share(self, per_second: int) -> int:
        return rest_share(per_second, self.count, self.ids)
