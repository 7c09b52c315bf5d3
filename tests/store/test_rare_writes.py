"""The store's rare writes (settings, language, notices, meta, the web site, tournaments,
seasons, a rerate, forgetting a user) are each one `write(body)`: on SQLite one trip to the
connection's thread, holding the writer for that trip alone, where a `transaction()` block
takes a trip per statement and one to commit, each waiting for a turn of the event loop.
(What they write is tested with each store, on both backends.)"""

from __future__ import annotations

import pytest

from hosting.ratings import RULES
from store import GuildSettings, Store
from store.tournaments import TableKey, TournamentStatus
from tests.store.support import CHANNEL, GUILD
from tests.store.support import HOST as USER
from tests.support.backends import count_trips

T0 = 1_700_000_000


@pytest.fixture
async def sqlite_store(tmp_path):
    store = await Store.open(tmp_path / "lama.sqlite3", rules=RULES)
    yield store
    await store.close()


@pytest.fixture
def trips(sqlite_store, monkeypatch):
    return count_trips(sqlite_store.db, monkeypatch)


async def one_trip_each(trips, *writes) -> list[int]:
    """The trips each write took, in order."""
    taken = []
    for write in writes:
        trips.clear()
        await write
        taken.append(len(trips))
    return taken


async def test_settings_and_preferences_are_one_trip_each(sqlite_store, trips):
    settings = sqlite_store.settings
    assert await one_trip_each(
        trips,
        settings.save_settings(GuildSettings(GUILD, target=30), now=T0),
        settings.set_user_locale(USER, "cs", now=T0),
        settings.set_user_locale(USER, None, now=T0),
        settings.set_turn_dms(USER, False, now=T0),
        settings.set_meta("key", "value"),
        settings.identity(),
    ) == [1] * 6


async def test_a_web_site_s_access_is_one_trip_each(sqlite_store, trips):
    site = sqlite_store.site
    access = await site.ensure_access(GUILD, "secret", now=T0)
    assert len(trips) == 1
    assert await one_trip_each(trips, site.save_access(access, now=T0)) == [1]


async def test_a_tournament_s_writes_are_one_trip_each(sqlite_store, trips):
    tournaments = sqlite_store.tournaments
    tournament = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, organiser_id=USER, name="Cup", rounds=2,
        table_size=3, variant="classic", now=T0)
    assert len(trips) == 1
    entry = {"ai_level": None, "limit": 8, "now": T0}
    assert await one_trip_each(
        trips,
        tournaments.add_entry(tournament.id, user_id=USER, name="a", **entry),
        tournaments.add_entry(tournament.id, user_id=USER + 1, name="b", **entry),
        tournaments.add_entry(tournament.id, user_id=USER + 2, name="c", **entry),
        tournaments.remove_entry(tournament.id, USER + 2, now=T0),
        tournaments.set_signup_message(tournament.id, 555),
        tournaments.start_round(tournament.id, 1, [((1, 2), 1)], now=T0),
        tournaments.claim_wait_notice(TableKey(tournament.id, 1, 1), now=T0),
        tournaments.finish(tournament.id, TournamentStatus.CANCELLED, now=T0),
    ) == [1] * 8


async def test_seasons_a_rerate_and_forgetting_a_user_are_one_trip_each(sqlite_store, trips):
    assert await one_trip_each(
        trips,
        sqlite_store.seasons.sync(GUILD, now=T0),
        sqlite_store.seasons.mark_announced(GUILD, 1, now=T0),
        sqlite_store.ratings.replace_ratings(GUILD, [], []),
        sqlite_store.stats.forget_user(USER),
    ) == [1] * 4
