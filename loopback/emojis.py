"""Application emojis: the application's own emojis, usable in any server and DM.

As Discord has them (discord.py's `fetch_application_emojis`, `create_application_emoji`,
…): names of 2-32 letters, digits or underscores, unique per application; the image a
base64 data URI of at most 256 KiB; at most 2,000 per application. `fake.application_emojis`
holds them (id → emoji JSON). A message whose component names a custom emoji that is not
the application's is refused, as Discord refuses it (`limits.emoji_problems`).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from .records import DiscordError, RestCall
from .rest import Reply, handles
from .world import World

NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
MAX_IMAGE_BYTES = 256 * 1024
MAX_EMOJIS = 2000
DATA_URI = re.compile(r"data:image/(png|jpeg|gif|webp|avif);base64,(?P<data>.+)", re.DOTALL)


def emoji_json(fake: World, emoji_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(emoji_id), "name": name, "roles": [], "user": fake.bot.to_json(),
        "require_colons": True, "managed": False, "animated": False, "available": True,
    }


def _check_application(fake: World, call: RestCall) -> None:
    if int(call.params["application_id"]) != fake.application_id:
        raise DiscordError(403, 50001, "Missing Access")


def _invalid(fake: World, call: RestCall, field: str, code: str, message: str
             ) -> DiscordError:
    """Refused as Discord refuses it, and recorded: the bot sent what Discord would refuse."""
    fake.record_error("invalid_body", f"{call.route}: {field}: {message}", call)
    return DiscordError(400, 50035, "Invalid Form Body",
                        {field: {"_errors": [{"code": code, "message": message}]}})


def _emoji(fake: World, call: RestCall) -> dict[str, Any]:
    _check_application(fake, call)
    emoji = fake.application_emojis.get(int(call.params["emoji_id"]))
    if emoji is None:
        raise DiscordError(404, 10014, "Unknown Emoji")
    return emoji


def _check_name(
    fake: World, call: RestCall, name: Any, except_id: str | None = None
) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise _invalid(fake, call, "name", "STRING_TYPE_REGEX",
                       "String value did not match validation regex.")
    if any(e["name"] == name and e["id"] != except_id for e in fake.application_emojis.values()):
        raise _invalid(fake, call, "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                       "Application emoji names must be unique.")
    return name


def _check_image(fake: World, call: RestCall, image: Any) -> bytes:
    match = DATA_URI.fullmatch(image) if isinstance(image, str) else None
    try:
        data = base64.b64decode(match["data"], validate=True) if match else b""
    except binascii.Error:
        data = b""
    if not data:
        raise _invalid(fake, call, "image", "IMAGE_INVALID", "Invalid image data")
    if len(data) > MAX_IMAGE_BYTES:
        raise _invalid(fake, call, "image", "BINARY_TYPE_MAX_SIZE",
                       f"File cannot be larger than {MAX_IMAGE_BYTES // 1024} kb.")
    return data


@handles("list_application_emojis")
async def list_emojis(fake: World, call: RestCall) -> Any:
    _check_application(fake, call)
    return {"items": list(fake.application_emojis.values())}


@handles("create_application_emoji")
async def create_emoji(fake: World, call: RestCall) -> Any:
    _check_application(fake, call)
    body = call.body if isinstance(call.body, dict) else {}
    name = _check_name(fake, call, body.get("name"))
    _check_image(fake, call, body.get("image"))
    if len(fake.application_emojis) >= MAX_EMOJIS:
        raise DiscordError(400, 30008, f"Maximum number of emojis reached ({MAX_EMOJIS})")
    emoji_id = fake.snowflakes.next()
    fake.application_emojis[emoji_id] = emoji_json(fake, emoji_id, name)
    return Reply(201, fake.application_emojis[emoji_id])


@handles("get_application_emoji")
async def get_emoji(fake: World, call: RestCall) -> Any:
    return _emoji(fake, call)


@handles("update_application_emoji")
async def update_emoji(fake: World, call: RestCall) -> Any:
    emoji = _emoji(fake, call)
    body = call.body if isinstance(call.body, dict) else {}
    if "name" in body:
        emoji["name"] = _check_name(fake, call, body["name"], except_id=emoji["id"])
    return emoji


@handles("delete_application_emoji")
async def delete_emoji(fake: World, call: RestCall) -> Any:
    emoji = _emoji(fake, call)
    del fake.application_emojis[int(emoji["id"])]
    return None
