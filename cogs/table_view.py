"""The live table: one Components V2 message per round, public, and its buttons.

Layout (a `ui.LayoutView` with one `Container` in the variant's colour):

    ## LAMA · Party — round 2
    [table.png: the top card and the piles]        MediaGallery, `attachment://table.png`
    Top card · draw pile · ▶️ who is on turn
    ─────
    each seat: ▶️ on turn / 🚪 quit, cards left, tokens
    Last moves (the newest five)
    [🃏 My hand] [➕ Draw] [🚪 Quit round] [📖 Rules]  ActionRow of TableButtons
    ([🎴 Open the table] fifth where the bot offers the Activity: cogs/activity.py)
    -# target · game number

The picture is uploaded with every send and with each edit that changes it (`attachments=[file]`
replaces the old file of the same name), so it always shows the current top card; an edit
whose picture is the one the message carries keeps it by id (cogs/render/table_pictures.py).
When the round is over the same message is edited once to its closed state: the round's
result, no buttons. The table never shows a hand: "My hand" answers each presser privately
(an ephemeral message).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord

from hosting.views import GameView, RecentEvent, Status
from lama import events as ev

from . import images
from .activity import ACTIVITY, OPEN_EMOJI, launch, open_button_label
from .button_views import ButtonsLayout
from .buttons import LamaButton
from .custom_ids import CustomId, number, one_of
from .embeds import COLOUR, describe_event, round_summary_lines, seat_lines
from .pings import NOBODY
from .text import DRAW_EMOJI, QUIT_EMOJI, card_label, seat_name, t, variant_name
from .timely import PRIVATE_REPLY

if TYPE_CHECKING:
    from .host import LamaHost

TABLE_ID = CustomId("t", number("game"), number("round"),
                    one_of("action", "hand", "draw", "quit", "rules", "open"))
RECENT_SHOWN = 5


class HandlesTable(Protocol):
    async def table_button(
        self, interaction: discord.Interaction, button: TableButton, locale: str
    ) -> None: ...

    async def show_hand(
        self, interaction: discord.Interaction, game_id: int, locale: str
    ) -> None:
        """The presser's hand, privately (also /lama hand's answer)."""


class TableButton(LamaButton[HandlesTable], ids=TABLE_ID):
    """My hand, Draw, Quit round or Rules under the live table: anyone may press them; the
    game answers each presser privately (or refuses, if they do not play here)."""

    deferral = PRIVATE_REPLY  # the presser's hand, a message of their own the renderer edits

    def __init__(self, game_id: int, round_number: int, action: str, **button: Any) -> None:
        super().__init__(self.ids.make(game_id, round_number, action), **button)
        self.game_id, self.round_number, self.action = game_id, round_number, action

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.service.guild_of_game(self.game_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesTable, locale: str
    ) -> None:
        if self.action == "open":  # the Activity: this table, live (cogs/activity.py)
            await launch(interaction, locale)
            return
        await handler.table_button(interaction, self, locale)


def status_lines(view: GameView, locale: str) -> str:
    """Top card, draw pile and who is on turn (or that the game was cancelled)."""
    variant = view.options.variant
    top = card_label(view.top_card, locale, variant) if view.top_card else "—"
    pile = (
        t("table.draw_pile", locale, count=view.draw_pile_size)
        if view.draw_pile_size
        else t("table.draw_pile.empty", locale)
    )
    lines = [t("table.top_card", locale, card=top), pile]
    if view.status is Status.CANCELLED:
        lines.insert(0, f"**{t('game.cancelled', locale)}**")
    elif view.status is Status.RUNNING and view.current_seat is not None:
        name = seat_name(view.seats[view.current_seat], locale)
        lines.append(t("table.on_turn", locale, name=name))
        if view.turn_ends_at is not None:  # the client counts it down: no edits for it
            lines.append(t("table.turn_ends", locale, when=f"<t:{round(view.turn_ends_at)}:R>"))
    return "\n".join(lines)


def _title(view: GameView, locale: str, round_number: int) -> str:
    title = t("table.title", locale, variant=variant_name(view, locale), round=round_number)
    return f"## {title}"


def _buttons(view: GameView, locale: str) -> discord.ui.ActionRow:
    game, number = view.game_id, view.round_number
    buttons = [
        TableButton(game, number, "hand", label=t("table.button.hand", locale), emoji="🃏",
                    style=discord.ButtonStyle.primary),
        TableButton(game, number, "draw", label=t("action.draw", locale), emoji=DRAW_EMOJI,
                    style=discord.ButtonStyle.secondary),
        TableButton(game, number, "quit", label=t("action.quit", locale), emoji=QUIT_EMOJI,
                    style=discord.ButtonStyle.danger),
        TableButton(game, number, "rules", label=t("table.button.rules", locale), emoji="📖",
                    style=discord.ButtonStyle.secondary),
    ]
    if ACTIVITY.enabled:  # the fifth: the Activity, this table live (cogs/activity.py)
        buttons.append(TableButton(game, number, "open", label=open_button_label(locale),
                                   emoji=OPEN_EMOJI, style=discord.ButtonStyle.success))
    return discord.ui.ActionRow(*buttons)


def _footer(view: GameView, locale: str) -> discord.ui.TextDisplay:
    target = t("table.target", locale, count=view.options.target)
    return discord.ui.TextDisplay(f"-# {target} · {t('game.footer', locale, game_id=view.game_id)}")


def table_layout(
    view: GameView, locale: str, *, picture: bool, ended: ev.RoundEnded | None = None,
    moved_to: str | None = None,
) -> discord.ui.LayoutView:
    """The live table (`ended` None), a finished round's closed table, or one posted anew
    further down (`moved_to`: a link to it; no buttons here any more)."""
    number = ended.round_number if ended else view.round_number
    colour = COLOUR.get(view.options.variant, COLOUR["classic"])
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=colour)
    box.add_item(discord.ui.TextDisplay(_title(view, locale, number)))
    if picture:
        box.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{images.TABLE_FILE}", description=t("table.image_alt", locale))))
    if ended is not None:  # how the round ended (a forced quit...), then its result
        _add_last_moves(box, view, locale, number)
        result = [f"**{t('round.over', locale, round=number)}**"]
        box.add_item(discord.ui.TextDisplay("\n".join(result + round_summary_lines(
            view, ended, locale, _ending_move(view, number)))))
        box.add_item(_footer(view, locale))
        return _wrap(box)
    box.add_item(discord.ui.TextDisplay(status_lines(view, locale)))
    box.add_item(discord.ui.Separator())
    players = f"**{t('table.seats', locale)}**\n{seat_lines(view, locale)}"
    box.add_item(discord.ui.TextDisplay(players))
    _add_last_moves(box, view, locale, None)
    if moved_to is not None:
        box.add_item(discord.ui.TextDisplay(f"-# {t('table.moved', locale, link=moved_to)}"))
    elif view.status is Status.RUNNING:
        box.add_item(_buttons(view, locale))
    box.add_item(_footer(view, locale))
    return _wrap(box)


def _add_last_moves(
    box: discord.ui.Container[discord.ui.LayoutView], view: GameView, locale: str,
    ended_round: int | None,
) -> None:
    """The newest moves of one round: the current one, or (`ended_round`) the one that ended.
    A round's moves belong to its own table, never under the next round's title."""
    lines = [line for r in _round_events(view.recent, ended_round)
             if (line := describe_event(r.event, view, locale, r.seq))]
    if lines:
        moves = "\n".join(lines[-RECENT_SHOWN:])
        box.add_item(discord.ui.TextDisplay(f"**{t('table.last_moves', locale)}**\n{moves}"))


def _round_events(recent: tuple[RecentEvent, ...], ended_round: int | None) -> tuple:
    """The recent events of the current round (from its start on), or of the round that
    ended (up to its end); a round whose start is no longer among them began earlier."""
    end = len(recent)
    if ended_round is not None:
        ends = [i for i, r in enumerate(recent)
                if isinstance(r.event, ev.RoundEnded) and r.event.round_number == ended_round]
        if not ends:
            return ()
        end = ends[0]
    starts = [i for i, r in enumerate(recent[:end]) if isinstance(r.event, ev.RoundStarted)]
    return recent[starts[-1] if starts else 0:end]


def _ending_move(view: GameView, round_number: int) -> int | None:
    """The move that ended that round, if it is among the recent events."""
    return next((r.seq for r in view.recent if isinstance(r.event, ev.RoundEnded)
                 and r.event.round_number == round_number), None)


def _wrap(box: discord.ui.Container[discord.ui.LayoutView]) -> discord.ui.LayoutView:
    layout = ButtonsLayout()
    layout.add_item(box)
    return layout


async def table_message(
    view: GameView, locale: str, *, edit: bool = False, ended: ev.RoundEnded | None = None,
    picture: bool = True,
) -> dict[str, Any]:
    """Keyword arguments to post (`edit=False`) or edit a table message: the layout and,
    when it can be drawn, a fresh picture (an edit replaces the old one). A closed round's
    table keeps its last picture, or (`picture` False: a round that began and ended unseen,
    no state of it was drawn) has none. Its text names players: it pings nobody (an edit
    carries no `content`, so discord.py would not add the client's default)."""
    if ended is not None:  # the round's last picture stays (no attachments key: kept)
        closed: dict[str, Any] = {"view": table_layout(view, locale, picture=picture, ended=ended),
                                  "allowed_mentions": NOBODY}
        if edit and not picture:
            closed["attachments"] = []
        return closed
    file = await images.table_file(view, locale)
    content: dict[str, Any] = {
        "view": table_layout(view, locale, picture=file is not None), "allowed_mentions": NOBODY
    }
    if file is not None:
        content["attachments" if edit else "files"] = [file]
    elif edit:
        content["attachments"] = []
    return content
