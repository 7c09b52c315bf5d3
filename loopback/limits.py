"""Limits Discord enforces that the OpenAPI document does not (or states more loosely).

Each check returns :class:`BodyProblem` values; the server answers them like Discord does
(400, code 50035 "Invalid Form Body") and records them so the test fails.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .model import IS_COMPONENTS_V2
from .spec import BodyProblem

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_FIELDS = 25
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CHOICES = 25
MAX_CUSTOM_ID = 100
MAX_ALLOWED_IDS = 100  # users or roles an allowed_mentions may list


_EMBED_TEXT_LIMITS = {
    ("title",): 256,
    ("description",): 4096,
    ("footer", "text"): 2048,
    ("author", "name"): 256,
}
_ACTION_ROW, _BUTTON = 1, 2


def _text(embed: dict[str, Any], *keys: str) -> str:
    value: Any = embed
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, str) else ""


def embed_problems(embeds: list[Any]) -> Iterator[BodyProblem]:
    if len(embeds) > MAX_EMBEDS:
        yield BodyProblem(("embeds",), f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        for keys, limit in _EMBED_TEXT_LIMITS.items():
            text = _text(embed, *keys)
            total += len(text)
            if len(text) > limit:
                yield BodyProblem(("embeds", i, *keys), f"Must be {limit} or fewer in length.")
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            yield BodyProblem(("embeds", i, "fields"), f"Must be {MAX_EMBED_FIELDS} or fewer.")
        for j, field in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                text = _text(field, key)
                total += len(text)
                if len(text) > limit:
                    yield BodyProblem(("embeds", i, "fields", j, key), f"Must be {limit} or fewer.")
    if total > MAX_EMBED_TOTAL:
        yield BodyProblem(("embeds",), f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def _walk_components(components: list[Any], path: tuple) -> Iterator[tuple[tuple, dict]]:
    for i, component in enumerate(components):
        if isinstance(component, dict):
            yield (*path, i), component
            for key in ("components", "accessory"):
                child = component.get(key)
                children = [child] if isinstance(child, dict) else child
                if isinstance(children, list):
                    yield from _walk_components(children, (*path, i, key))


def component_problems(components: list[Any], flags: int) -> Iterator[BodyProblem]:
    if not flags & IS_COMPONENTS_V2 and len(components) > MAX_ACTION_ROWS:
        yield BodyProblem(("components",), f"Must be {MAX_ACTION_ROWS} or fewer in length.")
    seen: set[str] = set()
    for path, component in _walk_components(components, ("components",)):
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if len(custom_id) > MAX_CUSTOM_ID:
                yield BodyProblem((*path, "custom_id"), f"Must be {MAX_CUSTOM_ID} or fewer long.")
            if custom_id in seen:
                yield BodyProblem((*path, "custom_id"), "Component custom id cannot be duplicated")
            seen.add(custom_id)
        if component.get("type") == _ACTION_ROW:
            children = component.get("components") or []
            buttons = [c for c in children if isinstance(c, dict) and c.get("type") == _BUTTON]
            if len(children) > MAX_BUTTONS_PER_ROW:
                yield BodyProblem((*path, "components"), "Must be 5 or fewer in length.")
            if buttons and len(buttons) != len(children):
                yield BodyProblem((*path, "components"), "A row holds buttons or one select menu.")
        # link buttons (style 5) carry a url, premium ones (6) an sku_id, the rest a custom_id
        style = component.get("style")
        if component.get("type") == _BUTTON and style not in (5, 6) and not custom_id:
            yield BodyProblem((*path, "custom_id"), "A non-link button needs a custom_id.")


def emoji_problems(body: Any, known_ids: Mapping[int, Any]) -> list[BodyProblem]:
    """A component's custom emoji (one with an id) must be one the bot may use: here, one of
    the application's own emojis (emojis.py)."""
    if not isinstance(body, dict) or not isinstance(body.get("components"), list):
        return []
    problems = []
    for path, component in _walk_components(body["components"], ("components",)):
        emoji = component.get("emoji")
        emoji_id = emoji.get("id") if isinstance(emoji, dict) else None
        if emoji_id is not None and int(emoji_id) not in known_ids:
            problems.append(BodyProblem((*path, "emoji", "id"), "Invalid emoji"))
    return problems


