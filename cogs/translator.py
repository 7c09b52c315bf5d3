"""Slash command names, descriptions and choices in Czech and Spanish, from the i18n catalogues.

discord.py asks the tree's translator for every `locale_str` of every command, once per Discord
locale, when it builds the registration payload; Discord then shows each user the names in their
client's language (the bot still receives the English names). Keys (i18n/README.md):

    group / command name         cmd.<command>.name            (the group is `lama`)
    group / command description  cmd.<command>.description
    option name                  cmd.option.<option>.name      (shared by every command)
    option description           cmd.<command>.option.<option>.description
    choice name                  a `key=` extra on its locale_str, else the first existing key
                                 of variant.<v>, ai.level.<v>, language.name.<v>, …

Only `cs`, `es-ES` and `es-419` get names and descriptions; every other locale (English
included) falls back to the code's English. Choice names are the exception: a `Literal` choice's
default name is its value (`classic`), so English clients get the catalogue's English too.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n

TRANSLATED_LOCALES: dict[Locale, str] = {
    Locale.czech: "cs",
    Locale.spain_spanish: "es",
    Locale.latin_american_spanish: "es",
}
ENGLISH_LOCALES = (Locale.american_english, Locale.british_english)

# Where a choice's value is looked up, in order (the first key the catalogue has wins).
CHOICE_KEY_PREFIXES = (
    "variant.",
    "ai.level.",
    "language.name.",
    "stats.period.",
    "leaderboard.sort.",
)


def message_key(
    string: app_commands.locale_str, context: app_commands.TranslationContextTypes
) -> str | None:
    """The catalogue key of one translatable string, or None when it has none."""
    explicit = string.extras.get("key")
    if explicit:
        return explicit
    where, data = context.location, context.data
    if isinstance(data, app_commands.Command | app_commands.Group):
        if where in (Where.command_name, Where.group_name):
            return f"cmd.{data.name}.name"
        if where in (Where.command_description, Where.group_description):
            return f"cmd.{data.name}.description"
    if isinstance(data, app_commands.Parameter):
        if where is Where.parameter_name:
            return f"cmd.option.{data.name}.name"
        if where is Where.parameter_description:
            return f"cmd.{data.command.name}.option.{data.name}.description"
    if isinstance(data, app_commands.Choice) and where is Where.choice_name:
        for prefix in CHOICE_KEY_PREFIXES:
            if i18n.has_key(f"{prefix}{data.value}"):
                return f"{prefix}{data.value}"
    return None


class LamaTranslator(app_commands.Translator):
    """Looks every string up in the i18n catalogues; None means "use the code's English"."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate(string, locale, context)


def translate(
    string: app_commands.locale_str, locale: Locale,
    context: app_commands.TranslationContextTypes,
) -> str | None:
    if locale in TRANSLATED_LOCALES:
        language = TRANSLATED_LOCALES[locale]
    elif locale in ENGLISH_LOCALES and context.location is Where.choice_name:
        language = i18n.DEFAULT_LOCALE
    else:
        return None
    key = message_key(string, context)
    if key is None or not i18n.has_key(key):
        return None
    text = i18n.translate(key, language)
    if context.location is Where.choice_name and text == string.message:
        return None  # the same as the default: nothing to localise
    return text
