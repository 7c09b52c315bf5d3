"""Recompute every server's ratings from the stored results: ``python -m hosting.rerate``.

Use it after changing the rating model; the replay itself is hosting/rerating.py (games in
the order they were rated, through the same RatingBook the live update uses, so an untouched
database comes out identical, figure for figure). Games stored before ratings existed are rated
by the bot itself at start-up (`rate_unrated`; they count in the server's first season). A
server's ratings are replaced in one transaction: a bot running meanwhile sees the old ratings
or the new ones, never a mix.

    python -m hosting.rerate                       # the bot's database (DATABASE_URL or
                                                   # DATABASE_PATH, .env)
    python -m hosting.rerate --database other.sqlite3 --guild 1234
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Sequence
from pathlib import Path

from dotenv import dotenv_values

from store import Store

from .ratings import RULES
from .rerating import rerate_all


async def _main(database: str | Path, guild_id: int | None) -> None:
    store = await Store.open(database, rules=RULES)
    try:
        started = time.perf_counter()
        done = await rerate_all(store, guild_id=guild_id)
        elapsed = time.perf_counter() - started
    finally:
        await store.close()
    games = sum(r.games for r in done)
    for r in done:
        print(f"server {r.guild_id}: {r.games} games, {r.players} rated players")
    rate = games / elapsed if elapsed > 0 else 0.0
    print(f"{len(done)} servers, {games} games rerated in {elapsed:.2f} s ({rate:,.0f} games/s)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hosting.rerate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    env_file = os.environ.get("LAMABOT_ENV_FILE", ".env")  # as bot.py reads its settings
    env = {**(dotenv_values(env_file) if env_file else {}), **os.environ}
    default = ((env.get("DATABASE_URL") or "").strip() or (env.get("DATABASE_PATH") or "").strip()
               or "data/lama.sqlite3")
    parser.add_argument("--database", default=default,
                        help="a SQLite file or a postgresql:// URL "
                             "(default: DATABASE_URL, DATABASE_PATH or data/lama.sqlite3)")
    parser.add_argument("--guild", type=int, default=None, help="only this server")
    args = parser.parse_args(argv)
    is_url = args.database.startswith(("postgresql://", "postgres://"))
    if not is_url and not Path(args.database).exists():
        parser.error(f"no database at {args.database}")
    asyncio.run(_main(args.database, args.guild))


if __name__ == "__main__":
    main()
