"""A channel's game, found by the slash commands used there whichever process opened it
(docs/scaling.md). Two GameServices, each with a Store of its own on one database (a SQLite
file, a PostgreSQL server), stand for two bot processes: `here` is the process of the
channel's server, `elsewhere` another one (shard 0's process, which plays every DM button and
opens a tournament's next table when a DM move ends the last one of a round).

The game found in memory is routed from memory alone; only a channel this process knows no
active game of asks the store, in one indexed lookup."""

from __future__ import annotations

import pytest

from hosting import FakeClock, GameOptions, GameService, HostingError, Problem, Status
from hosting.loader import EMPTY_PLACE_KEPT_S
from hosting.playable import CardsHere
from lama import DRAW, QUIT, Card
from tests.hosting.support import ALICE, BOB, CAROL, CHANNEL, GUILD, on_turn, started_with
from tests.hosting.tournament_support import CHANNEL as TOURNEY_CHANNEL
from tests.hosting.tournament_support import GUILD as TOURNEY_GUILD
from tests.hosting.tournament_support import (
    ORGANISER,
    Threads,
    World,
    current_game,
    new_tournament,
    play_out,
    round_games,
)

THREAD = 4321  # a thread of CHANNEL
OPTIONS = GameOptions(turn_timeout=600, ai_delay=1)


def offered(here: CardsHere) -> tuple[str, tuple[Card, ...]]:
    """What the card autocomplete offers: the game's variant and the cards."""
    return here.variant, here.cards


async def played_to_its_end(service: GameService, game_id: int) -> None:
    for _ in range(200):  # both quit every round until someone reaches the target
        if service.view(game_id).status is not Status.RUNNING:
            return
        await service.human_move(game_id, on_turn(service, game_id), QUIT)
    raise AssertionError("the game did not end")


async def ended_elsewhere(here: GameService, elsewhere: GameService) -> int:
    """A game this process opened in the channel and still holds as running, played to its
    end in the other process (by DM buttons)."""
    game_id = await started_with(here, ALICE, BOB)
    await elsewhere.loader.hosted(game_id)
    await played_to_its_end(elsewhere, game_id)
    assert here.view(game_id).status is Status.RUNNING  # this copy has not heard yet
    return game_id


async def its_id(game_id: int) -> int:
    """A channel command that only says which game it was given."""
    return game_id


async def refused(call) -> Problem:
    with pytest.raises(HostingError) as error:
        await call
    return error.value.problem


async def test_a_slash_move_finds_a_game_another_process_opened_in_the_channel(
        services) -> None:
    here, elsewhere = services
    game_id = await started_with(elsewhere, ALICE, BOB)
    player = on_turn(elsewhere, game_id)
    assert await here.routes.for_move(player, CHANNEL, GUILD) == game_id
    update = await here.routed_move(player, CHANNEL, GUILD, DRAW)
    assert update.view.game_id == game_id and update.view.move_count == 1


async def test_hand_finds_a_game_another_process_opened_in_the_channel(services) -> None:
    here, elsewhere = services
    game_id = await started_with(elsewhere, ALICE, BOB)
    assert (await here.find_route(BOB, CHANNEL, GUILD)).game_id == game_id


async def test_the_channels_commands_find_a_lobby_another_process_opened(services) -> None:
    """/lama join, start, leave, kick, cancel: `on_channel_game`."""
    here, elsewhere = services
    game_id = (await elsewhere.open_lobby(GUILD, CHANNEL, ALICE, "host", OPTIONS)).view.game_id
    update = await here.on_channel_game(CHANNEL, lambda game_id: here.join(game_id, BOB, "bob"))
    assert update.view.game_id == game_id and len(update.view.seats) == 2


async def test_the_card_suggestions_come_from_a_game_another_process_opened(services) -> None:
    here, elsewhere = services
    game_id = await started_with(elsewhere, ALICE, BOB)
    player = on_turn(elsewhere, game_id)
    legal = elsewhere.observation(game_id, player).legal_plays
    assert offered(await here.playable_here(player, CHANNEL, GUILD)) == ("classic", legal)


