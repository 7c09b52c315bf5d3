"""Buttons that survive restarts: each custom id names the game (and round) it acts on.

A `DynamicItem` is rebuilt from its custom id whenever it is pressed, so nothing lives in
memory between the press and the game; the service is asked for the current state.
Custom ids stay far below Discord's 100 characters: `lama:h:<game>:<round>:<action>`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Protocol

import discord

from hosting import HostingError, Problem
from hosting.options import MAX_SEATS
from hosting.views import GameView, Status
from lama.observation import Observation

from .activity import ACTIVITY, OPEN_EMOJI, launch, open_button_label
from .button_views import ButtonsView
from .buttons import LamaButton
from .custom_ids import CustomId, number, one_of
from .emojis import CARD_EMOJIS
from .text import (
    CARD_EMOJI,
    DRAW_EMOJI,
    KOMARAMI_EMOJI,
    NUMBER_EMOJI,
    QUIT_EMOJI,
    card_name,
    t,
)

if TYPE_CHECKING:
    from .host import LamaHost

# A card's code (plus cards end in "+"), Draw, Quit, then "Yes, quit" or "Keep playing".
HAND_ACTIONS = (*"123456", *(f"{n}+" for n in range(1, 7)), "L", "P",
                "draw", "quit", "quitok", "back")
HAND_ID = CustomId("h", number("game"), number("round"), number("owner"),
                   one_of("action", *HAND_ACTIONS))
# Before hand buttons named their owner (answered as out of date).
OLD_HAND_ID = CustomId("h", number("game"), number("round"), one_of("action", *HAND_ACTIONS))
LOBBY_ID = CustomId("l", number("game"),
                    one_of("action", "join", "leave", "ai", "start", "cancel", "open"))
REMATCH_ID = CustomId("r", number("game"))
REMATCH_KIND = REMATCH_ID.kind


class HandlesHand(Protocol):
    async def hand_button(
        self, interaction: discord.Interaction, button: HandButton, locale: str
    ) -> None: ...


class HandlesLobby(Protocol):
    async def lobby_button(self, interaction: discord.Interaction, button: LobbyButton) -> None:
        ...


class HandlesRematch(Protocol):
    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


class HandButton(LamaButton[HandlesHand], ids=HAND_ID):
    """A card to play, Draw or Quit (then its confirmation), on one player's hand message."""

    dm_presses = True  # a player's hand is also a DM

    def __init__(
        self, game_id: int, round_number: int, owner: int, action: str, **button: Any
    ) -> None:
        super().__init__(self.ids.make(game_id, round_number, owner, action), **button)
        self.game_id, self.round_number, self.owner_id, self.action = (
            game_id, round_number, owner, action
        )

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.service.guild_of_game(self.game_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesHand, locale: str
    ) -> None:
        await handler.hand_button(interaction, self, locale)


class OldHandButton(LamaButton[object], ids=OLD_HAND_ID):
    """A hand button from before hand buttons named their owner: it says it is out of date."""

    dm_presses = True

    def __init__(self, game_id: int, round_number: int, action: str, **button: Any) -> None:
        # Made from its parts: an id that names a database (no such button was ever made,
        # but one can be pressed) must not get a second one.
        super().__init__(self.ids.make(game_id, round_number, action), **button)

    async def home_guild(self, bot: LamaHost) -> int | None:
        return None  # it acts on nothing: it says it is out of date wherever it is

    async def pressed(self, interaction: discord.Interaction, handler: object, locale: str) -> None:
        raise HostingError(Problem.STALE_BUTTON)


class LobbyButton(LamaButton[HandlesLobby], ids=LOBBY_ID):
    """Join, Leave, Add AI, Start or Cancel on a lobby message."""

    def __init__(self, game_id: int, action: str, **button: Any) -> None:
        super().__init__(self.ids.make(game_id, action), **button)
        self.game_id, self.action = game_id, action

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.service.guild_of_game(self.game_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesLobby, locale: str
    ) -> None:
        if self.action == "open":  # the Activity: the same lobby, live (cogs/activity.py)
            await launch(interaction, locale)
            return
        await handler.lobby_button(interaction, self)


class RematchButton(LamaButton[HandlesRematch], ids=REMATCH_ID):
    """Open a new lobby with the finished game's options."""

    def __init__(self, game_id: int, **button: Any) -> None:
        super().__init__(self.ids.make(game_id), **button)
        self.game_id = game_id

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.service.guild_of_game(self.game_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesRematch, locale: str
    ) -> None:
        await handler.rematch(interaction, self.game_id)


GAME_ITEMS = (LobbyButton, RematchButton)  # registered by the Lama cog
HAND_ITEMS = (HandButton, OldHandButton)  # registered by the Moves cog


