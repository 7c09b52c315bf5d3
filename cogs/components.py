"""Buttons that survive restarts: each custom id names the game (and round) it acts on.

A `DynamicItem` is rebuilt from its custom id whenever it is pressed, so nothing lives in
memory between the press and the game; the service is asked for the current state.
Custom ids stay far below Discord's 100 characters: `lama:h:<game>:<round>:<action>`.
"""

from __future__ import annotations

import re

import discord

from hosting.options import MAX_SEATS
from hosting.views import GameView, Status

from .errors import handler_cog
from .text import CARD_EMOJI, KOMARAMI_EMOJI, NUMBER_EMOJI, card_name, t

HAND_TEMPLATE = r"lama:h:(?P<game>\d+):(?P<round>\d+):(?P<action>[1-6]\+?|L|P|draw|quit)"
LOBBY_TEMPLATE = r"lama:l:(?P<game>\d+):(?P<action>join|leave|ai|start|cancel)"
REMATCH_TEMPLATE = r"lama:r:(?P<game>\d+)"


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=HAND_TEMPLATE):
    """A card to play, Draw or Quit, on a player's private hand message."""

    def __init__(self, game_id: int, round_number: int, action: str, **button) -> None:
        super().__init__(
            discord.ui.Button(custom_id=f"lama:h:{game_id}:{round_number}:{action}", **button)
        )
        self.game_id, self.round_number, self.action = game_id, round_number, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["game"]), int(match["round"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        moves = handler_cog(interaction, "Moves")
        await moves.hand_button(interaction, self.game_id, self.round_number, self.action)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_TEMPLATE):
    """Join, Leave, Add AI, Start or Cancel on a lobby message."""

    def __init__(self, game_id: int, action: str, **button) -> None:
        super().__init__(discord.ui.Button(custom_id=f"lama:l:{game_id}:{action}", **button))
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        lobby = handler_cog(interaction, "Lama")
        await lobby.lobby_button(interaction, self.game_id, self.action)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=REMATCH_TEMPLATE):
    """Open a new lobby with the finished game's options."""

    def __init__(self, game_id: int, **button) -> None:
        super().__init__(discord.ui.Button(custom_id=f"lama:r:{game_id}", **button))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        lobby = handler_cog(interaction, "Lama")
        await lobby.rematch(interaction, self.game_id)


DYNAMIC_ITEMS = (HandButton, LobbyButton, RematchButton)


def _button_emoji(code: str, variant: str) -> str:
    """One emoji per button (a plus card shows its number; the label says "3+")."""
    if code == "L" and variant == "komarami":
        return KOMARAMI_EMOJI
    return CARD_EMOJI.get(code) or NUMBER_EMOJI[int(code[0])]


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
    ui = discord.ui.View(timeout=None)
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
    return ui


def hand_view(view: GameView, observation, locale: str) -> discord.ui.View:
    """A button per distinct card (playable ones enabled), then Draw and Quit."""
    obs = observation
    live = view.status is Status.RUNNING and obs.round_number == view.round_number
    my_turn = live and obs.is_my_turn
    playable = {c.code for c in obs.legal_plays} if my_turn else set()
    ui = discord.ui.View(timeout=None)
    distinct = sorted({c for c in obs.hand})
    for i, card in enumerate(distinct):
        code = card.code
        count = sum(1 for c in obs.hand if c == card)
        label = card_name(code, locale, view.options.variant)
        if count > 1:
            label = f"{label} ×{count}"
        ui.add_item(
            HandButton(
                view.game_id,
                obs.round_number,
                code,
                label=label,
                emoji=_button_emoji(code, view.options.variant),
                style=discord.ButtonStyle.success
                if code in playable
                else discord.ButtonStyle.secondary,
                disabled=code not in playable,
                row=i // 5,
            )
        )
    actions_row = min(4, (len(distinct) + 4) // 5)
    ui.add_item(
        HandButton(
            view.game_id,
            obs.round_number,
            "draw",
            label=t("action.draw", locale),
            emoji="🃏",
            style=discord.ButtonStyle.primary,
            disabled=not (my_turn and obs.can_draw),
            row=actions_row,
        )
    )
    ui.add_item(
        HandButton(
            view.game_id,
            obs.round_number,
            "quit",
            label=t("action.quit", locale),
            emoji="🚪",
            style=discord.ButtonStyle.danger,
            disabled=not my_turn,
            row=actions_row,
        )
    )
    return ui


def rematch_view(view: GameView, locale: str) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    ui.add_item(
        RematchButton(
            view.game_id,
            label=t("game.rematch", locale),
            emoji="🔁",
            style=discord.ButtonStyle.primary,
        )
    )
    return ui