async def test_a_slash_move_in_a_game_thread_finds_a_game_this_process_never_held(
        services) -> None:
    here, elsewhere = services
    game_id = await started_with(elsewhere, ALICE, BOB)
    await elsewhere.show_in_thread(game_id, THREAD)
    player = on_turn(elsewhere, game_id)
    assert await here.routes.for_move(player, THREAD, GUILD) == game_id
    assert (await here.find_route(player, THREAD, GUILD)).game_id == game_id


async def test_a_thread_another_process_gave_a_game_held_here_finds_it(services) -> None:
    """This process holds the game, but not the thread it shows itself in since another
    process started it there: the thread's commands reload the copy and learn it."""
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    await elsewhere.loader.hosted(game_id)
    await elsewhere.show_in_thread(game_id, THREAD)
    assert here.game_in_channel(THREAD) is None
    found = await here.find_route(ALICE, THREAD, GUILD)
    assert found.game_id == game_id and found.thread_id == THREAD
    assert await here.routes.for_move(ALICE, THREAD, GUILD) == game_id  # and now from memory


async def test_a_channel_whose_game_ended_here_finds_the_next_game_opened_elsewhere(
        services) -> None:
    here, elsewhere = services
    first = await started_with(here, ALICE, BOB)
    await played_to_its_end(here, first)
    second = await started_with(elsewhere, ALICE, BOB)  # e.g. a tournament's next table
    assert second != first
    player = on_turn(elsewhere, second)
    assert await here.routes.for_move(player, CHANNEL, GUILD) == second
    assert (await here.find_route(player, CHANNEL, GUILD)).game_id == second
    assert (await here.routed_move(player, CHANNEL, GUILD, DRAW)).view.game_id == second


async def test_a_slash_move_from_a_copy_whose_game_ended_elsewhere_reaches_the_next_game(
        services, stores) -> None:
    """This process still holds the channel's old game as running: the move's commit finds
    it over, and the move goes to the game now open in the channel."""
    here, elsewhere = services
    first = await ended_elsewhere(here, elsewhere)
    second = await started_with(elsewhere, ALICE, BOB)
    player = on_turn(elsewhere, second)
    update = await here.routed_move(player, CHANNEL, GUILD, DRAW, interaction_id=77)
    assert update.view.game_id == second and update.view.move_count == 1
    assert [m.seq for m in await stores[0].games.list_moves(second)] == [1]
    assert here.view(first).status is Status.FINISHED


async def test_hand_from_a_copy_whose_game_ended_elsewhere_shows_the_next_game(
        services) -> None:
    here, elsewhere = services
    await ended_elsewhere(here, elsewhere)
    second = await started_with(elsewhere, BOB, CAROL)
    assert (await here.find_route(CAROL, CHANNEL, GUILD)).game_id == second


async def test_a_slash_move_in_a_game_that_ended_with_no_next_game_is_told_it_is_over(
        services) -> None:
    here, elsewhere = services
    await ended_elsewhere(here, elsewhere)
    assert await refused(here.routed_move(ALICE, CHANNEL, GUILD, DRAW)) is Problem.GAME_FINISHED
    assert await refused(here.routed_move(ALICE, CHANNEL, GUILD, DRAW)) is Problem.NO_GAME_HERE


async def test_a_channel_whose_game_ended_elsewhere_is_free_and_its_copy_dropped(
        services) -> None:
    here, elsewhere = services
    game_id = await ended_elsewhere(here, elsewhere)
    assert await here.active_game_in_channel(CHANNEL) is None
    assert here.game_in_channel(CHANNEL) is None and here.view(game_id).status is Status.FINISHED


async def test_a_channel_whose_game_goes_on_is_busy_whichever_process_holds_it(
        services) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    assert await here.active_game_in_channel(CHANNEL) == game_id
    assert await elsewhere.active_game_in_channel(CHANNEL) == game_id  # from the store


