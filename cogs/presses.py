"""Every press is answered: never Discord's "This interaction failed".

Every button LamaBot shows is a `LamaButton`, a DynamicItem discord.py finds by its custom id
(cogs/buttons.py): no view is registered per message, so no press can race its view's
registration, outlive a view's time-out or reach a view replaced meanwhile. What is left is
looked at here, once per press and per submitted form, after discord.py has dispatched it
(`on_interaction` is dispatched right after the view store):

- a press no handler knows: a button (or select menu) whose custom id this version has no
  handler for (a message from before an upgrade changed the id layout, garbage), or a form
  (modal) an older process opened, which nothing listens for after a restart. discord.py
  drops it silently; here it gets a polite private answer in the reader's language that
  names a command to use instead, and one INFO line in the log (`cogs.buttons`). `matched`
  asks the view store exactly what its dispatch asks (discord/ui/view.py,
  `ViewStore.dispatch_view` and `schedule_dynamic_item_call`; `dispatch_modal`): a
  DynamicItem whose template matches the whole custom id, on a message that carries a
  component of that type and id, or an item or form it listens to under that id;
- a press discord.py matched to one of our buttons but never handed to it: where building the
  button from its id, finding the pressed item in the message or its check fails, discord.py
  drops the press (with a log line at most). A handler takes a press first thing
  (`keep_in_time`); once discord.py's task for the press is done (`LamaButton.from_custom_id`
  names it) and no handler took it, the press is answered here ("That press didn't get
  through"), with one WARNING. No clock: the answer follows discord.py's end at once, or
  `LOST_AFTER` after the press where discord.py never began to build the button.

A press a handler takes is never answered here too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any

import discord
from discord import InteractionType
from discord.ext import commands

from hosting import HostingError, Problem

from .buttons import DISPATCH, reader_locale, unknown_press
from .errors import answer, explain, report
from .timely import PRIVATE_REPLY, handler_took, keep_in_time

if TYPE_CHECKING:
    from discord.ui.view import ViewStore

log = logging.getLogger(__name__)

BUTTON = discord.ComponentType.button.value
LOST_AFTER = 1.0  # seconds for discord.py to begin building a matched button (it does at once)


class Match(Enum):
    NOBODY = "nobody"  # no handler: discord.py drops it
    LISTENER = "listener"  # an item or form discord.py listens to itself
    BUTTON = "button"  # a DynamicItem: one of our LamaButtons, built from the id


def matched(store: ViewStore, interaction: discord.Interaction) -> Match:
    """What discord.py hands this component press or form to."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return Match.LISTENER  # not a press or a form: not ours to answer
    if interaction.type is InteractionType.modal_submit:
        return Match.LISTENER if custom_id in store._modals else Match.NOBODY
    component_type = data.get("component_type")
    message = interaction.message
    key = (component_type, custom_id)
    if message is not None and key in store._views.get(message.id, {}):
        return Match.LISTENER
    if key in store._views.get(None, {}):
        return Match.LISTENER
    if message is None:
        return Match.NOBODY  # the dynamic items' dispatch needs the pressed message
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items) and _carries(
            message.components, component_type, custom_id):
        return Match.BUTTON
    return Match.NOBODY


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
        self._answering: set[asyncio.Task[None]] = set()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type not in (InteractionType.component, InteractionType.modal_submit):
            return
        found = matched(self.bot._connection._view_store, interaction)
        if found is Match.BUTTON:
            self._watch(interaction)
        elif found is Match.NOBODY:
            data: Any = interaction.data or {}
            await self._answer(interaction, unknown_press(
                interaction, _kind(interaction), data.get("custom_id")))

    def _watch(self, interaction: discord.Interaction, *, waited: bool = False) -> None:
        """Once discord.py is done with a press it matched to a button: answered by the
        button's handler, or here."""
        if handler_took(interaction):
            return
        dispatch = interaction.extras.get(DISPATCH)
        if isinstance(dispatch, asyncio.Future) and not dispatch.done():
            dispatch.add_done_callback(lambda _: self._watch(interaction, waited=True))
        elif dispatch is None and not waited:  # not begun yet: discord.py's task runs first
            asyncio.get_running_loop().call_later(
                LOST_AFTER, lambda: self._watch(interaction, waited=True))
        else:
            data: Any = interaction.data or {}
            log.warning("a press on %r reached no handler (user %s): answered",
                        data.get("custom_id"), interaction.user.id)
            task = asyncio.get_running_loop().create_task(
                self._answer(interaction, HostingError(Problem.PRESS_LOST)))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)

    async def _answer(self, interaction: discord.Interaction, refusal: HostingError) -> None:
        response = keep_in_time(interaction, PRIVATE_REPLY)
        try:
            await answer(interaction, explain(refusal, await reader_locale(interaction)))
        except Exception as error:
            await report(interaction, error)
        finally:
            response.stop_clock()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(UnknownPresses(bot))
