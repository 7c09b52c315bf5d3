"""The table-picture memory (cogs/render/table_pictures.py): an edit keeps the message's
attachment by id only when this process knows the message carries it."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import discord

from cogs import images
from cogs.render.table_pictures import TablePictures

GAME, REF = 7, (100, 200)


def _picture(data: bytes) -> dict[str, Any]:
    return {"files": [discord.File(io.BytesIO(data), filename=images.TABLE_FILE)]}


def _edit(data: bytes) -> dict[str, Any]:
    return {"attachments": [discord.File(io.BytesIO(data), filename=images.TABLE_FILE)]}


def _answer(attachment_id: int) -> Any:
    """Discord's answer to a post: a message carrying one table picture."""
    attachment = discord.Attachment(data={
        "id": attachment_id, "filename": images.TABLE_FILE, "size": 3,
        "url": "https://cdn.example/table.png", "proxy_url": "https://cdn.example/table.png",
    }, state=SimpleNamespace(http=None))  # type: ignore[arg-type]
    return SimpleNamespace(attachments=[attachment])


def test_a_table_posted_here_keeps_its_unchanged_picture_by_id() -> None:
    pictures = TablePictures()
    shown = pictures.uploading(_picture(b"one"))
    pictures.posted(GAME, REF, _answer(11), shown, handed_back=False)
    edit = _edit(b"one")
    pictures.reuse(GAME, REF, edit)
    assert [a.id for a in edit["attachments"]] == [11]
    assert (pictures.uploads, pictures.kept) == (1, 1)


def test_a_table_handed_back_for_a_repeated_nonce_is_uploaded_to_on_its_next_edit() -> None:
    """Discord answers a repeated nonce with the message as first posted: its attachment may
    have been replaced since (by the process that crashed), so it is not named by id."""
    pictures = TablePictures()
    shown = pictures.uploading(_picture(b"one"))
    pictures.posted(GAME, REF, _answer(11), shown, handed_back=True)
    edit = _edit(b"one")
    pictures.reuse(GAME, REF, edit)
    assert all(isinstance(a, discord.File) for a in edit["attachments"])
    assert (pictures.uploads, pictures.kept) == (2, 0)


def test_a_game_moved_by_another_process_has_its_tables_uploaded_to_again() -> None:
    """The other process edited the table (a new attachment): what was kept here is stale."""
    pictures = TablePictures()
    shown = pictures.uploading(_picture(b"one"))
    pictures.posted(GAME, REF, _answer(11), shown, handed_back=False)
    pictures.forget(GAME)  # the store's loader: game 7 moved elsewhere
    edit = _edit(b"one")
    pictures.reuse(GAME, REF, edit)
    assert all(isinstance(a, discord.File) for a in edit["attachments"])
