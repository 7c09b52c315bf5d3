"""Bad input, end to end: each gets a clear ephemeral answer and changes nothing.

"Changes nothing": no move in the store's log and no public message added or edited
(`Unchanged`). Positions come from chosen deals (`use_seed`), so the games stay real.
"""

from __future__ import annotations

import asyncio
import copy

import pytest

from hosting import Status
from lama import DRAW, QUIT, Card
from tests.support.e2e import (
    Unchanged,
    find_seed,
    hand_button,
    hand_messages,
    offered_cards,
    on_turn,
    open_game,
    refused,
    settle,
    the_first_quit_ends_round_1,
    two_humans,
)


def other_user(fake, bot, game_id, user):
    view = bot.service.view(game_id)
    seat = next(s for s in view.seats if s.user_id not in (None, user.id))
    return fake.users_by_id[seat.user_id]


async def quit_until(bot, game_id, done) -> None:
    """Whoever is on turn quits (through the service: this is set-up) until ``done()``."""
    while not done():
        view = bot.service.view(game_id)
        user_id = view.seats[view.current_seat].user_id
        await bot.service.human_move(game_id, user_id, QUIT)
    await bot.renderer.flush_all()


# ------------------------------------------------------------------ not your turn


@pytest.mark.parametrize("command", ["play", "draw", "quit"])
async def test_move_when_it_is_not_your_turn(fake_discord, lamabot, command):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    waiting = other_user(fake, bot, game_id, mover)
    options = {"card": bot.service.view(game_id).top_card} if command == "play" else {}
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(waiting, channel, command, **options)
    refused(result, "It's not your turn", mover.name.title())


async def test_hand_button_pressed_by_its_owner_off_turn(fake_discord, lamabot):
    """A hand shown with /lama hand while on turn is gone once the player moves another way
    (/draw shows a newer private hand, and an older one is deleted: issue 34, one hand on
    screen at a time); a press from a client that still shows it moves nothing and gets the
    answer of any replaced hand (tests/e2e/test_old_hands.py): it is no longer live."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    shown = await fake.slash(mover, channel, "lama hand")
    assert shown.ephemeral and shown.message.button("Draw").disabled is False
    as_seen = copy.deepcopy(shown.message)  # what a lagging client still shows
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    assert shown.message.deleted  # the newer hand /draw showed replaced it
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.click(mover, as_seen, hand_button(as_seen, "draw"))
    assert result.ephemeral and "This message is no longer live" in result.message.text


async def test_refusals_speak_the_users_language(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    waiting = other_user(fake, bot, game_id, mover)
    waiting.locale = "cs"
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(waiting, channel, "draw")
    refused(result, "Nejsi na tahu", mover.name.title())
    waiting.locale = "es-ES"
    result = await fake.slash(waiting, fake.channel("general"), "play", card="1")
    refused(result, "No hay ninguna partida de LAMA en este canal")


# ------------------------------------------------------------- not in this game


async def test_play_by_someone_not_in_the_game(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(fake.user("carol"), channel, "play", card="1")
    refused(result, "You're not playing in this game")


@pytest.mark.parametrize("who", ["carol", "bob"])
async def test_start_by_someone_not_the_host(fake_discord, lamabot, who):
    fake, bot = fake_discord, lamabot
    alice = fake.user("alice")
    game_id, channel = await two_humans(fake, bot, start=False)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(fake.user(who), channel, "lama start")
    refused(result, "Only the host", alice.mention)
    assert bot.service.view(game_id).status is Status.LOBBY


# ---------------------------------------------------------------------- cards


async def test_play_a_card_not_in_your_hand(fake_discord, lamabot):
    """The autocomplete never offers it, but a user can type any text."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, seed=3)
    mover, obs = on_turn(fake, bot, game_id)
    missing = next(c for c in "123456L" if Card.from_code(c) not in obs.hand)
    choices = await fake.autocomplete(mover, channel, "play", focused="card", card=missing)
    assert missing not in [c["value"] for c in choices]
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(mover, channel, "play", card=missing)
    refused(result, "You don't have")


async def test_play_a_card_that_does_not_fit_names_the_playable_ones(fake_discord, lamabot):
    def unplayable_and_playable(game):
        seat = game.current_seat
        return game.legal_plays(seat) and set(game.hand(seat)) - set(game.legal_plays(seat))

    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, unplayable_and_playable)
    game_id, channel = await two_humans(fake, bot, seed=seed)
    mover, obs = on_turn(fake, bot, game_id)
    wrong = next(c for c in obs.hand if c not in obs.legal_plays)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(mover, channel, "play", card=wrong.code)
    refused(result, "You can't play a ", "You can play:")
    for card in obs.legal_plays:
        assert bot_card_name(card) in result.text


def bot_card_name(card: Card) -> str:
    import i18n

    return i18n.card_name(card.code, "classic", "en")


