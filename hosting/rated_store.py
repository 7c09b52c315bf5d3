"""The bot's store as every start opens it: migrated, with the live rating rules, and the
games stored before ratings existed rated (the rerate CLI, `python -m hosting.rerate`, is apart).
"""

from __future__ import annotations

from pathlib import Path

from store import Store

from .clock import Clock
from .ratings import RULES
from .rerating import rate_unrated


async def open_rated_store(location: str | Path, clock: Clock) -> Store:
    """The bot's store at start-up: the live rating rules, and every game stored before
    ratings existed rated (`rate_unrated`); it holds the database's running mark, taken
    before its first write (store.copy refuses a database a bot runs on)."""
    store = await Store.open(location, rules=RULES, bot=True)
    try:
        await rate_unrated(store, clock=clock)
    except BaseException:
        await store.close()
        raise
    return store
