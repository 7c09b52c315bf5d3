"""One base for every button LamaBot shows: a `DynamicItem` that survives restarts.

A button's custom id carries everything it acts on (the game, the round, whose it is), so
nothing lives in memory between the press and the game. The base does, once for every
button, what a press needs before its handler runs and what it needs if the handler fails:

- the reader's language (their /lama language choice, loaded once per process);
- the owner check: a button made for one user (`owner_id`) refuses anyone else politely
  and changes nothing (a crafted press on someone else's hand, another user's "forget me");
- the cog that handles it, looked up by name with a None check;
- error reporting: a refusal or a bug becomes an ephemeral answer, never "did not respond".

Subclasses give `template`, `cog_name`, `from_match` and `pressed`; they never override
`callback`, so no handler can forget the error reporting. Each cog registers its own items.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

import discord

from .errors import answer, handler_cog, report
from .text import t

if TYPE_CHECKING:
    from bot import LamaBot

NEVER = r"(?!)"  # the base itself is never registered


async def reader_locale(interaction: discord.Interaction) -> str:
    """The presser's language, with their /lama language choice loaded first."""
    bot = cast("LamaBot", interaction.client)
    await bot.preferences.load_user_choice(interaction.user.id)
    return bot.locale_of(interaction)


class LamaButton(discord.ui.DynamicItem[discord.ui.Button], template=NEVER):
    cog_name: ClassVar[str] = ""
    owner_id: int | None = None  # only this user may press it (None: anyone)

    def __init__(self, custom_id: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            locale = await reader_locale(interaction)
            if self.owner_id is not None and interaction.user.id != self.owner_id:
                await answer(interaction, t("error.button_not_yours", locale))
                return
            await self.pressed(interaction, handler_cog(interaction, self.cog_name), locale)
        except Exception as error:
            await report(interaction, error)

    async def pressed(self, interaction: discord.Interaction, cog: Any, locale: str) -> None:
        raise NotImplementedError
