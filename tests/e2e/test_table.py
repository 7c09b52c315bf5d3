"""Playing at the table (issue 11): one live table per game, one live hand per player, a new
hand each round, turn DMs a player can turn off, and Discord's rate limits respected."""

from __future__ import annotations

import asyncio
import random

import pytest

import cardart
from cogs.render import ledger
from cogs.render.scheduler import Priority
from cogs.text import card_label
from hosting import Status
from lama import DRAW, QUIT
from store import GuildSettings
from tests.support.e2e import (
    enabled_hand_buttons,
    find_seed,
    hand_messages,
    hold_rest_slots,
    isolated,
    names_game,
    on_turn,
    open_game,
    refused,
    settle,
    table,
    use_seed,
    wait_until,
)

TABLE_BUTTONS = ["My hand", "Draw", "Quit round", "Rules"]


def live_hands(fake, user, game_id: int) -> list:
    """Every message this user sees (DMs and ephemerals) with live buttons of this game."""
    seen = fake.dms(user) + fake.ephemeral_messages(user)
    return [m for m in seen if not m.deleted and any(
        names_game(b.custom_id, "h", game_id) and not b.disabled for b in m.buttons)]


@pytest.fixture
def pinged_every_turn(monkeypatch) -> None:
    """Table players get their turn DM on every turn, as if they never watched the table:
    for tests of what the ping says (when it comes: tests/e2e/test_turn_pings.py)."""
    monkeypatch.setattr(ledger, "AT_TABLE_FOR", 0.0)


async def three_humans(fake, bot, **options):
    channel = fake.channel("lama")
    users = fake.user("alice"), fake.user("bob"), fake.user("carol")
    game_id = await open_game(fake, bot, channel, *users, **options)
    return game_id, channel, users


async def everyone_quits_round_1(fake, bot, game_id: int, channel) -> None:
    """Whoever is on turn quits by /quit until round 1 is over."""
    while bot.service.view(game_id).round_number == 1:
        user, _ = on_turn(fake, bot, game_id)
        await fake.slash(user, channel, "quit")
        await settle(bot, game_id)


# ------------------------------------------------------------------ point 1: the table