def allowed_mentions_problems(allowed: Any) -> Iterator[BodyProblem]:
    """A type both parsed and listed is ambiguous, so Discord refuses it; at most 100 ids."""
    if not isinstance(allowed, dict):
        return
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if kind in parse and listed:
            yield BodyProblem(("allowed_mentions", "parse"),
                              f"parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive.")
        if len(listed) > MAX_ALLOWED_IDS:
            yield BodyProblem(("allowed_mentions", kind),
                              f"Must be {MAX_ALLOWED_IDS} or fewer in length.")


def message_problems(body: Any) -> list[BodyProblem]:
    """Problems with a message-shaped body (create, edit, interaction reply, follow-up)."""
    if not isinstance(body, dict):
        return []
    problems: list[BodyProblem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(BodyProblem(("content",), f"Must be {MAX_CONTENT} or fewer in length."))
    if isinstance(body.get("embeds"), list):
        problems.extend(embed_problems(body["embeds"]))
    if isinstance(body.get("components"), list):
        flags = body.get("flags")
        problems.extend(component_problems(body["components"],
                                           flags if isinstance(flags, int) else 0))
    problems.extend(allowed_mentions_problems(body.get("allowed_mentions")))
    return problems


def autocomplete_problems(data: Any) -> list[BodyProblem]:
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        return [BodyProblem(("data", "choices"), "This field is required")]
    problems = []
    if len(choices) > MAX_CHOICES:
        problems.append(BodyProblem(("data", "choices"), f"Must be {MAX_CHOICES} or fewer."))
    for i, choice in enumerate(choices):
        name = choice.get("name") if isinstance(choice, dict) else None
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(BodyProblem(("data", "choices", i, "name"), "Must be 1-100 long."))
    return problems


def discord_error_body(problems: list[BodyProblem]) -> dict[str, Any]:
    """Discord's 50035 answer: errors nested along each problem's path."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": "INVALID", "message": problem.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


# ------------------------------------------------------------ Components V2

MAX_V2_COMPONENTS = 40  # every component, nested ones included
MAX_V2_TEXT = 4000  # all text displays together
_V2_ONLY_TYPES = {9, 10, 11, 12, 13, 14, 17}  # section, text, thumbnail, gallery, file, …
_TEXT_DISPLAY = 10
ATTACHMENT_SCHEME = "attachment://"


def _media_urls(component: dict[str, Any]) -> Iterator[str]:
    for media in [component.get("media"), component.get("file")]:
        if isinstance(media, dict) and isinstance(media.get("url"), str):
            yield media["url"]
    for item in component.get("items") or []:
        media = item.get("media") if isinstance(item, dict) else None
        if isinstance(media, dict) and isinstance(media.get("url"), str):
            yield media["url"]


def components_v2_problems(
    body: dict[str, Any], flags: int, was_v2: bool, attachment_names: set[str]
) -> list[BodyProblem]:
    """Discord's rules for a message with (or without) the IS_COMPONENTS_V2 flag.

    `flags` is what the message will have, `was_v2` whether it had the flag before (an edit),
    `attachment_names` the files the message will carry (uploaded now or kept).
    """
    given = body.get("components")
    components: list[Any] = given if isinstance(given, list) else []
    if was_v2 and "flags" in body and body["flags"] is not None and not flags & IS_COMPONENTS_V2:
        return [BodyProblem(("flags",), "The IS_COMPONENTS_V2 flag cannot be removed")]
    if not flags & IS_COMPONENTS_V2 and not was_v2:
        return [
            BodyProblem(("components", i, "type"), "This component needs IS_COMPONENTS_V2")
            for i, c in enumerate(components)
            if isinstance(c, dict) and c.get("type") in _V2_ONLY_TYPES
        ]
    problems = []
    for legacy in ("content", "embeds", "stickers", "poll"):
        if body.get(legacy):
            problems.append(BodyProblem(
                (legacy,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"))
    walked = list(_walk_components(components, ("components",)))
    if len(walked) > MAX_V2_COMPONENTS:
        problems.append(BodyProblem(("components",), f"Must be {MAX_V2_COMPONENTS} or fewer."))
    text = sum(len(c.get("content") or "") for _, c in walked if c.get("type") == _TEXT_DISPLAY)
    if text > MAX_V2_TEXT:
        problems.append(BodyProblem(("components",), f"Text must be {MAX_V2_TEXT} or fewer."))
    for path, component in walked:
        for url in _media_urls(component):
            name = url.removeprefix(ATTACHMENT_SCHEME)
            if url.startswith(ATTACHMENT_SCHEME) and name not in attachment_names:
                problems.append(BodyProblem((*path, "media", "url"),
                                            f"Unknown attachment reference: {name}"))
    return problems
