"""/leaderboard: this server's players ranked, ten a page, with the caller's own rank.

The page buttons are DynamicItems: the custom id carries who asked, the server, the sort, the
variant, the period and the page to show, so a press works after a restart and nothing is held
in memory. The owner's press turns the page in place; anyone else gets their own copy,
privately, with their own rank in it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import discord
from babel.dates import format_date
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands
from discord.utils import MISSING

import i18n
from hosting import HostingError, Problem, options
from hosting.boards import PERIOD_KEYS, SORT_KEYS, LeaderboardPage, Period
from hosting.ratings import SeasonCadence
from store import LeaderboardRow, LeaderboardSort, RatingRow, Season

from .button_views import ButtonsView
from .buttons import LamaButton, Presses
from .custom_ids import CustomId, number, one_of
from .mentions import command
from .text import t
from .timely import answers_publicly
from .weblinks import public_paths, with_web_link

if TYPE_CHECKING:
    from .host import LamaHost

COLOUR = 0xF4D35E
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
ALL_VARIANTS = "all"

# A title per period, not "Leaderboard: {period}": the choice names do not fit mid-sentence.
TITLE_KEYS = {
    Period.ALL_TIME: "leaderboard.title.all_time",
    Period.MONTH: "leaderboard.title.month",
    Period.WEEK: "leaderboard.title.week",
}


def _choice(english: str, key: str, value: str) -> Choice[str]:
    """A choice whose name the translator looks up under `key` (cogs/translator.py)."""
    return Choice(name=locale_str(english, key=key), value=value)


SORT_CHOICES = [_choice(english, SORT_KEYS[sort], sort.value) for english, sort in (
    ("Skill rating", LeaderboardSort.RATING),
    ("Most wins", LeaderboardSort.WINS),
    ("Best win rate (5+ games)", LeaderboardSort.WIN_RATE),
    ("Lowest average score", LeaderboardSort.AVG_SCORE),
    ("Fewest tokens per game", LeaderboardSort.TOKENS),
    ("Most clean rounds", LeaderboardSort.CLEAN_ROUNDS),
    ("Most games played", LeaderboardSort.GAMES),
)]
VARIANT_CHOICES = [
    _choice("All variants", "leaderboard.variant.all", ALL_VARIANTS),
    *(
        _choice(i18n.translate(f"variant.{v}", i18n.DEFAULT_LOCALE), f"variant.{v}", v)
        for v in options.VARIANTS
    ),
]
PERIOD_CHOICES = [_choice(english, PERIOD_KEYS[period], period.value) for english, period in (
    ("All time", Period.ALL_TIME), ("This month", Period.MONTH), ("This week", Period.WEEK),
)]

# The page a leaderboard's ◀ or ▶ shows. Its season is optional: older buttons lack it.
# The largest page and season keep the longest id within Discord's 100 characters: ten
# million pages are a hundred million players, a season a month for 800 years.
MOST_PAGES, MOST_SEASONS = 9_999_999, 9_999
PAGE_ID = CustomId(
    "lb", one_of("dir", "p", "n"), number("owner"), number("guild"),
    one_of("sort", *(s.value for s in LeaderboardSort)),
    one_of("variant", ALL_VARIANTS, *options.VARIANTS),
    one_of("period", *(p.value for p in Period)),
    number("page", largest=MOST_PAGES),
    number("season", optional=True, mark="s", largest=MOST_SEASONS),
)


class HandlesPages(Protocol):
    async def page_button(self, interaction: discord.Interaction, button: PageButton) -> None: ...


class PageButton(LamaButton[HandlesPages], ids=PAGE_ID):
    """◀ or ▶ under a leaderboard; `page` is the page it shows when pressed."""

    def __init__(
        self, direction: str, owner: int, guild: int, sort: str, variant: str, period: str,
        page: int, season: int | None = None, **button: Any,
    ) -> None:
        super().__init__(
            self.ids.make(direction, owner, guild, sort, variant, period, page, season), **button)
        self.direction, self.owner, self.guild = direction, owner, guild
        self.sort, self.variant, self.period, self.page = sort, variant, period, page
        self.season = season

    async def home_guild(self, bot: LamaHost) -> int | None:
        return self.guild  # the board of the server it was asked in

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesPages, locale: str
    ) -> None:
        await handler.page_button(interaction, self)


def page_view(board: LeaderboardPage, owner: int) -> discord.ui.View | None:
    if board.pages <= 1:
        return None
    ui = ButtonsView()
    season = board.season.number if board.season else None
    key = (board.guild_id, board.sort.value, board.variant or ALL_VARIANTS, board.period.value)
    ui.add_item(PageButton("p", owner, *key, max(board.page - 1, 0), season, emoji="◀️",
                           style=discord.ButtonStyle.secondary, disabled=board.page == 0))
    ui.add_item(PageButton("n", owner, *key, min(board.page + 1, board.pages - 1), season,
                           emoji="▶️", style=discord.ButtonStyle.secondary,
                           disabled=board.page >= board.pages - 1))
    return ui


# --------------------------------------------------------------------------- rendering


def rating_text(rating: int, provisional: bool, locale: str) -> str:
    """A shown rating; a provisional one carries the '?' the board's legend explains."""
    return t("rating.provisional" if provisional else "rating.value", locale, rating=rating)


