"""Fixtures every kind of test shares: a fresh database and the store over it.

Every test that takes `db`, `store` or `db_location` runs twice: on SQLite and on a real
PostgreSQL server (one throwaway cluster per test session, see loopback/postgres_cluster.py;
each test gets its own database, copied from a migrated template). In CI (CI=true) a missing
PostgreSQL fails the run instead of skipping that half.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from loopback.postgres_cluster import PostgresCluster, PostgresMissing, start_cluster
from loopback.running import BOT_SETTING_PREFIXES, ENV_FILE_VARIABLE
from store import Store
from store.db import open_database
from tests.support.backends import BACKENDS, two_stores

pytest_plugins = ["tests.support.loopback_fixture", "tests.support.lamabot"]

# The test process is as hermetic as the bots it starts (loopback.running.bot_environment):
# a developer's .env or shell settings change no test, `bot.main()` called in-process included.
os.environ[ENV_FILE_VARIABLE] = ""
for _name in [n for n in os.environ if n.startswith(BOT_SETTING_PREFIXES)]:
    del os.environ[_name]

# With `--dist loadgroup` (`make test`) each group runs on one xdist worker. The tests that
# start bot processes of their own (kills, restarts, two processes on one database) are three
# groups: so at most three such tests fight the in-process tests for the two cores (two
# groups took 27 s longer; the three groups' tests are the longest of the suite). The web tests
# with a module-wide world (and browser): so each module's world is made once, not once in
# every worker.
WORKER_GROUPS = {
    "e2e/test_crash.py": "kills", "e2e/test_crash_random.py": "kills",
    "e2e/test_restart.py": "kills", "bot/test_startup.py": "kills",
    "e2e/test_processes.py": "processes", "e2e/test_tournament.py": "tournament",
    "e2e/test_peer_starts.py": "processes",
    "e2e/test_process_moves.py": "kills", "e2e/test_crash_repair.py": "kills",
    "e2e/test_thread_crash.py": "kills", "e2e/test_activity_processes.py": "processes",
    "bot/test_gc_watch.py": "kills",
    "web/test_browser.py": "browser", "web/test_browser_names.py": "browser",
    "activity/test_app.py": "browser", "activity/test_games.py": "browser",
    "web/test_odd_requests.py": "web", "web/test_text.py": "web",
}
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = WORKER_GROUPS.get(item.path.relative_to(TESTS).as_posix())
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


_TEMPLATE = "lamabot_migrated"
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One PostgreSQL cluster for the whole session, with a migrated template database."""
    try:
        cluster = start_cluster()
    except PostgresMissing as missing:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI must test the PostgreSQL backend: {missing}", pytrace=False)
        pytest.skip(str(missing))
    try:
        asyncio.run(_create_template(cluster))
        yield cluster
    finally:
        cluster.stop()


async def _create_template(cluster: PostgresCluster) -> None:
    await _migrate(await cluster.create_database(_TEMPLATE))


def _fresh_postgres(request: pytest.FixtureRequest, template: str) -> str:
    """A new database copied from `template`, dropped after the test. (Sync fixtures run
    outside the test's event loop, so asyncio.run may drive the admin connection.)"""
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    name = f"test_{next(_numbers)}"
    url = asyncio.run(cluster.create_database(name, template))
    request.addfinalizer(lambda: asyncio.run(cluster.drop_database(name)))
    return url


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, made once per session (per xdist worker):
    a test's database is a copy of it (a few ms) instead of every migration again (~40 ms)."""
    path = tmp_path_factory.mktemp("template") / "lama.sqlite3"
    asyncio.run(_migrate(path))
    assert not path.with_name(path.name + "-wal").exists()  # all of it in the one file
    return path


async def _migrate(location: str | Path) -> None:
    database = await open_database(location)
    await database.close()


@pytest.fixture
def fresh_sqlite(sqlite_template: Path, tmp_path: Path) -> Path:
    """A fresh, migrated SQLite database of the test's own: `lama.sqlite3` in its folder."""
    path = tmp_path / "lama.sqlite3"
    shutil.copyfile(sqlite_template, path)
    return path


@pytest.fixture(params=BACKENDS)
def db_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_location(db_backend, request, tmp_path) -> str | Path:
    """Where a fresh, migrated database is: a SQLite path or a PostgreSQL URL. Open it with
    `open_database` / `Store.open`, as often as a test likes (a restart reopens it)."""
    if db_backend == "sqlite":
        return request.getfixturevalue("fresh_sqlite")
    return _fresh_postgres(request, _TEMPLATE)


@pytest.fixture
def empty_db_location(db_backend, request, tmp_path) -> str | Path:
    """Like `db_location`, but nothing migrated yet: for tests of the migration runner."""
    if db_backend == "sqlite":
        return tmp_path / "lama.sqlite3"
    return _fresh_postgres(request, "template0")


@pytest.fixture
def postgres_url(request) -> str:
    """A fresh, migrated PostgreSQL database, for tests that compare the two backends."""
    return _fresh_postgres(request, _TEMPLATE)


@pytest.fixture
async def db(db_location):
    """A fresh, migrated database (the store's connection layer), on each backend."""
    database = await open_database(db_location)
    yield database
    await database.close()


@pytest.fixture
async def store(db_location):
    """A fresh Store: every table, every migration, on each backend."""
    store = await Store.open(db_location)
    yield store
    await store.close()


@pytest.fixture
async def stores(db_location):
    """Two stores on one database, as two bot processes have: on SQLite and on PostgreSQL."""
    async with two_stores(db_location) as pair:
        yield pair