async def test_play_an_unknown_card(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(mover, channel, "play", card="banana")
    refused(result, "“banana” is not a card")


# ---------------------------------------------------------------------- draw


async def test_draw_when_the_draw_pile_is_empty(fake_discord, lamabot):
    def draws_empty_the_pile_and_then_a_play_fits(game):
        while game.draw_pile_size:
            game.apply(game.current_seat, DRAW)
        return bool(game.legal_plays(game.current_seat))

    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, draws_empty_the_pile_and_then_a_play_fits)
    game_id, channel = await two_humans(fake, bot, seed=seed)
    bot.renderer.queue.coalesce_delay = 0.5  # set-up: show the 40-odd draws in one go
    while bot.service.view(game_id).draw_pile_size:
        view = bot.service.view(game_id)
        await bot.service.human_move(game_id, view.seats[view.current_seat].user_id, DRAW)
    await bot.renderer.flush_all()
    bot.renderer.queue.coalesce_delay = 0
    mover, obs = on_turn(fake, bot, game_id)
    assert obs.legal_plays and not obs.can_draw
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(mover, channel, "draw")
    refused(result, "The draw pile is empty")


async def test_draw_when_everyone_else_has_quit(fake_discord, lamabot):
    def starter_quits_and_the_other_can_play(game):
        game.apply(game.current_seat, QUIT)
        return not game.is_over and bool(game.legal_plays(game.current_seat))

    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, starter_quits_and_the_other_can_play)
    game_id, channel = await two_humans(fake, bot, seed=seed)
    starter, _ = on_turn(fake, bot, game_id)
    await fake.slash(starter, channel, "quit")
    await settle(bot, game_id)
    alone, obs = on_turn(fake, bot, game_id)
    assert alone != starter and obs.round_number == 1
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(alone, channel, "draw")
    refused(result, "Everyone else has quit")


# ------------------------------------------------------------ game life cycle


async def test_play_before_the_game_has_started(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, start=False)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(fake.user("alice"), channel, "play", card="1")
    refused(result, "hasn't started yet")


async def test_play_after_the_game_is_over(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, target=10)
    mover, _ = on_turn(fake, bot, game_id)
    shown = await fake.slash(mover, channel, "lama hand")
    as_seen = copy.deepcopy(shown.message)  # e.g. an ephemeral past its 15-minute token
    await quit_until(bot, game_id, lambda: bot.service.view(game_id).status is Status.FINISHED)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(mover, channel, "play", card="1")
    refused(result, "There's no LAMA game in this channel")
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.click(mover, as_seen, hand_button(as_seen, "quit"))
    refused(result, "belongs to an earlier round or game")


async def test_hand_button_from_an_earlier_round(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, target=200)
    mover, _ = on_turn(fake, bot, game_id)
    shown = await fake.slash(mover, channel, "lama hand")
    as_seen = copy.deepcopy(shown.message)  # e.g. an ephemeral past its 15-minute token
    await quit_until(bot, game_id, lambda: bot.service.view(game_id).round_number == 2)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.click(mover, as_seen, hand_button(as_seen, "quit"))
    refused(result, "belongs to an earlier round or game", "/lama hand")


async def test_hand_button_from_an_earlier_round_in_the_dm(fake_discord, lamabot):
    """Round 1 ends on the starter's /quit (the other is forced out): the starter's round-1
    hand DM may still show enabled buttons; pressing one gets a polite answer."""

    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, the_first_quit_ends_round_1)
    game_id, channel = await two_humans(fake, bot, seed=seed, target=200)
    mover, _ = on_turn(fake, bot, game_id)
    message = hand_messages(fake, mover, game_id)[-1]
    assert ":1:" in hand_button(message, "quit")
    await fake.slash(mover, channel, "quit")
    await settle(bot, game_id)
    assert bot.service.view(game_id).round_number == 2
    pressable = [b.custom_id for b in message.buttons if not b.disabled]
    if not pressable:  # the renderer closed the old hand: nothing stale left to press
        return
    custom_id = pressable[0]
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.click(mover, message, custom_id)
    refused(result, "belongs to an earlier round or game")


# ------------------------------------------------------------------- lobbies