def metric(row: LeaderboardRow | RatingRow, sort: LeaderboardSort, locale: str) -> str:
    """The number this board ranks by, then the player's games (or wins) for context."""
    games = t("stats.games.count", locale, count=row.games)
    if isinstance(row, RatingRow):
        return f"**{rating_text(row.rating, row.provisional, locale)}** · {games}"
    if sort is LeaderboardSort.WINS:
        return f"**{t('stats.wins.count', locale, count=row.wins)}** · {games}"
    if sort is LeaderboardSort.WIN_RATE:
        rate = i18n.format_percent(row.win_rate, locale)
        return f"**{rate}** · {t('stats.wins.count', locale, count=row.wins)} · {games}"
    if sort is LeaderboardSort.AVG_SCORE:
        value = i18n.format_decimal(row.avg_score, locale)
        return f"**{t('leaderboard.value.avg_score', locale, average=value)}** · {games}"
    if sort is LeaderboardSort.TOKENS:
        value = i18n.format_decimal(row.tokens_per_game, locale)
        return f"**{t('leaderboard.value.tokens', locale, value=value)}** · {games}"
    if sort is LeaderboardSort.CLEAN_ROUNDS:
        clean = t("leaderboard.value.clean_rounds", locale, count=row.clean_rounds)
        return f"**{clean}** · {games}"
    return f"**{games}** · {t('stats.wins.count', locale, count=row.wins)}"


def earned_medal(row: LeaderboardRow | RatingRow, sort: LeaderboardSort) -> bool:
    """A medal is for a real achievement in this ranking: with no wins (or no clean rounds)
    a player only ties at the top, so they get their number, not a medal."""
    if sort in (LeaderboardSort.WINS, LeaderboardSort.WIN_RATE):
        return row.wins > 0
    if sort is LeaderboardSort.CLEAN_ROUNDS and isinstance(row, LeaderboardRow):
        return row.clean_rounds > 0
    return True


def line(row: LeaderboardRow | RatingRow, sort: LeaderboardSort, locale: str) -> str:
    medal = MEDALS.get(row.rank) if earned_medal(row, sort) else None
    rank = medal or f"{row.rank}."
    return f"{rank} <@{row.user_id}> · {metric(row, sort, locale)}"


def variant_label(variant: str | None, locale: str) -> str:
    return t(f"variant.{variant}" if variant else "leaderboard.variant.all", locale)


def _day(timestamp: int) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def season_label(season: Season, locale: str) -> str:
    """'November 2026', 'Q4 2026', or 'Season 2' when seasons are off."""
    if season.cadence == "monthly":
        return format_date(_day(season.starts_at), "LLLL y", locale=locale).capitalize()
    if season.cadence == "quarterly":
        return format_date(_day(season.starts_at), "QQQ y", locale=locale)
    return t("season.numbered", locale, number=season.number)


def names_season(season: Season | None) -> bool:
    """Whether a board says which rating season it shows: when seasons are on, or were (a
    later season); with seasons always off, its one season is all of time, not "Season 1"."""
    return season is not None and (season.cadence != SeasonCadence.OFF or season.number > 1)


def leaderboard_embed(board: LeaderboardPage, locale: str) -> discord.Embed:
    if board.season is not None and names_season(board.season):
        title = t("leaderboard.title.season", locale, season=season_label(board.season, locale))
    else:
        title = t(TITLE_KEYS[board.period], locale)
    embed = discord.Embed(title=title, colour=COLOUR)
    heading = f"**{t(SORT_KEYS[board.sort], locale)}** · {variant_label(board.variant, locale)}"
    if board.sort is LeaderboardSort.WIN_RATE:
        heading += "\n" + t("leaderboard.min_games", locale, count=board.min_games)
    if board.sort is LeaderboardSort.RATING:
        heading += "\n" + t("leaderboard.rating_legend", locale)
    if not board.rows:
        body = t("leaderboard.empty", locale, command=command("lama new"))
    else:
        body = "\n".join(line(row, board.sort, locale) for row in board.rows)
    embed.description = f"{heading}\n\n{body}"
    if board.me is not None and not board.me_on_page:
        embed.add_field(name=t("leaderboard.your_rank", locale),
                        value=line(board.me, board.sort, locale), inline=False)
    elif board.me is None and board.rows:
        embed.add_field(name=t("leaderboard.your_rank", locale),
                        value=t("leaderboard.unranked", locale), inline=False)
    embed.set_footer(text=t("leaderboard.page", locale, page=board.page + 1, pages=board.pages))
    return embed


