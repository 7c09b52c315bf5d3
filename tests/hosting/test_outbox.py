"""The render outbox in hosting: what committed changes still have to show, rebuilt from the
store after a restart (issue 12) or by a peer when their process died (issue 16). No Discord:
updates, as a renderer receives them."""

from __future__ import annotations

from hosting import GameService, NoticeKind, Status
from lama import events as ev
from tests.hosting.support import play_any, started


async def restarted(store, clock):
    fresh = GameService(store, clock)
    await fresh.restore()
    return fresh


async def play_until(service, game_id, done):
    for _ in range(3000):
        if done(service.view(game_id)):
            return
        await play_any(service, game_id)
    raise AssertionError("the game never got there")


def kinds(update):
    return [type(e) for e in update.events]


async def test_a_started_game_must_show_its_deal(service, store, clock):
    game_id = await started(service)
    [update] = await (await restarted(store, clock)).claim_renders(alone=True)
    assert update.view.game_id == game_id and update.view.move_count == 0 and update.seqs == (0,)
    assert kinds(update) == [ev.RoundStarted] and update.actor_seat is None
    assert set(update.hands) == {0, 1}


async def test_nothing_is_pending_once_shown(service, store, clock):
    game_id = await started(service)
    await play_any(service, game_id)
    await service.render_shown(game_id, [0, 1])
    assert await (await restarted(store, clock)).claim_renders(alone=True) == []


async def test_only_the_unshown_moves_come_back_with_the_newest_state(service, store, clock):
    game_id = await started(service)
    for _ in range(3):
        await play_any(service, game_id)
    await service.render_shown(game_id, [0, 1])
    fresh = await restarted(store, clock)
    [update] = await fresh.claim_renders(alone=True)
    assert update.view == fresh.view(game_id) and update.view.move_count == 3
    assert update.seqs == (2, 3)
    assert ev.RoundStarted not in kinds(update)  # the deal was shown
    assert len([e for e in update.events if isinstance(e, ev.CardPlayed | ev.CardDrawn |
                                                       ev.PlayerQuit)]) == 2
    assert update.view.recent  # the table's last moves, known again


async def test_a_game_that_ended_just_before_a_crash_is_shown_after_it(service, store, clock):
    game_id = await started(service)
    await play_until(service, game_id, lambda v: v.status is not Status.RUNNING)
    last = service.view(game_id).move_count
    await service.render_shown(game_id, range(last))
    fresh = await restarted(store, clock)
    [update] = await fresh.claim_renders(alone=True)
    assert update.view.status is Status.FINISHED and update.view.winners
    assert ev.GameEnded in kinds(update) and ev.RoundEnded in kinds(update)
    assert fresh.view(game_id).status is Status.FINISHED  # in memory for its last edits


async def test_a_turn_the_timer_ended_is_announced_again(service, store, clock):
    game_id = await started(service)
    await service.render_shown(game_id, [0])
    seat = service.view(game_id).current_seat
    clock.advance(service.view(game_id).options.turn_timeout + 1)
    await service.fire_due_timers()
    [update] = await (await restarted(store, clock)).claim_renders(alone=True)
    assert [(n.kind, n.seat, n.seq) for n in update.notices] == [(NoticeKind.TIMED_OUT, seat, 1)]


async def test_a_retry_sees_the_newest_state(service, store, clock):
    game_id = await started(service)
    await play_any(service, game_id)
    await play_any(service, game_id)
    update = await service.pending_render(game_id)
    assert update.view == service.view(game_id)
    assert update.actor_seat is not None and ev.RoundStarted in kinds(update)


async def test_a_retry_shows_only_the_moves_still_unshown(service, store, clock):
    game_id = await started(service)
    await play_any(service, game_id)
    await play_any(service, game_id)
    await service.render_shown(game_id, [0, 2])
    update = await service.pending_render(game_id)
    assert update.seqs == (1,) and ev.RoundStarted not in kinds(update)
    assert update.view == service.view(game_id)  # the newest state
