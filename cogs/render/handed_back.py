"""What a message Discord handed back for a create shows, compared with what was sent.

Every message the renderer creates carries a nonce naming what it shows (outbox.py), and
Discord answers a repeat of a nonce (a replay after a crash, a retry whose first answer was
lost) with the message posted first, as it was posted: a round's table at its deal, a seat's
deal while another seat started. So a create is not trusted to show what it sent: its answer
is compared with the request (`shows`), and a message that shows something else is edited to
the state the request meant (tables.py, hands.py). Compared: the text (content, text
displays, embeds' words) and the buttons (which ones, on or off); not the pictures, which are
drawn from the same state as the text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

Shown = tuple[tuple[Any, ...], ...]


def shows(message: discord.Message, sent: dict[str, Any]) -> bool:
    """Whether `message` shows what the keyword arguments `sent` of its create asked for."""
    return _of_message(message) == _of_request(sent)


def _of_message(message: discord.Message) -> Shown:
    return (
        (_text(message.content),),
        tuple(_embed(e) for e in message.embeds),
        tuple(_components(c.to_dict() for c in message.components)),
    )


def _of_request(sent: dict[str, Any]) -> Shown:
    embeds = sent.get("embeds") or ([sent["embed"]] if sent.get("embed") else [])
    view = sent.get("view")
    components = view.to_components() if view else []
    return (
        (_text(sent.get("content")),),
        tuple(_embed(e) for e in embeds),
        tuple(_components(components)),
    )


def _embed(embed: discord.Embed) -> tuple[Any, ...]:
    fields = tuple((_text(f.name), _text(f.value)) for f in embed.fields)
    return _text(embed.title), _text(embed.description), fields, _text(embed.footer.text)


def _text(text: str | None) -> str:
    """Text as compared: Discord may trim what surrounds it."""
    return (text or "").strip()


def _components(components: Iterable[Any]) -> list[tuple[Any, ...]]:
    """The text displays and buttons, in order, however deep (a V2 container, a section)."""
    found: list[tuple[Any, ...]] = []
    stack = list(components)[::-1]
    while stack:
        component = stack.pop()
        kind = component.get("type")
        if kind == 10:  # a text display
            found.append(("text", _text(component.get("content"))))
        elif kind == 2:  # a button
            found.append(("button", component.get("custom_id") or component.get("url"),
                          _text(component.get("label")), bool(component.get("disabled"))))
        children = list(component.get("components") or [])
        if component.get("accessory"):
            children.append(component["accessory"])
        stack.extend(children[::-1])
    return found
