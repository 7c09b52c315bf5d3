"""`normal`, exactly as issue 2 specifies it."""

from dataclasses import replace

import pytest

from lama.actions import DRAW, QUIT, Play
from lama.ai import POLICIES, NormalPolicy, RandomPolicy, get_policy
from lama.cards import card
from lama.scenario import scenario


def choose(game):
    seat = game.current_seat
    action = NormalPolicy().choose(game.observation(seat), None)
    game.check(seat, action)
    return action


def test_registry_has_the_three_levels():
    assert {"random", "normal", "hard"} <= set(POLICIES)
    assert isinstance(get_policy("normal"), NormalPolicy)
    assert isinstance(get_policy(" Random "), RandomPolicy)
    with pytest.raises(ValueError):
        get_policy("grandmaster")


@pytest.mark.parametrize(
    ("variant", "hand", "top", "expected"),
    [
        ("classic", "6 L 1", "6", "L"),  # llama (10) beats 6
        ("classic", "1 2 L", "L", "L"),
        ("classic", "3 4 5", "3", "4"),  # the higher of same/one-higher
        ("classic", "3 3 1", "3", "3"),
        ("komarami", "6 6 L", "6", "L"),
        ("party", "P 2", "4", "P"),  # pink may go on anything and is worth most
        ("party", "P 5 L", "6", "P"),
        ("party", "3 3+", "3", "3+"),  # plus card before the plain card of its value
        ("party", "4 4+ 3+", "3", "4+"),
        ("party", "L 1 1+", "P", "L"),
        ("party", "1 1+ 2", "P", "1+"),
    ],
)
def test_plays_the_most_costly_playable_card(variant, hand, top, expected):
    game = scenario(variant, hands=[hand, "2 2"], top=top, draw="5 5")
    assert choose(game) == Play(card(expected))


@pytest.mark.parametrize("variant", ["classic", "party", "komarami"])
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("4", QUIT),  # 4 points: not more than 5
        ("5 5 5", QUIT),  # exactly 5 (each value once)
        ("3 4", DRAW),  # 7 > 5
        ("6", DRAW),
        ("4 4 4 4", QUIT),
        ("4 L", DRAW),
    ],
)
def test_without_a_play_draws_only_when_the_hand_scores_more_than_5(variant, hand, expected):
    game = scenario(variant, hands=[hand, "2 2"], top="1", draw="5 5")
    obs = game.observation(0)
    assert obs.legal_plays == ()
    assert obs.can_draw
    assert NormalPolicy().choose(obs, None) == expected


def test_uses_the_variant_scoring():
    # 1 and 2 score 3 (quit); two mosquitoes score 20 in komarami (draw).
    game = scenario("classic", hands=["1 2", "2 2"], top="4", draw="5")
    assert choose(game) == QUIT
    game = scenario("komarami", hands=["L L", "2 2"], top="4", draw="5")
    assert choose(game) == DRAW


def test_quits_when_drawing_is_not_allowed():
    game = scenario("classic", hands=["4 5 6", "2 2"], top="1", draw="5")
    obs = replace(game.observation(0), can_draw=False)  # e.g. everyone else has quit
    assert NormalPolicy().choose(obs, None) == QUIT


def test_plays_even_when_the_hand_is_low():
    game = scenario("classic", hands=["1", "2 2"], top="1", draw="5")
    assert choose(game) == Play(card("1"))
