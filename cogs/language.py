"""/lama language: a per-user language override, as a mixin of the /lama GroupCog.

Which language a message is in (cogs/text.py has the two rules):
- replies and DMs: the reader's override (`/lama language`), else their Discord client's
  language (`interaction.locale`); a DM sent without an interaction (a hand, a reminder) uses
  the locale the user's last interaction had, else the game's public language;
- public messages: the server's setting (`GuildSettings.locale`), else the server's preferred
  locale; English is the fallback for anything we do not speak.

Every choice is owned by `hosting.Preferences` (`bot.preferences`): overrides live in the
store's `user_locales` table and are read lazily, once per user per process (awaited by the
command tree's `interaction_check` and by every component callback before any text is
chosen). The mixin expects `self.bot` (set by Lama.__init__).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from hosting import options

from .text import t

if TYPE_CHECKING:
    from .host import LamaHost

AUTO = options.SERVER_LANGUAGE_AUTO  # for a user: follow their Discord client's language


def _choice(code: str) -> app_commands.Choice[str]:
    key = f"language.name.{code}"
    english = i18n.translate(key, i18n.DEFAULT_LOCALE)
    return app_commands.Choice(name=app_commands.locale_str(english, key=key), value=code)


LANGUAGE_CHOICES = [_choice(code) for code in options.LANGUAGES]


class LanguageCommands(commands.Cog):
    """Mixin for the /lama GroupCog: the reader's own game language."""

    bot: LamaHost

    @app_commands.command(
        name="language", description="Choose the language the bot uses with you"
    )
    @app_commands.describe(language="Your game language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(
        self, interaction: discord.Interaction, language: str | None = None
    ) -> None:
        user_id = interaction.user.id
        if language is None:
            current = self.bot.locales.locale_of(interaction)
            await interaction.response.send_message(  # its name, said in it, mid-sentence
                t("language.current", current, language=t("language.own_name", current)),
                ephemeral=True,
            )
            return
        options.validate(language=language)
        await self.bot.preferences.set_user_choice(user_id, None if language == AUTO else language)
        locale = self.bot.locales.locale_of(interaction)  # DMs from now on, too
        if language == AUTO:
            text = t("language.reset", locale)
        else:
            text = t("language.set", locale, language=t("language.own_name", locale))
        await interaction.response.send_message(text, ephemeral=True)
