"""Gameplay situations end to end: DM buttons, closed DMs, double presses, timers, plus cards,
forced quits, rounds ended by quitting, leaving, kicking, cancelling, table, rules, rematch,
lobby buttons.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from cogs.text import seat_name
from hosting import FakeClock, Status
from lama import QUIT
from tests.e2e.games import finish_by_quitting, settle_with_timers, tables
from tests.support.e2e import (
    enabled_hand_buttons,
    find_seed,
    hand_button,
    hand_messages,
    isolated,
    names_game,
    on_turn,
    open_game,
    refused,
    settle,
    the_first_quit_ends_round_1,
    two_humans,
    wait_until,
)

UPDATE_MESSAGE = 7  # the interaction response that edits the pressed message


def texts(fake, channel) -> list[str]:
    return [m.text for m in fake.public_messages(channel)]






# --------------------------------------------------------------- whole games


@pytest.mark.parametrize("variant", ["classic", "party", "komarami"])
async def test_one_human_and_three_ais_play_a_whole_game_with_dm_buttons(
    fake_discord, lamabot, variant
):
    fake, bot = fake_discord, lamabot
    rng = random.Random(variant)
    alice, channel = fake.user("alice"), fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, variant=variant, ai_seats=3, target=20)
    rounds_seen = set()
    for _ in range(1000):
        await settle(bot, game_id)
        view = bot.service.view(game_id)
        if view.status is Status.FINISHED:
            break
        message = hand_messages(fake, alice, game_id)[-1]
        assert f"round {view.round_number}" in message.text
        rounds_seen.add(view.round_number)
        enabled = enabled_hand_buttons(message)
        cards = [c for c in enabled if not c.endswith((":draw", ":quit"))]
        draw = [c for c in enabled if c.endswith(":draw")]
        choice = rng.choice(cards) if cards and rng.random() < 0.9 else (draw or enabled)[0]
        result = await fake.click(alice, message, choice)
        assert result.response_type == UPDATE_MESSAGE, result
    assert bot.service.view(game_id).status is Status.FINISHED
    assert rounds_seen == set(range(1, max(rounds_seen) + 1))
    end = fake.public_messages(channel)[-1]
    assert "Game over" in end.text and "Final standings" in end.text
    for seat in bot.service.view(game_id).seats:
        assert f"{seat_name(seat, 'en')}: {seat.score} point" in end.text
    assert end.button("Rematch") is not None


# --------------------------------------------------------------- closed DMs


async def test_dms_closed_for_one_player(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    bob = fake.user("bob")
    fake.close_dms(bob)
    game_id, channel = await two_humans(fake, bot, target=10)
    how_to = [t for t in texts(fake, channel) if "I can't send you DMs" in t]
    assert len(how_to) == 1 and bob.mention in how_to[0] and "My hand" in how_to[0]
    shown = await fake.click(bob, tables(fake, channel)[-1], "My hand")
    assert shown.ephemeral and "Your hand" in shown.text
    bob_moves = 0
    for _ in range(500):  # a whole round, bob playing from ephemeral answers only
        view = bot.service.view(game_id)
        if view.status is Status.FINISHED or view.round_number > 1:
            break
        user, obs = on_turn(fake, bot, game_id)
        bob_moves += user == bob
        if obs.legal_plays:
            result = await fake.slash(user, channel, "play", card=obs.legal_plays[0].code)
        else:
            result = await fake.slash(user, channel, "draw" if obs.can_draw else "quit")
        assert result.ephemeral
        await settle(bot, game_id)
    view = bot.service.view(game_id)
    assert bob_moves and (view.status is Status.FINISHED or view.round_number == 2)
    how_to = [t for t in texts(fake, channel) if "I can't send you DMs" in t]
    assert len(how_to) == 1  # one notice per game, however many turns
    assert fake.dms(bob) == []
    assert fake.dms(fake.user("alice"))  # the other player still hears by DM


# ------------------------------------------------------------ double presses


async def test_two_presses_at_the_same_moment_make_one_move(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, _ = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    message = hand_messages(fake, mover, game_id)[-1]
    draw = hand_button(message, "draw")
    first, second = await asyncio.gather(
        fake.click(mover, message, draw), fake.click(mover, message, draw)
    )
    await bot.renderer.flush_all()
    assert len(await bot.store.games.list_moves(game_id)) == 1
    answers = sorted([first, second], key=lambda r: r.response_type == UPDATE_MESSAGE)
    refused_press, moved = answers
    assert moved.response_type == UPDATE_MESSAGE
    refused(refused_press, "It's not your turn")


# -------------------------------------------------------------------- timers


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_turn_timer_expiring(fake_discord, lamabot, bot_clock):
    """Reminder by DM at half time; at the end the bot quits the round for the player and
    says so; the third expiry in a row hands the seat to an AI, said publicly."""
    fake, bot, clock = fake_discord, lamabot, bot_clock
    alice, channel = fake.user("alice"), fake.channel("lama")
    game_id = await open_game(
        fake, bot, channel, alice, ai_seats=1, turn_timeout=10, target=100
    )
    for expiry in range(1, 4):
        await settle_with_timers(bot, game_id)
        view = bot.service.view(game_id)
        assert view.seats[view.current_seat].user_id == alice.id
        dms_before = len(fake.dms(alice))
        clock.advance(5)
        await bot.service.fire_due_timers()
        await bot.renderer.flush_all()
        reminders = [m for m in fake.dms(alice)[dms_before:] if "still your turn" in m.content]
        assert len(reminders) == 1 and "5 seconds left" in reminders[0].content
        quits = sum("ran out of time and quits" in t for t in texts(fake, channel))
        clock.advance(5)
        await bot.service.fire_due_timers()
        await bot.renderer.flush_all()
        assert sum("ran out of time and quits" in t for t in texts(fake, channel)) == quits + 1
        assert quits + 1 == expiry
    assert any("3 times in a row: an AI takes the seat" in t for t in texts(fake, channel))
    assert bot.service.view(game_id).seats[0].is_ai
    assert bot.service.active_games_of(alice.id) == []
    await fake.slash(alice, channel, "lama cancel")




# ---------------------------------------------------------- rule situations


async def test_a_plus_card_gives_an_extra_turn(fake_discord, lamabot):
    def starter_can_play_a_plus_card(game):
        return any(c.plus for c in game.legal_plays(game.current_seat))

    fake, bot = fake_discord, lamabot
    seed = find_seed("party", 2, starter_can_play_a_plus_card)
    game_id, channel = await two_humans(fake, bot, seed=seed, variant="party")
    mover, obs = on_turn(fake, bot, game_id)
    plus = next(c for c in obs.legal_plays if c.plus)
    message = hand_messages(fake, mover, game_id)[-1]
    result = await fake.click(mover, message, hand_button(message, plus.code))
    await bot.renderer.flush_all()
    assert result.response_type == UPDATE_MESSAGE
    assert "Extra turn!" in message.text
    assert any(not b.disabled for b in message.buttons if b.custom_id.endswith(":quit"))
    view = bot.service.view(game_id)
    assert view.seats[view.current_seat].user_id == mover.id and view.extra_turn
    table = tables(fake, channel)[-1]
    assert "played a plus card: extra turn!" in table.text


async def test_a_forced_quit_is_said_publicly(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, the_first_quit_ends_round_1)
    game_id, channel = await two_humans(fake, bot, seed=seed, target=200)
    starter, _ = on_turn(fake, bot, game_id)
    await fake.slash(starter, channel, "quit")
    await settle(bot, game_id)
    forced = "had to quit: no card to play, and the last player left in a round can't draw"
    closed, new = tables(fake, channel)[-2:]  # said with the round it ended, not the next
    assert "Round 1 is over" in closed.text and forced in closed.text
    assert forced not in new.text


async def test_a_round_ended_by_all_quitting(fake_discord, lamabot):
    def the_other_could_play(game):
        game.apply(game.current_seat, QUIT)
        return game.round_number == 1 and bool(game.legal_plays(game.current_seat))

    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, the_other_could_play)
    game_id, channel = await two_humans(fake, bot, seed=seed, target=200)
    first_table = tables(fake, channel)[-1]
    for _ in range(2):
        user, _ = on_turn(fake, bot, game_id)
        await fake.slash(user, channel, "quit")
        await settle(bot, game_id)
    view = bot.service.view(game_id)
    assert view.round_number == 2
    summary = next(m for m in fake.public_messages(channel) if "Round 1 is over" in m.text)
    assert "Everyone quit." in summary.text
    for seat in view.seats:
        line = next(x for x in summary.text.split("\n") if x.startswith(f"{isolated(seat.name)}:"))
        assert "→ +" in line and f"({seat.score})" in line
        assert any(token in line for token in ("⚪", "⚫", "no tokens"))
    new_table = tables(fake, channel)[-1]
    assert new_table.id != first_table.id and "round 2" in new_table.text
    assert fake.public_messages(channel).index(summary) < fake.public_messages(channel).index(
        new_table
    )


# ----------------------------------------------------- leaving and kicking


async def test_leave_mid_game_hands_the_seat_to_an_ai(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, bob, carol)
    result = await fake.slash(bob, channel, "lama leave")
    assert result.ephemeral
    await settle(bot, game_id)
    assert any(f"{isolated('Bob')} left the game; an AI plays the seat" in t
               for t in texts(fake, channel))
    view = bot.service.view(game_id)
    assert view.seats[1].is_ai and view.seat_of(bob.id) is None
    refused(await fake.slash(bob, channel, "draw"), "You're not playing in this game")
    refused(await fake.slash(bob, None, "lama hand"), "You're not in any running game")
    assert bot.service.active_games_of(bob.id) == []
    lobby = await fake.slash(bob, fake.channel("lama-2"), "lama new")
    assert not lobby.ephemeral


async def test_leaving_on_turn_closes_the_leavers_hand_buttons(fake_discord, lamabot):
    """The seat is the AI's now: the leaver's DM hand must not keep live buttons."""
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    game_id = await open_game(
        fake, bot, channel, fake.user("alice"), fake.user("bob"), fake.user("carol")
    )
    mover, _ = on_turn(fake, bot, game_id)
    assert enabled_hand_buttons(hand_messages(fake, mover, game_id)[-1])
    result = await fake.slash(mover, channel, "lama leave")
    assert result.ephemeral
    await settle(bot, game_id)
    for message in hand_messages(fake, mover, game_id):
        assert enabled_hand_buttons(message) == [], message.custom_ids
    assert any("This hand is closed" in (m.content or "") for m in fake.dms(mover))


async def test_kick_hands_the_seat_to_an_ai(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, bob, carol)
    result = await fake.slash(alice, channel, "lama kick", user=carol)
    assert result.ephemeral and f"You removed {isolated('Carol')}" in result.text
    await settle(bot, game_id)
    assert any(f"{isolated('Alice')} removed {isolated('Carol')} from the game; an AI plays "
               "the seat" in t
               for t in texts(fake, channel))
    view = bot.service.view(game_id)
    assert view.seats[2].is_ai and view.seat_of(carol.id) is None
    refused(await fake.slash(alice, channel, "lama kick", user=carol), "isn't in this game")


async def test_kick_from_a_lobby_frees_the_seat(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, bob, start=False)
    await fake.slash(alice, channel, "lama kick", user=bob)
    await bot.renderer.flush_all()
    assert [s.user_id for s in bot.service.view(game_id).seats] == [alice.id]
    lobby = fake.public_messages(channel)[0]
    assert "Bob" not in lobby.text


async def test_a_lobby_its_lone_host_left_lists_nobody_as_seated(fake_discord, lamabot):
    """Cancelled, the lobby is nobody's: "1. Alice (host)" under "The game was cancelled."
    read as if she still held it."""
    fake, bot = fake_discord, lamabot
    alice, channel = fake.user("alice"), fake.channel("lama")
    await fake.slash(alice, channel, "lama new")
    await fake.slash(alice, channel, "lama leave")
    await bot.renderer.flush_all()
    lobby = fake.public_messages(channel)[0]
    assert "cancelled" in lobby.text and "Alice" not in lobby.text, lobby.text


async def test_cancel_a_running_game(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    result = await fake.slash(fake.user("alice"), channel, "lama cancel")
    assert result.ephemeral and "cancelled" in result.text
    await bot.renderer.flush_all()
    assert bot.service.view(game_id).status is Status.CANCELLED
    lobby, table = fake.public_messages(channel)[:2]
    assert "cancelled" in lobby.text
    assert "cancelled" in table.text and "On turn" not in table.text
    hand = [m for m in fake.dms(mover) if "Your hand" in m.text][-1]
    assert "cancelled" in hand.text and hand.buttons == []  # a game over keeps no buttons
    assert not (await fake.slash(mover, channel, "lama new")).ephemeral


async def test_leave_and_cancel_at_the_same_moment(fake_discord, lamabot):
    """Whichever lands second is refused politely; nothing is logged as an error."""
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id, channel = await two_humans(fake, bot)
    cancelled, left = await asyncio.gather(
        fake.slash(alice, channel, "lama cancel"), fake.slash(bob, channel, "lama leave")
    )
    await bot.renderer.flush_all()
    assert cancelled.ephemeral and left.ephemeral
    assert bot.service.view(game_id).status is Status.CANCELLED


# ----------------------------------------------------------- table and rules


async def test_table_is_reposted_at_the_bottom(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    await fake.slash(fake.user("carol"), channel, "lama rules")
    before = tables(fake, channel)[-1]
    result = await fake.slash(fake.user("carol"), channel, "lama table")
    refused(result, "posted again below")
    await wait_until(lambda: fake.public_messages(channel)[-1].id != before.id)
    last = fake.public_messages(channel)[-1]
    assert last.id != before.id and last.text.split("\n")[1:] == (
        before.text.split("\n")[1:]
    )
    mover, _ = on_turn(fake, bot, game_id)
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    assert "drew a card" in fake.public_messages(channel)[-1].text


async def test_a_reposted_table_leaves_the_old_one_without_buttons_pointing_down(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    _game_id, channel = await two_humans(fake, bot)
    old = tables(fake, channel)[-1]
    assert old.buttons
    await fake.slash(fake.user("carol"), channel, "lama table")
    await wait_until(lambda: fake.public_messages(channel)[-1].id != old.id)
    await bot.renderer.flush_all()
    new = fake.public_messages(channel)[-1]
    assert not old.buttons and new.buttons
    assert f"/{channel.id}/{new.id}" in old.text and "moved down" in old.text


@pytest.mark.parametrize(
    ("variant", "title", "words"),
    [("classic", "LAMA", "llama"), ("party", "Party", "pink"), ("komarami", "Komarami", "")],
)
async def test_rules_of_each_variant(fake_discord, lamabot, variant, title, words):
    fake = fake_discord
    result = await fake.slash(fake.user("dave"), fake.channel("general"), "lama rules",
                              variant=variant)
    assert result.ephemeral and title in result.embeds[0]["title"]
    assert words.lower() in result.embeds[0]["description"].lower()
    assert len(result.embeds[0]["description"]) > 200


# -------------------------------------------------------------------- lobby


async def test_rematch_opens_a_new_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, variant="party", target=10)
    await finish_by_quitting(bot, game_id)
    end = fake.public_messages(channel)[-1]
    result = await fake.click(fake.user("bob"), end, "Rematch")
    assert result.message is end and "Rematch" not in {b.label for b in end.buttons}
    assert fake.public_messages(channel)[-1].button("Join") is not None  # the lobby, below
    view = bot.service.game_in_channel(channel.id)
    assert view.game_id != game_id and view.status is Status.LOBBY
    assert view.host_id == fake.user("alice").id  # the host stays the host
    assert view.options.variant == "party" and view.options.target == 10


async def test_a_rematch_after_a_restart_speaks_the_servers_language(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    await fake.grant(fake.user("owner"), manage_guild=True)
    await fake.slash(fake.user("owner"), fake.channel("lama"), "lama settings", language="cs")
    game_id, channel = await two_humans(fake, bot, variant="party", target=10)
    await finish_by_quitting(bot, game_id)
    bot.preferences.forget_cached_settings()  # as after a restart: no running game loaded them
    end = fake.public_messages(channel)[-1]
    rematch = next(c for c in end.custom_ids if names_game(c + ":", "r", game_id))
    await fake.click(fake.user("bob"), end, rematch)
    assert fake.public_messages(channel)[-1].embeds[0]["title"] == "Lobby: LAMA Party"
    assert end.buttons[0].label == "Odveta: hra č. 2"


async def test_the_lobby_shows_names_as_written(fake_discord, lamabot):
    """A name's underscores are not markdown: 'Dark_Lama_' is not 'Dark' and italics."""
    fake = fake_discord
    channel = fake.channel("lama")
    await fake.slash(fake.user("alice"), channel, "lama new")
    await fake.slash(fake.add_user("dark_lama_"), channel, "lama join")
    await lamabot.renderer.flush_all()
    lobby = fake.public_messages(channel)[0]
    assert "Dark\\_Lama\\_" in lobby.text, lobby.text


