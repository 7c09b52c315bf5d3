"""One hand message per player per game, wherever they play (issue 34, docs/playing.md).

A whole 3-round game, played as players play it: Alice from the buttons of her hand DM, Bob
by `/play` `/draw` `/quit`, one AI. Counted per player, after every move:
- the DMs the bot sent (a DM-button player who keeps up: at most one new DM per round, here
  at most 4 in the game; the game's start: at most one DM each);
- the hand messages a player can still see with live buttons (never more than one), and
  Bob's private (ephemeral) hands still on his screen (never more than one: an older one is
  deleted when a newer one shows his hand).

Before, Alice got a new hand DM every turn (16–31 a game) and Bob a new ephemeral every
move, each greying the one before."""

from __future__ import annotations

import random

from hosting import Status
from lama import DRAW, Play
from store import GuildSettings
from tests.support.e2e import (
    enabled_hand_buttons,
    hand_button,
    hand_messages,
    names_game,
    on_turn,
    open_game,
    settle,
    use_seed,
)
from tests.support.play_along import as_slash, random_action

ROUNDS = 3


def dms_sent(fake, user) -> int:
    """Every message the bot ever created in the user's DM channel (deleted ones too)."""
    channel = fake.dm_channels.get(user.id)
    if channel is None:
        return 0
    return len([call for call in fake.rest_calls("POST /channels/{channel_id}/messages")
                if call.params.get("channel_id") == str(channel.id)])


def private_hands(fake, user, game_id: int) -> list:
    """The user's ephemeral messages still on their screen that show a hand of this game,
    live or closed (buttons gone, "no longer live")."""
    return [m for m in fake.ephemeral_messages(user)
            if any(names_game(c, "h", game_id) for c in m.custom_ids)
            or (f"Game #{game_id}" in m.text and "Your hand" in m.text)]


def live_hands(fake, user, game_id: int) -> list:
    shown = hand_messages(fake, user, game_id) + private_hands(fake, user, game_id)
    return [m for m in shown if enabled_hand_buttons(m)]


def button_for(obs, rng) -> str:
    action = random_action(obs, rng, draw=0.5)
    if isinstance(action, Play):
        return action.card.code
    return "draw" if action == DRAW else "quit"


async def press(fake, user, hand, action: str) -> None:
    """A button of the hand DM; quitting the round asks first (Quit, then Yes)."""
    pressed = await fake.click(user, hand, hand_button(hand, action))
    assert pressed.refused is None
    if action == "quit":
        confirmed = await fake.click(user, pressed.message, hand_button(pressed.message, "quitok"))
        assert confirmed.refused is None


async def test_a_dm_player_and_a_slash_player_each_keep_one_hand(fake_discord, lamabot):
    fake, bot, rng = fake_discord, lamabot, random.Random(34)
    await bot.service.save_guild_settings(
        GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
    use_seed(bot, 34)
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, bob, ai_seats=1, target=200)
    assert dms_sent(fake, alice) <= 1 and dms_sent(fake, bob) <= 1  # the start: one each
    while bot.service.view(game_id).round_number <= ROUNDS:
        assert bot.service.view(game_id).status is Status.RUNNING
        user, obs = on_turn(fake, bot, game_id)
        if user == alice:
            (hand,) = live_hands(fake, alice, game_id)
            await press(fake, alice, hand, button_for(obs, rng))
        else:
            command, options = as_slash(random_action(obs, rng, draw=0.5))
            assert (await fake.slash(bob, channel, command, **options)).ephemeral
        await settle(bot, game_id)
        assert len(live_hands(fake, alice, game_id)) <= 1
        assert len(live_hands(fake, bob, game_id)) <= 1
        assert len(private_hands(fake, bob, game_id)) <= 1
    assert dms_sent(fake, alice) <= ROUNDS + 1, [m.text for m in fake.dms(alice)]
