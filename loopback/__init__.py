"""A loopback Discord for end-to-end tests: real discord.py, real HTTP and websockets.

A package of its own, not a test module: tests and benchmarks import it, and it imports no
pytest. See README.md in this folder for what it fakes and how to extend it. Only ``hook`` is
imported eagerly (it needs nothing but discord.py).
"""

from __future__ import annotations

import importlib
from typing import Any

from .hook import discord_env_for, point_discord_at, point_discord_at_env, restore_real_discord

_LAZY = {
    "FakeDiscord": "server", "RecordedError": "server", "BAD_TOKEN": "server",
    "InteractionResult": "results", "Clock": "ids",
    "Button": "model", "FakeChannel": "places", "FakeMessage": "model", "FakeUser": "model",
    "run_bot": "running", "run_bot_process": "running", "bot_environment": "running",
}

__all__ = [
    "discord_env_for", "point_discord_at", "point_discord_at_env", "restore_real_discord", *_LAZY
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(name)
