"""The yardstick of issue 14 (benchmarks/yardstick.py): the bare bot plays LAMA by slash
command, and the scripted players find whose turn it is and play whole games through it."""

from __future__ import annotations

import asyncio
import gc

from benchmarks.minimal_bot import MinimalBot
from benchmarks.yardstick import BARE, Pace, People, Sample
from benchmarks.yardstick_figures import ratios, summary
from loopback.running import run_bot


async def test_the_bare_bot_answers_a_move_out_of_turn_with_a_refusal(fake_discord):
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    channel = fake_discord.channel("lama")
    async with run_bot(fake_discord, MinimalBot()) as bot:
        await fake_discord.slash(alice, channel, "lama new")
        await fake_discord.slash(bob, channel, "lama join")
        await fake_discord.slash(alice, channel, "lama start")
        game = bot.tables[channel.id].game
        waiting = (alice, bob)[1 - game.current_seat]
        refused = await fake_discord.slash(waiting, channel, "draw")
        assert refused.ephemeral and refused.content == "⚠️ not_your_turn"
        assert await fake_discord.autocomplete(waiting, channel, "play", focused="card") == []


async def test_the_players_play_whole_games_and_start_the_next(fake_discord):
    users = [fake_discord.user(name) for name in ("alice", "bob", "carol")]
    channel = fake_discord.channel("lama")
    async with run_bot(fake_discord, MinimalBot()):
        people = People(fake_discord, BARE, Pace())
        playing = asyncio.create_task(people.game(channel, users))
        lobbies = 0
        while lobbies < 8:  # two whole games: new, join, join, start each
            await asyncio.sleep(0.05)
            lobbies = sum(1 for s in people.samples if s.kind == "lobby")
        people.stop.set()
        await playing
    moves = [s for s in people.samples if s.kind == "move"]
    assert len(moves) > 20


def test_figures_count_only_what_was_due_inside_the_window():
    samples = [Sample("move", due, due, due + 0.010) for due in (0.5, 1.0, 1.5, 2.0, 9.0)]
    figures = summary(samples, (1.0, 3.0), cpu=0.5, rate=None, errors=[])
    assert figures["interactions_per_s"] == 1.5
    assert figures["latency"]["all"]["n"] == 3
    assert figures["bot_cpu_share"] == 0.25


def _run(per_s: float, p99: float, cpu_ms: float = 0.5, full_gc_ms: float = 0.0) -> dict:
    return {"interactions_per_s": per_s, "latency": {"all": {"p99_ms": p99}},
            "bot_cpu_ms_per_interaction": cpu_ms,
            "bot_gc": {"full": {"n": 1, "max_ms": full_gc_ms, "max_cpu_ms": full_gc_ms / 2}}}


def test_the_targets_compare_lamabot_with_the_bare_bot():
    report = {"lamabot": {"closed": _run(300, 900, 0.6), "open": _run(100, 50, 1.0, 25.0)},
              "bare": {"closed": _run(500, 400, 0.4), "open": _run(100, 20, 0.5)}}
    figures = ratios(report)
    assert figures["throughput"] == 0.6 and figures["throughput_met"]
    assert figures["p99_at_offered_load"] == 2.5 and not figures["p99_met"]
    assert figures["cpu_per_interaction"] == {"closed": 1.5, "open": 2.0}
    assert not figures["cpu_met"]  # the open loop's 2.0 misses 1.5
    assert figures["longest_full_gc_ms"] == 25.0 and not figures["full_gc_met"]
    assert figures["longest_full_gc_cpu_ms"] == 12.5


def test_each_ratio_is_the_median_of_the_rounds_side_by_side():
    """A round's two runs were side by side: its ratio is theirs; across rounds (the load of
    the machine changing between them) the median."""
    def one_round(lama_cpu: float, bare_cpu: float) -> dict:
        return {"lamabot": {"closed": _run(300, 90, lama_cpu), "open": _run(100, 10, lama_cpu)},
                "bare": {"closed": _run(500, 90, bare_cpu), "open": _run(100, 10, bare_cpu)}}

    rounds = [one_round(0.9, 0.3), one_round(0.6, 0.5), one_round(0.5, 0.4)]
    figures = ratios({"rounds": rounds})
    assert figures["rounds"] == 3
    assert figures["cpu_per_interaction"] == {"closed": 1.25, "open": 1.25}  # not 2.0/1.67
    assert figures["cpu_met"]
    assert [r["closed"] for r in figures["cpu_each_round"]] == [3.0, 1.2, 1.25]


async def test_the_driver_collects_no_garbage_while_measuring_and_again_after(monkeypatch):
    from benchmarks import yardstick

    monkeypatch.setattr(yardstick, "SETTLE_S", 0.0)
    assert gc.isenabled()
    async with yardstick.driver_gc_off(keep=False):
        assert not gc.isenabled()
    assert gc.isenabled()
    async with yardstick.driver_gc_off(keep=True):  # --driver-gc: as before 2026-12-01
        assert gc.isenabled()