async def test_the_table_is_one_v2_message_with_picture_seats_moves_and_buttons(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, _ = await three_humans(fake, bot)
    shown = table(fake, channel)
    assert shown.media_urls == ["attachment://table.png"]
    assert [a.filename for a in shown.attachments] == ["table.png"]
    assert "Players" in shown.text and "On turn" in shown.text
    assert [b.label for b in shown.buttons] == TABLE_BUTTONS
    mover, _obs = on_turn(fake, bot, game_id)
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    edited = table(fake, channel)
    assert edited.id == shown.id and edited.edits >= 1  # the same message, edited
    assert [a.filename for a in edited.attachments] == ["table.png"]  # the picture stays
    assert f"{isolated(mover.name.title())} drew a card" in edited.text
    assert fake.ratelimits.hits == []


async def test_a_finished_rounds_table_is_closed_with_its_result(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, _ = await three_humans(fake, bot, target=200)
    first = table(fake, channel)
    await everyone_quits_round_1(fake, bot, game_id, channel)
    assert "Round 1 is over" in first.text and first.buttons == []
    assert first.media_urls == ["attachment://table.png"] and first.attachments
    second = table(fake, channel)
    assert second.id != first.id and [b.label for b in second.buttons] == TABLE_BUTTONS


async def test_a_new_rounds_table_lists_only_that_rounds_moves(fake_discord, lamabot) -> None:
    """The last round's moves belong to its closed table (and its result): under the new
    round's title they would read as moves of this round, on another top card."""
    fake, bot = fake_discord, lamabot
    game_id, channel, _ = await three_humans(fake, bot, target=200)
    await everyone_quits_round_1(fake, bot, game_id, channel)
    lines = table(fake, channel).display_text.split("**Last moves**\n")[1].split("\n")
    moves = [line for line in lines if not line.startswith("-# ")]  # the footer
    assert len(moves) == 1 and moves[0].endswith("starts this round."), moves


def tables_cannot_be_drawn(monkeypatch) -> None:
    def cannot_draw(*args, **kwargs) -> bytes:
        raise OSError("no room left for pictures")

    monkeypatch.setattr(cardart, "cached_table", lambda *args, **kwargs: None)
    monkeypatch.setattr(cardart, "render_table", cannot_draw)


async def test_a_table_whose_picture_could_not_be_drawn_is_closed_without_one(
    fake_discord, lamabot, monkeypatch
) -> None:
    """A picture is a bonus: an edit that could not draw one leaves it out, and the round's
    close then shows no picture either (rather than one the message no longer carries, an
    edit Discord refuses whole)."""
    fake, bot = fake_discord, lamabot
    game_id, channel, _ = await three_humans(fake, bot, target=200)
    first = table(fake, channel)
    tables_cannot_be_drawn(monkeypatch)
    await everyone_quits_round_1(fake, bot, game_id, channel)
    assert fake.take_errors() == []
    assert "Round 1 is over" in first.text and first.buttons == []
    assert first.media_urls == [] and first.attachments == []


async def test_a_table_posted_again_leaves_the_old_one_without_a_picture_it_lost(
    fake_discord, lamabot, monkeypatch
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, users = await three_humans(fake, bot)
    old = table(fake, channel)
    tables_cannot_be_drawn(monkeypatch)
    mover, _ = on_turn(fake, bot, game_id)
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    assert old.attachments == []  # the edit could not draw the table: no picture
    await fake.slash(users[0], channel, "lama table")
    await bot.renderer.flush_all()
    assert fake.take_errors() == []
    assert table(fake, channel).id != old.id
    assert old.buttons == [] and "has moved down" in old.text and old.media_urls == []
    assert fake.rest_calls("GET /channels/{channel_id}/messages/{message_id}") == []  # known


async def test_a_table_posted_again_links_the_new_one_in_words_not_a_bare_url(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    _game_id, channel, users = await three_humans(fake, bot)
    old = table(fake, channel)
    await fake.slash(users[0], channel, "lama table")
    await bot.renderer.flush_all()
    new = table(fake, channel)
    link = f"https://discord.com/channels/{channel.guild_id}/{channel.id}/{new.id}"
    assert f"[This table has moved down the channel]({link})." in old.text
    assert f": {link}" not in old.text


async def test_my_hand_answers_privately_and_plays_from_there(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, _ = await three_humans(fake, bot)
    mover, _obs = on_turn(fake, bot, game_id)
    shown = await fake.click(mover, table(fake, channel), "My hand")
    assert shown.ephemeral and "Your hand" in shown.text
    draw = next(b for b in shown.message.buttons if b.custom_id.endswith(":draw"))
    pressed = await fake.click(mover, shown.message, draw.custom_id)
    assert pressed.response_type == 7  # the ephemeral itself is redrawn
    await settle(bot, game_id)
    assert len(await bot.store.games.list_moves(game_id)) == 1


async def test_a_bystander_pressing_my_hand_is_refused(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    _game_id, channel, _ = await three_humans(fake, bot)
    result = await fake.click(fake.user("dave"), table(fake, channel), "My hand")
    refused(result, "not playing in this game")


async def test_rules_from_the_table(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    _, channel, _ = await three_humans(fake, bot, variant="party")
    result = await fake.click(fake.user("dave"), table(fake, channel), "Rules")
    assert result.ephemeral and result.embeds[0]["title"] == "LAMA Party"


async def test_rules_from_a_table_end_the_game_at_that_tables_target(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    _, channel, _ = await three_humans(fake, bot, target=15)
    result = await fake.click(fake.user("dave"), table(fake, channel), "Rules")
    rules = result.embeds[0]["description"]
    assert "after a round in which someone reaches 15 points." in rules and "40" not in rules


async def test_rules_asked_for_by_command_end_the_game_at_the_default_target(
    fake_discord, lamabot
):
    result = await fake_discord.slash(fake_discord.user("dave"), fake_discord.channel("lama"),
                                      "lama rules")
    rules = result.embeds[0]["description"]
    assert "someone reaches 40 points (or the target set for the table)." in rules


# ------------------------------------------- point 2: one live hand, whatever the way


async def move(fake, bot, game_id, channel, user, obs, how: str, rng) -> None:
    """One move by `how`: a DM hand button, the table's My hand, or a slash command."""
    if how == "slash":
        if obs.legal_plays and rng.random() < 0.8:
            await fake.slash(user, channel, "play", card=rng.choice(obs.legal_plays).code)
        else:
            await fake.slash(user, channel, "draw" if obs.can_draw else "quit")
        return
    if how == "dm" and live_hands(fake, user, game_id):
        message = [m for m in live_hands(fake, user, game_id) if not m.ephemeral][-1:]
        if message:
            message = message[0]
        else:
            message = (await fake.click(user, table(fake, channel), "My hand")).message
    else:
        message = (await fake.click(user, table(fake, channel), "My hand")).message
    enabled = enabled_hand_buttons(message)
    cards = [c for c in enabled if not c.endswith((":draw", ":quit"))]
    choice = rng.choice(cards) if cards and rng.random() < 0.8 else None
    if choice is None:
        choice = next((c for c in enabled if c.endswith(":draw")), None)
    if choice is None:  # only Quit is left: it asks first
        quit_ = next(c for c in enabled if c.endswith(":quit"))
        await fake.click(user, message, quit_)
        choice = next(b.custom_id for b in message.buttons if b.custom_id.endswith(":quitok"))
    await fake.click(user, message, choice)


async def test_a_whole_game_mixed_ways_keeps_one_live_hand_and_a_true_table(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, users = await three_humans(fake, bot, target=30)
    ways = dict(zip((u.id for u in users), ("dm", "table", "slash"), strict=True))
    rng = random.Random(11)
    for _ in range(600):
        view = bot.service.view(game_id)
        if view.status is not Status.RUNNING:
            break
        user, obs = on_turn(fake, bot, game_id)
        await move(fake, bot, game_id, channel, user, obs, ways[user.id], rng)
        await settle(bot, game_id)
        view = bot.service.view(game_id)
        for player in users:
            live = live_hands(fake, player, game_id)
            assert len(live) <= 1, (player.name, [m.id for m in live])
        if view.status is Status.RUNNING:
            shown = table(fake, channel)
            top = card_label(view.top_card, "en", view.options.variant)
            assert f"Top card: {top}" in shown.text, shown.text
            on_turn_name = isolated(view.seats[view.current_seat].name)
            assert f"On turn: {on_turn_name}" in shown.text, shown.text
            current = fake.users_by_id[view.seats[view.current_seat].user_id]
            assert len(live_hands(fake, current, game_id)) <= 1
    assert bot.service.view(game_id).status is Status.FINISHED
    assert fake.ratelimits.hits == []


async def test_a_slash_player_is_pinged_by_a_plain_dm_that_never_goes_stale(
    fake_discord, lamabot, pinged_every_turn
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, _users = await three_humans(fake, bot)
    mover, _obs = on_turn(fake, bot, game_id)
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    while on_turn(fake, bot, game_id)[0] != mover:
        user, _ = on_turn(fake, bot, game_id)
        await fake.slash(user, channel, "draw")
        await settle(bot, game_id)
    ping = fake.dms(mover)[-1]
    assert "It's your turn" in ping.content and ping.buttons == []
    assert len(live_hands(fake, mover, game_id)) == 1  # their ephemeral turned live, free


async def test_moving_from_the_channel_in_one_game_keeps_dm_hands_in_another(
    fake_discord, lamabot, pinged_every_turn
) -> None:
    """Where a player moves is their choice in each game: Alice moves by slash command in one
    server's game (turn pings there are plain DMs), and in another server's game, where she
    has used only her DM hand, her turns still come as hand DMs with buttons."""
    fake, bot = fake_discord, lamabot
    alice, bob = fake.user("alice"), fake.user("bob")
    other = await fake.add_guild("Other Club", channels=("lama",))
    await bot.service.save_guild_settings(
        GuildSettings(other.id, ai_delay_s=0.0, turn_timeout_s=3600))
    here, there = fake.channel("lama"), other.channel("lama")
    first = await open_game(fake, bot, here, alice, ai_seats=1)
    await fake.slash(alice, here, "draw")  # her turn (the AI moved at once): by slash
    await settle(bot, first)
    second = await open_game(fake, bot, there, alice, bob)
    bob_moved = False
    while not (bob_moved and on_turn(fake, bot, second)[0] == alice):  # then Alice is pinged
        if on_turn(fake, bot, second)[0] == alice:
            hand = hand_messages(fake, alice, second)[-1]
            await fake.click(alice, hand, next(
                c for c in enabled_hand_buttons(hand) if c.endswith(":draw")))
        else:
            await fake.slash(bob, there, "draw")
            bob_moved = True
        await settle(bot, second)
    pings_there = [m for m in fake.dms(alice) if f"/{there.id}/" in m.content]
    assert pings_there == []
    assert enabled_hand_buttons(hand_messages(fake, alice, second)[-1])
    pings_here = [m for m in fake.dms(alice) if f"/{here.id}/" in m.content]
    assert pings_here  # the first game goes on pinging her by plain DM


def the_last_one_in_is_forced_out(game) -> bool:
    """Everyone draws once, then two quit: the third, left alone with nothing to play, is
    forced out and starts round 2 without having moved (so a ping tells them)."""
    for action in (DRAW, DRAW, DRAW, QUIT, QUIT):
        game.apply(game.current_seat, action)
    return game.round_number == 2


async def test_a_turn_ping_at_a_new_round_never_links_the_closed_tables_message(
    fake_discord, lamabot, pinged_every_turn
) -> None:
    """The new round's first ping may go out before its table is posted: it then points at
    the channel, never at the last round's closed table (no buttons there any more)."""
    fake, bot = fake_discord, lamabot
    use_seed(bot, find_seed("classic", 3, the_last_one_in_is_forced_out, target=200))
    game_id, channel, _users = await three_humans(fake, bot, target=200)
    closed = table(fake, channel)
    for how in ("draw", "draw", "draw", "quit", "quit"):  # all move from the channel: pinged
        user, _ = on_turn(fake, bot, game_id)
        await fake.slash(user, channel, how)
        await settle(bot, game_id)
    assert bot.service.view(game_id).round_number == 2
    starter, _ = on_turn(fake, bot, game_id)
    ping = fake.dms(starter)[-1]
    assert "It's your turn" in ping.content
    assert str(closed.id) not in ping.content, ping.content
    to_channel = f"https://discord.com/channels/{fake.guild.id}/{channel.id})"
    assert str(table(fake, channel).id) in ping.content or to_channel in ping.content


def hold_clean_ups(fake, bot, user) -> asyncio.Event:
    """The budget is saturated: edits of `user`'s older DM hand wait until the returned
    event. (Only theirs: the others' turns edit their own hand DMs in place, the turn pings
    this must not hold up.)"""
    def edits_their_dm(priority, channel_id, kind) -> bool:
        return kind == "edit" and channel_id == fake.dm_channels[user.id].id

    return hold_rest_slots(bot, edits_their_dm)


async def test_a_clean_up_waiting_for_the_budget_holds_up_no_turn_ping(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, _users = await three_humans(fake, bot)
    starter, _ = on_turn(fake, bot, game_id)  # their live DM hand must close: a clean-up
    released = hold_clean_ups(fake, bot, starter)
    try:
        await fake.slash(starter, channel, "draw")
        second, _ = on_turn(fake, bot, game_id)
        await wait_until(lambda: len(live_hands(fake, second, game_id)) == 1)
        await fake.slash(second, channel, "draw")
        third, _ = on_turn(fake, bot, game_id)
        await wait_until(lambda: len(live_hands(fake, third, game_id)) == 1)  # not held up
        assert len(live_hands(fake, starter, game_id)) == 1  # still waiting for its slot
        await fake.slash(third, channel, "draw")
        await asyncio.sleep(0.5)  # the starter's turn: their older hand must close first
        assert on_turn(fake, bot, game_id)[0] == starter
        assert len(live_hands(fake, starter, game_id)) == 1
    finally:
        released.set()
    await settle(bot, game_id)
    (live,) = live_hands(fake, starter, game_id)
    assert live.ephemeral


def hold_new_dms(bot) -> asyncio.Event:
    """The process is slow to DM: every new DM (the deal, a turn ping) waits for its REST
    slot until the returned event."""
    return hold_rest_slots(
        bot, lambda priority, channel_id, kind: priority is Priority.PING and kind == "create")


async def test_a_deal_dm_landing_after_its_player_moved_by_slash_keeps_no_live_buttons(
    fake_discord, lamabot
) -> None:
    """The deal's DM shows the hand as dealt: when the starter moved from the channel before it
    came, the slash answer shows the newer hand and the late DM must not take over as live
    (pressing it would only be refused)."""
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    users = fake.user("alice"), fake.user("bob"), fake.user("carol")
    game_id = await open_game(fake, bot, channel, *users, start=False)
    released = hold_new_dms(bot)
    try:
        assert (await fake.slash(users[0], channel, "lama start")).ephemeral
        starter, _ = on_turn(fake, bot, game_id)
        moved = await fake.slash(starter, channel, "draw")
        assert moved.ephemeral and on_turn(fake, bot, game_id)[0] != starter
        assert not hand_messages(fake, starter, game_id)  # the deal is still on its way
    finally:
        released.set()
    await settle(bot, game_id)
    (deal,) = fake.dms(starter)  # it came, and says where the hand went
    assert "no longer live" in deal.text and not enabled_hand_buttons(deal)
    assert live_hands(fake, starter, game_id) == []
    assert len(live_hands(fake, on_turn(fake, bot, game_id)[0], game_id)) == 1


# ----------------------------------------------------------- the game's end, privately


def says_game_over(message) -> bool:
    """A hand message at the game's end: it says so, and where the standings are; no
    buttons left (not even disabled Draw and Quit round of a game that is over)."""
    return "Game over: the final standings are in <#" in message.text and message.buttons == []


async def test_at_the_games_end_a_slash_players_hands_say_it_is_over(fake_discord, lamabot):
    """The newest hand says the game is over; the older one that was live is closed as it
    was (its cards, no buttons): neither "Game over" twice (tests/e2e/test_game_over_hands.py)
    nor "your newest hand message has the buttons", which no message has any more."""
    fake, bot = fake_discord, lamabot
    game_id, channel, _users = await three_humans(fake, bot, variant="party", target=10)
    while bot.service.view(game_id).status is Status.RUNNING:
        user, _ = on_turn(fake, bot, game_id)
        was_live = live_hands(fake, user, game_id)  # their ephemeral, turned live for free
        answer = await fake.slash(user, channel, "quit")
        await settle(bot, game_id)
    assert says_game_over(answer.message), answer.text
    (older,) = was_live
    assert older.buttons == [], older.buttons
    assert "Game over" not in older.text and "newest hand message" not in older.text, older.text


async def test_at_the_games_end_a_dm_players_hand_says_it_is_over(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, channel = fake.user("alice"), fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, ai_seats=2, variant="party", target=10)
    while bot.service.view(game_id).status is Status.RUNNING:
        hand = hand_messages(fake, alice, game_id)[-1]
        asked = await fake.click(alice, hand, next(
            c for c in enabled_hand_buttons(hand) if c.endswith(":quit")))
        await fake.click(alice, asked.message, next(
            b.custom_id for b in asked.message.buttons if b.custom_id.endswith(":quitok")))
        await settle(bot, game_id)
    newest = [m for m in fake.dms(alice) if "Your hand" in m.text][-1]
    assert says_game_over(newest), newest.text
    assert "Round" in newest.text and "is over" in newest.text  # and the last round's link


# ------------------------------------------------------------ /lama notify (stored)


async def test_notify_off_means_no_dms_and_my_hand_still_works(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    bob = fake.user("bob")
    answer = await fake.slash(bob, fake.channel("general"), "lama notify", turn_dms=False)
    assert answer.ephemeral and "No turn DMs" in answer.text
    assert await bot.store.settings.get_turn_dms(bob.id) is False
    game_id, channel, _ = await three_humans(fake, bot)
    for _ in range(12):
        user, obs = on_turn(fake, bot, game_id)
        if user == bob:
            shown = await fake.click(bob, table(fake, channel), "My hand")
            assert enabled_hand_buttons(shown.message)
        await fake.slash(user, channel, "draw" if obs.can_draw else "quit")
        await settle(bot, game_id)
    assert fake.dms(bob) == []
    again = await fake.slash(bob, fake.channel("general"), "lama notify")
    assert "No turn DMs" in again.text


# ---------------------------------------------------- point 5: a new hand every round


async def test_every_player_sees_their_new_hand_when_a_round_starts(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, users = await three_humans(fake, bot, target=200)
    await everyone_quits_round_1(fake, bot, game_id, channel)
    for user in users:
        newest = (fake.dms(user) + fake.ephemeral_messages(user))
        shows_round_2 = [m for m in newest if "Your hand" in m.text and "round 2" in m.text]
        assert shows_round_2, user.name
        assert any("Round 1 is over" in m.text for m in shows_round_2), user.name


async def test_a_new_rounds_hand_links_the_closed_table_in_words_not_in_bold(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, users = await three_humans(fake, bot, target=200)
    closed = table(fake, channel)
    await everyone_quits_round_1(fake, bot, game_id, channel)
    link = f"https://discord.com/channels/{channel.guild_id}/{channel.id}/{closed.id}"
    for user in users:
        newest = (fake.dms(user) + fake.ephemeral_messages(user))
        shows_round_2 = [m for m in newest if "Your hand" in m.text and "round 2" in m.text]
        assert any(f"[Round 1 is over]({link}): see the scores." in m.text
                   for m in shows_round_2), user.name
        assert not any("**Round 1 is over" in m.text for m in shows_round_2), user.name
