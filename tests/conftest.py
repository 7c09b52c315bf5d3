"""Fixtures every kind of test shares: a fresh database and the store over it."""

from __future__ import annotations

import pytest

from store import Store
from store.db import open_database

pytest_plugins = ["tests.fakediscord.fixtures", "tests.lamabot"]


@pytest.fixture
async def db(tmp_path):
    """A fresh, migrated SQLite database (the store's connection layer)."""
    database = await open_database(tmp_path / "lama.sqlite3")
    yield database
    await database.close()


@pytest.fixture
async def store(tmp_path):
    """A fresh Store: every table, every migration."""
    store = await Store.open(tmp_path / "lama.sqlite3")
    yield store
    await store.close()
