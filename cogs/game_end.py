"""The "Game over" post: the standings and Rematch; a tournament's table offers no rematch
(the tournament seats its next round) but says what comes next in the tournament."""

from __future__ import annotations

from typing import Any

from hosting.tournament import PlayedAs
from hosting.views import GameView

from . import embeds
from .components import rematch_view
from .tournaments import table_over


def game_end_post(view: GameView, locale: str, played_as: PlayedAs | None) -> dict[str, Any]:
    """`played_as`: the tournament table the game was, if it was one."""
    embed = embeds.game_end_embed(view, locale)
    if played_as is None:
        return {"embed": embed, "view": rematch_view(view.game_id, locale)}
    title, text, buttons = table_over(played_as, locale)
    embed.add_field(name=title, value=text, inline=False)
    return {"embed": embed, "view": buttons}
