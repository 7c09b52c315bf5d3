"""The "Game over" post: the standings and Rematch; a tournament's table offers no rematch
(the tournament seats its next round) but says what comes next in the tournament."""

from __future__ import annotations

from typing import Any

import discord

from hosting.tournament import PlayedAs
from hosting.views import GameView

from .. import embeds
from ..button_views import ButtonsView
from ..components import rematch_view
from ..text import t
from ..tournaments import StandingsButton, called

# What a table's "Game over" says comes next, by (the tournament's last round, how the table
# stands in its round): "next", another table of the round still plays; "last", the round
# ended with it; "only", it was the round's only table, so no other table is spoken of.
TABLE_OVER = {
    (False, "next"): "tournament.table_over.next",
    (False, "last"): "tournament.table_over.last_of_round",
    (False, "only"): "tournament.table_over.round_over",
    (True, "next"): "tournament.table_over.final",
    (True, "last"): "tournament.table_over.last",
    (True, "only"): "tournament.table_over.tournament_over",
}


def game_end_post(view: GameView, locale: str, played_as: PlayedAs | None) -> dict[str, Any]:
    """`played_as`: the tournament table the game was, if it was one."""
    embed = embeds.game_end_embed(view, locale)
    if played_as is None:
        return {"embed": embed, "view": rematch_view(view.game_id, locale)}
    title, text, buttons = table_over(played_as, locale)
    embed.add_field(name=title, value=text, inline=False)
    return {"embed": embed, "view": buttons}


def table_over(played_as: PlayedAs, locale: str) -> tuple[str, str, discord.ui.View]:
    """What a tournament table's "Game over" shows instead of Rematch (the tournament seats its
    next round): which round it was, where the next round's seating (or the final standings)
    is posted, once every table has finished or (its round's last table) now, and a button
    for the standings so far."""
    tournament, table = played_as.tournament, played_as.table
    title = t("tournament.round", locale, name=called(tournament, markdown=False),
              round=table.round, rounds=tournament.rounds)
    final = table.round >= tournament.rounds
    standing = "only" if played_as.alone else "last" if played_as.last else "next"
    text = t(TABLE_OVER[final, standing], locale, table=table.table_no,
             channel=f"<#{tournament.channel_id}>")
    ui = ButtonsView()
    ui.add_item(StandingsButton(tournament.id, label=t("tournament.button.standings", locale),
                                emoji="🏆", style=discord.ButtonStyle.secondary))
    return title, text, ui
