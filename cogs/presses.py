"""Presses no handler knows are answered: never Discord's "This interaction failed".

A button (or select menu) whose custom id this version has no handler for still gets pressed:
a message from before an upgrade changed the id layout, or an id that is garbage. So can a form
(modal) an older process opened: nothing listens for it after a restart. discord.py drops
such an interaction silently, so every press and every submitted form is looked at once more
here, after discord.py has dispatched it (`on_interaction` is dispatched right after the view
store): one that no handler takes gets a polite private answer in the reader's language that
names a command to use instead, and one INFO line in the log (`cogs.buttons`), not an
error.

A press a handler does take is never answered here too: `taken` asks the view store exactly
what its dispatch asks (discord/ui/view.py, `ViewStore.dispatch_view` and
`schedule_dynamic_item_call`; `dispatch_modal`): a DynamicItem whose template matches the
whole custom id, on a message that carries a component of that type and id, or an item or
form it listens to under that id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import InteractionType
from discord.ext import commands

from .buttons import reader_locale, unknown_press
from .errors import answer, explain, report
from .timely import PRIVATE_REPLY, keep_in_time

if TYPE_CHECKING:
    from discord.ui.view import ViewStore


BUTTON = discord.ComponentType.button.value


def taken(store: ViewStore, interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component press or form to a handler."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return True  # not a press or a form: not ours to answer
    if interaction.type is InteractionType.modal_submit:
        return custom_id in store._modals
    component_type = data.get("component_type")
    message = interaction.message
    key = (component_type, custom_id)
    if message is not None and key in store._views.get(message.id, {}):
        return True
    if key in store._views.get(None, {}):
        return True
    if message is None:
        return False  # the dynamic items' dispatch needs the pressed message
    return any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items) and _carries(
        message.components, component_type, custom_id)


def _carries(components: Iterable[Any], component_type: Any, custom_id: str) -> bool:
    """Whether a message's components (rows, containers, sections…) hold this one."""
    for component in components:
        if getattr(component, "custom_id", None) == custom_id and (
                getattr(component.type, "value", None) == component_type):
            return True
        inner = [*getattr(component, "children", ()), *getattr(component, "components", ())]
        for attribute in ("accessory", "component"):
            if (single := getattr(component, attribute, None)) is not None:
                inner.append(single)
        if inner and _carries(inner, component_type, custom_id):
            return True
    return False


def _kind(interaction: discord.Interaction) -> str:
    """What was used, as the answer names it: a button, a (select) menu or a form."""
    if interaction.type is InteractionType.modal_submit:
        return "form"
    data: Any = interaction.data or {}
    return "button" if data.get("component_type") == BUTTON else "menu"


class UnknownPresses(commands.Cog):
    """The answer to every press and form no handler takes."""

    def __init__(self, bot: commands.Bot) -> None:  # its view store: nothing of ours
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type not in (InteractionType.component, InteractionType.modal_submit):
            return
        if taken(self.bot._connection._view_store, interaction):
            return
        data: Any = interaction.data or {}
        refusal = unknown_press(interaction, _kind(interaction), data.get("custom_id"))
        response = keep_in_time(interaction, PRIVATE_REPLY)
        try:
            await answer(interaction, explain(refusal, await reader_locale(interaction)))
        except Exception as error:
            await report(interaction, error)
        finally:
            response.stop_clock()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(UnknownPresses(bot))
