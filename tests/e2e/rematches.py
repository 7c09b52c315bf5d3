"""Rematches on the loopback Discord: a finished game, the press, the link it turns into."""

from __future__ import annotations

import copy
from dataclasses import replace

from tests.e2e.games import finish_by_quitting
from tests.support.e2e import (
    open_game,
)


async def finished_game(fake, bot, *others, **options):
    """Alice hosts a game with ``others`` (and any AI seats), played to its end."""
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), *others,
                              variant="party", target=10, **options)
    await finish_by_quitting(bot, game_id)
    return game_id, channel, fake.public_messages(channel)[-1]


def as_seen_before(message):
    """The message as a player's client still shows it (a press racing an edit): its
    components as they are now, kept when the message is edited."""
    return replace(message, components=copy.deepcopy(message.components))


def rematch_link(message):
    """The link button that stands where the Rematch button was, if any."""
    links = [b for b in message.buttons if b.url]
    assert not any(b.custom_id and b.custom_id.startswith("lama:r:") for b in message.buttons)
    return links[0] if links else None


async def pointed_to(result):
    """The private answer to a press: the reply itself or, where the answer edited the
    message pressed, the follow-up after it."""
    return result.message if result.ephemeral else await result.followup(0)


async def press_rematch(fake, user, end):
    """``user`` presses Rematch on the game's end; returns the lobby it opened below."""
    result = await fake.click(user, end, "Rematch")
    assert result.message is end and not result.followups, result  # the answer edits it
    return lobby_in(fake, fake.channels[end.channel_id])


def forget_in_memory(bot, *game_ids) -> None:
    """As after a restart: the service holds no finished game and reloads open ones."""
    registry = bot.service.registry
    for game_id in game_ids:
        registry._games.pop(game_id, None)
    registry._by_channel.clear()


def lobby_in(fake, channel):
    (lobby,) = [m for m in fake.public_messages(channel) if "Rematch of" in m.embed_text]
    return lobby
