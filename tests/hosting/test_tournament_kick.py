"""A seat at a tournament's table is the tournament's, not its host's: a kick there is the
organiser's or Manage Server's (hosting/moderation.py), as a cancel is (tournament_cancel.py).

A table's game has a host like any game (its first human entrant), and `/lama kick` let
that host remove a rival from the table: the rival then placed last at it without points.
"""

from __future__ import annotations

import pytest

from hosting import HostingError, Problem, Status
from hosting.tournament_results import table_results
from tests.hosting.tournament_support import (
    ORGANISER,
    World,
    new_tournament,
    play_out,
    round_games,
)

OWNER = 99  # has Manage Server; plays no part in the tournament


async def one_table(world: World) -> tuple[int, int, int, int]:
    """The organiser's Spring Cup under way without them: 2, 3 and 4 play its one table
    (with an AI). The tournament, the table's game, its host and another human at it."""
    t = await new_tournament(world, humans=[2, 3, 4], ais=1, rounds=2)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    (game_id,) = await round_games(world, t.id)
    host = world.games.view(game_id).host_id
    assert host in (2, 3, 4)
    return t.id, game_id, host, next(u for u in (2, 3, 4) if u != host)


async def test_the_tables_host_cannot_kick_a_player(world):
    _t, game_id, host, rival = await one_table(world)
    with pytest.raises(HostingError) as refused:
        await world.games.kick(game_id, host, rival, is_admin=False, actor_name=f"P{host}")
    assert refused.value.problem is Problem.SEAT_OF_TOURNAMENT
    assert refused.value.details["organiser_id"] == ORGANISER  # the refusal names who may
    seat = world.games.view(game_id).seat_of(rival)
    assert seat is not None and not seat.is_ai and not seat.kicked  # nothing changed


@pytest.mark.parametrize("actor, is_admin", [(ORGANISER, False), (OWNER, True)],
                         ids=["organiser", "manage-server"])
async def test_the_organiser_or_manage_server_removes_a_player_who_places_last(
        world, actor, is_admin):
    """As a player who leaves their table: an AI plays on, the table counts them last and
    without points, and the next round seats them again."""
    tournament_id, game_id, _host, rival = await one_table(world)
    await world.games.kick(game_id, actor, rival, is_admin=is_admin, actor_name="Alice")
    seat = next(s for s in world.games.view(game_id).seats if s.user_id == rival)
    assert seat.is_ai and seat.kicked
    await play_out(world, game_id)
    await world.tournaments.settle()
    tournament = await world.tournaments.get(tournament_id)
    entry = next(e.entry for e in tournament.entries if e.user_id == rival)
    outcomes = await world.store.tournaments.outcomes(tournament_id)
    outcomes = [o for o in outcomes if o.table.round == 1]
    (result,) = table_results(tournament, outcomes)
    assert entry in result.absent and result.places[entry] == result.seats
    (next_table,) = await round_games(world, tournament_id)  # still entered, as one who left
    assert world.games.view(next_table).seat_of(rival) is not None


class Stopped(Exception):
    """The process stopped between seating a table and starting it."""


async def test_a_table_not_started_yet_keeps_its_seats(world, monkeypatch):
    """A table the tournament seated but did not start (the process stopped in between) is
    started as it was seated when the tournament resumes: a kick meanwhile, even by Manage
    Server, removes nobody (the table's results are its entrants' by seat)."""
    t = await new_tournament(world, humans=[2, 3, 4], ais=1, rounds=2)

    async def stopped(*args, **kwargs):
        raise Stopped

    monkeypatch.setattr(world.games, "start", stopped)
    with pytest.raises(Stopped):
        await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    restarted = World(world.store, world.clock, world.threads)  # same database
    await restarted.games.restore()
    (game_id,) = await round_games(restarted, t.id)
    seated = [s.user_id for s in restarted.games.view(game_id).seats]
    with pytest.raises(HostingError) as refused:
        await restarted.games.kick(game_id, OWNER, 3, is_admin=True)
    assert refused.value.problem is Problem.GAME_NOT_STARTED
    await restarted.tournaments.resume()
    view = restarted.games.view(game_id)
    assert view.status is Status.RUNNING and [s.user_id for s in view.seats] == seated