async def test_a_channel_with_no_game_anywhere_is_still_told_so(services) -> None:
    here, elsewhere = services
    await started_with(elsewhere, ALICE, BOB)  # in another channel
    empty = CHANNEL + 1
    assert await refused(here.routes.for_move(ALICE, empty, GUILD)) is Problem.NO_GAME_HERE
    assert await refused(here.routed_move(ALICE, empty, GUILD, DRAW)) is Problem.NO_GAME_HERE
    assert await refused(here.find_route(ALICE, empty, GUILD)) is Problem.NO_GAME_HERE
    assert await refused(here.on_channel_game(empty, its_id)) is Problem.NO_GAME_HERE
    assert offered(await here.playable_here(ALICE, empty, GUILD)) == ("", ())
    assert here.registry.active_games_of(ALICE) == []  # nothing was loaded


async def test_a_game_held_here_is_routed_without_reading_the_store(
        services, stores, monkeypatch) -> None:
    """The hit path stays a lookup in memory: the cost cut of issue 14. The card suggestions
    read the game's version, and nothing more, where another process may have moved it
    (issue 33: what is offered is what a /play is judged on)."""
    here, _ = services
    game_id = await started_with(here, ALICE, BOB)
    player = on_turn(here, game_id)
    versions: list[int] = []
    version = stores[0].games.version

    def no_read(*args, **kwargs):
        raise AssertionError("the store was read to route a move")

    async def one_version(game_id: int):
        versions.append(game_id)
        return await version(game_id)

    for name in ("active_game_in_place", "get_game", "version", "active_game_ids_of"):
        monkeypatch.setattr(stores[0].games, name, no_read)
    assert await here.routes.for_move(player, CHANNEL, GUILD) == game_id
    assert await here.on_channel_game(CHANNEL, its_id) == game_id
    monkeypatch.setattr(stores[0].games, "version", one_version)
    assert (await here.playable_here(player, CHANNEL, GUILD)).variant == "classic"
    assert versions == [game_id]


# ------------------------------------------------- the card autocomplete, at every keystroke


def counting_place_reads(store, monkeypatch) -> list[int]:
    """Every channel the store is asked the active game of, from now on."""
    asked: list[int] = []
    read = store.games.active_game_in_place

    async def counted(place_id: int):
        asked.append(place_id)
        return await read(place_id)

    monkeypatch.setattr(store.games, "active_game_in_place", counted)
    return asked


async def test_the_card_autocomplete_reads_a_channel_without_a_game_once_while_typing(
        services, stores, monkeypatch) -> None:
    here, _ = services
    asked = counting_place_reads(stores[0], monkeypatch)
    for _keystroke in range(5):
        assert offered(await here.playable_here(ALICE, CHANNEL, GUILD)) == ("", ())
    assert asked == [CHANNEL]


async def test_a_game_another_process_opened_is_suggested_a_few_seconds_late(
        services, clock) -> None:
    here, elsewhere = services
    assert offered(await here.playable_here(ALICE, CHANNEL, GUILD)) == ("", ())  # no game yet
    game_id = await started_with(elsewhere, ALICE, BOB)
    player = on_turn(elsewhere, game_id)
    assert offered(await here.playable_here(player, CHANNEL, GUILD)) == ("", ())  # not known yet
    clock.advance(EMPTY_PLACE_KEPT_S)
    legal = elsewhere.observation(game_id, player).legal_plays
    assert offered(await here.playable_here(player, CHANNEL, GUILD)) == ("classic", legal)


async def test_a_move_is_never_refused_for_a_channel_the_autocomplete_saw_empty(
        services) -> None:
    """Only a suggestion may come late: the command itself reads the store."""
    here, elsewhere = services
    assert offered(await here.playable_here(ALICE, CHANNEL, GUILD)) == ("", ())
    game_id = await started_with(elsewhere, ALICE, BOB)
    player = on_turn(elsewhere, game_id)
    assert await here.routes.for_move(player, CHANNEL, GUILD) == game_id
    update = await here.routed_move(player, CHANNEL, GUILD, DRAW)
    assert update.view.game_id == game_id


