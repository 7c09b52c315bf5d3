"""Card faces as application emojis: each face drawn and uploaded once, then shown as text.

Discord lets an application own emojis (up to 2,000) that it may use in every server and DM.
At start-up the bot lists its own and uploads the card faces it lacks (`lamacard_…`, drawn by
cardart); from then on a hand is text: every card as its face and its name, every card
button with its face beside the name. No picture is drawn or uploaded per move. The names
stay the text of record (labels, lines), for screen readers and anyone whose client shows
no emojis.

Until the faces are known, or when Discord refused them, the Unicode emojis of cogs/text.py
stand in and hand messages carry their picture as before (cogs/images.py).

The ids are per application, the same everywhere, and read by pure functions (embeds,
components), so they live in one process-wide table, like the command ids (cogs/mentions.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

import cardart
from cardart.codes import VARIANT_CODES
from cardart.tiles import card_face

from .card_letters import corner_letters

log = logging.getLogger(__name__)

PREFIX = "lamacard_"
INVALID_FORM_BODY = 50035  # Discord's code for a refused field: here, a name already taken


def _name(face: tuple[str, ...]) -> str:
    kind, label = face
    if kind == "number":  # "3", "3+"
        return PREFIX + label.replace("+", "plus")
    return PREFIX + kind  # llama, pink_llama, mosquito: one face each


def _faces() -> dict[tuple[str, str], tuple[str, ...]]:
    """(code, variant) → the card's face, for every card of every variant (English letters:
    an emoji is the same in every language)."""
    return {(code, variant): card_face(code, variant, corner_letters("en"))
            for variant, codes in VARIANT_CODES.items() for code in sorted(codes)}


FACES = _faces()
NAMES = {key: _name(face) for key, face in FACES.items()}
FACE_OF_NAME = {NAMES[key]: face for key, face in FACES.items()}  # 15 distinct faces


class CardEmojis:
    """The application emoji of every card face, once all of them are known."""

    def __init__(self) -> None:
        self._emojis: dict[tuple[str, str], discord.PartialEmoji] = {}
        self._markup: dict[tuple[str, str], str] = {}
        self._json: dict[tuple[str, str], dict[str, Any]] = {}

    @property
    def ready(self) -> bool:
        return bool(self._emojis)

    def learn(self, ids: dict[str, int]) -> None:
        """Use these emojis (name → id) if every face is among them; else none at all, so a
        hand never mixes card faces with stand-ins."""
        if not all(name in ids for name in FACE_OF_NAME):
            self.forget()
            return
        self._emojis = {key: discord.PartialEmoji(name=name, id=ids[name])
                        for key, name in NAMES.items()}
        self._markup = {key: str(emoji) for key, emoji in self._emojis.items()}
        self._json = {key: dict(emoji.to_dict()) for key, emoji in self._emojis.items()}

    def forget(self) -> None:
        self._emojis, self._markup, self._json = {}, {}, {}

    def emoji(self, code: str, variant: str) -> discord.PartialEmoji | None:
        """For a button: the card's face, or None (not known)."""
        return self._emojis.get((code, variant))

    def emoji_json(self, code: str, variant: str) -> dict[str, Any] | None:
        """For a button built as Discord's JSON: the face's emoji object, or None. Made once
        per face (every hand shows up to eight); never to be changed by whoever sends it."""
        return self._json.get((code, variant))

    def markup(self, code: str, variant: str) -> str | None:
        """For text: `<:lamacard_3:123…>`, or None (not known)."""
        return self._markup.get((code, variant))

    async def upload_missing(self, client: discord.Client) -> int:
        """List the application's emojis, upload the faces it lacks, learn them all.
        Returns how many were uploaded here (0 after the first start).

        Another process starting at the same time (shards) uploads the same faces: Discord
        refuses a name that is taken (400, Invalid Form Body), and the faces are listed again
        and the peer's used."""
        have = await _listed(client)
        uploaded = 0
        for name in [name for name in FACE_OF_NAME if name not in have]:
            if name in have:  # a peer's, learnt from a list after a refusal
                continue
            png = await asyncio.to_thread(cardart.emoji_png, FACE_OF_NAME[name])
            try:
                have[name] = (await client.create_application_emoji(name=name, image=png)).id
                uploaded += 1
            except discord.HTTPException as error:
                if error.status != 400 or error.code != INVALID_FORM_BODY:
                    raise
                have = await _listed(client)
                if name not in have:  # refused for another reason than a peer's upload
                    raise
        self.learn(have)
        return uploaded


async def _listed(client: discord.Client) -> dict[str, int]:
    return {e.name: e.id for e in await client.fetch_application_emojis()}

CARD_EMOJIS = CardEmojis()
