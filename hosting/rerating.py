"""Ratings recomputed from the stored results: one server's (`rerate_guild`), every server's
(`rerate_all`, what `python -m hosting.rerate` runs), or those of the servers whose games were
stored before ratings existed (`rate_unrated`, at every start: hosting/rated_store.py).

Games are replayed in the order they were rated (finishing time, then the order their rating
was written; games from before ratings existed by id) through the same RatingBook the live
update uses, so an untouched database comes out identical, figure for figure. A server's
ratings are replaced in one transaction: a bot running meanwhile sees the old ratings or the
new ones, never a mix.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from store import RatingRules, Season, Store
from store.rating_book import RatingBook, SeatChange

from .clock import Clock, SystemClock
from .ratings import RULES

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rerated:
    guild_id: int
    games: int
    players: int  # rated identities (humans and AI levels) over all seasons


def season_of(seasons: Sequence[Season], finished_at: int) -> Season:
    """The season a game finished in: the latest that had started (the first, if none)."""
    started = [s for s in seasons if s.starts_at <= finished_at]
    return started[-1] if started else seasons[0]


async def rerate_guild(
    store: Store, guild_id: int, *, rules: RatingRules = RULES, clock: Clock | None = None
) -> Rerated:
    games = await store.ratings.rated_seats(guild_id)
    if not games:
        return Rerated(guild_id, 0, 0)
    seasons = sorted(await store.seasons.seasons(guild_id), key=lambda s: s.number)
    if not seasons:  # games from before ratings existed: they open the first season
        now = int((clock or SystemClock()).now())
        seasons = [await store.seasons.sync(guild_id, now=now)]
    book = RatingBook(rules)
    changes: list[SeatChange] = []
    for game_id, finished_at, seats in games:
        season = season_of(seasons, finished_at)
        changes += book.apply(game_id, season.number, finished_at, seats)
    await store.ratings.replace_ratings(guild_id, list(book.changed.values()), changes)
    return Rerated(guild_id, len(games), len(book.changed))


async def rerate_all(
    store: Store, *, rules: RatingRules = RULES, guild_id: int | None = None
) -> list[Rerated]:
    guilds = [guild_id] if guild_id is not None else await store.ratings.rated_guilds()
    return [await rerate_guild(store, g, rules=rules) for g in guilds]


async def rate_unrated(
    store: Store, *, rules: RatingRules = RULES, clock: Clock | None = None
) -> list[Rerated]:
    """At start-up: rerate each server that has games stored before ratings existed, once.

    Runs before the bot connects, so none of its own games can finish meanwhile; idempotent:
    a rerate rates every finished game of the server, so the next start finds nothing to do.
    (With several processes on one database, a game another process rates during the rerate
    loses its rating to the rerate's replace; `python -m hosting.rerate` rates it again.)"""
    done = []
    for guild_id in await store.ratings.guilds_with_unrated_games():
        started = time.perf_counter()
        rerated = await rerate_guild(store, guild_id, rules=rules, clock=clock)
        log.info("server %s: %s games from before ratings existed, rated in %.2f s "
                 "(%s rated players)", guild_id, rerated.games,
                 time.perf_counter() - started, rerated.players)
        done.append(rerated)
    return done
