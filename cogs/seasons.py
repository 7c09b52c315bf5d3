"""A rating season's end, announced: the final top 3 in the server's games channel.

Hosting's SeasonKeeper rolls seasons over and calls `announce` once per closed season; it
marks the season announced only when this returns True, so a Discord hiccup is retried on its
next tick and a crash never loses an announcement. The post takes a slot in the process's REST
budget, as every post of the renderer does.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from hosting.seasons import SeasonEnded

from .leaderboard import COLOUR, MEDALS, rating_text, season_label
from .render.scheduler import Priority
from .text import t

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)


def season_end_embed(ended: SeasonEnded, locale: str) -> discord.Embed:
    label = season_label(ended.season, locale)
    embed = discord.Embed(title=t("season.ended.title", locale, season=label), colour=COLOUR)
    if ended.top:
        lines = [
            f"{MEDALS.get(row.rank, f'{row.rank}.')} <@{row.user_id}> · "
            f"**{rating_text(row.rating, row.provisional, locale)}**"
            for row in ended.top
        ]
    else:
        lines = [t("season.ended.nobody", locale)]
    if ended.next_season is not None:
        lines += ["", t("season.ended.next", locale,
                        season=season_label(ended.next_season, locale))]
    embed.description = "\n".join(lines)
    return embed


class Seasons(commands.Cog):
    def __init__(self, bot: LamaHost) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.season_keeper.add_listener(self.announce)

    async def cog_unload(self) -> None:
        self.bot.season_keeper.remove_listener(self.announce)

    async def announce(self, ended: SeasonEnded) -> bool:
        """Post the final standings; True once posted or when there is nowhere to post."""
        guild_id = ended.season.guild_id
        settings = await self.bot.preferences.guild_settings(guild_id)
        if settings.games_channel_id is None:
            return True  # no games channel: the standings stay viewable by /leaderboard season:
        locale = self.bot.locales.public_locale_of(guild_id)
        try:
            channel = self.bot.get_channel(settings.games_channel_id) or (
                await self.bot.fetch_channel(settings.games_channel_id)
            )
            if not isinstance(channel, discord.abc.Messageable):  # a category, a forum
                log.warning("season %s of guild %s: the games channel takes no messages",
                            ended.season.number, guild_id)
                return True  # retrying cannot help
            async with self.bot.renderer.budget.slot(Priority.TABLE, channel.id, "create"):
                # its mentions are in an embed, and the client's default pings nobody
                await channel.send(embed=season_end_embed(ended, locale))
        except (discord.NotFound, discord.Forbidden):
            log.warning("season %s of guild %s: games channel gone or closed to the bot",
                        ended.season.number, guild_id)
            return True  # retrying cannot help
        except discord.HTTPException:
            log.exception("season %s of guild %s: announcement failed, will retry",
                          ended.season.number, guild_id)
            return False
        return True


async def setup(bot: LamaHost) -> None:
    await bot.add_cog(Seasons(bot))
