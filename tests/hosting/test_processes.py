"""Several processes on one database (issue 16 point 2): two GameServices, each with a Store
of its own on the same database (a SQLite file, a PostgreSQL server), stand for two bot
processes. Either may apply any move: the game row's version is the truth, each copy in memory
a cache reloaded when behind, and the same interaction delivered to both is one move."""

from __future__ import annotations

import asyncio
import random

import pytest

from hosting import (
    FakeClock,
    GameOptions,
    GameService,
    HostingError,
    Preferences,
    Problem,
    Status,
)
from hosting.preferences import CACHE_TTL_S
from lama import DRAW, QUIT, Game, IllegalAction, Reason, action_from_dict, game_to_dict
from lama.events import RoundStarted
from store import GuildSettings, Store
from tests.hosting.support import ALICE, BOB, CAROL, CHANNEL, GUILD, on_turn, started_with
from tests.support.backends import move_log_reads


async def stored_log(store: Store, game_id: int) -> list[int]:
    return [m.seq for m in await store.games.list_moves(game_id)]


async def test_a_process_that_never_held_the_game_applies_a_move_to_it(services, stores) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    player = on_turn(here, game_id)
    update = await elsewhere.human_move(game_id, player, DRAW)
    assert update.view.move_count == 1 and elsewhere.view(game_id).move_count == 1
    assert await stored_log(stores[0], game_id) == [1]


async def test_a_copy_behind_the_stored_game_reloads_instead_of_refusing(services, stores) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    first = on_turn(here, game_id)
    await elsewhere.human_move(game_id, first, DRAW)  # `here` still shows `first` on turn
    second = on_turn(elsewhere, game_id)
    assert second != first and on_turn(here, game_id) == first
    update = await here.human_move(game_id, second, DRAW)
    assert update.view.move_count == 2 and on_turn(here, game_id) == first
    assert await stored_log(stores[0], game_id) == [1, 2]


async def test_a_move_its_stale_copy_allowed_is_refused_once_the_commit_reloads(
    services, stores
) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    first = on_turn(here, game_id)
    await elsewhere.human_move(game_id, first, DRAW)
    with pytest.raises(IllegalAction) as refused:  # `here` thought it was still their turn
        await here.human_move(game_id, first, DRAW)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    assert await stored_log(stores[0], game_id) == [1]


async def test_the_same_interaction_through_two_processes_is_one_move(services, stores) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    await elsewhere.find_route(ALICE, None, None)  # a DM command loaded the game there
    player = on_turn(here, game_id)
    await here.human_move(game_id, player, DRAW, interaction_id=4242)
    with pytest.raises(HostingError) as refused:  # delivered again, to the other process
        await elsewhere.human_move(game_id, player, DRAW, interaction_id=4242)
    assert refused.value.problem is Problem.MOVE_ALREADY_MADE
    assert await stored_log(stores[0], game_id) == [1]
    assert elsewhere.view(game_id).move_count == 1  # and that copy caught up


async def test_a_dm_command_finds_a_game_another_process_opened(services) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    with pytest.raises(HostingError):
        elsewhere.route(BOB, None, None)  # memory alone does not know it
    assert (await elsewhere.find_route(BOB, None, None)).game_id == game_id


async def test_a_game_that_ended_elsewhere_is_no_longer_found_by_dm(services) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    await elsewhere.find_route(BOB, None, None)
    for _ in range(200):  # both quit every round until someone reaches the target
        if here.view(game_id).status is not Status.RUNNING:
            break
        await here.human_move(game_id, on_turn(here, game_id), QUIT)
    assert here.view(game_id).status is Status.FINISHED
    with pytest.raises(HostingError) as refused:
        await elsewhere.find_route(BOB, None, None)
    assert refused.value.problem is Problem.NO_GAME_HERE


