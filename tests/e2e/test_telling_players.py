"""Who is told what: each player hears about their own seat in the second person, refusals
name the real reason, and symbols and medals mean one thing each.
"""

from __future__ import annotations

import pytest

from cogs.text import CARD_EMOJI, TOKEN_EMOJI
from hosting import FakeClock, Status
from lama import QUIT
from tests.e2e.games import finish_by_quitting, settle_with_timers
from tests.support.e2e import (
    find_seed,
    hand_messages,
    isolated,
    on_turn,
    open_game,
    refused,
    settle,
    use_seed,
    without_isolates,
)


async def three_humans(fake, bot):
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, bob, carol)
    return game_id, channel, (alice, bob, carol)


def dm_texts(fake, user) -> list[str]:
    return [m.text for m in fake.dms(user)]


# -------------------------------------------------------------- leaving seats


async def test_a_kicked_player_is_told_who_removed_them(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, (alice, _bob, carol) = await three_humans(fake, bot)
    await fake.slash(alice, channel, "lama kick", user=carol)
    await settle(bot, game_id)
    told = [t for t in dm_texts(fake, carol) if "removed" in t]
    assert told and f"{isolated('Alice')} removed you from the game" in told[-1], dm_texts(
        fake, carol)
    assert "your turn" not in told[-1]  # the closed hand keeps no stale turn
    assert not any("Carol left the game" in without_isolates(t) for t in dm_texts(fake, carol))
    public = [m.text for m in fake.public_messages(channel)]
    removed = f"{isolated('Alice')} removed {isolated('Carol')} from the game"
    assert any(removed in t for t in public), public


async def test_the_kicking_host_hears_whom_they_removed(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, (alice, _bob, carol) = await three_humans(fake, bot)
    result = await fake.slash(alice, channel, "lama kick", user=carol)
    assert result.ephemeral and f"You removed {isolated('Carol')} from the game" in result.text
    await settle(bot, game_id)


async def test_a_leaving_player_is_told_once_in_the_second_person(fake_discord, lamabot):
    """The answer to /lama leave tells them; their DM hand closes without saying it again."""
    fake, bot = fake_discord, lamabot
    game_id, channel, (_alice, bob, _carol) = await three_humans(fake, bot)
    result = await fake.slash(bob, channel, "lama leave")
    assert result.ephemeral and "You left the game" in result.text, result.text
    await settle(bot, game_id)
    assert not any("You left the game" in t for t in dm_texts(fake, bob)), dm_texts(fake, bob)
    assert not any("Bob left the game" in without_isolates(t) for t in dm_texts(fake, bob))
    assert dm_texts(fake, bob)[-1] == "This hand is closed."  # the deal, without its buttons


async def test_the_host_cannot_kick_themselves(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, (alice, _bob, _carol) = await three_humans(fake, bot)
    refused(await fake.slash(alice, channel, "lama kick", user=alice),
            "You can't kick yourself", "/lama leave")
    assert bot.service.view(game_id).seat_of(alice.id) is not None


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_timed_out_player_is_told_their_time_ran_out(fake_discord, lamabot, bot_clock):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    game_id, _channel, _users = await three_humans(fake, bot)
    await settle_with_timers(bot, game_id)
    late, _ = on_turn(fake, bot, game_id)
    clock.advance(bot.service.view(game_id).options.turn_timeout)
    await bot.service.fire_due_timers()
    await bot.renderer.flush_all()
    hand = hand_messages(fake, late, game_id)[-1].text
    assert "Your time ran out" in hand and "You quit this round" not in hand, hand
    await fake.slash(late, fake.channel("lama"), "lama leave")
    await settle_with_timers(bot, game_id)


# ------------------------------------------------------------------ refusals


async def test_drawing_after_quitting_says_you_have_quit(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel, _users = await three_humans(fake, bot)
    quitter, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(quitter, channel, "quit")).ephemeral
    await settle(bot, game_id)
    assert bot.service.view(game_id).round_number == 1
    for command in ("draw", "quit"):
        refused(await fake.slash(quitter, channel, command), "You have quit this round")


async def test_playing_a_card_of_another_variant_says_it_is_not_in_this_game(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    alice, channel = fake.user("alice"), fake.channel("lama")
    await open_game(fake, bot, channel, alice, fake.user("bob"), variant="classic")
    for user in (alice, fake.user("bob")):  # on turn or not
        result = await fake.slash(user, channel, "play", card="P")
        refused(result, "pink llama", "isn't a card in LAMA")
        assert "don't have" not in result.text


# -------------------------------------------------------------------- lobby


async def test_joining_is_confirmed_to_the_joiner_as_you(fake_discord, lamabot):
    fake = fake_discord
    channel = fake.channel("lama")
    await fake.slash(fake.user("alice"), channel, "lama new")
    result = await fake.slash(fake.user("bob"), channel, "lama join")
    assert result.ephemeral and "You joined the game" in result.text
    assert "Bob joined" not in without_isolates(result.text)
    await lamabot.renderer.flush_all()
    assert "Bob" in fake.public_messages(channel)[0].embed_text


async def test_leaving_a_lobby_is_confirmed_as_you(fake_discord, lamabot):
    fake = fake_discord
    channel = fake.channel("lama")
    await fake.slash(fake.user("alice"), channel, "lama new")
    await fake.slash(fake.user("bob"), channel, "lama join")
    result = await fake.slash(fake.user("bob"), channel, "lama leave")
    assert result.ephemeral and "You left the lobby" in result.text, result.text


# -------------------------------------------------------- symbols and medals


def test_the_pink_llama_card_and_the_pink_token_look_different():
    assert CARD_EMOJI["P"] != TOKEN_EMOJI["PINK"]
    assert TOKEN_EMOJI["PINK"] not in CARD_EMOJI.values()


def one_winner_when_everyone_quits(game) -> bool:
    game = game.clone()
    while not game.is_over:
        game.apply(game.current_seat, QUIT)
    return len(game.winners) == 1


async def test_the_leaderboard_gives_no_medal_without_a_win(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    use_seed(bot, find_seed("party", 2, one_winner_when_everyone_quits, target=10))  # no tie
    game_id = await open_game(fake, bot, channel, alice, bob, variant="party", target=10)
    await finish_by_quitting(bot, game_id)
    view = bot.service.view(game_id)
    assert view.status is Status.FINISHED and len(view.winners) == 1
    winner = view.seats[view.winners[0]].user_id
    loser = next(s.user_id for s in view.seats if s.user_id != winner)
    board = await fake.slash(alice, channel, "leaderboard", sort="wins")  # not the rating
    lines = board.embeds[0]["description"].split("\n")
    assert any(line.startswith("🥇") and f"<@{winner}>" in line for line in lines), lines
    loser_line = next(line for line in lines if f"<@{loser}>" in line)
    assert not loser_line.startswith(("🥇", "🥈", "🥉")), loser_line
    assert loser_line.startswith("2."), loser_line
