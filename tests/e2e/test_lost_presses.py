"""No press is dropped, not even one discord.py matched to a button but never handed to it
(issue 35 point 3).

discord.py finds a press's button by its custom id (a `DynamicItem` template), builds the
button again from the id and calls it; where any of that fails (the button cannot be built,
the pressed item is not found in the message, the item's check raises) it drops the press
with a log line at most, and the user sees "This interaction failed". The answer for presses
nobody handles (cogs/presses.py) predicted discord.py's choice rather than watch it: a press
discord.py matched counted as answered. Now a press is answered by its handler or, when no
handler took it once discord.py is done with it, by that fallback; and a handler that returns
without answering is a bug answered as one, not silence."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.button_views import ButtonsView
from cogs.buttons import LamaButton, Presses
from cogs.custom_ids import CustomId, number
from tests.support.e2e import refused

UNLUCKY = 13  # the one number this button cannot be built from


class Fussy(LamaButton[object], ids=CustomId("zz", number("n"))):
    """A button whose press discord.py matches by its id, but that cannot be built from the
    number 13 (its constructor raises), and whose handler forgets to answer a 7."""

    def __init__(self, n: int, **button: Any) -> None:
        if n == UNLUCKY:
            raise ValueError("no button 13")
        super().__init__(self.ids.make(n), **button)
        self.n = n

    async def home_guild(self, bot: Any) -> int | None:
        return None

    async def pressed(self, interaction: discord.Interaction, handler: object, locale: str
                      ) -> None:
        if self.n != 7:
            await interaction.response.send_message(f"pressed {self.n}", ephemeral=True)


@pytest.fixture
async def fussy(fake_discord, lamabot):
    """The Fussy button, answered for the bot; a message with buttons 1, 7 and 13."""
    presses: Presses[object] = Presses(lamabot, object())
    presses.answer(Fussy)
    ui = ButtonsView()
    for n in (1, 7, UNLUCKY):
        ui.add_item(discord.ui.Button(label=str(n), custom_id=Fussy.full_custom_id(f"lama:zz:{n}")))
    channel = fake_discord.channel("lama")
    sent = await lamabot.get_partial_messageable(channel.id).send("Press one", view=ui)
    yield next(m for m in channel.messages if m.id == sent.id)
    presses.stop(Fussy)


async def test_a_press_discord_py_matched_but_could_not_hand_over_is_answered(
    fake_discord, lamabot, bot_errors, fussy
) -> None:
    result = await fake_discord.click(fake_discord.user("alice"), fussy, "13")
    refused(result, "didn't get through")
    assert "dynamic item creation" in bot_errors[0].getMessage()  # discord.py's own log line
    bot_errors.clear()


async def test_a_handler_that_returns_without_answering_is_answered_as_a_bug(
    fake_discord, lamabot, bot_errors, fussy
) -> None:
    result = await fake_discord.click(fake_discord.user("alice"), fussy, "7")
    refused(result, "Something went wrong")
    assert "Fussy answered nothing" in str(bot_errors[0].exc_info[1])
    bot_errors.clear()


async def test_a_press_handed_over_is_answered_by_its_handler_alone(
    fake_discord, lamabot, fussy
) -> None:
    result = await fake_discord.click(fake_discord.user("alice"), fussy, "1")
    assert result.text == "pressed 1" and result.ephemeral
