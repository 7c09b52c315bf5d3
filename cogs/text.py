"""Words for Discord: how cards, tokens, seats and moves read (hosting.Preferences picks the
language).

Text is the source of truth (images are a bonus): every card reads as an emoji plus its name,
so the game is fully playable in plain text and with a screen reader.

Text a member chose (display names, tournament names) goes into a sentence only through
`member_text`: cut to a length, and isolated so that its writing direction stays inside it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import discord

import i18n
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.results import Standing
from hosting.views import GameView, SeatView, ai_called
from i18n.isolates import balanced
from lama import events as ev
from lama.cards import Card
from lama.rules import TokenKind

from .emojis import CARD_EMOJIS

CARD_EMOJI = {"L": "🦙", "P": "🩷"}
NUMBER_EMOJI = {1: "1️⃣", 2: "2️⃣", 3: "3️⃣", 4: "4️⃣", 5: "5️⃣", 6: "6️⃣"}
# The pink token is a blossom, not the pink llama card's heart: one symbol, one meaning.
TOKEN_EMOJI = {"WHITE": "⚪", "BLACK": "⚫", "PINK": "🌸"}
KOMARAMI_EMOJI = "🦟"
# A move's picture, the same on every button that makes it (under the table, in a hand).
# Draw is "one card more": 🃏 would read as the table's My hand (your cards) beside it.
DRAW_EMOJI = "➕"
QUIT_EMOJI = "🚪"
NAME_SHOWN = 32  # characters of a member's name a message shows (Discord's own most)
ELLIPSIS = "…"


def t(key: str, locale: str, count: int | None = None, **params: Any) -> str:
    return i18n.translate(key, locale, count=count, **params)


def card_emoji(code: str, variant: str) -> str:
    if code == "L" and variant == "komarami":
        return KOMARAMI_EMOJI
    if code in CARD_EMOJI:
        return CARD_EMOJI[code]
    return NUMBER_EMOJI[int(code[0])] + ("➕" if code.endswith("+") else "")


# A card's words depend on nothing but the card, the language and the variant: made once
# each, not at every hand, button and autocomplete (issue 14: every answer names cards).
@functools.cache
def card_name(code: str, locale: str, variant: str) -> str:
    return i18n.card_name(code, variant, locale)


def card_label(code: str, locale: str, variant: str) -> str:
    """A card as text a screen reader can say and a player can scan: emoji plus its name."""
    return card_phrase(code, locale, variant).label


@functools.cache
def card_phrase(code: str, locale: str, variant: str) -> i18n.Phrase:
    """A card for a sentence: `{card}` is its label, `{card.acc}` "lamu" / "una llama"."""
    return i18n.card_phrase(code, variant, locale, emoji=card_emoji(code, variant))


def hand_text(cards: Iterable[Card], locale: str, variant: str) -> str:
    """A hand as its owner sees it: every card's face (an application emoji) and name, or
    until the faces are known its Unicode label."""
    labels = []
    for card in cards:
        face = CARD_EMOJIS.markup(card.code, variant)
        name = card_name(card.code, locale, variant)
        labels.append(f"{face} {name}" if face else card_label(card.code, locale, variant))
    return ", ".join(labels)


def cards_text(cards: Iterable[Card], locale: str, variant: str) -> str:
    """A hand or what is left of it: an inventory, one label after another."""
    return ", ".join(card_label(c.code, locale, variant) for c in cards)


def choices_text(cards: Iterable[Card], locale: str, variant: str) -> str:
    """Cards to choose from, as the language says "A, B or C" ("A, B nebo C", "A, B o C")."""
    return _choices(tuple(c.code for c in cards), locale, variant)


@functools.lru_cache(maxsize=2048)
def _choices(codes: tuple[str, ...], locale: str, variant: str) -> str:
    """Every hand on turn says which cards it may play: a few hundred lists, made once."""
    labels = [card_label(code, locale, variant) for code in codes]
    return i18n.format_list(labels, locale, style="or")


def tokens_text(tokens: Iterable[tuple[TokenKind, int]], locale: str) -> str:
    """A score as tokens, e.g. '⚫×2 ⚪×7'; no tokens reads as 'no tokens'."""
    parts = [f"{TOKEN_EMOJI[kind.name]}×{count}" for kind, count in tokens if count]
    return " ".join(parts) if parts else t("token.none", locale)


def member_text(text: str, *, limit: int = NAME_SHOWN, markdown: bool = True) -> str:
    """A name a member chose, for a sentence of the bot's: at most `limit` characters (cut
    with "…"), escaped for markdown (`markdown` False: as it is, for plain text such as an
    autocomplete choice or an embed title, where an escape would show), and isolated
    (U+2068 … U+2069), so a right-to-left name or a U+202E override in it cannot turn the
    sentence around it. The isolates it holds itself are balanced: a stray U+2069 cannot
    close ours early, and one it opens closes before ours does."""
    if len(text) > limit:
        text = text[:limit - len(ELLIPSIS)] + ELLIPSIS
    if markdown:
        text = discord.utils.escape_markdown(text)
    return i18n.isolate(text)


def fit(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, cut with "…" where it is longer; an isolate the
    cut leaves open is closed within the limit (a thread's or a choice's name)."""
    if len(text) <= limit:
        return text
    cut = text[:limit - len(ELLIPSIS)]
    while len(closed := balanced(cut + ELLIPSIS)) > limit:
        cut = cut[:-1]
    return closed