async def test_join_a_full_lobby(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    lobby = await fake.slash(fake.user("alice"), channel, "lama new", ai_seats=5)
    game_id = bot.service.game_in_channel(channel.id).game_id
    assert lobby.message.button("Join").disabled
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(fake.user("bob"), channel, "lama join")
    refused(result, "The lobby is full (6 seats)")
    assert len(bot.service.view(game_id).seats) == 6


async def test_join_while_seated_elsewhere_in_this_server(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    lama, lama2 = fake.channel("lama"), fake.channel("lama-2")
    alice, bob = fake.user("alice"), fake.user("bob")
    await fake.slash(alice, lama, "lama new")
    lobby = await fake.slash(bob, lama2, "lama new")
    game_id = bot.service.game_in_channel(lama2.id).game_id
    async with Unchanged(fake, bot, game_id, lama, lama2):
        result = await fake.slash(alice, lama2, "lama join")
        refused(result, "You're already playing in", lama.mention)
        result = await fake.click(alice, lobby.message, "Join")
        refused(result, "You're already playing in", lama.mention)
    async with Unchanged(fake, bot, None, lama, lama2):
        result = await fake.slash(bob, fake.channel("general"), "lama new")
    refused(result, "You're already playing in", lama2.mention)


@pytest.mark.parametrize(
    ("command", "options"),
    [("lama start", {}), ("lama join", {}), ("lama table", {}), ("play", {"card": "1"}),
     ("draw", {}), ("quit", {})],
)
async def test_command_where_no_game_is(fake_discord, lamabot, command, options):
    fake, bot = fake_discord, lamabot
    general = fake.channel("general")
    await open_game(fake, bot, fake.channel("lama"), fake.user("alice"), fake.user("bob"))
    async with Unchanged(fake, bot, None, general, fake.channel("lama")):
        result = await fake.slash(fake.user("carol"), general, command, **options)
    refused(result, "There's no LAMA game in this channel", "/lama new")


async def test_lobby_commands_in_a_dm(fake_discord, lamabot):
    """/lama new is guild-only in spirit, but Discord offers subcommands everywhere."""
    fake = fake_discord
    for command in ("lama new", "lama join", "lama start", "lama table"):
        result = await fake.slash(fake.user("carol"), None, command)
        refused(result, "This command works only in a server channel")


async def test_play_in_a_dm_without_a_game(fake_discord, lamabot):
    fake = fake_discord
    result = await fake.slash(fake.user("carol"), None, "play", card="1")
    refused(result, "You're not in any running game")


@pytest.mark.parametrize("command", ["lama cancel", "lama kick"])
async def test_cancel_and_kick_need_the_host_or_manage_server(fake_discord, lamabot, command):
    fake, bot = fake_discord, lamabot
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, alice, bob, carol)
    options = {"user": carol} if command == "lama kick" else {}
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(bob, channel, command, **options)
    refused(result, "Only the host", alice.mention, "Manage Server")
    await fake.grant(bob, manage_guild=True)
    result = await fake.slash(bob, channel, command, **options)
    assert result.ephemeral and "Only the host" not in result.text
    await bot.renderer.flush_all()
    view = bot.service.view(game_id)
    if command == "lama cancel":
        assert view.status is Status.CANCELLED
    else:
        assert view.seat_of(carol.id) is None and view.seats[2].is_ai


async def test_new_twice_in_a_channel_points_to_the_existing_game(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    await fake.slash(fake.user("alice"), channel, "lama new")
    game_id = bot.service.game_in_channel(channel.id).game_id
    for user in (fake.user("alice"), fake.user("carol")):
        async with Unchanged(fake, bot, game_id, channel):
            result = await fake.slash(user, channel, "lama new", variant="party")
        lobby = fake.public_messages(channel)[0]
        link = f"https://discord.com/channels/{fake.guild.id}/{channel.id}/{lobby.id}"
        refused(result, "There's already [a game in this channel](", f"]({link}).")


async def test_dm_commands_route_to_the_callers_only_game(fake_discord, lamabot):
    """One guild in the loopback Discord: a DM is never ambiguous here. Several games of one
    user (in different servers) are refused by the service: tests/hosting/test_service.py."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, obs = on_turn(fake, bot, game_id)
    shown = await fake.slash(mover, None, "lama hand")
    assert shown.ephemeral and "Your hand" in shown.text
    waiting = other_user(fake, bot, game_id, mover)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(waiting, None, "draw")
    refused(result, "It's not your turn")
    choices = await fake.autocomplete(mover, None, "play", focused="card", card="")
    assert offered_cards(choices) == sorted(c.code for c in obs.legal_plays)
    result = await fake.slash(mover, None, "draw")
    assert result.ephemeral and "Your hand" in result.text
    assert len(await bot.store.games.list_moves(game_id)) == 1


@pytest.mark.parametrize(("command", "options"), [("play", {"card": "1"}), ("lama join", {})])
async def test_a_refused_command_is_answered_once(fake_discord, lamabot, command, options):
    """The tree's error handler answers; no cog handler adds a second, identical follow-up."""
    fake, bot = fake_discord, lamabot
    _game_id, channel = await two_humans(fake, bot)
    result = await fake.slash(fake.user("carol"), channel, command, **options)
    assert result.ephemeral
    await bot.renderer.flush_all()
    await asyncio.sleep(0.2)  # a second answer would be a follow-up sent right after the first
    assert result.followups == [], [m.text for m in result.followups]


async def test_kick_someone_not_in_the_game_names_them(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    carol = fake.user("carol")
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(fake.user("alice"), channel, "lama kick", user=carol)
    refused(result, f"<@{carol.id}> isn't in this game")
