"""One name per AI seat everywhere: "🤖 Llama-bot 2" on the table, in summaries, the history
and the replay, with its level where a player chooses or looks back ("🤖 Llama-bot 2 (easy)"
in the lobby and the replay's list of players)."""

from __future__ import annotations

import re

from hosting import Status
from lama import QUIT
from tests.e2e_support import find_seed, open_game, settle, use_seed

NAME = "🤖 Llama-bot 2"


async def play_to_the_end(bot, game_id: int, user) -> None:
    """The human quits whenever on turn; the AIs play on until the game is over."""
    while True:
        await settle(bot, game_id)
        view = bot.service.view(game_id)
        if view.status is not Status.RUNNING:
            return
        await bot.service.human_move(game_id, user.id, QUIT)


async def test_an_ai_seat_has_one_name_from_lobby_to_replay(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    # Alice starts round 1, so its live table (with its list of players) is up when she is
    # on turn. Were an AI to start, both easy AIs could quit at once and leave Alice alone
    # without a card to play: her forced quit ends round 1 (and, at 10 points, the game)
    # before the live table is ever shown (0.4 % of random deals).
    use_seed(bot, find_seed("classic", 3, lambda game: game.current_seat == 0, target=10))
    alice, channel = fake.user("alice"), fake.channel("lama")
    lobby = await fake.slash(alice, channel, "lama new", ai_seats=2, ai_level="easy", target=10)
    assert f"{NAME} (easy)" in lobby.text, lobby.text
    game_id = bot.service.game_in_channel(channel.id).game_id
    await fake.slash(alice, channel, "lama start")
    await settle(bot, game_id)
    public = [m.text for m in fake.public_messages(channel)]
    assert any(NAME in text and "Players" in text for text in public), public  # the table
    await play_to_the_end(bot, game_id, alice)
    summaries = [m.text for m in fake.public_messages(channel) if "Round 1 is over" in m.text]
    assert summaries and NAME in summaries[0], summaries

    history = await fake.slash(alice, channel, "lama history")
    assert NAME in history.text and f"{NAME} (" not in history.text, history.text
    replay = await fake.slash(alice, channel, "lama replay", game_id=game_id)
    assert f"{NAME} (easy)" in replay.text, replay.text

    shown = "\n".join([*(m.text for m in fake.public_messages(channel)), replay.text])
    assert not re.search(r"\bAI \d", shown), shown


async def test_ai_seats_are_numbered_by_their_place_after_someone_leaves(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    await open_game(fake, bot, channel, alice, bob, start=False)
    lobby = fake.public_messages(channel)[0]
    await fake.click(alice, lobby, "Add AI")
    await fake.click(bob, lobby, "Leave")
    assert "2. 🤖 Llama-bot 2 (normal)" in lobby.embed_text, lobby.embed_text
