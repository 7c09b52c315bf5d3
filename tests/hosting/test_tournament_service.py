"""TournamentService over the real store and GameService (fake clock, no Discord): sign-ups,
refusals, seating, a round's tables played at once (each in a thread of its own), entrants
busy elsewhere, tables one after another where no thread can be made, standings, a restart
mid-round."""

from __future__ import annotations

import pytest

from hosting import FakeClock, HostingError, Problem, Status
from hosting.ratings import RULES
from hosting.tournament import TournamentEvent
from hosting.tournament_results import table_results
from store import GuildSettings, Store
from store.tournaments import TournamentStatus
from tests.hosting.tournament_support import (
    CHANNEL,
    GUILD,
    ORGANISER,
    Threads,
    World,
    current_game,
    new_tournament,
    play_out,
    play_round,
    round_games,
)


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
    assert refused.value.problem is Problem.NOT_ENOUGH_HUMANS
    assert refused.value.details == {"tables": 2}


async def test_a_field_needs_three_entrants_before_anything_else(world):
    t = await new_tournament(world, humans=[1], ais=1)
    with pytest.raises(HostingError) as refused:
        await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    assert refused.value.problem is Problem.NOT_ENOUGH_ENTRANTS
    assert refused.value.details == {"minimum": 3}


async def test_one_open_tournament_per_channel(world):
    await new_tournament(world)
    with pytest.raises(HostingError) as refused:
        await new_tournament(world)
    assert refused.value.problem is Problem.TOURNAMENT_EXISTS


async def test_a_rounds_tables_play_at_the_same_time_each_in_its_own_thread(world):
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    games = await round_games(world, t.id)
    assert len(games) == 2
    views = [world.games.view(g) for g in games]
    assert all(v.status is Status.RUNNING for v in views)  # both at once
    assert [(v.channel_id, v.thread_id) for v in views] == [(9000, 9000), (9001, 9001)]
    assert [world.games.game_in_channel(th).game_id for th in (9000, 9001)] == games
    assert world.games.game_in_channel(CHANNEL) is None  # nothing sits in the channel
    assert [r for r, _, _ in world.threads.opened] == [1, 1]