def ai_seat_name(number: int, locale: str, level: str | None = None) -> str:
    """The one name of an AI, everywhere: "🤖 Llama-bot 2", by the number `ai_called` gives
    it (not by a stored name, which goes stale when a lobby's seats move up), with its level
    where players choose or look back: "🤖 Llama-bot 2 (hard)"."""
    name = f"🤖 {t('ai.name', locale, number=number)}"
    return f"{name} ({t(f'ai.level.{level}', locale)})" if level else name


def seat_name(
    seat: SeatView, locale: str, *, with_level: bool = False, markdown: bool = True
) -> str:
    """A seat's name, safe inside markdown (`markdown` False: unescaped, for plain text such
    as an autocomplete choice, where an escape would show) and isolated (`member_text`); AI
    seats are marked with 🤖."""
    if seat.user_id is None:
        number = ai_called(seat.index, seat.ai_number)
        return ai_seat_name(number, locale, seat.ai_level if with_level else None)
    name = member_text(seat.name, markdown=markdown)
    return f"🤖 {name}" if seat.ai_level is not None else name


def standing_line(standing: Standing, name: str, locale: str) -> str:
    """A line of a finished game's final standings ('2. Bob: 30 points'), in its "Game over"
    post and its replay alike: after a seat whose human left or timed out, why it is last
    (' · left — an AI finished the game; counts as last place'); a kicked seat, rated for no
    one, has no place and says so. `name`: the seat's, ready for the message."""
    key = "game.standing" if standing.ranked else "game.standing.unranked"
    line = t(key, locale, rank=standing.place, name=name, count=standing.score)
    if standing.note is not None:
        line += " · " + t(standing.note, locale, count=TIMEOUTS_BEFORE_AI)
    return line


def move_line(event: ev.Event, name: str, locale: str, variant: str) -> str | None:
    """A move as one line ("Alice played 4"), for the table and replays; None if not a move."""
    if isinstance(event, ev.CardPlayed):
        return t(
            "move.played", locale, name=name, card=card_phrase(event.card.code, locale, variant)
        )
    if isinstance(event, ev.CardDrawn):
        return t("move.drew", locale, name=name)
    if isinstance(event, ev.PlayerQuit):
        return t("move.quit", locale, name=name)
    if isinstance(event, ev.ForcedQuit):
        alone = event.reason is ev.ForcedQuitReason.ALONE
        return t("move.forced_quit.alone" if alone else "move.forced_quit", locale, name=name)
    if isinstance(event, ev.ExtraTurn):
        return t("move.extra_turn", locale, name=name)
    return None


def jump_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    """A link that opens a message (Discord shows it as a link to that message); without
    one (not known), its channel."""
    if message_id is None:
        return f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def variant_name(view_or_variant: GameView | str, locale: str) -> str:
    if isinstance(view_or_variant, GameView):
        view_or_variant = view_or_variant.options.variant
    return t(f"variant.{view_or_variant}", locale)


def signed(delta: int) -> str:
    """A rating change as players read it: +12, −8 (a true minus sign), ±0."""
    if delta > 0:
        return f"+{delta}"
    return f"−{-delta}" if delta < 0 else "±0"
