"""TournamentService over the real store and GameService (fake clock, no Discord): sign-ups,
refusals, seating, tables played one after another, standings, a restart mid-round."""

from __future__ import annotations

import random

import pytest

from hosting import FakeClock, GameService, HostingError, Preferences, Problem, Status
from hosting.ratings import RULES
from hosting.tournament import TournamentEvent, TournamentService
from store import Store
from store.tournaments import TournamentStatus

GUILD, CHANNEL = 10, 500
ORGANISER = 1


seeds = random.Random(3)


class World:
    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.store, self.clock = store, clock
        self.games = GameService(store, clock, preferences=Preferences(store, clock),
                                 seed_source=lambda: seeds.getrandbits(40))
        self.tournaments = TournamentService(store, clock, self.games)
        self.games.add_listener(self.tournaments.on_game_update)
        self.games.add_listener(self.tournaments.on_game_update)
        self.games.add_listener(self.tournaments.on_game_update)
        self.events: list = []

        async def collect(update):
            self.events.append(update)

        self.tournaments.add_listener(collect)


@pytest.fixture
async def world(tmp_path):
    store = await Store.open(tmp_path / "lama.sqlite3", rules=RULES)
    yield World(store, FakeClock(1_800_000_000))
    await store.close()


async def play_out(world: World, game_id: int) -> None:
    """Humans quit every round until the game ends; AI seats move on their timers."""
    for _ in range(2000):
        view = world.games.view(game_id)
        if view.status is not Status.RUNNING:
            return
        seat = view.seats[view.current_seat] if view.current_seat is not None else None
        if seat is not None and seat.ai_level is None and seat.user_id is not None:
            await world.games.quit_round(game_id, seat.user_id)
        else:
            world.clock.advance(5)
            await world.games.fire_due_timers()
    raise AssertionError("the game did not end")


async def new_tournament(world: World, humans=range(1, 6), ais=3, **kw):
    t = await world.tournaments.create(GUILD, CHANNEL, ORGANISER, name="Spring Cup",
                                       rounds=kw.get("rounds", 3),
                                       table_size=kw.get("table_size", 4), variant="classic")
    for user in humans:
        await world.tournaments.join(t.id, user, f"P{user}")
    for _ in range(ais):
        await world.tournaments.add_ai(t.id, ORGANISER, is_admin=False)
    return t


async def current_game(world: World) -> int:
    await world.tournaments.settle()  # the next table opens in a task of its own
    view = world.games.game_in_channel(CHANNEL)
    assert view is not None
    return view.game_id


async def test_sign_ups_keep_order_and_refuse_twice(world):
    t = await new_tournament(world, humans=[5, 3], ais=1)
    t = await world.tournaments.get(t.id)
    assert [(e.entry, e.user_id, e.ai_level) for e in t.entries] == [
        (1, 5, None), (2, 3, None), (3, None, "normal")]
    with pytest.raises(HostingError) as refused:
        await world.tournaments.join(t.id, 5, "P5")
    assert refused.value.problem is Problem.ALREADY_ENTERED


async def test_only_the_organiser_or_an_admin_starts_or_adds_ais(world):
    t = await new_tournament(world, ais=0)
    for call in (world.tournaments.start(t.id, 2, is_admin=False),
                 world.tournaments.add_ai(t.id, 2, is_admin=False)):
        with pytest.raises(HostingError) as refused:
            await call
        assert refused.value.problem is Problem.NOT_ORGANISER
    await world.tournaments.add_ai(t.id, 2, is_admin=True)


async def test_a_field_needs_a_human_at_every_table(world):
    t = await new_tournament(world, humans=[1], ais=4, table_size=3)
    with pytest.raises(HostingError) as refused:
        await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    assert refused.value.problem is Problem.NOT_ENOUGH_ENTRANTS


async def test_one_open_tournament_per_channel(world):
    await new_tournament(world)
    with pytest.raises(HostingError) as refused:
        await new_tournament(world)
    assert refused.value.problem is Problem.TOURNAMENT_EXISTS


async def test_a_tournament_plays_its_tables_one_after_another_to_final_standings(world):
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    played = []
    for _ in range(6):  # 3 rounds of 2 tables
        game_id = await current_game(world)
        played.append(game_id)
        await play_out(world, game_id)
    await world.tournaments.settle()
    assert world.games.game_in_channel(CHANNEL) is None
    final = await world.tournaments.get(t.id)
    assert final.status is TournamentStatus.FINISHED and final.round == 3
    kinds = [e.event for e in world.events]
    assert kinds.count(TournamentEvent.ROUND_SEATED) == 3
    assert kinds.count(TournamentEvent.TABLE_OPENED) == 6
    assert kinds[-1] is TournamentEvent.FINISHED
    rows = world.events[-1].standings
    assert sorted(r.entry for r in rows) == list(range(1, 9))
    assert all(r.games == 3 for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    # every table seated each entrant once per round, a human hosting
    outcomes = await world.store.tournaments.outcomes(t.id)
    for number in (1, 2, 3):
        seated = [e for o in outcomes if o.table.round == number for e in o.table.entries]
        assert sorted(seated) == list(range(1, 9))
    assert all(o.table.entries[0] <= 5 for o in outcomes)


async def test_a_restart_mid_round_carries_on_from_the_store(world, tmp_path):
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    for _ in range(3):  # round 1, and the first table of round 2
        await play_out(world, await current_game(world))
    running = await current_game(world)
    await world.games.flush_message_refs()
    # a new process on the same database
    restarted = World(world.store, world.clock)
    await restarted.games.restore()
    await restarted.tournaments.resume()
    assert restarted.games.game_in_channel(CHANNEL).game_id == running
    for _ in range(3):
        await play_out(restarted, await current_game(restarted))
    await restarted.tournaments.settle()
    assert (await restarted.tournaments.get(t.id)).status is TournamentStatus.FINISHED
