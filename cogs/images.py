"""Card pictures on Discord messages: a bonus on top of the text, never instead of it.

The embed text (emoji + names) stays the source of truth: a picture that fails to render is
logged and left out, and the message goes out without it. Pictures are PNGs from `cardart`
(cached per arguments, so an unchanged hand is not drawn twice), attached to the message and
shown inside its embed with `attachment://<name>`; the attachment's description is its alt text.

- Hand messages (DMs, `/lama hand`, the answer to a move) show their cards with the card faces as
  application emojis (cogs/emojis.py): no picture per move. Only while those are unknown (a
  refused upload) do they carry a picture of the hand, and then an edit replaces it
  (`attachments=[file]`).
- The table (cogs/table_view.py, a Components V2 message) uploads its picture with every
  post and with each edit that changes it: the picture is cached per (top card, piles), and
  an edit whose picture is the one the message carries lists that attachment by id instead
  of uploading it again (cogs/render/table_pictures.py).

Drawing never runs on the event loop: a cached picture is taken as is (a dict look-up), a new
one is drawn in `asyncio.to_thread` (~2 ms of Pillow work, which releases the GIL), so other
games' interactions are not held up. Hence `hand_message` and `table_message` are coroutines.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

import cardart
from hosting.views import GameView, Status
from lama.observation import Observation

from . import embeds
from .card_letters import corner_letters
from .components import hand_view
from .emojis import CARD_EMOJIS
from .text import t

log = logging.getLogger(__name__)

HAND_FILE = "hand.png"
TABLE_FILE = "table.png"


def _playable(view: GameView, obs: Observation) -> tuple[set[str], bool]:
    """The codes to mark, and whether to mark at all (only on the seat's own live turn)."""
    live = view.status is Status.RUNNING and obs.round_number == view.round_number
    my_turn = live and obs.is_my_turn and not obs.has_quit[obs.seat]
    return ({c.code for c in obs.legal_plays} if my_turn else set()), my_turn


async def _draw(
    render: Callable[..., bytes], cached: Callable[..., bytes | None], *args: Any, **kwargs: Any
) -> bytes:
    """The cached PNG, or a fresh one drawn in a worker thread (off the event loop)."""
    png = cached(*args, **kwargs)
    if png is None:
        png = await asyncio.to_thread(render, *args, **kwargs)
    return png


async def hand_png(view: GameView, obs: Observation, locale: str) -> bytes:
    playable, highlight = _playable(view, obs)
    started = time.perf_counter()
    png = await _draw(
        cardart.render_hand, cardart.cached_hand,
        [c.code for c in obs.hand], playable, view.options.variant, corner_letters(locale),
        highlight=highlight,
    )
    log.debug("hand of %d cards ready in %.1f ms", len(obs.hand),
              (time.perf_counter() - started) * 1000)
    return png


async def hand_file(view: GameView, obs: Observation, locale: str) -> discord.File | None:
    try:
        png = await hand_png(view, obs, locale)
    except Exception:  # a picture is a bonus: the text still carries the hand
        log.warning("could not draw the hand of game %s", view.game_id, exc_info=True)
        return None
    return _file(png, HAND_FILE, t("hand.image_alt", locale))


async def table_file(view: GameView, locale: str) -> discord.File | None:
    if view.status is not Status.RUNNING or view.top_card is None:
        return None
    try:
        png = await _draw(
            cardart.render_table, cardart.cached_table,
            view.top_card, view.draw_pile_size, max(1, view.discard_size),
            view.options.variant, corner_letters(locale),
        )
    except Exception:
        log.warning("could not draw the table of game %s", view.game_id, exc_info=True)
        return None
    return _file(png, TABLE_FILE, t("table.image_alt", locale))


def _file(png: bytes, name: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name, description=alt)


# ------------------------------------------------------- message contents


async def hand_message(
    view: GameView, obs: Observation, locale: str, *, edit: bool = False,
    confirm_quit: bool = False, header: str | None = None, note: str | None = None,
    turn: bool = True,
) -> dict:
    """Keyword arguments for sending (`edit=False`) or editing a hand message. `header` goes
    above the hand (e.g. "Round 2 is over"); `note` replaces the turn line and the buttons
    (a hand message that is not live any more); `turn=False` leaves the turn part out. A game
    that is over keeps no buttons."""
    embed = embeds.hand_embed(
        view, obs, locale, confirm_quit=confirm_quit, header=header, note=note, turn=turn
    )
    over = view.status in (Status.FINISHED, Status.CANCELLED)
    buttons = None if note or over else hand_view(view, obs, locale, confirm_quit=confirm_quit)
    content: dict[str, Any] = {"embed": embed}
    if buttons is not None or edit:  # an edit without buttons removes the old ones
        content["view"] = buttons
    # With the card faces as emojis the text shows the cards: no picture to draw and upload.
    file = None if CARD_EMOJIS.ready else await hand_file(view, obs, locale)
    if file is not None:
        embed.set_image(url=f"attachment://{HAND_FILE}")
        content["attachments" if edit else "files"] = [file]
    elif edit:
        content["attachments"] = []  # never leave an older hand's picture behind
    return content


def closed_hand(message: discord.Message, note: str) -> dict:
    """Keyword arguments for editing an older hand message into a closed one as it stands:
    its own round and cards with `note` in place of its turn, no buttons. Its picture of the
    hand, if it has one, stays (an edit that names no attachments keeps them)."""
    if not message.embeds:
        return {"content": note, "view": None}
    embed = embeds.closed_hand_embed(message.embeds[0], note)
    if any(attachment.filename == HAND_FILE for attachment in message.attachments):
        embed.set_image(url=f"attachment://{HAND_FILE}")
    return {"embed": embed, "view": None}
