"""/lama tournament …: Swiss tournaments as a mixin of the /lama GroupCog, their sign-up
buttons, and the embeds they show; the announcements (round seatings, final standings) in the
tournament's channel and each table's thread are posted by cogs/render/tournaments.py.

Everything a tournament does comes from hosting.tournament.TournamentService; this file only
asks it and shows what it says. The sign-up buttons are DynamicItems naming the tournament, so
they work after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from hosting import HostingError, Problem, options
from hosting.swiss import Standing
from hosting.tournament import NAME_LENGTH, TournamentUpdate
from hosting.tournament_seats import ai_entrant_numbers
from store.tournaments import Entry, Tournament, TournamentStatus

from .button_views import ButtonsView
from .buttons import LamaButton, manages_server
from .choices import VARIANT_CHOICES
from .custom_ids import CustomId, number, one_of
from .text import ai_seat_name, member_text, t, variant_name
from .timely import answers_publicly

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)

COLOUR = 0x6A4C93
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SIGNUP_ID = CustomId("tn", number("tournament"),
                     one_of("action", "join", "leave", "ai", "start", "cancel"))
STANDINGS_ID = CustomId("ts", number("tournament"))


class HandlesSignup(Protocol):
    async def tournament_button(
        self, interaction: discord.Interaction, button: SignupButton
    ) -> None: ...


class HandlesStandings(Protocol):
    async def standings_button(
        self, interaction: discord.Interaction, tournament_id: int, locale: str
    ) -> None: ...


class SignupButton(LamaButton[HandlesSignup], ids=SIGNUP_ID):
    """Join, Leave, Add AI, Start or Cancel under a tournament's sign-up message."""

    def __init__(self, tournament_id: int, action: str, **button: Any) -> None:
        super().__init__(self.ids.make(tournament_id, action), **button)
        self.tournament_id, self.action = tournament_id, action

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.tournaments.guild_of(self.tournament_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesSignup, locale: str
    ) -> None:
        await handler.tournament_button(interaction, self)


class StandingsButton(LamaButton[HandlesStandings], ids=STANDINGS_ID):
    """The tournament's standings so far, privately: under each of its tables' "Game over"."""

    def __init__(self, tournament_id: int, **button: Any) -> None:
        super().__init__(self.ids.make(tournament_id), **button)
        self.tournament_id = tournament_id

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.tournaments.guild_of(self.tournament_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesStandings, locale: str
    ) -> None:
        await handler.standings_button(interaction, self.tournament_id, locale)


TOURNAMENT_ITEMS = (SignupButton, StandingsButton)  # registered by the Lama cog


def signup_view(tournament: Tournament, locale: str) -> discord.ui.View | None:
    if tournament.status is not TournamentStatus.SIGNUP:
        return None
    ui = ButtonsView()
    for action, style in (("join", discord.ButtonStyle.success),
                          ("leave", discord.ButtonStyle.secondary),
                          ("ai", discord.ButtonStyle.secondary),
                          ("start", discord.ButtonStyle.primary),
                          ("cancel", discord.ButtonStyle.danger)):
        ui.add_item(SignupButton(tournament.id, action, style=style,
                                 label=t(f"tournament.button.{action}", locale)))
    return ui


def called(tournament: Tournament, *, markdown: bool = True) -> str:
    """The tournament's name as its organiser wrote it, isolated for a sentence
    (`member_text`; `markdown` False: unescaped, for a title or a thread's name)."""
    return member_text(tournament.name, limit=NAME_LENGTH, markdown=markdown)


def _entrant(tournament: Tournament, entry: Entry, locale: str) -> str:
    """A human entrant's mention; an AI entrant's name in the reader's language, by the
    number it keeps at all its tables ("🤖 Lamobot 2 (střední)"), not the English name
    stored with it."""
    if entry.user_id is not None:
        return f"<@{entry.user_id}>"
    number = ai_entrant_numbers(tournament)[entry.entry]
    return ai_seat_name(number, locale, entry.ai_level)


def entrant_names(tournament: Tournament, entries: Iterable[int], locale: str) -> str:
    by_entry = {e.entry: e for e in tournament.entries}
    return ", ".join(_entrant(tournament, by_entry[n], locale) for n in entries)


def signup_embed(tournament: Tournament, locale: str) -> discord.Embed:
    title = t("tournament.title", locale, name=called(tournament, markdown=False))
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.description = t(
        "tournament.about", locale, count=tournament.rounds, size=tournament.table_size,
        variant=variant_name(tournament.variant, locale),
        organiser=f"<@{tournament.organiser_id}>")
    entrants = entrant_names(tournament, [e.entry for e in tournament.entries], locale) or "—"
    embed.add_field(name=t("tournament.entrants", locale, count=len(tournament.entries)),
                    value=entrants[:1024], inline=False)
    status_key = {TournamentStatus.SIGNUP: "tournament.status.signup",
                  TournamentStatus.RUNNING: "tournament.status.running",
                  TournamentStatus.FINISHED: "tournament.status.finished",
                  TournamentStatus.CANCELLED: "tournament.status.cancelled"}[tournament.status]
    embed.set_footer(text=t(status_key, locale))
    return embed


def round_embed(update: TournamentUpdate, locale: str, *, in_threads: bool) -> discord.Embed:
    tournament = update.tournament
    embed = discord.Embed(
        title=t("tournament.round", locale, name=called(tournament, markdown=False),
                round=tournament.round,
                rounds=tournament.rounds), colour=COLOUR)
    lines = []
    for table in update.tables:
        line = t("tournament.table", locale, table=table.table_no,
                 players=entrant_names(tournament, table.entries, locale))
        if table.ai_seats:
            line += " · " + t("tournament.ai_seats", locale, count=table.ai_seats)
        lines.append(line)
    where = "tournament.tables_at_once" if in_threads else "tournament.tables_in_channel"
    lines += ["", t(where, locale, count=len(update.tables))]
    embed.description = "\n".join(lines)
    return embed


