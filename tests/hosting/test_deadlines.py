"""Turn deadlines kept to the millisecond across restarts (issue 12 point 4): stored with the
commit that sets them, claimed once, and reminders that fell due while the bot was down."""

from __future__ import annotations

import asyncio

from hosting import FakeClock, GameOptions, GameService
from hosting.views import NoticeKind
from store import Actor, DueTimer, TimerClaim
from tests.hosting.support import ALICE, BOB, CAROL, CHANNEL, GUILD

TURN_START = 1_800_000_000.75  # a fraction of a second: whole seconds would lose 0.75 s


async def started(store, clock, *, turn_timeout=10, humans=(ALICE, BOB)) -> tuple:
    service = GameService(store, clock, seed_source=lambda: 7)
    notices: list = []

    async def collect(update):
        notices.extend(update.notices)

    service.add_listener(collect)
    options = GameOptions(turn_timeout=turn_timeout, ai_delay=1)
    opened = await service.open_lobby(GUILD, CHANNEL, ALICE, "Alice", options)
    game_id = opened.view.game_id
    for user in humans[1:]:
        await service.join(game_id, user, f"user{user}")
    await service.start(game_id, ALICE)
    return service, game_id, notices


async def restarted(store, clock) -> tuple[GameService, list]:
    service = GameService(store, clock)
    notices: list = []

    async def collect(update):
        notices.extend(update.notices)

    service.add_listener(collect)
    await service.restore()
    return service, notices


async def actors(store, game_id) -> list[Actor]:
    return [m.actor for m in await store.games.list_moves(game_id)]


def kinds(notices) -> list[NoticeKind]:
    return [n.kind for n in notices]


async def test_the_turns_first_deadline_is_stored_with_the_start_to_the_millisecond(store):
    clock = FakeClock(TURN_START)
    _service, game_id, _ = await started(store, clock)
    game = await store.games.get_game(game_id)
    assert game.timer == DueTimer("reminder", 1_800_000_005_750)  # half of 10 s


async def test_a_restart_3_5_s_into_a_10_s_turn_times_out_at_10_s_and_not_before(store):
    clock = FakeClock(TURN_START)
    _old, game_id, _ = await started(store, clock)
    clock.advance(3.5)  # the bot stops and starts again
    service, notices = await restarted(store, clock)
    clock.set(TURN_START + 9.81)  # before 10 s (whole seconds made it fire at 9.25 s)
    await service.fire_due_timers()
    assert await actors(store, game_id) == []
    assert kinds(notices) == [NoticeKind.REMINDER]  # due at 5 s, after the restart
    clock.set(TURN_START + 10.0)
    await service.fire_due_timers()
    assert await actors(store, game_id) == [Actor.TIMER]
    assert kinds(notices) == [NoticeKind.REMINDER, NoticeKind.TIMED_OUT]


async def test_a_move_stores_the_next_turns_deadline_from_its_commit(store):
    clock = FakeClock(TURN_START)
    service, game_id, _ = await started(store, clock)
    clock.advance(2.345)
    view = service.view(game_id)
    user = view.seats[view.current_seat].user_id
    await service.draw(game_id, user)
    game = await store.games.get_game(game_id)
    assert game.timer == DueTimer("reminder", 1_800_000_008_095)  # 2.345 s later, + 5 s


async def test_a_reminder_due_while_the_bot_was_down_is_sent_late_with_the_time_left(store):
    clock = FakeClock(TURN_START)
    await started(store, clock, turn_timeout=60)
    clock.advance(40)  # the reminder was due at 30 s; the bot was down
    service, notices = await restarted(store, clock)
    await service.fire_due_timers()
    assert kinds(notices) == [NoticeKind.REMINDER]
    assert notices[0].seconds_left == 20  # not the 30 s a reminder on time says


async def test_a_reminder_already_sent_is_not_sent_again_after_a_restart(store):
    clock = FakeClock(TURN_START)
    first, _game_id, sent = await started(store, clock, turn_timeout=60)
    clock.advance(31)
    await first.fire_due_timers()
    assert kinds(sent) == [NoticeKind.REMINDER]
    clock.advance(5)
    service, notices = await restarted(store, clock)
    await service.fire_due_timers()
    assert notices == []


