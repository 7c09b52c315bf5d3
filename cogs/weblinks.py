"""Links from the bot's answers to the web pages (web/): a link button under /leaderboard,
/lama stats and /lama replay when the server's pages are public and the site has a public
address (WEB_PUBLIC_URL); and the web-pages line of /lama settings.

A private server's secret link only ever appears in /lama settings, which answers privately
and only to members who may manage the server.
"""

from __future__ import annotations

import discord
from discord import app_commands

import i18n
from store import SiteAccess
from web import Paths, PublicLinks

from .button_views import ButtonsView
from .text import t

PUBLIC, PRIVATE = "public", "private"


def _choice(value: str) -> app_commands.Choice[str]:
    key = f"settings.web.{value}"
    english = i18n.translate(key, i18n.DEFAULT_LOCALE)
    return app_commands.Choice(name=app_commands.locale_str(english, key=key), value=value)


WEB_PAGES_CHOICES = [_choice(PUBLIC), _choice(PRIVATE)]


def with_web_link(
    view: discord.ui.View | None, url: str | None, locale: str
) -> discord.ui.View | None:
    """`view` with a link button to `url` added (a new view if there was none)."""
    if url is None:
        return view
    view = view if view is not None else ButtonsView()
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                                    label=t("web.link.open", locale)))
    return view


async def public_paths(bot: object, guild_id: int | None) -> Paths | None:
    links: PublicLinks | None = getattr(bot, "web_links", None)
    return None if links is None else await links.paths(guild_id)


def settings_line(links: PublicLinks, access: SiteAccess, locale: str) -> str:
    """What /lama settings says about the web pages, link included."""
    if not links.enabled:
        return t("settings.web.none", locale)
    if access.public:
        return t("settings.web.public_link", locale,
                 url=links.public(access.guild_id).leaderboard())
    return t("settings.web.private_link", locale,
             url=links.private(access.secret).leaderboard())