async def test_a_tournament_plays_its_rounds_to_final_standings(world):
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    for _ in range(3):  # 3 rounds of 2 tables
        await play_round(world, t.id)
    await world.tournaments.settle()
    final = await world.tournaments.get(t.id)
    assert final.status is TournamentStatus.FINISHED and final.round == 3
    assert len(world.threads.opened) == 6
    kinds = [e.event for e in world.events]
    assert kinds.count(TournamentEvent.ROUND_SEATED) == 3
    assert kinds.count(TournamentEvent.TABLE_OPENED) == 6
    assert kinds[-1] is TournamentEvent.FINISHED
    rows = world.events[-1].standings
    assert sorted(r.entry for r in rows) == list(range(1, 9))
    assert all(r.games == 3 for r in rows) and not any(r.playing for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    # every table seated each entrant once per round, a human first
    outcomes = await world.store.tournaments.outcomes(t.id)
    for number in (1, 2, 3):
        seated = [e for o in outcomes if o.table.round == number for e in o.table.entries]
        assert sorted(seated) == list(range(1, 9))
    assert all(o.table.entries[0] <= 5 for o in outcomes)


async def test_a_tables_thread_finds_its_tournament(world):
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    games = await round_games(world, t.id)
    thread = world.games.view(games[1]).channel_id
    assert (await world.tournaments.in_channel(thread)).id == t.id  # /lama tournament standings
    assert await world.tournaments.in_channel(4242) is None


async def test_a_table_is_the_last_of_its_round_once_no_other_is_still_playing(world):
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    first, second = await round_games(world, t.id)
    await play_out(world, first)
    assert not (await world.tournaments.table_of_game(first)).last  # the second plays on
    await play_out(world, second)
    played_as = await world.tournaments.table_of_game(second)
    assert played_as.last and played_as.table.table_no == 2
    assert played_as.tournament.id == t.id
    assert not played_as.alone  # the round had another table


async def test_a_rounds_only_table_is_alone_in_it(world):
    t = await new_tournament(world, humans=range(1, 4), ais=0)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    (game,) = await round_games(world, t.id)
    await play_out(world, game)
    played_as = await world.tournaments.table_of_game(game)
    assert played_as.alone and played_as.last


async def test_what_follows_a_round_names_its_games_to_show_their_ends_first(world):
    t = await new_tournament(world, rounds=2)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    first = await play_round(world, t.id)
    second = await play_round(world, t.id)
    await world.tournaments.settle()
    seated, finished = [e for e in world.events
                        if e.event in (TournamentEvent.ROUND_SEATED, TournamentEvent.FINISHED)
                        and e.tournament.round == 2]
    assert set(seated.after) == set(first)  # round 2's seating follows round 1's ends
    assert set(finished.after) == set(second)


async def test_an_entrant_busy_in_another_game_gets_an_ai_standing_in_and_ranks_last(world):
    t = await new_tournament(world, ais=3)
    defaults = await world.games.guild_defaults(GUILD)
    casual = await world.games.open_lobby(GUILD, 77, 2, "P2", defaults, ai_seats=1)
    await world.games.start(casual.view.game_id, 2)  # P2 is busy playing there
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    games = await round_games(world, t.id)
    assert all(world.games.view(g).status is Status.RUNNING for g in games)  # nothing waits
    opened = [e for e in world.events if e.event is TournamentEvent.TABLE_OPENED]
    assert [e.stand_ins for e in opened if e.stand_ins] == [(2,)]  # the interface tells them
    assert all(s.user_id != 2 for g in games for s in world.games.view(g).seats)
    assert world.games.view(casual.view.game_id).seat_of(2) is not None  # left alone
    for game_id in games:
        await play_out(world, game_id)
    await world.tournaments.settle()
    tournament = await world.tournaments.get(t.id)
    p2 = next(e.entry for e in tournament.entries if e.user_id == 2)
    outcomes = [o for o in await world.store.tournaments.outcomes(t.id) if o.table.round == 1]
    result = next(r for r in table_results(tournament, outcomes) if p2 in r.places)
    assert result.places[p2] == result.seats  # the stand-in's result is not theirs


async def test_an_entrant_waiting_in_a_casual_lobby_leaves_it_for_their_table(world):
    t = await new_tournament(world)
    lobby = await world.games.open_lobby(GUILD, 77, 50, "Zed",
                                         await world.games.guild_defaults(GUILD))
    await world.games.join(lobby.view.game_id, 2, "P2")
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    games = await round_games(world, t.id)
    assert any(s.user_id == 2 for g in games for s in world.games.view(g).seats)
    assert world.games.view(lobby.view.game_id).seat_of(2) is None
    assert world.games.view(lobby.view.game_id).seat_of(50) is not None  # the lobby goes on


async def test_without_threads_tables_play_in_the_channel_one_after_another(tmp_path):
    store = await Store.open(tmp_path / "lama.sqlite3", rules=RULES)
    try:
        world = World(store, FakeClock(1_800_000_000), Threads(works=False))
        t = await new_tournament(world, rounds=1)
        await world.tournaments.start(t.id, ORGANISER, is_admin=False)
        first = await current_game(world)
        outcomes = await store.tournaments.outcomes(t.id)
        assert [o.table.game_id for o in outcomes] == [first, None]  # the second waits
        await play_out(world, first)
        second = await current_game(world)
        assert second != first and world.games.view(second).channel_id == CHANNEL
        await play_out(world, second)
        await world.tournaments.settle()
        assert (await world.tournaments.get(t.id)).status is TournamentStatus.FINISHED
    finally:
        await store.close()


async def test_a_casual_game_in_the_channel_only_delays_a_table_without_a_thread(tmp_path):
    store = await Store.open(tmp_path / "lama.sqlite3", rules=RULES)
    try:
        world = World(store, FakeClock(1_800_000_000), Threads(works=False))
        t = await new_tournament(world, humans=range(1, 4), ais=0, rounds=1, table_size=3)
        casual = await world.games.open_lobby(GUILD, CHANNEL, 50, "Zed",
                                              await world.games.guild_defaults(GUILD))
        await world.tournaments.start(t.id, ORGANISER, is_admin=False)
        await world.tournaments.settle()
        assert world.games.game_in_channel(CHANNEL).game_id == casual.view.game_id
        await world.games.cancel(casual.view.game_id, 50, is_admin=False)
        table = await current_game(world)  # the casual game's end let the table open
        assert table != casual.view.game_id
        assert world.games.view(table).status is Status.RUNNING
    finally:
        await store.close()


@pytest.fixture
async def no_threads(db_location):
    """A bot process that may not start threads: tables play in the tournament's channel."""
    store = await Store.open(db_location, rules=RULES)
    yield World(store, FakeClock(1_800_000_000), Threads(works=False))
    await store.close()


@pytest.fixture
async def two_processes(db_location):
    """Two bot processes on one database, neither able to start threads: `here` holds the
    tournament, `elsewhere` a casual game of its channel."""
    here, elsewhere = (await Store.open(db_location, rules=RULES),
                       await Store.open(db_location, rules=RULES))
    clock = FakeClock(1_800_000_000)
    yield (World(here, clock, Threads(works=False)),
           World(elsewhere, clock, Threads(works=False)))
    await elsewhere.close()
    await here.close()


async def casual_lobby(world: World):
    return await world.games.open_lobby(GUILD, CHANNEL, 50, "Zed",
                                        await world.games.guild_defaults(GUILD))


def waiting(world: World) -> list:
    return [e for e in world.events if e.event is TournamentEvent.TABLE_WAITING]


async def test_a_casual_game_another_process_opened_in_the_channel_only_delays_a_table(
        two_processes):
    here, elsewhere = two_processes
    t = await new_tournament(here, humans=range(1, 4), ais=0, rounds=1, table_size=3)
    casual = await casual_lobby(elsewhere)
    await here.tournaments.start(t.id, ORGANISER, is_admin=False)
    await here.tournaments.settle()
    outcomes = await here.store.tournaments.outcomes(t.id)
    assert [o.table.game_id for o in outcomes] == [None]  # the table waits
    await elsewhere.games.cancel(casual.view.game_id, 50, is_admin=False)
    table = await current_game(elsewhere)  # heard where the casual game ended: the table opens
    assert table != casual.view.game_id
    assert elsewhere.games.view(table).status is Status.RUNNING


async def test_a_casual_game_opened_elsewhere_while_a_table_opens_only_delays_it(
        two_processes, monkeypatch):
    here, elsewhere = two_processes
    t = await new_tournament(here, humans=range(1, 4), ais=0, rounds=1, table_size=3)
    defaults = here.games.guild_defaults

    async def meanwhile_a_lobby_elsewhere(guild_id: int):
        if elsewhere.games.game_in_channel(CHANNEL) is None:
            await casual_lobby(elsewhere)
        return await defaults(guild_id)

    monkeypatch.setattr(here.games, "guild_defaults", meanwhile_a_lobby_elsewhere)
    await here.tournaments.start(t.id, ORGANISER, is_admin=False)
    outcomes = await here.store.tournaments.outcomes(t.id)
    assert [o.table.game_id for o in outcomes] == [None] and len(waiting(here)) == 1


async def test_a_table_delayed_by_a_casual_game_says_so_once(no_threads):
    world = no_threads
    t = await new_tournament(world, humans=range(1, 4), ais=0, rounds=1, table_size=3)
    await casual_lobby(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    await world.tournaments.advance(t.id)  # looked at again: still waiting
    told = waiting(world)
    assert len(told) == 1 and told[0].channel_id == CHANNEL
    assert [(table.round, table.table_no) for table in told[0].tables] == [(1, 1)]


async def test_a_table_delayed_by_a_casual_game_says_so_once_across_processes(two_processes):
    here, elsewhere = two_processes
    t = await new_tournament(here, humans=range(1, 4), ais=0, rounds=1, table_size=3)
    await casual_lobby(elsewhere)
    await here.tournaments.start(t.id, ORGANISER, is_admin=False)
    await elsewhere.tournaments.advance(t.id)  # the other process looks at the table too
    await here.tournaments.advance(t.id)
    assert len(waiting(here)) == 1 and waiting(elsewhere) == []


async def test_a_table_delayed_by_a_casual_game_says_so_once_across_a_restart(no_threads):
    world = no_threads
    t = await new_tournament(world, humans=range(1, 4), ais=0, rounds=1, table_size=3)
    await casual_lobby(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    restarted = World(world.store, world.clock, world.threads)  # a new process, same database
    await restarted.games.restore()
    await restarted.tournaments.resume()
    assert len(waiting(world)) == 1 and waiting(restarted) == []


async def test_a_table_opens_where_a_casual_game_held_here_ended_in_another_process(
        two_processes):
    """This process still holds the channel's casual game as running: the channel is asked
    of the store before the table waits, and the stale copy is dropped."""
    here, elsewhere = two_processes
    t = await new_tournament(here, humans=range(1, 4), ais=0, rounds=1, table_size=3)
    casual = (await casual_lobby(here)).view.game_id
    await here.games.join(casual, 51, "Yan")
    await here.games.start(casual, 50)
    await elsewhere.games.loader.hosted(casual)
    await play_out(elsewhere, casual)  # ended by DM buttons, say: `here` has not heard
    assert here.games.view(casual).status is Status.RUNNING
    await here.tournaments.start(t.id, ORGANISER, is_admin=False)
    table = await current_game(here)
    assert table != casual and here.games.view(table).status is Status.RUNNING
    assert here.games.view(casual).status is Status.FINISHED and waiting(here) == []


async def test_a_table_waiting_for_the_rounds_previous_table_says_nothing(no_threads):
    world = no_threads
    t = await new_tournament(world, rounds=1)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    await world.tournaments.advance(t.id)
    outcomes = await world.store.tournaments.outcomes(t.id)
    assert outcomes[1].table.game_id is None and waiting(world) == []


async def test_a_restart_mid_round_carries_on_from_the_store(world, tmp_path):
    # Timers fire for every game: while table 1 is played out, table 2's AIs move too, and
    # with the usual turn timer its humans would time out and AIs could finish it first
    # (depending on the deals). An hour's turn timer keeps it waiting for them.
    await world.games.save_guild_settings(GuildSettings(GUILD, turn_timeout_s=3600))
    t = await new_tournament(world)
    await world.tournaments.start(t.id, ORGANISER, is_admin=False)
    await play_round(world, t.id)
    games = await round_games(world, t.id)
    await play_out(world, games[0])  # round 2: one table over, the other being played
    assert world.games.view(games[1]).status is Status.RUNNING
    await world.games.flush_message_refs()
    # The old process is gone: its own advance after that table (a task) must not run
    # late, beside the new process's, and seat round 3 where the new one cannot see it.
    await world.tournaments.settle()
    # a new process on the same database
    restarted = World(world.store, world.clock, world.threads)
    await restarted.games.restore()
    await restarted.tournaments.resume()
    await restarted.tournaments.settle()
    thread = restarted.games.view(games[1]).thread_id
    assert restarted.games.game_in_channel(thread).game_id == games[1]  # routed as before
    assert len(world.threads.opened) == 4  # no table opened twice
    await play_out(restarted, games[1])
    await play_round(restarted, t.id)
    await restarted.tournaments.settle()
    assert (await restarted.tournaments.get(t.id)).status is TournamentStatus.FINISHED