async def test_a_game_this_process_registers_anywhere_ends_what_it_remembered_empty(
        services) -> None:
    """A game this process opens or loads, in any channel, may be the news: the channels it
    remembered without a game are read again."""
    here, elsewhere = services
    other_channel = CHANNEL + 1
    nothing = await here.playable_here(ALICE, other_channel, GUILD)
    assert (nothing.variant, nothing.cards) == ("", ())
    game_id = (await elsewhere.open_lobby(
        GUILD, other_channel, CAROL, "carol", OPTIONS)).view.game_id
    await started_with(here, ALICE, BOB)  # in CHANNEL: a registration here
    assert (await here.playable_here(CAROL, other_channel, GUILD)).variant == "classic"
    assert here.registry.find(game_id) is not None


# ------------------------------------------------- a tournament's next table, opened elsewhere


def tournament_worlds(stores, threads: bool) -> tuple[World, World]:
    """The tournament's server's process and shard 0's, each with its TournamentService
    listening to its own games, as bot.py builds them; a thread either opens has an id of
    its own (Discord's)."""
    clock = FakeClock(1_800_000_000)
    places = Threads(works=threads)
    here, elsewhere = (World(store, clock, places) for store in stores)
    return here, elsewhere


async def a_round_played_elsewhere(here: World, elsewhere: World, games: list[int]) -> None:
    """The round's tables, opened here, are played by DM buttons: through shard 0's process."""
    for game_id in games:
        await elsewhere.games.loader.hosted(game_id)
        await play_out(elsewhere, game_id)
    await elsewhere.tournaments.settle()  # the next tables open there


async def test_a_tournaments_next_table_opened_elsewhere_is_this_channels_game(stores) -> None:
    """No threads: the tables play in the tournament's channel one after another. The first
    ends by DM moves, so shard 0's process opens the next, while this process still holds
    the first as running."""
    here, elsewhere = tournament_worlds(stores, threads=False)
    t = await new_tournament(here, rounds=1)
    await here.tournaments.start(t.id, ORGANISER, is_admin=False)
    first = await current_game(here)
    await a_round_played_elsewhere(here, elsewhere, [first])
    second = elsewhere.games.game_in_channel(TOURNEY_CHANNEL)
    assert second is not None and second.game_id != first
    assert here.games.view(first).status is Status.RUNNING  # not heard of here yet
    seated = next(s.user_id for s in second.seats if s.user_id is not None)
    routed = await here.games.find_route(seated, TOURNEY_CHANNEL, TOURNEY_GUILD)
    assert routed.game_id == second.game_id


async def test_a_tournaments_next_round_opened_elsewhere_is_found_in_its_threads(
        stores) -> None:
    here, elsewhere = tournament_worlds(stores, threads=True)
    t = await new_tournament(here, rounds=2)
    await here.tournaments.start(t.id, ORGANISER, is_admin=False)
    await a_round_played_elsewhere(here, elsewhere, await round_games(here, t.id))
    for game_id in await round_games(elsewhere, t.id):
        table = elsewhere.games.view(game_id)
        assert here.games.registry.find(game_id) is None  # never held here
        # e.g. /lama leave in the table's thread
        assert await here.games.on_channel_game(table.channel_id, its_id) == game_id


# ------------------------------------------- a lobby command on a copy another process moved


async def lobby_changed_elsewhere(here: GameService, elsewhere: GameService, change) -> int:
    """alice's lobby with bob in the channel, held here; `change` (start, cancel) is made to
    it in the other process, which this copy has not heard of."""
    game_id = (await here.open_lobby(GUILD, CHANNEL, ALICE, "host", OPTIONS)).view.game_id
    await here.join(game_id, BOB, "bob")
    await elsewhere.loader.hosted(game_id)
    await change(elsewhere, game_id)
    assert here.view(game_id).status is Status.LOBBY
    return game_id


