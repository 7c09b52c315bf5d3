"""Every button LamaBot shows is a DynamicItem found by its custom id (cogs/buttons.py), so no
view it sends needs discord.py to listen to its message. discord.py keeps a view it listens
to on an ephemeral answer for 15 minutes, with a task sleeping for its time-out: after a
100-game benchmark ~1,600 hands were held that way, each some 40 objects that every full
garbage collection scanned (issue 14). The buttons work as before: pressed, found by id."""

from __future__ import annotations

import discord
import pytest

from tests.support.e2e import draw_from_my_hand, hand_button, on_turn, table, two_humans


@pytest.fixture
def listened(monkeypatch) -> list:
    """Every view discord.py is asked to listen to (to keep, with its time-out)."""
    views: list = []
    real = discord.state.ConnectionState.store_view

    def store_view(self, view, message_id=None) -> None:
        views.append(view)
        real(self, view, message_id)

    monkeypatch.setattr(discord.state.ConnectionState, "store_view", store_view)
    return views


async def test_a_hand_in_an_answer_is_not_kept_listening(fake_discord, lamabot, listened):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    drawn = await fake.slash(mover, channel, "draw")
    assert drawn.message is not None and drawn.message.ephemeral
    hand_button(drawn.message, "draw")  # the hand's buttons came with it
    shown = await fake.click(fake.user("bob"), table(fake, channel), "My hand")
    assert shown.message is not None and shown.message.ephemeral
    assert listened == []  # nor the lobby and the table before them


async def test_a_hand_answered_before_is_pressed_like_any_other(
        fake_discord, lamabot, listened):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    await draw_from_my_hand(fake, bot, game_id, channel, mover)
    assert listened == []
