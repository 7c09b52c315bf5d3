"""GameWatch: what a live view (the Activity) shows of a place's game, and, with two services
on one database standing for two processes, copies caught up with what the other stored: a
move, a seat, an ending, a game opened where there was none; a game that just ended in a
place, found and shown with all its end shows (standings, rating changes, last moves) by a
process that did not end it. On a SQLite file and on PostgreSQL."""

from __future__ import annotations

import pytest

from hosting import GameService, Status
from hosting.ratings import RULES
from lama import DRAW
from store import Store
from tests.hosting.support import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    finish_a_game,
    lobby,
    on_turn,
)

PLACE = GUILD + 1  # where finish_a_game plays


@pytest.fixture
async def rated(db_location, clock):
    """Two processes' services on one database, rating the games they finish."""
    here = await Store.open(db_location, rules=RULES)
    there = await Store.open(db_location, rules=RULES)
    yield tuple(GameService(store, clock, seed_source=lambda: 7, shared=True)
                for store in (here, there))
    await there.close()
    await here.close()


def end_of(service: GameService, game_id: int) -> tuple:
    """What a view of a game's end shows: status, seats, winners, rating changes, last moves."""
    view = service.watch.view(game_id)
    assert view is not None
    return (view.status, view.seats, view.winners, view.ratings, view.recent, view.top_card,
            view.move_count)


async def test_a_viewer_sees_their_own_hand_and_a_spectator_none(service: GameService):
    watch = service.watch
    assert await watch.game_in_place(CHANNEL) is None
    game_id = await lobby(service)
    assert await watch.game_in_place(CHANNEL) == game_id
    assert watch.hand(game_id, ALICE) is None  # a lobby: no hands yet
    await service.join(game_id, BOB, "Bob")
    await service.start(game_id, ALICE)
    hand = watch.hand(game_id, ALICE)
    assert hand is not None and hand.seat == 0 and len(hand.hand) == 6
    assert watch.hand(game_id, CAROL) is None  # not seated: sees the table only
    assert watch.view(game_id).status is Status.RUNNING


async def test_the_turn_ends_when_the_players_time_runs_out(service: GameService, clock):
    game_id = await lobby(service)
    await service.join(game_id, BOB, "Bob")
    started_at = clock.now()
    await service.start(game_id, ALICE)
    turn_timeout = service.view(game_id).options.turn_timeout
    assert service.watch.turn_ends_at(game_id) == started_at + turn_timeout


async def test_a_copy_catches_up_with_moves_seats_and_the_end_stored_elsewhere(services):
    here, elsewhere = services
    game_id = await lobby(here)
    assert await elsewhere.watch.game_in_place(CHANNEL) == game_id  # loaded as stored
    caught = await elsewhere.watch.catch_up([game_id], [])
    assert caught.moved == frozenset()  # the same: nothing reloaded
    await here.join(game_id, BOB, "Bob")
    assert [s.user_id for s in elsewhere.watch.view(game_id).seats] == [ALICE]
    assert (await elsewhere.watch.catch_up([game_id], [])).moved == {game_id}
    assert [s.user_id for s in elsewhere.watch.view(game_id).seats] == [ALICE, BOB]
    await here.start(game_id, ALICE)
    await here.human_move(game_id, on_turn(here, game_id), DRAW)
    await elsewhere.watch.catch_up([game_id], [])
    assert elsewhere.watch.view(game_id).move_count == here.view(game_id).move_count == 1
    assert elsewhere.watch.hand(game_id, BOB) == here.watch.hand(game_id, BOB)
    await here.cancel(game_id, ALICE, is_admin=False)
    assert (await elsewhere.watch.catch_up([game_id], [])).moved == {game_id}
    assert elsewhere.watch.view(game_id).status is Status.CANCELLED


async def test_a_game_opened_elsewhere_in_a_watched_place_is_found(services):
    here, elsewhere = services
    assert (await elsewhere.watch.catch_up([], [CHANNEL, OTHER_CHANNEL])).opened == {}
    game_id = await lobby(here)
    caught = await elsewhere.watch.catch_up([], [CHANNEL, OTHER_CHANNEL])
    assert caught.opened == {CHANNEL: game_id}
    assert elsewhere.watch.view(game_id) is not None  # loaded: its view can be shown


async def test_a_game_that_ended_elsewhere_is_found_with_all_its_end_shows(rated, clock):
    here, elsewhere = rated
    game_id = await finish_a_game(here, GUILD)
    assert here.watch.view(game_id).ratings  # rated: each human's change
    just_now = clock.now() - 60
    assert await elsewhere.watch.game_in_place(PLACE) is None  # no lobby, no running game
    assert await elsewhere.watch.game_in_place(PLACE, ended_since=just_now) == game_id
    assert end_of(elsewhere, game_id) == end_of(here, game_id)  # read from the store
    assert await here.watch.game_in_place(PLACE, ended_since=just_now) == game_id
    assert await elsewhere.watch.game_in_place(PLACE, ended_since=clock.now() + 1) is None


async def test_a_copy_held_while_the_game_ended_elsewhere_shows_its_rating_changes(rated):
    here, elsewhere = rated
    game_id = await lobby(here)
    await here.join(game_id, BOB, "Bob")
    await here.start(game_id, ALICE)
    assert await elsewhere.watch.game_in_place(CHANNEL) == game_id  # a page watches it there
    while here.view(game_id).status is Status.RUNNING:
        await here.quit_round(game_id, on_turn(here, game_id))
    assert (await elsewhere.watch.catch_up([game_id], [])).moved == {game_id}
    assert end_of(elsewhere, game_id) == end_of(here, game_id)