def standings_embed(
    tournament: Tournament, rows: list[Standing] | tuple[Standing, ...], locale: str,
    *, final: bool,
) -> discord.Embed:
    key = "tournament.final" if final else "tournament.standings"
    embed = discord.Embed(title=t(key, locale, name=called(tournament, markdown=False)),
                          colour=COLOUR)
    by_entry = {e.entry: e for e in tournament.entries}
    lines = []
    for row in rows:
        who = _entrant(tournament, by_entry[row.entry], locale)
        rank = MEDALS.get(row.rank, f"{row.rank}.") if final else f"{row.rank}."
        line = t("tournament.standing", locale, rank=rank, name=who,
                 points=t("tournament.points", locale, count=row.points),
                 score=row.total_score,
                 games=t("stats.games.count", locale, count=row.games))
        lines.append(f"{line} · {t('tournament.playing', locale)}" if row.playing else line)
    embed.description = "\n".join(lines) or "—"
    footer = [t("tournament.tie_breaks", locale)]
    if any(row.playing for row in rows):
        footer.append(t("tournament.playing_note", locale))
    embed.set_footer(text="\n".join(footer))
    return embed


def _text(english: str, key: str) -> app_commands.locale_str:
    return app_commands.locale_str(english, key=f"tournament.cmd.{key}")


class TournamentCommands(commands.Cog):
    """Mixin for the /lama GroupCog: /lama tournament new | standings, and the buttons."""

    bot: LamaHost

    tournament = app_commands.Group(name="tournament", description="Swiss tournaments")

    # Explicit keys: /lama new has the same name and options, with other descriptions.
    @answers_publicly
    @tournament.command(name="new", description=_text(
        "Open sign-ups for a Swiss tournament here", "new.description"))
    @app_commands.describe(
        name=_text("The tournament's name", "option.name.description"),
        rounds=_text("How many rounds (1–10)", "option.rounds.description"),
        table_size=_text("Players per table (3–5)", "option.table_size.description"),
        variant=_text("Rules of every game", "option.variant.description"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def tournament_new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        rounds: app_commands.Range[int, options.ROUNDS.low, options.ROUNDS.high] = 3,
        table_size: app_commands.Range[
            int, options.TABLE_SIZE.low, options.TABLE_SIZE.high] = 4,
        variant: str | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise HostingError(Problem.WRONG_CHANNEL)
        self.bot.preferences.check_channel_allowed(interaction.guild_id, interaction.channel_id)
        defaults = await self.bot.service.guild_defaults(interaction.guild_id)
        tournament = await self.bot.tournaments.create(
            interaction.guild_id, interaction.channel_id, interaction.user.id, name=name,
            rounds=rounds, table_size=table_size, variant=variant or defaults.variant)
        locale = await self.bot.locales.public_locale_for(interaction)
        response = await interaction.response.send_message(
            embed=signup_embed(tournament, locale),
            view=signup_view(tournament, locale) or MISSING)
        message_id = getattr(response, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.bot.tournaments.set_signup_message(tournament.id, message_id)

    @tournament.command(name="standings", description="This channel's tournament standings")
    async def tournament_standings(self, interaction: discord.Interaction) -> None:
        if interaction.channel_id is None:
            raise HostingError(Problem.WRONG_CHANNEL)
        found = await self.bot.tournaments.in_channel(interaction.channel_id)
        if found is None:
            raise HostingError(Problem.NO_TOURNAMENT)
        await self._show_standings(interaction, found.id, self.bot.locales.locale_of(interaction))

    async def standings_button(
        self, interaction: discord.Interaction, tournament_id: int, locale: str
    ) -> None:
        """A table's Standings button: the same private answer as the command."""
        await self._show_standings(interaction, tournament_id, locale)

    async def _show_standings(
        self, interaction: discord.Interaction, tournament_id: int, locale: str
    ) -> None:
        """The tournament's standings now, to the one who asks only, in their language:
        checking them never posts in the channel (its round posts and final standings are the
        tournament's public record)."""
        tournament, rows = await self.bot.tournaments.standings(tournament_id)
        final = tournament.status is TournamentStatus.FINISHED
        await interaction.response.send_message(
            embed=standings_embed(tournament, rows, locale, final=final), ephemeral=True)

    async def tournament_button(
        self, interaction: discord.Interaction, button: SignupButton
    ) -> None:
        """A sign-up button: the change, then the sign-up message itself as the answer (an
        interaction response, not a rate-limited edit). Pressed in the tournament's server
        (LamaButton checks): Manage Server there may add AIs, start and cancel."""
        service, user = self.bot.tournaments, interaction.user
        tournament_id, action = button.tournament_id, button.action
        is_admin = manages_server(interaction, button.home)
        if action == "start":
            await service.check_can_start(tournament_id, user.id, is_admin=is_admin)
            await interaction.response.defer()  # seating and the first table take a moment
            await service.start(tournament_id, user.id, is_admin=is_admin)
            return
        if action == "join":
            tournament = await service.join(tournament_id, user.id, user.display_name)
        elif action == "leave":
            tournament = await service.leave(tournament_id, user.id)
        elif action == "ai":
            tournament = await service.add_ai(tournament_id, user.id, is_admin=is_admin)
        else:
            tournament = await service.cancel(tournament_id, user.id, is_admin=is_admin)
        locale = await self.bot.locales.public_locale_for(interaction)
        await interaction.response.edit_message(embed=signup_embed(tournament, locale),
                                                view=signup_view(tournament, locale))
