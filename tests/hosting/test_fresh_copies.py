"""A move is judged on the game's current version (issue 33 point 1). Two GameServices on one
database (a SQLite file, a PostgreSQL server) stand for two bot processes: one moves the game,
the other's copy falls behind. The hand it shows, the cards its /play suggests and the moves it
accepts or refuses all follow the stored game, never its stale copy; one version read each
when nothing changed, and none at all in a process that is alone on its database."""

from __future__ import annotations

import pytest

from hosting import GameService
from lama import DRAW, IllegalAction, Play, Reason, game_from_dict
from store import Dialect, Store
from tests.hosting.support import ALICE, BOB, CHANNEL, GUILD, on_turn, started_with


async def stored_plays(store: Store, game_id: int, user_id: int) -> tuple:
    record = await store.games.get_game(game_id)
    seat = next(s.seat for s in record.seats if s.user_id == user_id)
    game = game_from_dict(record.state)
    return game.legal_plays(seat) if game.current_seat == seat else ()


async def behind(services: tuple[GameService, ...]) -> tuple[int, int, int]:
    """A game both hold, moved last by `here` alone: `elsewhere` still shows `second` on turn
    where the stored game has `first` on turn again (two players: one move each)."""
    here, elsewhere = services
    game_id = await started_with(here, ALICE, BOB)
    await elsewhere.find_route(BOB, None, None)  # a DM command loaded it there
    first = on_turn(here, game_id)
    await elsewhere.human_move(game_id, first, DRAW)  # both copies see this move
    second = on_turn(elsewhere, game_id)
    await here.human_move(game_id, second, DRAW)  # `elsewhere` does not
    assert on_turn(elsewhere, game_id) == second and on_turn(here, game_id) == first
    return game_id, first, second


@pytest.mark.parametrize("place", [(None, None), (CHANNEL, GUILD)], ids=["dm", "channel"])
async def test_a_stale_copy_suggests_the_cards_of_the_stored_game(services, stores, place):
    game_id, first, second = await behind(services)
    elsewhere = services[1]
    waiting = await elsewhere.playable_here(second, *place)
    assert waiting.cards == ()
    assert isinstance(waiting.refusal, IllegalAction)
    assert waiting.refusal.reason is Reason.NOT_YOUR_TURN
    on = await elsewhere.playable_here(first, *place)
    assert on.cards == await stored_plays(stores[0], game_id, first)


async def test_a_stale_copy_shows_the_hand_of_the_stored_game(services) -> None:
    game_id, first, second = await behind(services)
    elsewhere = services[1]
    for user, on in ((first, True), (second, False)):
        routed = await elsewhere.find_route(user, None, None)  # /lama hand in a DM
        assert routed.game_id == game_id
        assert elsewhere.observation(game_id, user).is_my_turn is on


async def test_a_hand_buttons_question_is_asked_of_the_stored_game(services) -> None:
    """Quit's question and Keep playing name their game: the hand they show is the stored one."""
    game_id, first, _ = await behind(services)
    elsewhere = services[1]
    round_number = elsewhere.view(game_id).round_number
    assert (await elsewhere.button_observation(game_id, first, round_number)).is_my_turn


async def test_the_tables_my_hand_shows_the_stored_game(services) -> None:
    game_id, first, second = await behind(services)
    elsewhere = services[1]
    await elsewhere.fresh_game(game_id)
    assert elsewhere.observation(game_id, first).is_my_turn
    assert not elsewhere.observation(game_id, second).is_my_turn


async def test_a_no_card_play_from_a_stale_copy_is_judged_on_the_stored_game(services) -> None:
    game_id, first, second = await behind(services)
    elsewhere = services[1]
    with pytest.raises(IllegalAction) as refused:
        await elsewhere.check_can_play_here(second, None, None)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    plays = elsewhere.legal_plays(game_id, first)
    if not plays:  # stale: the copy says `first` waits
        with pytest.raises(IllegalAction):
            await elsewhere.check_can_play_here(first, None, None)
        return
    assert await elsewhere.check_can_play_here(first, None, None) == game_id


async def test_moves_from_a_stale_copy_are_judged_on_the_stored_game(services, stores) -> None:
    game_id, first, second = await behind(services)
    elsewhere = services[1]
    with pytest.raises(IllegalAction) as refused:
        await elsewhere.human_move(game_id, second, DRAW)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    plays = await stored_plays(stores[0], game_id, first)
    action = Play(plays[0]) if plays else DRAW
    update = await elsewhere.human_move(game_id, first, action)
    assert update.view.move_count == 3


async def test_a_stale_copy_refuses_a_card_the_stored_game_does_not_allow(services) -> None:
    game_id, _, second = await behind(services)
    elsewhere = services[1]
    stale_plays = elsewhere.legal_plays(game_id, second)  # what the stale copy would allow
    action = Play(stale_plays[0]) if stale_plays else DRAW
    with pytest.raises(IllegalAction) as refused:
        await elsewhere.human_move(game_id, second, action)
    assert refused.value.reason is Reason.NOT_YOUR_TURN


async def test_a_current_copy_reads_one_version_and_no_game(services, stores, monkeypatch):
    _, first, _ = await behind(services)
    elsewhere = services[1]
    await elsewhere.playable_here(first, None, None)  # caught up
    reads: list[str] = []
    for name in ("version", "get_game"):
        real = getattr(stores[1].games, name)

        async def spied(*args, _real=real, _name=name, **kwargs):
            reads.append(_name)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(stores[1].games, name, spied)
    await elsewhere.playable_here(first, CHANNEL, GUILD)
    assert reads == ["version"]


async def test_a_process_alone_on_sqlite_reads_nothing_more_to_suggest(service, store,
                                                                       monkeypatch):
    """The default: on SQLite (one process only) the suggestions read memory alone, as
    before; on PostgreSQL (other processes may write it) one version read, no game read."""
    game_id = await started_with(service, ALICE, BOB)
    await service.find_route(ALICE, None, None)
    reads: list[str] = []
    for name in ("version", "get_game"):
        real = getattr(store.games, name)

        async def spied(*args, _real=real, _name=name, **kwargs):
            reads.append(_name)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(store.games, name, spied)
    for user in (ALICE, BOB):
        await service.playable_here(user, CHANNEL, GUILD)
        await service.playable_here(user, None, None)
    alone = store.db.dialect is Dialect.SQLITE
    assert reads == ([] if alone else ["version"] * 4)
    assert service.view(game_id).move_count == 0


async def test_a_refusal_after_a_reload_is_judged_again_when_the_game_moved_on_again(
        services, stores, monkeypatch) -> None:
    """A move is refused only by the stored game's current version: here the copy is reloaded
    once (its commit conflicted) and, before it is judged on that reload, the other process
    moves again, to a state that allows the move."""
    game_id, first, second = await behind(services)
    here, elsewhere = services
    reload = elsewhere.loader.reload
    moved_on: list[int] = []

    async def reload_then_moved_on(hosted, *args, **kwargs):
        await reload(hosted, *args, **kwargs)
        if not moved_on:  # the stored game moves on right after the first reload
            moved_on.append((await here.human_move(game_id, first, DRAW)).view.move_count)

    monkeypatch.setattr(elsewhere.loader, "reload", reload_then_moved_on)
    update = await elsewhere.human_move(game_id, second, DRAW)  # `second` on turn again
    assert moved_on == [3] and update.view.move_count == 4
    assert [m.seq for m in await stores[0].games.list_moves(game_id)] == [1, 2, 3, 4]
