"""The store tests' fixtures (`db`, `store`, `stores` come from tests/conftest.py, on both
backends): `games`, the game store over the test's database."""

from __future__ import annotations

import pytest

from store import (
    GameStore,
)


@pytest.fixture
def games(db):
    return GameStore(db)