# --------------------------------------------------------------------------------- cog


class Leaderboard(commands.Cog):
    def __init__(self, bot: LamaHost) -> None:
        self.bot = bot
        self.stats = bot.stats_service

    async def cog_load(self) -> None:
        # pages of older boards work after a restart
        self.presses = Presses(self.bot, self)
        self.presses.answer(PageButton)

    async def cog_unload(self) -> None:
        self.presses.stop(PageButton)

    @answers_publicly
    @app_commands.command(name="leaderboard", description="The best LAMA players on this server")
    @app_commands.describe(
        sort="What to rank players by (default: rating, once games are rated)",
        variant="Only games of one variant (default: all)",
        period="Only games finished in this period (default: all time)",
        season="A rating season, this one or a past one (default: the current one)",
    )
    @app_commands.choices(sort=SORT_CHOICES, variant=VARIANT_CHOICES, period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: Choice[str] | None = None,
        variant: Choice[str] | None = None,
        period: Choice[str] | None = None,
        season: app_commands.Range[int, 1] | None = None,
    ) -> None:
        if interaction.guild_id is None:  # guild_only: Discord sends none from a DM
            raise HostingError(Problem.WRONG_CHANNEL)
        locale = await self.bot.locales.public_locale_for(interaction)  # a public message
        board = await self.stats.leaderboard(  # refusals: cogs/errors.py
            interaction.guild_id,
            LeaderboardSort(sort.value) if sort else None,
            variant=None if variant is None or variant.value == ALL_VARIANTS else variant.value,
            period=Period(period.value if period else Period.ALL_TIME),
            user_id=interaction.user.id,
            season=season,
        )
        ui = with_web_link(page_view(board, interaction.user.id), await self.web_url(board),
                           locale)
        await interaction.response.send_message(
            embed=leaderboard_embed(board, locale), view=ui or MISSING
        )

    async def web_url(self, board: LeaderboardPage) -> str | None:
        """The same board on the web, when the server's pages are public."""
        paths = await public_paths(self.bot, board.guild_id)
        if paths is None:
            return None
        if board.sort is LeaderboardSort.RATING:  # the pages rank results, not ratings
            return paths.leaderboard()
        return paths.leaderboard(board.sort, board.variant, board.period, board.page)

    @leaderboard.autocomplete("season")
    async def season_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        """The server's seasons, newest first, by name ('November 2026 · 3')."""
        if interaction.guild_id is None:
            return []
        locale = self.bot.locales.locale_of(interaction)
        choices = []
        for season in await self.stats.seasons(interaction.guild_id):
            name = t("season.choice", locale, label=season_label(season, locale),
                     number=season.number)
            if current.strip().lower() in name.lower():
                choices.append(Choice(name=name[:100], value=season.number))
        return choices[:25]

    async def page_button(self, interaction: discord.Interaction, button: PageButton) -> None:
        # pressed in its server (LamaButton checks)
        locale = self.bot.locales.locale_of(interaction)
        board = await self.stats.leaderboard(
            button.guild,
            LeaderboardSort(button.sort),
            variant=None if button.variant == ALL_VARIANTS else button.variant,
            period=Period(button.period),
            page=button.page,
            user_id=interaction.user.id,
            season=button.season,
        )
        in_place = interaction.user.id == button.owner
        if in_place and not (interaction.message and interaction.message.flags.ephemeral):
            locale = await self.bot.locales.public_locale_for(interaction)  # the public board
        embed = leaderboard_embed(board, locale)
        ui = with_web_link(page_view(board, interaction.user.id), await self.web_url(board),
                           locale)
        if in_place:
            await interaction.response.edit_message(embed=embed, view=ui)
        else:  # someone else's board: a private copy at that page, with their own rank
            await interaction.response.send_message(
                embed=embed, view=ui or MISSING, ephemeral=True
            )


async def setup(bot: LamaHost) -> None:
    await bot.add_cog(Leaderboard(bot))
