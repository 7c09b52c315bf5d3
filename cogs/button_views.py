"""The views LamaBot sends, which discord.py is never asked to listen to.

Every button LamaBot shows is a `LamaButton` (cogs/buttons.py), a DynamicItem that a press
finds by its custom id (`bot.add_dynamic_items`), never through the message's view; the rest
are link buttons. So a view only carries components to Discord, and is stopped before it is
sent. A view discord.py listens to is kept in its view store; on an ephemeral answer it is
kept 15 minutes, with a task sleeping for its time-out (discord.py gives ephemeral views one):
after a 100-game benchmark ~1,600 hands were held that way, some 40 objects each that every
full garbage collection scanned (issue 14).
"""

from __future__ import annotations

import discord


class ButtonsView(discord.ui.View):
    """Buttons in action rows (also link buttons)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()  # nothing to listen for: sent as components, pressed by custom id


class ButtonsLayout(discord.ui.LayoutView):
    """A Components V2 layout whose buttons are all LamaButtons."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()  # nothing to listen for: sent as components, pressed by custom id
