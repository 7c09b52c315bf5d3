"""Slash-command ranges and choices, built from hosting/options.py (the one list of limits).

Choice names are the values; the translator shows each in the reader's language
(cogs/translator.py looks them up as variant.<v>, ai.level.<v>, …).
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import Choice

from hosting import options


def _choices(values: tuple[str, ...]) -> list[Choice[str]]:
    return [Choice(name=value, value=value) for value in values]


VARIANT_CHOICES = _choices(options.VARIANTS)
AI_LEVEL_CHOICES = _choices(options.AI_LEVELS)

Target = app_commands.Range[int, options.TARGET.low, options.TARGET.high]
TurnTimeout = app_commands.Range[int, options.TURN_TIMEOUT.low, options.TURN_TIMEOUT.high]
AiDelay = app_commands.Range[float, options.AI_DELAY.low, options.AI_DELAY.high]
AiSeats = app_commands.Range[int, options.AI_SEATS.low, options.AI_SEATS.high]