async def test_fifty_moves_sent_at_once_through_two_processes(services, stores) -> None:
    """Versions stay contiguous, and exactly the legal moves are applied: the stored log
    replays from the seed to the stored state."""
    here = services[0]
    game_id = await started_with(here, ALICE, BOB, CAROL)
    rng = random.Random(16)
    sends = [(rng.choice(services), rng.choice((ALICE, BOB, CAROL)), rng.choice((DRAW, QUIT)))
             for _ in range(50)]
    outcomes = await asyncio.gather(
        *(service.human_move(game_id, user, action, interaction_id=1000 + n)
          for n, (service, user, action) in enumerate(sends)),
        return_exceptions=True)
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert all(isinstance(o, HostingError | IllegalAction) for o in refused), refused
    moves = await stores[0].games.list_moves(game_id)
    assert [m.seq for m in moves] == list(range(1, len(applied) + 1)) and applied
    record = await stores[1].games.get_game(game_id)
    replay = Game.new(record.variant, len(record.seats), record.seed, target=record.target)
    for move in moves:
        replay.apply(move.seat, action_from_dict(move.action))  # raises if it was illegal
    assert game_to_dict(replay) == record.state and record.last_seq == len(moves)


async def test_settings_changed_by_another_process_show_here_within_the_cache_time(
    stores,
) -> None:
    clock = FakeClock()
    here, elsewhere = (Preferences(store, clock) for store in stores)
    assert (await here.guild_settings(GUILD)).locale is None
    assert await here.load_user_choice(ALICE) is None and await here.load_turn_dms(ALICE)
    await elsewhere.save_guild_settings(GuildSettings(GUILD, locale="cs"))
    await elsewhere.set_user_choice(ALICE, "es")
    await elsewhere.set_turn_dms(ALICE, False)
    clock.advance(CACHE_TTL_S / 2)
    assert (await here.guild_settings(GUILD)).locale is None  # cached: no read per message
    clock.advance(CACHE_TTL_S / 2)
    assert (await here.guild_settings(GUILD)).locale == "cs"
    assert await here.load_user_choice(ALICE) == "es" and not await here.load_turn_dms(ALICE)
    await elsewhere.set_user_choice(ALICE, None)  # and back to following their client
    clock.advance(CACHE_TTL_S)
    assert await here.load_user_choice(ALICE) is None


async def test_a_process_restores_only_the_games_of_its_servers(stores) -> None:
    clock = FakeClock()
    opener = GameService(stores[0], clock, seed_source=lambda: 7)
    options = GameOptions(turn_timeout=600, ai_delay=1)
    mine = (await opener.open_lobby(GUILD, CHANNEL, ALICE, "a", options)).view.game_id
    theirs = (await opener.open_lobby(GUILD + 1, CHANNEL + 1, BOB, "b", options)).view.game_id
    await opener.join(theirs, CAROL, "c")
    await opener.start(theirs, BOB)
    restarted = GameService(stores[1], clock)
    restored = await restarted.restore(lambda guild_id: guild_id == GUILD)
    assert [v.game_id for v in restored] == [mine]
    assert restarted.registry.find(theirs) is None
    assert (await restarted.find_route(BOB, None, None)).game_id == theirs  # loaded when named


async def test_a_channel_whose_game_ended_in_another_process_takes_a_new_lobby(services) -> None:
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    await elsewhere.find_route(BOB, None, None)  # the other process holds it too
    for _ in range(200):  # it is played to its end there
        if elsewhere.view(game_id).status is not Status.RUNNING:
            break
        await elsewhere.human_move(game_id, on_turn(elsewhere, game_id), QUIT)
    assert here.view(game_id).status is Status.RUNNING  # this copy has not heard yet
    reopened = await here.open_lobby(GUILD, CHANNEL, ALICE, "host", GameOptions())
    assert reopened.view.game_id != game_id and here.view(game_id).status is Status.FINISHED


async def test_a_move_routed_from_a_copy_behind_is_made_on_the_stored_game(
        services, stores) -> None:
    """A move in a server channel is routed from memory, with no read first: the channel's
    game is the same game however far behind the copy is, and its commit catches it up."""
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    first = on_turn(here, game_id)
    await elsewhere.human_move(game_id, first, DRAW)  # `here` still shows `first` on turn
    second = on_turn(elsewhere, game_id)
    routed = await here.routes.for_move(second, CHANNEL, GUILD)
    assert routed == game_id and here.view(game_id).move_count == 0  # nothing read
    update = await here.human_move(routed, second, DRAW)
    assert update.view.move_count == 2
    assert await stored_log(stores[0], game_id) == [1, 2]


