"""A server's results version (migration 0028): one number per server, raised by every write
that changes what the server's leaderboards show, in that write's own transaction, so a
process keeping a board (hosting/board_cache.py) learns in one primary-key look-up whether
any process wrote the server's results since the board was made.

What a leaderboard shows, and who writes it (each raises the version):
- a finished game's `finished_games` and `game_results` (names come from its `seats`), its
  `ratings` and `rating_changes`, and the season it opened or closed: the game's last move
  (move_commit.py `_finish`), and `bulk.py`'s loads;
- every rating and change of the server at once: a rerate (`RatingStore.replace_ratings`);
- its `seasons` rolled over, re-ended by a new cadence, or announced: `SeasonStore.sync`
  (`sync_due` too), `mark_announced`;
- a forgotten player's results, names and ratings, in every server they played in
  (`StatsStore.forget_user`).

The raise is the last statement of its transaction: on PostgreSQL it takes the server's row
lock, and a transaction holding it then waits for no other row, so a forget raising many
servers' versions and a game finishing in one of them never wait for each other in a circle.
"""

from __future__ import annotations

from collections.abc import Iterable

from store.db import Transaction

RAISE = (
    "INSERT INTO results_versions (guild_id, version) VALUES (?, 1) "
    "ON CONFLICT (guild_id) DO UPDATE SET version = results_versions.version + 1"
)
READ = "SELECT version FROM results_versions WHERE guild_id = ?"
RESULTS_VERSIONS_SINCE = 28  # the schema version whose step made the table


async def results_changed(tx: Transaction, guild_ids: Iterable[int]) -> None:
    """Raise the servers' results versions (in ascending order: two transactions raising
    several take their row locks in one order)."""
    rows = [(guild_id,) for guild_id in sorted(set(guild_ids))]
    if rows:
        await tx.executemany(RAISE, rows)