def _button_emoji(code: str, variant: str) -> dict[str, Any]:
    """One emoji per button, as Discord's JSON: the card's face (an application emoji), or
    until the faces are known a Unicode one (a plus card shows its number; the label says
    "3+")."""
    face = CARD_EMOJIS.emoji_json(code, variant)
    if face is not None:
        return face
    if code == "L" and variant == "komarami":
        return {"name": KOMARAMI_EMOJI}
    return {"name": CARD_EMOJI.get(code) or NUMBER_EMOJI[int(code[0])]}


def lobby_view(view: GameView, locale: str) -> discord.ui.View | None:
    if view.status is not Status.LOBBY:
        return None
    buttons = [
        ("join", discord.ButtonStyle.success, "➕"),
        ("leave", discord.ButtonStyle.secondary, "🚪"),
        ("ai", discord.ButtonStyle.secondary, "🤖"),
        ("start", discord.ButtonStyle.primary, "▶️"),
        ("cancel", discord.ButtonStyle.danger, "✖️"),
    ]
    ui = ButtonsView()
    for action, style, emoji in buttons:
        ui.add_item(
            LobbyButton(
                view.game_id,
                action,
                label=t(f"lobby.button.{'add_ai' if action == 'ai' else action}", locale),
                style=style,
                emoji=emoji,
                disabled=(action == "join" and len(view.seats) >= MAX_SEATS),
            )
        )
    if ACTIVITY.enabled:  # on a row of its own, below the lobby's five
        ui.add_item(LobbyButton(view.game_id, "open", label=open_button_label(locale),
                                style=discord.ButtonStyle.primary, emoji=OPEN_EMOJI, row=1))
    return ui


class ButtonRows(ButtonsView):
    """Buttons as Discord's JSON, for a message whose every button is a `DynamicItem`: a
    press finds its handler by custom id (`bot.add_dynamic_items`), so no item objects need
    to be built or stored per message. Building a hand's eight ui.Button/DynamicItem objects
    cost more of the bot's time than the rest of the answer (benchmarks.yardstick)."""

    def __init__(self, rows: list[list[dict[str, Any]]]) -> None:
        super().__init__()
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self.rows if row]


def hand_view(
    view: GameView, observation: Observation, locale: str, *, confirm_quit: bool = False
) -> discord.ui.View:
    """A button per distinct card (playable ones enabled), then Draw and Quit; while a quit
    waits for its confirmation, only "Yes, quit" and "Keep playing". HandButton handles the
    presses."""
    obs = observation
    live = view.status is Status.RUNNING and obs.round_number == view.round_number
    my_turn = live and obs.is_my_turn
    # Every button's custom id starts alike: the database is put in once, not per button.
    prefix = LamaButton.full_custom_id(
        HAND_ID.prefix(view.game_id, obs.round_number, view.seats[obs.seat].user_id or 0))

    def button(action: str, style: discord.ButtonStyle, enabled: bool, label: str,
               emoji: dict[str, Any]) -> dict[str, Any]:
        return {"type": 2, "style": style.value, "label": label, "disabled": not enabled,
                "custom_id": prefix + action, "emoji": emoji}

    danger, grey = discord.ButtonStyle.danger, discord.ButtonStyle.secondary
    if confirm_quit and my_turn:
        return ButtonRows([[
            button("quitok", danger, True, t("action.quit.yes", locale), {"name": QUIT_EMOJI}),
            button("back", grey, True, t("action.quit.back", locale), {"name": "↩️"}),
        ]])
    playable = {c.code for c in obs.legal_plays} if my_turn else set()
    counts = Counter(card.code for card in obs.hand)
    rows: list[list[dict[str, Any]]] = [[] for _ in range(5)]
    variant = view.options.variant
    for i, card in enumerate(sorted(set(obs.hand))):
        count, code = counts[card.code], card.code
        label = card_name(code, locale, variant)
        style = discord.ButtonStyle.success if code in playable else grey
        rows[min(4, i // 5)].append(button(
            code, style, code in playable,
            f"{label} ×{count}" if count > 1 else label, _button_emoji(code, variant)))
    rows[min(4, (len(counts) + 4) // 5)] += [
        button("draw", discord.ButtonStyle.primary, my_turn and obs.can_draw,
               t("action.draw", locale), {"name": DRAW_EMOJI}),
        button("quit", danger, my_turn, t("action.quit", locale), {"name": QUIT_EMOJI}),
    ]
    return ButtonRows(rows)


def rematch_view(game_id: int, locale: str) -> discord.ui.View:
    """What a finished game's "Game over" post offers: Rematch (again, once the rematch it
    had was cancelled)."""
    ui = ButtonsView()
    ui.add_item(
        RematchButton(
            game_id,
            label=t("game.rematch", locale),
            emoji="🔁",
            style=discord.ButtonStyle.primary,
        )
    )
    return ui
