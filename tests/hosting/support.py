"""Helpers the hosting tests share: the ids of a server, its channels and players; a lobby,
a started game, a move by whoever is on turn, a game played to its end."""

from __future__ import annotations

import random

from hosting import (
    GameOptions,
    GameService,
    Status,
)
from tests.support import play_along as driver

GUILD, OTHER_GUILD = 1000, 2000


CHANNEL, OTHER_CHANNEL = 10, 11


ALICE, BOB, CAROL = 1, 2, 3


async def lobby(service, *, ai_seats=0, options=None, channel=CHANNEL, guild=GUILD):
    options = options or GameOptions(ai_level="easy", turn_timeout=60, ai_delay=1)
    update = await service.open_lobby(guild, channel, ALICE, "Alice", options, ai_seats=ai_seats)
    return update.view.game_id


async def started(service, *, humans=(ALICE, BOB), ai_seats=0, options=None):
    game_id = await lobby(service, ai_seats=ai_seats, options=options)
    for user in humans[1:]:
        await service.join(game_id, user, f"user{user}")
    await service.start(game_id, ALICE)
    return game_id


def current_user(service, game_id):
    view = service.view(game_id)
    return view.seats[view.current_seat].user_id


RNG = random.Random(1)


async def play_any(service, game_id, rng=RNG):
    """The human on turn makes some legal move."""
    return await driver.play_any(service, game_id, current_user(service, game_id), rng)


def on_turn(service: GameService, game_id: int) -> int:
    view = service.view(game_id)
    return view.seats[view.current_seat].user_id


async def started_with(service: GameService, *players: int) -> int:
    options = GameOptions(turn_timeout=600, ai_delay=1)
    game_id = (await service.open_lobby(GUILD, CHANNEL, players[0], "host", options)).view.game_id
    for user in players[1:]:
        await service.join(game_id, user, f"user{user}")
    await service.start(game_id, players[0])
    return game_id


async def finish_a_game(service: GameService, guild: int, players=(1, 2)) -> int:
    """A game of `players` in `guild` (in its channel `guild + 1`), played to its end through
    the service; its id."""
    options = GameOptions(target=10, turn_timeout=600, ai_delay=1)
    update = await service.open_lobby(guild, guild + 1, players[0], "host", options)
    game_id = update.view.game_id
    for user in players[1:]:
        await service.join(game_id, user, f"user{user}")
    await service.start(game_id, players[0])
    rng = random.Random(guild)
    while (view := service.view(game_id)).status is not Status.FINISHED:
        await driver.play_any(service, game_id, view.seats[view.current_seat].user_id, rng,
                              play=0.85, draw=0.7)
    return game_id
