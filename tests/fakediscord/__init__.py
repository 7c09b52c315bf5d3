"""A loopback Discord for end-to-end tests: real discord.py, real HTTP and websockets.

See README.md in this folder for how to write a test with it. Only ``hook`` is imported
eagerly: the production bot imports it without the test dependencies (jsonschema, pytest).
"""

from __future__ import annotations

import importlib
from typing import Any

from .hook import discord_env_for, point_discord_at, point_discord_at_env, restore_real_discord

_LAZY = {
    "FakeDiscord": "server", "RecordedError": "server", "BAD_TOKEN": "server",
    "InteractionResult": "driver", "Clock": "ids",
    "Button": "model", "FakeChannel": "model", "FakeMessage": "model", "FakeUser": "model",
    "run_bot": "fixtures", "run_bot_process": "fixtures",
}

__all__ = [
    "discord_env_for", "point_discord_at", "point_discord_at_env", "restore_real_discord", *_LAZY
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(name)
