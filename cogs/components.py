"""Buttons that survive restarts: each custom id names the game (and round) it acts on.

A `DynamicItem` is rebuilt from its custom id whenever it is pressed, so nothing lives in
memory between the press and the game; the service is asked for the current state.
Custom ids stay far below Discord's 100 characters: `lama:h:<game>:<round>:<action>`.
"""

from __future__ import annotations

import re

import discord

from hosting import HostingError, Problem
from hosting.options import MAX_SEATS
from hosting.views import GameView, Status

from .buttons import LamaButton
from .emojis import CARD_EMOJIS
from .text import CARD_EMOJI, KOMARAMI_EMOJI, NUMBER_EMOJI, card_name, t

HAND_ACTIONS = r"[1-6]\+?|L|P|draw|quit|quitok|back"
HAND_TEMPLATE = (
    rf"lama:h:(?P<game>\d+):(?P<round>\d+):(?P<owner>\d+):(?P<action>{HAND_ACTIONS})"
)
OLD_HAND_TEMPLATE = rf"lama:h:(?P<game>\d+):(?P<round>\d+):(?P<action>{HAND_ACTIONS})"
LOBBY_TEMPLATE = r"lama:l:(?P<game>\d+):(?P<action>join|leave|ai|start|cancel)"
REMATCH_TEMPLATE = r"lama:r:(?P<game>\d+)"


class HandButton(LamaButton, template=HAND_TEMPLATE):
    """A card to play, Draw or Quit (then its confirmation), on one player's hand message."""

    cog_name = "Moves"

    def __init__(self, game_id: int, round_number: int, owner: int, action: str, **button):
        super().__init__(f"lama:h:{game_id}:{round_number}:{owner}:{action}", **button)
        self.game_id, self.round_number, self.owner_id, self.action = (
            game_id, round_number, owner, action
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> HandButton:
        return cls(int(match["game"]), int(match["round"]), int(match["owner"]), match["action"])

    async def pressed(self, interaction: discord.Interaction, cog, locale: str) -> None:
        await cog.hand_button(interaction, self, locale)


class OldHandButton(LamaButton, template=OLD_HAND_TEMPLATE):
    """A hand button from before hand buttons named their owner: it says it is out of date."""

    cog_name = "Moves"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> OldHandButton:
        return cls(match.string)

    async def pressed(self, interaction: discord.Interaction, cog, locale: str) -> None:
        raise HostingError(Problem.STALE_BUTTON)


class LobbyButton(LamaButton, template=LOBBY_TEMPLATE):
    """Join, Leave, Add AI, Start or Cancel on a lobby message."""

    cog_name = "Lama"

    def __init__(self, game_id: int, action: str, **button) -> None:
        super().__init__(f"lama:l:{game_id}:{action}", **button)
        self.game_id, self.action = game_id, action

    @classmethod
    def from_match(cls, match: re.Match[str]) -> LobbyButton:
        return cls(int(match["game"]), match["action"])

    async def pressed(self, interaction: discord.Interaction, cog, locale: str) -> None:
        await cog.lobby_button(interaction, self.game_id, self.action)


class RematchButton(LamaButton, template=REMATCH_TEMPLATE):
    """Open a new lobby with the finished game's options."""

    cog_name = "Lama"

    def __init__(self, game_id: int, **button) -> None:
        super().__init__(f"lama:r:{game_id}", **button)
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> RematchButton:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction, cog, locale: str) -> None:
        await cog.rematch(interaction, self.game_id)


GAME_ITEMS = (LobbyButton, RematchButton)  # registered by the Lama cog
HAND_ITEMS = (HandButton, OldHandButton)  # registered by the Moves cog


def _button_emoji(code: str, variant: str) -> discord.PartialEmoji | str:
    """One emoji per button: the card's face (an application emoji), or until the faces are
    known a Unicode one (a plus card shows its number; the label says "3+")."""
    face = CARD_EMOJIS.emoji(code, variant)
    if face is not None:
        return face
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


def hand_view(
    view: GameView, observation, locale: str, *, confirm_quit: bool = False
) -> discord.ui.View:
    """A button per distinct card (playable ones enabled), then Draw and Quit; while a quit
    waits for its confirmation, only "Yes, quit" and "Keep playing"."""
    obs = observation
    live = view.status is Status.RUNNING and obs.round_number == view.round_number
    my_turn = live and obs.is_my_turn
    owner = view.seats[obs.seat].user_id or 0

    def button(action: str, style: discord.ButtonStyle, *, enabled: bool, **kw) -> HandButton:
        return HandButton(
            view.game_id, obs.round_number, owner, action, style=style, disabled=not enabled, **kw
        )

    ui = discord.ui.View(timeout=None)
    danger, grey = discord.ButtonStyle.danger, discord.ButtonStyle.secondary
    if confirm_quit and my_turn:
        ui.add_item(button("quitok", danger, enabled=True, label=t("action.quit.yes", locale),
                           emoji="🚪"))
        ui.add_item(button("back", grey, enabled=True, label=t("action.quit.back", locale),
                           emoji="↩️"))
        return ui
    playable = {c.code for c in obs.legal_plays} if my_turn else set()
    distinct = sorted(set(obs.hand))
    for i, card in enumerate(distinct):
        count = sum(1 for c in obs.hand if c == card)
        label = card_name(card.code, locale, view.options.variant)
        style = discord.ButtonStyle.success if card.code in playable else grey
        ui.add_item(button(
            card.code, style, enabled=card.code in playable, row=i // 5,
            label=f"{label} ×{count}" if count > 1 else label,
            emoji=_button_emoji(card.code, view.options.variant),
        ))
    actions_row = min(4, (len(distinct) + 4) // 5)
    ui.add_item(button("draw", discord.ButtonStyle.primary, enabled=my_turn and obs.can_draw,
                       label=t("action.draw", locale), emoji="🃏", row=actions_row))
    ui.add_item(button("quit", danger, enabled=my_turn,
                       label=t("action.quit", locale), emoji="🚪", row=actions_row))
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
