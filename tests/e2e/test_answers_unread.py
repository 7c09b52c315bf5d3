"""An answer's own message is not read back (cogs/timely.py `_AnswersUnread`).

discord.py asks Discord to describe the message an interaction's first answer created and
builds a `Message` of it: for a hand, its embed and every card button with its emoji. Nothing
in the bot reads it; a move's answer paid for it every time (issue 33). The answer's message
id is still known (a lobby's is remembered from it).
"""

from __future__ import annotations

import discord
import pytest

from hosting import LOBBY
from tests.support.e2e import on_turn, two_humans


@pytest.fixture
def messages_built(monkeypatch) -> list[int]:
    """The ids of the interaction messages discord.py builds in the bot."""
    built: list[int] = []
    real = discord.InteractionMessage.__init__

    def building(self, *, state, channel, data):
        built.append(int(data["id"]))
        real(self, state=state, channel=channel, data=data)

    monkeypatch.setattr(discord.InteractionMessage, "__init__", building)
    return built


async def test_a_moves_answer_is_not_built_into_a_message(fake_discord, lamabot, messages_built):
    game_id, channel = await two_humans(fake_discord, lamabot)
    mover, _ = on_turn(fake_discord, lamabot, game_id)
    drawn = await fake_discord.slash(mover, channel, "draw")
    assert drawn.message is not None and drawn.message.embeds  # the hand, as before
    assert drawn.message.id not in messages_built


async def test_a_lobbys_message_id_is_still_learnt_from_its_answer(
        fake_discord, lamabot, messages_built):
    channel = fake_discord.channel("lama")
    opened = await fake_discord.slash(fake_discord.user("alice"), channel, "lama new")
    assert opened.message is not None and opened.message.id not in messages_built
    game_id = lamabot.service.game_in_channel(channel.id).game_id
    assert lamabot.service.message_ref(game_id, LOBBY) == (channel.id, opened.message.id)
