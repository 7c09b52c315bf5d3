"""What the card autocomplete may offer where a player types /play (hosting/playable.py):
their legal cards when they have some; otherwise no card, and the refusal a /play would get,
so the interface can say why instead of offering nothing."""

from __future__ import annotations

import pytest

from hosting import GameService, HostingError, Problem
from lama import QUIT, Game, IllegalAction, Reason
from tests.hosting.support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    lobby,
    started,
)
from tests.support.e2e import find_seed

DM = 999  # a DM channel: no guild


def dealt(store, clock, wanted, seats: int = 2) -> GameService:
    """A service whose games are dealt so that `wanted` holds (a classic deal)."""
    seed = find_seed("classic", seats, wanted)
    return GameService(store, clock, seed_source=lambda: seed)


def mover_and_waiting(service, game_id) -> tuple[int, int]:
    view = service.view(game_id)
    mover = view.seats[view.current_seat].user_id
    assert mover is not None
    return mover, BOB if mover == ALICE else ALICE


def nothing_fits_for_the_starter(game: Game) -> bool:
    return game.legal_plays(game.current_seat) == ()


async def test_the_player_on_turn_is_offered_their_legal_cards(service):
    game_id = await started(service)
    mover, _ = mover_and_waiting(service, game_id)
    here = await service.playable_here(mover, CHANNEL, GUILD)
    assert here.variant == "classic" and here.refusal is None
    assert here.cards == service.observation(game_id, mover).legal_plays != ()


async def test_in_a_dm_the_callers_only_game_is_read(service):
    game_id = await started(service)
    mover, _ = mover_and_waiting(service, game_id)
    here = await service.playable_here(mover, DM, None)
    assert here.cards == service.observation(game_id, mover).legal_plays


async def test_a_waiting_player_is_refused_as_not_on_turn_and_told_who_is(service):
    game_id = await started(service)
    mover, waiting = mover_and_waiting(service, game_id)
    here = await service.playable_here(waiting, CHANNEL, GUILD)
    assert here.cards == ()
    assert isinstance(here.refusal, IllegalAction)
    assert here.refusal.reason is Reason.NOT_YOUR_TURN
    assert here.on_turn is not None and here.on_turn.user_id == mover


async def test_where_no_game_is_the_refusal_says_so(service):
    await started(service)
    here = await service.playable_here(ALICE, OTHER_CHANNEL, GUILD)
    assert here.cards == () and isinstance(here.refusal, HostingError)
    assert here.refusal.problem is Problem.NO_GAME_HERE


async def test_in_a_dm_without_a_game_the_refusal_is_routes(service):
    await started(service)
    here = await service.playable_here(CAROL, DM, None)
    assert isinstance(here.refusal, HostingError)
    assert here.refusal.problem is Problem.NO_GAME_HERE and here.refusal.details["in_dm"]


async def test_in_a_lobby_the_game_has_not_started(service):
    await lobby(service)
    here = await service.playable_here(ALICE, CHANNEL, GUILD)
    assert isinstance(here.refusal, HostingError)
    assert here.refusal.problem is Problem.GAME_NOT_STARTED


async def test_a_bystander_is_not_in_the_game(service):
    await started(service)
    here = await service.playable_here(CAROL, CHANNEL, GUILD)
    assert isinstance(here.refusal, HostingError)
    assert here.refusal.problem is Problem.NOT_IN_GAME


async def test_a_player_who_quit_is_out_of_the_round_not_merely_waiting(service):
    game_id = await started(service, humans=(ALICE, BOB, CAROL))
    mover, _ = mover_and_waiting(service, game_id)
    await service.human_move(game_id, mover, QUIT)
    here = await service.playable_here(mover, CHANNEL, GUILD)
    assert isinstance(here.refusal, IllegalAction)
    assert here.refusal.reason is Reason.ALREADY_QUIT and here.on_turn is None


async def test_on_turn_with_nothing_that_fits_the_refusal_is_that_no_card_is_playable(
    store, clock
):
    service = dealt(store, clock, nothing_fits_for_the_starter)
    game_id = await started(service)
    mover, _ = mover_and_waiting(service, game_id)
    here = await service.playable_here(mover, CHANNEL, GUILD)
    assert here.cards == () and isinstance(here.refusal, IllegalAction)
    assert here.refusal.reason is Reason.CARD_NOT_PLAYABLE and here.refusal.card is None


async def test_checking_a_play_raises_the_refusal_a_waiting_player_meets(service):
    game_id = await started(service)
    _, waiting = mover_and_waiting(service, game_id)
    with pytest.raises(IllegalAction) as refused:
        await service.check_can_play_here(waiting, CHANNEL, GUILD)
    assert refused.value.reason is Reason.NOT_YOUR_TURN


async def test_checking_a_play_names_the_game_of_a_player_with_a_card_to_play(service):
    game_id = await started(service)
    mover, _ = mover_and_waiting(service, game_id)
    assert await service.check_can_play_here(mover, CHANNEL, GUILD) == game_id
