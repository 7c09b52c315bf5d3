import pytest

from lama.ai import RandomPolicy
from lama.simulate import simulate

KEYS = {
    "rounds",
    "turns_per_round_mean",
    "penalty_per_player_round_mean",
    "empty_hand_round_share",
    "rounds_per_second",
}


def without_speed(stats):
    return {k: v for k, v in stats.items() if k != "rounds_per_second"}


def test_simulate_reports_the_documented_statistics():
    stats = simulate("classic", 4, "random", 200, seed=1)
    assert set(stats) >= KEYS
    assert stats["rounds"] == 200
    assert stats["turns_per_round_mean"] >= 1
    assert 0 <= stats["empty_hand_round_share"] <= 1
    assert 0 < stats["penalty_per_player_round_mean"] <= 31 + 20


@pytest.mark.parametrize("variant", ["classic", "party", "komarami"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_fast_path_matches_playing_through_observations(variant, players):
    fast = simulate(variant, players, RandomPolicy(), 300, seed=3)
    slow = simulate(variant, players, RandomPolicy(), 300, seed=3, fast=False)
    assert without_speed(fast) == without_speed(slow)


def test_simulate_is_deterministic_per_seed():
    a = simulate("party", 3, "random", 300, seed=9)
    assert without_speed(a) == without_speed(simulate("party", 3, "random", 300, seed=9))
    assert without_speed(a) != without_speed(simulate("party", 3, "random", 300, seed=10))


def test_random_policy_only_chooses_legal_actions():
    import random

    from lama import Game

    rng = random.Random(0)
    policy = RandomPolicy()
    g = Game.new("party", 5, seed=2)
    for _ in range(2000):
        if g.is_over:
            break
        seat = g.current_seat
        action = policy.choose(g.observation(seat), rng)
        assert action in g.legal_actions(seat)
        g.apply(seat, action)


def test_random_policy_is_uniform_over_distinct_actions():
    import random
    from collections import Counter

    from lama.scenario import scenario

    g = scenario("party", ["3 3 3+ 4 L", "2"], top="3", draw="5")
    obs = g.observation(0)
    rng = random.Random(1)
    counts = Counter(RandomPolicy().choose(obs, rng) for _ in range(5000))
    assert set(counts) == set(g.legal_actions(0))  # 3, 3+, 4, Draw, Quit
    assert all(800 < k < 1200 for k in counts.values())