async def start(service: GameService, game_id: int) -> None:
    await service.start(game_id, ALICE)


async def cancel(service: GameService, game_id: int) -> None:
    await service.cancel(game_id, ALICE, is_admin=False)


async def test_joining_a_lobby_cancelled_elsewhere_is_told_the_game_is_over(services) -> None:
    here, elsewhere = services
    game_id = await lobby_changed_elsewhere(here, elsewhere, cancel)
    assert await refused(here.join(game_id, CAROL, "carol")) is Problem.GAME_FINISHED
    assert here.view(game_id).status is Status.CANCELLED


async def test_joining_a_lobby_started_elsewhere_is_told_it_has_started(services) -> None:
    here, elsewhere = services
    game_id = await lobby_changed_elsewhere(here, elsewhere, start)
    assert await refused(here.join(game_id, CAROL, "carol")) is Problem.NOT_A_LOBBY


async def test_starting_a_lobby_started_elsewhere_is_told_it_has_started(services) -> None:
    here, elsewhere = services
    game_id = await lobby_changed_elsewhere(here, elsewhere, start)
    assert await refused(here.start(game_id, ALICE)) is Problem.NOT_A_LOBBY
    assert here.view(game_id).status is Status.RUNNING


async def test_leaving_a_lobby_started_elsewhere_hands_the_seat_to_an_ai(services) -> None:
    here, elsewhere = services
    game_id = await lobby_changed_elsewhere(here, elsewhere, start)
    update = await here.leave(game_id, BOB)
    assert update.view.seat_of(BOB) is None and update.view.status is Status.RUNNING


async def test_cancelling_a_lobby_started_elsewhere_cancels_the_game(services, stores) -> None:
    here, elsewhere = services
    game_id = await lobby_changed_elsewhere(here, elsewhere, start)
    await here.cancel(game_id, ALICE, is_admin=False)
    assert (await stores[1].games.get_game(game_id)).status.value == "cancelled"


async def test_a_host_leaving_a_lobby_cancelled_elsewhere_is_told_it_is_over(services) -> None:
    here, elsewhere = services
    game_id = await lobby_changed_elsewhere(here, elsewhere, cancel)
    assert await refused(here.leave(game_id, ALICE)) is Problem.GAME_FINISHED


async def test_kicking_from_a_game_that_ended_elsewhere_is_told_it_is_over(services) -> None:
    here, elsewhere = services
    game_id = await ended_elsewhere(here, elsewhere)
    assert await refused(here.kick(game_id, ALICE, BOB, is_admin=False)) is Problem.GAME_FINISHED
    assert here.view(game_id).status is Status.FINISHED


# ------------------------------------ the channel's other commands, on its next game at once


async def test_join_from_a_copy_of_a_lobby_cancelled_elsewhere_joins_the_channels_next_lobby(
        services) -> None:
    here, elsewhere = services
    cancelled = await lobby_changed_elsewhere(here, elsewhere, cancel)
    following = (await elsewhere.open_lobby(GUILD, CHANNEL, BOB, "bob", OPTIONS)).view.game_id
    update = await here.on_channel_game(CHANNEL, lambda game_id: here.join(game_id, CAROL, "c"))
    assert update.view.game_id == following != cancelled
    assert update.view.seat_of(CAROL) is not None


async def test_leave_from_a_copy_of_a_game_ended_elsewhere_leaves_the_channels_next_game(
        services) -> None:
    here, elsewhere = services
    ended = await ended_elsewhere(here, elsewhere)
    following = await started_with(elsewhere, ALICE, BOB)
    update = await here.on_channel_game(CHANNEL, lambda game_id: here.leave(game_id, BOB))
    assert update.view.game_id == following != ended
    assert update.view.seat_of(BOB) is None and update.view.status is Status.RUNNING


