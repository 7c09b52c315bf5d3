"""One source for every limit and list: the cogs offer exactly what hosting accepts and the
engine plays, and one validator refuses the rest."""

from __future__ import annotations

import pytest
from discord import app_commands

from cogs.lama import Lama
from cogs.leaderboard import ALL_VARIANTS, Leaderboard
from hosting import HostingError, Problem, options
from lama.ai import POLICIES
from lama.rules import RULESETS


def parameter(command: app_commands.Command, name: str) -> app_commands.Parameter:
    return next(p for p in command.parameters if p.name == name)


def choice_values(command: app_commands.Command, name: str) -> list:
    return [choice.value for choice in parameter(command, name).choices]


COMMANDS_WITH_A_VARIANT = [Lama.new, Lama.rules, Lama.settings]


@pytest.mark.parametrize("command", COMMANDS_WITH_A_VARIANT, ids=lambda c: c.name)
def test_the_variant_choices_are_the_engines_rule_sets(command):
    assert choice_values(command, "variant") == list(RULESETS)


def test_the_leaderboard_offers_every_variant_and_all_of_them():
    assert choice_values(Leaderboard.leaderboard, "variant") == [ALL_VARIANTS, *RULESETS]


def test_the_ai_level_choices_are_the_ai_levels_and_each_has_a_policy():
    assert choice_values(Lama.new, "ai_level") == list(options.AI_LEVELS)
    assert set(options.POLICY_OF_LEVEL) == set(options.AI_LEVELS)
    assert set(options.POLICY_OF_LEVEL.values()) <= set(POLICIES)


@pytest.mark.parametrize(
    ("command", "name", "bounds"),
    [
        (Lama.new, "target", options.TARGET),
        (Lama.new, "turn_timeout", options.TURN_TIMEOUT),
        (Lama.new, "ai_seats", options.AI_SEATS),
        (Lama.settings, "target", options.TARGET),
        (Lama.settings, "turn_timeout", options.TURN_TIMEOUT),
        (Lama.settings, "ai_delay", options.AI_DELAY),
    ],
    ids=lambda v: getattr(v, "name", None) or str(v),
)
def test_a_commands_range_is_the_option_limit(command, name, bounds):
    option = parameter(command, name)
    assert (option.min_value, option.max_value) == (bounds.low, bounds.high)


def test_the_language_choices_are_the_supported_languages_and_auto():
    assert choice_values(Lama.language, "language") == list(options.LANGUAGES)
    assert choice_values(Lama.settings, "language") == list(options.LANGUAGES)


def test_the_seat_limits_are_the_engines():
    from lama.game import MAX_SEATS, MIN_SEATS

    assert (options.MIN_SEATS, options.MAX_SEATS) == (MIN_SEATS, MAX_SEATS)
    assert options.AI_SEATS.high == MAX_SEATS - 1  # the host takes a seat too


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("variant", "poker"),
        ("target", 9),
        ("target", 201),
        ("turn_timeout", 0),
        ("turn_timeout", 3601),
        ("ai_delay", -0.5),
        ("ai_delay", 10.5),
        ("ai_level", "godlike"),
        ("ai_seats", 6),
        ("ai_seats", True),  # a flag is not a count
        ("target", "40"),  # text is not a number
        ("language", "fr"),
    ],
)
def test_a_value_outside_the_limits_is_refused_naming_the_option(option, value):
    with pytest.raises(HostingError) as refused:
        options.validate(**{option: value})
    assert refused.value.problem is Problem.BAD_OPTION
    assert refused.value.details == {"option": option, "value": value}


def test_the_limits_themselves_are_accepted_and_none_means_not_given():
    options.validate(
        variant="komarami",
        target=options.TARGET.high,
        turn_timeout=options.TURN_TIMEOUT.low,
        ai_delay=options.AI_DELAY.low,
        ai_level="hard",
        ai_seats=options.AI_SEATS.high,
        language="auto",
    )
    options.validate(variant=None, target=None)