async def test_a_move_routed_where_no_game_is_is_refused(services) -> None:
    here, _ = services
    with pytest.raises(HostingError) as refused:
        await here.routes.for_move(ALICE, CHANNEL + 1, GUILD)
    assert refused.value.problem is Problem.NO_GAME_HERE


async def test_a_lobby_started_elsewhere_takes_a_slash_move_here(services) -> None:
    here, elsewhere = services
    options = GameOptions(turn_timeout=600, ai_delay=1)
    game_id = (await here.open_lobby(GUILD, CHANNEL, ALICE, "host", options)).view.game_id
    await here.join(game_id, BOB, "bob")
    await elsewhere.loader.hosted(game_id)
    await elsewhere.start(game_id, ALICE)  # here's copy is still the lobby
    player = on_turn(elsewhere, game_id)
    routed = await here.routes.for_move(player, CHANNEL, GUILD)
    update = await here.human_move(routed, player, DRAW)
    assert update.view.move_count == 1


async def test_a_move_in_a_lobby_cancelled_elsewhere_is_told_the_game_is_over(services) -> None:
    here, elsewhere = services
    game_id = (await here.open_lobby(GUILD, CHANNEL, ALICE, "host", GameOptions())).view.game_id
    await elsewhere.loader.hosted(game_id)
    await elsewhere.cancel(game_id, ALICE, is_admin=False)
    routed = await here.routes.for_move(ALICE, CHANNEL, GUILD)
    with pytest.raises(HostingError) as refused:
        await here.human_move(routed, ALICE, DRAW)
    assert refused.value.problem is Problem.GAME_FINISHED


async def lobby_loaded_by_a_dm(server: GameService, shard0: GameService) -> int:
    """A lobby in the server's process that shard 0's process (every DM) loaded for a DM
    command of a player seated in it, then started by the server's process."""
    options = GameOptions(turn_timeout=600, ai_delay=1)
    game_id = (await server.open_lobby(GUILD, CHANNEL, ALICE, "host", options)).view.game_id
    await server.join(game_id, BOB, "bob")
    with pytest.raises(HostingError):
        await shard0.find_route(ALICE, None, None)  # /hand in a DM: loads the lobby
    await server.start(game_id, ALICE)
    return game_id


async def test_a_dm_hand_button_works_in_a_game_whose_lobby_a_dm_command_loaded(
        services) -> None:
    server, shard0 = services
    game_id = await lobby_loaded_by_a_dm(server, shard0)
    player = on_turn(server, game_id)
    update = await shard0.human_move(game_id, player, DRAW, round_number=1)
    assert update.view.move_count == 1


async def test_a_dm_slash_move_finds_a_game_whose_lobby_a_dm_command_loaded(services) -> None:
    server, shard0 = services
    game_id = await lobby_loaded_by_a_dm(server, shard0)
    player = on_turn(server, game_id)
    assert await shard0.routes.for_move(player, None, None) == game_id
    assert (await shard0.human_move(game_id, player, DRAW)).view.move_count == 1


async def test_a_quit_question_from_a_dm_finds_a_game_this_process_never_held(
        services) -> None:
    """Quit asks before it moves (the hand shows the question): shard 0's process, which
    receives every DM, may not hold the game yet."""
    server, shard0 = services
    game_id = await started_with(server, ALICE, BOB)
    player = on_turn(server, game_id)
    asking = await shard0.button_observation(game_id, player, 1)
    assert asking.is_my_turn


async def test_a_quit_question_from_a_dm_is_asked_of_the_stored_round(services) -> None:
    server, shard0 = services
    game_id = await started_with(server, ALICE, BOB)
    await shard0.human_move(game_id, on_turn(server, game_id), DRAW, round_number=1)
    await server.human_move(game_id, on_turn(shard0, game_id), QUIT)  # shard 0's copy
    await server.human_move(game_id, on_turn(server, game_id), QUIT)  # stays in round 1
    assert server.view(game_id).round_number == 2
    asking = await shard0.button_observation(game_id, ALICE, 2)
    assert asking.round_number == 2


