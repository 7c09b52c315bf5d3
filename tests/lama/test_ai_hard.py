"""`hard`: always legal, deterministic for a given RNG, and its rollout engine agrees with
`Game` (so the search optimises the real rules)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lama.actions import QUIT, Play
from lama.ai import (
    HardPolicy,
    NormalPolicy,
    RandomPolicy,
    _next,
    _play_out,
    _tables,
    get_policy,
)
from lama.cards import Card, card
from lama.events import RoundEnded
from lama.game import Game
from lama.persist import game_to_dict
from lama.scenario import scenario

VARIANTS = st.sampled_from(["classic", "party", "komarami"])


def _random_position(variant, seats, seed, steps):
    """A game after ``steps`` random-policy actions (possibly several rounds in)."""
    game = Game.new(variant, seats, seed, target=60)
    rng = random.Random(seed)
    policy = RandomPolicy()
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.current_seat
        game.apply(seat, policy.choose(game.observation(seat), rng))
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=VARIANTS,
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
)
def test_hard_always_chooses_a_legal_action(variant, seats, seed, steps):
    game = _random_position(variant, seats, seed, steps)
    if game.is_over:
        return
    seat = game.current_seat
    action = HardPolicy().choose(game.observation(seat), random.Random(seed))
    game.check(seat, action)  # raises IllegalAction if not legal
    game.apply(seat, action)


@settings(max_examples=25, deadline=None)
@given(variant=VARIANTS, seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_hard_plays_whole_games_legally(variant, seats, seed):
    game = Game.new(variant, seats, seed, target=25)
    rng = random.Random(seed)
    policies = [get_policy("hard"), *(get_policy("normal") for _ in range(seats - 1))]
    for _ in range(2000):
        if game.is_over:
            break
        seat = game.current_seat
        game.apply(seat, policies[seat].choose(game.observation(seat), rng))
    assert game.is_over


def test_hard_is_deterministic_for_a_given_rng():
    for seed in range(20):
        game = _random_position("party", 4, seed, seed % 7)
        obs = game.observation(game.current_seat)
        a = HardPolicy().choose(obs, random.Random(99))
        b = HardPolicy().choose(obs, random.Random(99))
        assert a == b


def test_hard_goes_out_with_its_last_card():
    game = scenario("classic", hands=["4", "1 2 3", "5 6 L"], top="3", draw="6 6")
    assert HardPolicy().choose(game.observation(0), random.Random(1)) == Play(game.hand(0)[0])


def _full_info_world(game):
    """Every hand as counts and the draw pile, next card last (the real hidden cards)."""
    d = game_to_dict(game)
    hands = []
    for h in d["hands"]:
        counts = [0] * 14
        for code in h:
            counts[Card.from_code(code).index] += 1
        hands.append(counts)
    return hands, [Card.from_code(c).index for c in reversed(d["draw_pile"])]


@settings(max_examples=60, deadline=None)
@given(variant=VARIANTS, seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_rollout_engine_matches_the_game(variant, seats, seed):
    """With the true hidden cards, `_play_out` must end the round exactly as `Game` does
    when every seat plays `normal`."""
    game = _random_position(variant, seats, seed, seed % 9)
    if game.is_over:
        return
    hands, pile = _full_info_world(game)
    sizes = list(game.hand_sizes)
    quit_ = [game.has_quit(s) for s in range(seats)]
    emptier = _play_out(
        _tables(variant),
        hands,
        sizes,
        quit_,
        seats - sum(quit_),
        game.top_card.index,
        pile,
        game.current_seat,
    )
    normal = NormalPolicy()
    while True:
        seat = game.current_seat
        events = game.apply(seat, normal.choose(game.observation(seat), None))
        ended = [e for e in events if isinstance(e, RoundEnded)]
        if ended:
            break
    results = ended[0].results
    assert emptier == next((r.seat for r in results if r.emptied_hand), -1)
    for r in results:
        counts = [0] * 14
        for c in r.hand:
            counts[c.index] += 1
        assert counts == hands[r.seat]


def test_next_skips_quitters():
    assert _next([False, True, False], 0, 3) == 2
    assert _next([False, True, True], 0, 3) == 0


@given(st.lists(st.integers(0, 3), min_size=14, max_size=14), VARIANTS)
def test_fast_draw_test_agrees_with_the_scoring_rule(counts, variant):
    table = _tables(variant)
    assert table.over5(counts) == (table.ruleset.penalty_of_counts(counts) > 5)


def test_hard_quits_a_cheap_hand_when_an_opponent_is_about_to_go_out():
    # Seat 1 holds a single card; ours scores 8 and could play on. normal plays the 2; hard
    # sees that the round will most likely end before its hand gets cheaper and quits.
    game = scenario(
        "classic", hands=["1 1 2 5", "3", "6 6 6 6 6 6"], top="1", draw="4 4 4 4 4 4 4 4 5 5 5"
    )
    obs = game.observation(0)
    assert NormalPolicy().choose(obs, None) == Play(card("2"))
    for seed in range(3):
        assert HardPolicy().choose(obs, random.Random(seed)) == QUIT
