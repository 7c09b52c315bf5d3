"""The REST budget: priorities, Discord's global and per-channel windows, calls in flight."""

from __future__ import annotations

import asyncio

from cogs.render.scheduler import Priority, RestBudget


async def test_turn_pings_go_before_tables_before_clean_ups() -> None:
    budget, order = RestBudget(per_second=1), []

    async def call(name: str, priority: Priority) -> None:
        async with budget.slot(priority):
            order.append(name)

    async with budget.slot(Priority.TABLE):  # the budget is full: the others must queue
        tasks = [asyncio.create_task(call(n, p)) for n, p in (
            ("clean-up", Priority.CLEANUP), ("table", Priority.TABLE), ("ping", Priority.PING))]
        await asyncio.sleep(0.05)
    budget.per_second = 100
    budget._wake.set()
    await asyncio.gather(*tasks)
    assert order == ["ping", "table", "clean-up"]
    budget.close()


async def test_a_call_counts_until_a_second_after_it_finished() -> None:
    budget = RestBudget(per_second=5)
    loop = asyncio.get_running_loop()
    started: list[float] = []

    async def call() -> None:
        async with budget.slot(Priority.PING):
            started.append(loop.time())
            await asyncio.sleep(0.5)

    await asyncio.gather(*(call() for _ in range(6)))
    # Paced, the sixth could go after 1 s; it waits until the first is a second finished.
    assert started[5] - started[0] >= 1.45
    budget.close()


async def test_a_full_budget_grants_evenly_not_a_second_at_a_time() -> None:
    """After a burst of a third of the budget, calls go one every 1/per_second seconds:
    never a second's worth at once (that pulse held the event loop every second)."""
    budget = RestBudget(per_second=30)
    granted: list[float] = []
    take = budget._take

    def taking(bucket, now: float) -> None:  # the budget's own clock at each grant
        granted.append(now)
        take(bucket, now)

    budget._take = taking  # type: ignore[method-assign]

    async def call() -> None:
        async with budget.slot(Priority.TABLE):
            pass

    await asyncio.gather(*(call() for _ in range(40)))
    first = granted[0]
    assert sum(1 for at in granted if at - first < 0.01) == 10  # the burst: a third
    busiest = max(sum(1 for at in granted if start <= at < start + 0.2) for start in granted)
    assert busiest <= 10 + 0.2 * 30 + 1  # a stalled loop refills at most one burst
    budget.close()


async def test_a_full_channel_does_not_hold_up_other_channels() -> None:
    budget = RestBudget(per_second=100, channel_limit=2, channel_period=5.0)
    done: list[int] = []

    async def call(channel: int) -> None:
        async with budget.slot(Priority.TABLE, channel, "edit"):
            done.append(channel)

    waiting = [asyncio.create_task(call(1)) for _ in range(3)]
    await asyncio.sleep(0.05)
    await asyncio.wait_for(call(2), 1.0)
    assert done.count(1) == 2 and 2 in done and not waiting[2].done()
    for task in waiting:
        task.cancel()
    budget.close()
