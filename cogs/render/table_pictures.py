"""Which picture each table message carries, so that an edit uploads the picture only when it
changed (issue 34: 211 uploads for 217 table states, each an image reload and a layout jump
on a real client).

An edit whose freshly drawn picture is byte for byte the one the message carries (a quit, a
turn passed on a time-out: the top card and the piles stay) lists that attachment by id in
its `attachments` instead of uploading the file again: Discord keeps an attachment an edit
lists, and the layout's `attachment://table.png` still names it. What a message carries is
learnt from Discord's answer to each post and edit; a table this process did not show (after
a restart) is uploaded once, as before. Only what this process saw is trusted: a message
Discord handed back for a repeated nonce comes as it was first posted, its attachment perhaps
replaced since (by the process that crashed), and a game another process moved had its table
edited there (`forget`, told by the store's loader): the next edit of such a table uploads.
"""

from __future__ import annotations

import hashlib
from typing import Any

import discord

from .. import images

Ref = tuple[int, int]  # (channel, message)


def _picture(content: dict[str, Any]) -> discord.File | None:
    """The table picture a post or edit's keyword arguments would upload, if any."""
    files = content.get("attachments", content.get("files")) or []
    return next((f for f in files if isinstance(f, discord.File)
                 and f.filename == images.TABLE_FILE), None)


def digest(content: dict[str, Any]) -> bytes | None:
    """What identifies the picture `content` uploads (None: it uploads none)."""
    file = _picture(content)
    if file is None or not hasattr(file.fp, "getvalue"):
        return None
    return hashlib.blake2b(file.fp.getvalue(), digest_size=16).digest()


class TablePictures:
    def __init__(self) -> None:
        # game -> table message -> (the picture's digest, the attachment Discord keeps)
        self._carried: dict[int, dict[Ref, tuple[bytes, discord.Attachment]]] = {}
        self.uploads = 0  # pictures uploaded by this process (benchmarks read it)
        self.kept = 0  # edits that kept the picture the message carries

    def uploading(self, content: dict[str, Any]) -> bytes | None:
        """A new table message's keyword arguments: its picture (if any) is uploaded; returns
        its digest."""
        new = digest(content)
        self.uploads += new is not None
        return new

    def reuse(self, game_id: int, ref: Ref, content: dict[str, Any]) -> bytes | None:
        """Edit `content` in place to keep the message's picture if it is the one it would
        upload; returns the digest of the picture the message will carry (None: unknown)."""
        new = digest(content)
        carried = self._carried.get(game_id, {}).get(ref)
        if new is not None and carried is not None and carried[0] == new:
            content["attachments"] = [carried[1]]  # by id: no upload
            self.kept += 1
        elif new is not None:
            self.uploads += 1
        return new

    def carried(self, game_id: int, ref: Ref, message: discord.Message,
                shown: bytes | None) -> None:
        """Discord's answer to a post or edit that showed the picture `shown` (its digest)."""
        attachment = next((a for a in message.attachments
                           if a.filename == images.TABLE_FILE), None)
        pictures = self._carried.setdefault(game_id, {})
        if shown is None or attachment is None:
            pictures.pop(ref, None)
        else:
            pictures[ref] = (shown, attachment)

    def posted(self, game_id: int, ref: Ref, message: discord.Message, shown: bytes | None,
               *, handed_back: bool) -> None:
        """Discord's answer to a post of the picture `shown`. `handed_back`: the message was
        posted before (a repeated nonce) and answered as it was then: what it carries now is
        not known, so it is not kept by id."""
        self.carried(game_id, ref, message, None if handed_back else shown)

    @staticmethod
    def keeps(content: dict[str, Any]) -> bool:
        """Whether an edit's keyword arguments keep a picture by id (`reuse`)."""
        return any(isinstance(a, discord.Attachment) for a in content.get("attachments") or [])

    def drop(self, game_id: int, ref: Ref) -> None:
        """What that table message carries is not known any more."""
        self._carried.get(game_id, {}).pop(ref, None)

    def forget(self, game_id: int, keep: set[Ref] | None = None) -> None:
        """A game over (`keep` None), or its tables other than `keep` no longer edited."""
        if keep is None:
            self._carried.pop(game_id, None)
            return
        pictures = self._carried.get(game_id, {})
        for ref in [r for r in pictures if r not in keep]:
            del pictures[ref]
