"""`python -m store.copy` refuses the database a bot runs on, instead of copying a snapshot
its later moves are missing from (issue 35 point 7)."""

from __future__ import annotations

import pytest

from store.copy import CopyRefused, copy


async def test_the_database_a_running_bot_uses_is_not_copied(lamabot, tmp_path) -> None:
    destination = tmp_path / "copy.sqlite3"
    with pytest.raises(CopyRefused, match="a LamaBot process runs on"):
        await copy(lamabot.settings.database_path, destination)
    assert not destination.exists()