async def test_a_channel_command_where_no_game_is_is_told_so(services) -> None:
    here, _ = services
    leaving = here.on_channel_game(CHANNEL, lambda game_id: here.leave(game_id, BOB))
    assert await refused(leaving) is Problem.NO_GAME_HERE


# ------------------------------------------------------ a lobby copy behind on its seats


async def lobby_whose_guest_left_elsewhere(here: GameService, elsewhere: GameService) -> int:
    """alice's lobby with bob, held here; bob leaves it in the other process (as one opening
    his tournament table there takes him out), which this copy has not heard of."""
    game_id = (await here.open_lobby(GUILD, CHANNEL, ALICE, "host", OPTIONS)).view.game_id
    await here.join(game_id, BOB, "bob")
    await elsewhere.loader.hosted(game_id)
    await elsewhere.leave(game_id, BOB)
    assert here.view(game_id).seat_of(BOB) is not None  # this copy has not heard yet
    return game_id


async def stored_seats(store, game_id: int) -> list[int | None]:
    return [s.user_id for s in (await store.games.get_game(game_id)).seats]


async def test_a_join_on_a_lobby_copy_behind_on_its_seats_takes_the_stored_seats(
        services, stores) -> None:
    here, elsewhere = services
    game_id = await lobby_whose_guest_left_elsewhere(here, elsewhere)
    update = await here.join(game_id, CAROL, "carol")
    assert [s.user_id for s in update.view.seats] == [ALICE, CAROL]
    assert await stored_seats(stores[0], game_id) == [ALICE, CAROL]


async def test_a_start_on_a_lobby_copy_behind_on_its_seats_deals_to_the_stored_seats(
        services, stores) -> None:
    here, elsewhere = services
    game_id = await lobby_whose_guest_left_elsewhere(here, elsewhere)
    await elsewhere.join(game_id, CAROL, "carol")
    await elsewhere.add_ai(game_id, ALICE)
    update = await here.start(game_id, ALICE)
    assert [s.user_id for s in update.view.seats] == [ALICE, CAROL, None]
    record = await stores[0].games.get_game(game_id)
    assert record.status.value == "running" and record.state["num_seats"] == 3


async def test_a_leave_from_a_lobby_copy_behind_on_its_seats_takes_out_only_the_leaver(
        services, stores) -> None:
    here, elsewhere = services
    game_id = await lobby_whose_guest_left_elsewhere(here, elsewhere)
    await elsewhere.join(game_id, CAROL, "carol")  # seat 1 is carol's now, not bob's
    await elsewhere.join(game_id, BOB, "bob")
    await here.leave(game_id, BOB)
    assert await stored_seats(stores[0], game_id) == [ALICE, CAROL]


async def lobby_joined_elsewhere(here: GameService, elsewhere: GameService) -> int:
    """alice's lobby, held here with her alone; bob joins it in the other process, which
    this copy has not heard of."""
    game_id = (await here.open_lobby(GUILD, CHANNEL, ALICE, "host", OPTIONS)).view.game_id
    await elsewhere.loader.hosted(game_id)
    await elsewhere.join(game_id, BOB, "bob")
    assert [s.user_id for s in here.view(game_id).seats] == [ALICE]  # not heard yet
    return game_id


async def test_a_lone_hosts_leave_from_a_copy_behind_hands_the_lobby_to_who_joined_elsewhere(
        services, stores) -> None:
    here, elsewhere = services
    game_id = await lobby_joined_elsewhere(here, elsewhere)
    update = await here.leave(game_id, ALICE)
    assert update.view.status is Status.LOBBY and update.view.host_id == BOB
    record = await stores[0].games.get_game(game_id)
    assert record.status.value == "lobby" and record.host_user_id == BOB
    assert await stored_seats(stores[0], game_id) == [BOB]