async def test_lobby_buttons(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("lama")
    lobby = (await fake.slash(alice, channel, "lama new")).message
    game_id = bot.service.game_in_channel(channel.id).game_id

    def seats():
        return [s.name for s in bot.service.view(game_id).seats]

    assert (await fake.click(bob, lobby, "Join")).response_type == UPDATE_MESSAGE
    assert seats() == ["Alice", "Bob"] and "Bob" in lobby.text
    refused(await fake.click(bob, lobby, "Join"), "already have a seat")
    await fake.click(bob, lobby, "Leave")
    assert seats() == ["Alice"] and "Bob" not in lobby.text
    refused(await fake.click(bob, lobby, "Add AI"), "Only the host")
    refused(await fake.click(alice, lobby, "Start"), "At least 2 players")
    await fake.click(alice, lobby, "Add AI")
    await fake.click(carol, lobby, "Join")
    assert len(seats()) == 3 and "🤖 Llama-bot 2 (normal)" in lobby.text
    refused(await fake.click(carol, lobby, "Start"), "Only the host")
    await fake.click(alice, lobby, "Start")
    await settle(bot, game_id)
    assert bot.service.view(game_id).status is Status.RUNNING
    assert lobby.buttons == [] and "has started" in lobby.text
    assert hand_messages(fake, carol, game_id)

    dave, lama2 = fake.user("dave"), fake.channel("lama-2")
    other = (await fake.slash(dave, lama2, "lama new")).message
    refused(await fake.click(carol, other, "Cancel"), "Only the host")
    await fake.click(dave, other, "Cancel")
    await wait_until(lambda: bot.service.game_in_channel(lama2.id) is None)
    assert "cancelled" in other.text and other.buttons == []
