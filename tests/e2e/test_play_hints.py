"""/play's card autocomplete never answers with nothing: where the caller has no card to play,
it offers one choice that says why ("It's Alice's turn: wait for yours"), in their language.
Picked and sent, that choice gets the refusal a move would meet, privately, and changes
nothing; if the caller's turn came meanwhile, their hand instead."""

from __future__ import annotations

import pytest

from cogs.moves import NO_CARD
from lama import DRAW, Game
from tests.support.e2e import (
    Unchanged,
    find_seed,
    isolated,
    on_turn,
    refused,
    settle,
    two_humans,
)


def waiting_user(fake, bot, game_id):
    view = bot.service.view(game_id)
    seat = next(s for s in view.seats if s.index != view.current_seat)
    return fake.users_by_id[seat.user_id]


async def card_choices(fake, user, channel, typed: str = "") -> list[dict]:
    return await fake.autocomplete(user, channel, "play", focused="card", card=typed)


def nothing_fits_for_the_starter(game: Game) -> bool:
    return game.legal_plays(game.current_seat) == ()


def the_second_has_a_card_after_the_starter_draws(game: Game) -> bool:
    game.apply(game.current_seat, DRAW)
    return game.legal_plays(game.current_seat) != ()


async def test_a_waiting_player_is_told_whose_turn_it_is(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    choices = await card_choices(fake, waiting_user(fake, bot, game_id), channel)
    assert choices == [
        {"name": f"It's {isolated(mover.name.title())}'s turn: wait for yours",
         "value": NO_CARD}]


async def test_whatever_is_typed_the_waiting_player_still_sees_why(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    choices = await card_choices(fake, waiting_user(fake, bot, game_id), channel, typed="4")
    assert [c["value"] for c in choices] == [NO_CARD]


async def test_sending_the_explanation_is_refused_as_not_your_turn_and_changes_nothing(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(waiting_user(fake, bot, game_id), channel, "play", card=NO_CARD)
    refused(result, "It's not your turn", mover.name.title())


async def test_a_channel_without_a_game_says_so_and_so_does_sending_it(fake_discord, lamabot):
    fake = fake_discord
    alice, empty = fake.user("alice"), fake.channel("general")
    choices = await card_choices(fake, alice, empty)
    assert choices == [{"name": "There's no LAMA game in this channel", "value": NO_CARD}]
    async with Unchanged(fake, lamabot, None, empty):
        result = await fake.slash(alice, empty, "play", card=NO_CARD)
    refused(result, "There's no LAMA game in this channel")


async def test_a_lobby_says_the_game_has_not_started(fake_discord, lamabot):
    fake = fake_discord
    alice, channel = fake.user("alice"), fake.channel("lama")
    await fake.slash(alice, channel, "lama new")
    choices = await card_choices(fake, alice, channel)
    assert [c["name"] for c in choices] == ["The game hasn't started yet"]


@pytest.mark.parametrize(("locale", "says"), [
    ("cs", "Hraje {name}: počkej na svůj tah"),
    ("es-ES", "Le toca a {name}: espera tu turno"),
])
async def test_the_explanation_speaks_the_players_language(fake_discord, lamabot, locale, says):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    waiting = waiting_user(fake, bot, game_id)
    waiting.locale = locale
    choices = await card_choices(fake, waiting, channel)
    assert [c["name"] for c in choices] == [says.format(name=isolated(mover.name.title()))]


async def test_on_turn_with_nothing_that_fits_the_player_is_told_to_draw_or_quit(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(
        fake, bot, seed=find_seed("classic", 2, nothing_fits_for_the_starter))
    mover, _ = on_turn(fake, bot, game_id)
    choices = await card_choices(fake, mover, channel)
    assert choices == [{"name": "No card in your hand fits: draw or quit", "value": NO_CARD}]
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.slash(mover, channel, "play", card=NO_CARD)
    refused(result, "Nothing in your hand fits on")


async def test_sending_the_explanation_once_the_turn_came_shows_the_hand(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, the_second_has_a_card_after_the_starter_draws)
    game_id, channel = await two_humans(fake, bot, seed=seed)
    mover, _ = on_turn(fake, bot, game_id)
    waiting = waiting_user(fake, bot, game_id)
    assert [c["value"] for c in await card_choices(fake, waiting, channel)] == [NO_CARD]
    await fake.slash(mover, channel, "draw")
    await settle(bot, game_id)
    moves = len(await bot.store.games.list_moves(game_id))
    result = await fake.slash(waiting, channel, "play", card=NO_CARD)
    assert result.ephemeral and "Your hand" in result.text and result.message.custom_ids
    assert len(await bot.store.games.list_moves(game_id)) == moves
