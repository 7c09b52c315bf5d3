"""One name per AI seat everywhere: "🤖 Llama-bot 2" on the table, in summaries, the history
and the replay, with its level where a player chooses or looks back ("🤖 Llama-bot 2 (easy)"
in the lobby and the replay's list of players)."""

from __future__ import annotations

import re

from tests.e2e.games import play_to_the_end
from tests.support.e2e import find_seed, open_game, settle, use_seed

NAME = "🤖 Llama-bot 2"




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


async def test_an_ai_keeps_its_name_for_the_whole_game_when_the_host_leaves_the_lobby(
    fake_discord, lamabot
):
    """Seats move up when someone leaves a lobby; the AIs' names do not (they were
    "Llama-bot 1" and "Llama-bot 2" once the host had gone)."""
    fake, bot = fake_discord, lamabot
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    await fake.slash(alice, channel, "lama new", ai_seats=2, target=10)
    await fake.slash(bob, channel, "lama join")
    lobby = fake.public_messages(channel)[0]
    await fake.click(alice, lobby, "Leave")
    assert "1. 🤖 Llama-bot 2 (normal)" in lobby.embed_text, lobby.embed_text
    assert "2. 🤖 Llama-bot 3 (normal)" in lobby.embed_text, lobby.embed_text

    game_id = bot.service.game_in_channel(channel.id).game_id
    await fake.slash(bob, channel, "lama start")
    await play_to_the_end(bot, game_id, bob)
    await bot.renderer.flush_all()
    end = next(m for m in fake.public_messages(channel) if "Final standings" in m.embed_text)
    history = await fake.slash(bob, channel, "lama history")
    replay = await fake.slash(bob, channel, "lama replay", game_id=game_id)
    for shown in (end.embed_text, history.text, replay.text):
        assert "Llama-bot 2" in shown and "Llama-bot 3" in shown, shown
        assert "Llama-bot 1" not in shown, shown


async def test_a_new_ai_never_takes_the_name_of_an_ai_seated_earlier(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    await open_game(fake, bot, channel, alice, bob, start=False)
    lobby = fake.public_messages(channel)[0]
    await fake.click(alice, lobby, "Add AI")  # seat 3: Llama-bot 3
    await fake.click(bob, lobby, "Leave")  # it moves up to seat 2
    await fake.click(alice, lobby, "Add AI")  # seat 3 again
    assert "2. 🤖 Llama-bot 3 (normal)" in lobby.embed_text, lobby.embed_text
    assert "3. 🤖 Llama-bot 4 (normal)" in lobby.embed_text, lobby.embed_text
