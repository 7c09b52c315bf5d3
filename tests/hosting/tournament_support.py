"""A Swiss tournament world for tests: the service, the tournaments over it, threads."""

from __future__ import annotations

import random

from hosting import FakeClock, GameService, Preferences, Status
from hosting.tournament import TournamentService
from store import Store

GUILD, CHANNEL = 10, 500


ORGANISER = 1


class Threads:
    """The interface's part: a new thread for each table (ids from 9000), or none at all."""

    def __init__(self, *, works: bool = True) -> None:
        self.works = works
        self.opened: list[tuple[int, int, int]] = []  # (round, table, thread)

    async def __call__(self, tournament, table) -> int | None:
        if not self.works:
            return None
        thread = 9000 + len(self.opened)
        self.opened.append((table.round, table.table_no, thread))
        return thread


class World:
    def __init__(self, store: Store, clock: FakeClock, threads: Threads | None = None) -> None:
        self.store, self.clock = store, clock
        self.games = GameService(store, clock, preferences=Preferences(store, clock),
                                 seed_source=lambda: seeds.getrandbits(40))
        self.tournaments = TournamentService(store, clock, self.games)
        self.threads = threads or Threads()
        self.tournaments.set_table_places(self.threads)
        self.games.add_listener(self.tournaments.on_game_update)
        self.games.add_listener(self.tournaments.on_game_update)
        self.games.add_listener(self.tournaments.on_game_update)
        self.events: list = []

        async def collect(update):
            self.events.append(update)

        self.tournaments.add_listener(collect)


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


async def round_games(world: World, tournament_id: int) -> list[int]:
    """The games of the round being played (the next tables open in a task of their own)."""
    await world.tournaments.settle()
    tournament = await world.tournaments.get(tournament_id)
    outcomes = await world.store.tournaments.outcomes(tournament_id)
    games = [o.table.game_id for o in outcomes if o.table.round == tournament.round]
    assert None not in games
    return games


async def play_round(world: World, tournament_id: int) -> list[int]:
    games = await round_games(world, tournament_id)
    for game_id in games:
        await play_out(world, game_id)
    return games


async def current_game(world: World) -> int:
    await world.tournaments.settle()  # the next table opens in a task of its own
    view = world.games.game_in_channel(CHANNEL)
    assert view is not None
    return view.game_id


seeds = random.Random(3)