async def test_a_lone_hosts_leave_from_a_copy_behind_cancels_a_lobby_only_ais_joined(
        services, stores) -> None:
    here, elsewhere = services
    game_id = (await here.open_lobby(GUILD, CHANNEL, ALICE, "host", OPTIONS)).view.game_id
    await elsewhere.loader.hosted(game_id)
    await elsewhere.add_ai(game_id, ALICE)
    update = await here.leave(game_id, ALICE)
    assert update.view.status is Status.CANCELLED
    assert (await stores[0].games.get_game(game_id)).status.value == "cancelled"


async def test_a_rematch_where_a_copy_held_here_ended_elsewhere_opens_its_lobby(
        stores) -> None:
    """This process (restarted since the first game) holds the channel's next game as
    running after it ended in another process: a Rematch of the first game is not refused as
    "a game is already here", and the stale copy is dropped."""
    clock = FakeClock()
    before, elsewhere = (GameService(store, clock, seed_source=lambda: 7) for store in stores)
    first = await started_with(before, ALICE, BOB)
    await played_to_its_end(before, first)
    second = await started_with(before, ALICE, BOB)
    here = GameService(stores[0], clock, seed_source=lambda: 7)  # `before`, restarted
    await here.restore()
    await elsewhere.loader.hosted(second)
    await played_to_its_end(elsewhere, second)
    update = await here.rematch(first, ALICE, "alice")
    assert update.view.status is Status.LOBBY
    assert here.view(second).status is Status.FINISHED


async def test_a_rematch_by_a_player_whose_other_game_ended_elsewhere_seats_them(
        stores) -> None:
    """The same with the presser's other game, in another channel: they are not refused as
    seated elsewhere."""
    clock = FakeClock()
    before, elsewhere = (GameService(store, clock, seed_source=lambda: 7) for store in stores)
    first = await started_with(before, ALICE, BOB)
    await played_to_its_end(before, first)
    other = (await before.open_lobby(GUILD, CHANNEL + 1, ALICE, "alice", OPTIONS)).view.game_id
    await before.join(other, CAROL, "carol")
    await before.start(other, ALICE)
    here = GameService(stores[0], clock, seed_source=lambda: 7)  # `before`, restarted
    await here.restore()
    await elsewhere.loader.hosted(other)
    await played_to_its_end(elsewhere, other)
    update = await here.rematch(first, ALICE, "alice")
    assert update.view.seat_of(ALICE) is not None


async def test_a_lobby_opened_by_someone_not_in_a_game_that_ended_elsewhere_opens(
        services) -> None:
    """The channel's copy held here ended in another process; the new host did not sit in it,
    so only the channel check (not a refresh of the host's games) can find it over."""
    here, elsewhere = services
    game_id = await ended_elsewhere(here, elsewhere)
    update = await here.open_lobby(GUILD, CHANNEL, CAROL, "carol", OPTIONS)
    assert update.view.status is Status.LOBBY and update.view.game_id != game_id
    assert here.view(game_id).status is Status.FINISHED


async def test_a_rematch_by_a_player_not_in_the_channels_game_that_ended_elsewhere_opens(
        services) -> None:
    """The same for a Rematch of an earlier game, pressed by one of its players who did not
    sit in the channel's next game (held here, ended in another process)."""
    here, elsewhere = services
    first = await started_with(here, ALICE, BOB, CAROL)
    await played_to_its_end(here, first)
    second = await ended_elsewhere(here, elsewhere)
    update = await here.rematch(first, CAROL, "carol")
    assert update.view.status is Status.LOBBY and update.view.rematch_of == first
    assert here.view(second).status is Status.FINISHED


async def test_the_autocomplete_in_a_dm_reads_a_game_another_process_hosts(services) -> None:
    """Every DM reaches one process: before the card autocomplete says the caller has no
    running game, it reads their games from the store, as a DM move does."""
    here, elsewhere = services
    game_id = await started_with(elsewhere, ALICE, BOB)
    player = on_turn(elsewhere, game_id)
    found = await here.playable_here(player, None, None)
    assert found.variant == "classic"
    assert found.cards == elsewhere.legal_plays(game_id, player)