async def test_a_quit_question_of_an_earlier_round_is_still_stale(services) -> None:
    server, shard0 = services
    game_id = await started_with(server, ALICE, BOB)
    await server.human_move(game_id, on_turn(server, game_id), QUIT)
    await server.human_move(game_id, on_turn(server, game_id), QUIT)
    with pytest.raises(HostingError) as refused:
        await shard0.button_observation(game_id, ALICE, 1)
    assert refused.value.problem is Problem.STALE_BUTTON


async def copy_behind_a_round_ended_elsewhere(here: GameService, elsewhere: GameService) -> int:
    """`here` made round 1's first move; `elsewhere` ended round 1 with quits since."""
    game_id = await started_with(here, ALICE, BOB)
    await here.human_move(game_id, on_turn(here, game_id), DRAW)
    await elsewhere.loader.hosted(game_id)
    while elsewhere.view(game_id).round_number == 1:
        await elsewhere.human_move(game_id, on_turn(elsewhere, game_id), QUIT)
    return game_id


def rounds_started(recent) -> list[int]:
    return [r.event.round_number for r in recent if isinstance(r.event, RoundStarted)]


async def test_a_move_after_a_round_ended_elsewhere_shows_under_its_own_rounds_start(
        services) -> None:
    here, elsewhere = services
    game_id = await copy_behind_a_round_ended_elsewhere(here, elsewhere)
    update = await here.human_move(game_id, on_turn(elsewhere, game_id), DRAW)
    assert update.view.round_number == 2 and rounds_started(update.view.recent)[-1] == 2


async def test_a_copy_brought_up_to_a_round_ended_elsewhere_knows_the_new_rounds_deal(
        services) -> None:
    here, elsewhere = services
    game_id = await copy_behind_a_round_ended_elsewhere(here, elsewhere)
    await here.loader.refresh(here.registry.find(game_id))
    assert rounds_started(here.view(game_id).recent) == [2]


async def test_a_copy_brought_up_to_another_round_reads_only_that_rounds_moves(
        services, stores, monkeypatch) -> None:
    here, elsewhere = services
    game_id = await copy_behind_a_round_ended_elsewhere(here, elsewhere)
    update = await elsewhere.human_move(game_id, on_turn(elsewhere, game_id), DRAW)
    reads = move_log_reads(stores[0], monkeypatch)
    await here.loader.refresh(here.registry.find(game_id))
    assert reads == [list(update.seqs)]
    recent = here.view(game_id).recent
    assert rounds_started(recent) == [2]
    assert [r.event for r in recent][-len(update.events):] == list(update.events)
    assert {r.seq for r in recent[-len(update.events):]} == set(update.seqs)
    (deal,) = [r for r in recent if isinstance(r.event, RoundStarted)]
    assert deal.seq == update.seqs[0] - 1  # dealt by the move that ended round 1


async def test_a_copy_brought_up_to_a_hand_over_elsewhere_knows_who_made_each_move(
        services) -> None:
    """The leaver's draw stays theirs in the other process's replayed last moves; the AI
    holds the seat for what comes after."""
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB, CAROL)
    await elsewhere.loader.hosted(game_id)
    leaver = on_turn(here, game_id)
    await here.human_move(game_id, leaver, DRAW)
    await here.leave(game_id, leaver)
    await here.human_move(game_id, on_turn(here, game_id), DRAW)
    await elsewhere.loader.refresh(elsewhere.registry.find(game_id))
    view = elsewhere.view(game_id)
    seat = next(s.index for s in view.seats if s.user_id == leaver)
    (drawn,) = [r for r in view.recent if getattr(r.event, "seat", None) == seat and r.seq == 1]
    assert not view.seat_at(seat, drawn.seq).is_ai
    assert view.seats[seat].is_ai and view.seat_at(seat, 2).is_ai