async def test_a_turn_that_ended_while_the_bot_was_down_times_out_without_a_reminder(store):
    clock = FakeClock(TURN_START)
    _old, game_id, _ = await started(store, clock, turn_timeout=60)
    clock.advance(75)  # both the reminder (30 s) and the end (60 s) passed while down
    service, notices = await restarted(store, clock)
    await service.fire_due_timers()
    assert kinds(notices) == [NoticeKind.TIMED_OUT]  # the reminder folds into the time-out
    assert await actors(store, game_id) == [Actor.TIMER]


async def test_a_due_reminder_is_claimed_once_when_two_processes_see_it(store):
    clock = FakeClock(TURN_START)
    await started(store, clock, turn_timeout=60)
    first, first_notices = await restarted(store, clock)
    second, second_notices = await restarted(store, clock)
    clock.advance(31)
    await first.fire_due_timers()
    await second.fire_due_timers()
    assert kinds(first_notices + second_notices) == [NoticeKind.REMINDER]


async def test_claiming_a_stored_timer_is_a_compare_and_set(store):
    clock = FakeClock(TURN_START)
    _service, game_id, _ = await started(store, clock)
    due = (await store.games.get_game(game_id)).timer
    end = DueTimer("turn", due.due_ms + 5000)
    now = TimerClaim(due, end.due_ms)
    assert not await store.timers.claim_timer(game_id, 0, TimerClaim(due, due.due_ms - 1), end)
    assert await store.timers.claim_timer(game_id, 0, now, end)  # due: not before
    assert not await store.timers.claim_timer(game_id, 0, now, end)  # taken already
    assert not await store.timers.claim_timer(game_id, 1, TimerClaim(end, end.due_ms), None)
    assert (await store.games.get_game(game_id)).timer == end


async def test_handing_another_seat_to_an_ai_keeps_the_deadline_of_the_player_on_turn(store):
    clock = FakeClock(TURN_START)
    service, game_id, _ = await started(store, clock, humans=(ALICE, BOB, CAROL))
    before = (await store.games.get_game(game_id)).timer
    view = service.view(game_id)
    leaver = next(s.user_id for s in view.seats if s.index != view.current_seat)
    clock.advance(4)
    await service.leave(game_id, leaver)
    assert (await store.games.get_game(game_id)).timer == before
    clock.set(TURN_START + 10)
    await service.fire_due_timers()
    assert await actors(store, game_id) == [Actor.TIMER]  # at 10 s, not 14 s


async def test_a_game_saved_before_deadlines_were_stored_counts_from_its_last_commit(store):
    clock = FakeClock(TURN_START)
    _old, game_id, _ = await started(store, clock)
    async with store.db.transaction() as tx:  # as migration 13 leaves an older game
        await tx.execute("UPDATE games SET timer_kind = NULL, timer_due_ms = NULL")
    clock.advance(3)
    service, _ = await restarted(store, clock)
    clock.set(int(TURN_START) + 10)  # from updated_at, in whole seconds, as before
    await service.fire_due_timers()
    assert await actors(store, game_id) == [Actor.TIMER]


async def test_a_timer_waiting_for_its_game_holds_up_no_other_games_reminder(store, clock):
    """The timer loop fires each due timer in a task of its own (issue 34: reminders within
    50 ms of their due time): game A's time-out waits for A (its lock held, as a slow commit
    or an AI's thinking holds it), and game B's reminder, due with it, is told meanwhile.
    Before, the loop awaited each timer in turn and B's reminder waited for A."""
    service = GameService(store, clock, seed_source=lambda: 7)
    told: list = []

    async def collect(update):
        told.extend(n for n in update.notices if n.kind is NoticeKind.REMINDER)

    service.add_listener(collect)
    games = []
    for channel, host, guest in ((CHANNEL, ALICE, BOB), (CHANNEL + 1, CAROL, CAROL + 1)):
        options = GameOptions(turn_timeout=10)
        opened = await service.open_lobby(GUILD, channel, host, "host", options)
        await service.join(opened.view.game_id, guest, "guest")
        await service.start(opened.view.game_id, host)
        games.append(opened.view.game_id)
    a, _b = games
    clock.advance(5)  # both reminders due; A's first in the queue (it was armed first)
    lock = service.registry.get(a).lock
    await lock.acquire()
    runner = asyncio.create_task(service.run_timers())
    try:
        await asyncio.wait_for(_reminded(told), timeout=5)
        assert lock.locked()  # A's timer still waits
    finally:
        lock.release()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def _reminded(told: list) -> None:
    while not any(n.user_id in (CAROL, CAROL + 1) for n in told):
        await asyncio.sleep(0.005)
