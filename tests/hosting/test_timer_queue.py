"""The in-memory timer queue (hosting/timers.py): what fires, in which order, and that timers
of games that moved on are let go instead of waiting in the heap until their due time
(issue 14: ~3,900 of them, scanned by every full garbage collection, after a 100-game run)."""

from __future__ import annotations

import asyncio
import weakref

from hosting import FakeClock
from hosting.deadlines import TimerKind
from hosting.timers import Timer, TimerQueue

NOW = 1_800_000_000.0
TURN = 60.0  # a human's turn: its timers fall due long after the game has moved on


def queue_at(now: float = NOW) -> tuple[TimerQueue, FakeClock]:
    clock = FakeClock(now)
    return TimerQueue(clock), clock


def timer(game_id: int, due_in: float, seq: int = 0, kind=TimerKind.TURN) -> Timer:
    return Timer(NOW + due_in, game_id, kind, seq)


def test_a_timer_fires_once_it_is_due_and_not_before() -> None:
    queue, clock = queue_at()
    queue.add(first := timer(1, 5))
    assert queue.pop_due() == []
    clock.advance(5)
    assert queue.pop_due() == [first]
    assert queue.pop_due() == [] and queue.pending(1) == []


def test_a_cleared_timer_never_fires() -> None:
    queue, clock = queue_at()
    queue.add(timer(1, 5))
    queue.add(kept := timer(2, 6))
    queue.clear(1)
    assert queue.next_due() == kept.due_at
    clock.advance(10)
    assert queue.pop_due() == [kept]


def test_timers_that_tie_fire_each_once() -> None:
    queue, clock = queue_at()
    twins = [timer(1, 5), timer(1, 5, kind=TimerKind.REMINDER)]
    for each in twins:
        queue.add(each)
    clock.advance(5)
    due = queue.pop_due()
    assert len(due) == 2 and all(any(d is t for d in due) for t in twins)


def test_cleared_timers_are_let_go_once_they_outnumber_the_live_ones() -> None:
    queue, _ = queue_at()
    for game_id in range(10):  # ten games waiting for a human: two timers each
        queue.add(timer(game_id, TURN / 2, kind=TimerKind.REMINDER))
        queue.add(timer(game_id, TURN))
    cleared = []
    for move in range(500):  # other games move on long before their turns would end
        for kind, due_in in ((TimerKind.REMINDER, TURN / 2), (TimerKind.TURN, TURN)):
            superseded = timer(100 + move % 20, due_in, move, kind)
            queue.add(superseded)
            cleared.append(weakref.ref(superseded))
        queue.clear(100 + move % 20)
    del superseded
    held = sum(ref() is not None for ref in cleared)
    assert held <= 20  # no more than the live timers, not the 1,000 cleared


def test_the_live_timers_fire_in_due_order_after_cleared_ones_were_let_go() -> None:
    queue, clock = queue_at()
    live = [timer(game_id, 1 + game_id) for game_id in range(5)]
    for each in reversed(live):
        queue.add(each)
    for game_id in range(100, 400):
        queue.add(timer(game_id, 0.5))
        queue.clear(game_id)
    assert queue.next_due() == live[0].due_at
    clock.advance(10)
    assert queue.pop_due() == live
    assert queue.next_due() is None


def test_a_game_re_armed_on_every_move_keeps_only_its_latest_timers() -> None:
    queue, clock = queue_at()
    superseded = []
    for seq in range(300):
        queue.clear(7)
        queue.add(latest := timer(7, TURN, seq))
        superseded.append(weakref.ref(latest))
    assert sum(ref() is not None for ref in superseded[:-1]) <= 1
    clock.advance(TURN)
    assert queue.pop_due() == [latest]


def test_a_cleared_timer_is_let_go_at_once_while_live_ones_wait() -> None:
    """Issue 35: up to one cleared timer for every live one stayed in the heap (thousands with
    a few hundred games waiting for humans): each a Timer object every full garbage collection
    scanned. The heap holds plain numbers (due time, a number) now, which it does not scan."""
    queue, clock = queue_at()
    for game_id in range(10):  # ten games waiting for a human: their timers outnumber...
        queue.add(timer(game_id, TURN))
    queue.add(superseded := timer(99, TURN / 2))  # ...the one a move replaces
    queue.clear(99)
    cleared = weakref.ref(superseded)
    del superseded
    assert cleared() is None
    clock.advance(TURN)
    assert sorted(t.game_id for t in queue.pop_due()) == list(range(10))


async def test_only_a_timer_due_before_the_awaited_one_wakes_the_waiter() -> None:
    """Every move arms its game's next turn, mostly due long after another game's: the
    waiter sleeps on until the earliest is due, and wakes at once for an earlier one."""
    queue, _ = queue_at()
    queue.add(timer(1, TURN))
    looks: list[float | None] = []
    real = queue.next_due

    def counted() -> float | None:
        looks.append(real())
        return looks[-1]

    queue.next_due = counted  # type: ignore[method-assign]
    waiting = asyncio.create_task(queue.wait_until_due())
    await asyncio.sleep(0.01)
    assert len(looks) == 1
    queue.add(timer(2, TURN * 2))  # later: sleeps on
    await asyncio.sleep(0.01)
    assert len(looks) == 1 and not waiting.done()
    queue.add(timer(3, TURN / 2))  # earlier: looks again, and sleeps until that one
    await asyncio.sleep(0.01)
    assert looks[1:] == [NOW + TURN / 2]
    waiting.cancel()


async def test_a_waiter_whose_due_time_the_clock_jumped_past_wakes_for_any_new_timer() -> None:
    """The waiter sleeps a real timeout worked out from the clock. When the clock jumps past
    the timer it sleeps for (a test's clock, the wall clock set forward), that timeout is
    stale: a new timer, even a later one, wakes it to look again (an AI seated after a
    time-out was left waiting a whole turn, issue 33's wake-up rule)."""
    queue, clock = queue_at()
    queue.add(timer(1, TURN))
    waiting = asyncio.create_task(queue.wait_until_due())
    await asyncio.sleep(0.01)
    clock.advance(TURN * 2)  # past the timer it sleeps for
    queue.add(timer(2, TURN * 3))
    await asyncio.wait_for(waiting, 1.0)  # looked again: the first timer is due
    assert [t.game_id for t in queue.pop_due()] == [1]
