"""An interaction's defer clock (cogs/timely.py) stops once it is answered: the stand-in
"thinking…" is due only while the handler has not answered. A clock left running kept
every answered interaction alive for 1.5 s and then woke a task for it (issue 14: that
was ~240 interactions held at 161 interactions/s, each one more for the garbage
collector to scan)."""

from __future__ import annotations

import pytest

from cogs import buttons, timely, tree
from tests.support.e2e import offered_cards, on_turn, two_humans, wait_until


@pytest.fixture(autouse=True)
def slow_clock(monkeypatch):
    """A clock far longer than any test: one still running after the answer is seen as
    such, and no stand-in ever fires because the machine is busy."""
    monkeypatch.setattr(timely, "DEFER_AFTER", 600.0)


def keep_track(monkeypatch, module) -> list:
    """Every TimelyResponse `module` hands out."""
    responses = []
    real = module.keep_in_time

    def keeping(interaction, deferral):
        response = real(interaction, deferral)
        responses.append(response)
        return response

    monkeypatch.setattr(module, "keep_in_time", keeping)
    return responses


async def test_an_answered_slash_command_or_autocomplete_leaves_no_stand_in_due(
        fake_discord, lamabot, monkeypatch):
    fake, bot = fake_discord, lamabot
    responses = keep_track(monkeypatch, tree)
    game_id, channel = await two_humans(fake, bot)
    mover, obs = on_turn(fake, bot, game_id)
    choices = await fake.autocomplete(mover, channel, "play", focused="card")
    drawn = await fake.slash(mover, channel, "draw")
    # The mover's playable cards (none at all is a deal like any other).
    assert offered_cards(choices) == sorted(c.code for c in obs.legal_plays)
    assert drawn.response_type is not None
    assert len(responses) >= 5  # new, join, start, the autocomplete, draw
    await wait_until(lambda: not any(r.clock_running for r in responses))


async def test_a_refused_slash_command_leaves_no_stand_in_due(fake_discord, lamabot, monkeypatch):
    fake, _bot = fake_discord, lamabot
    responses = keep_track(monkeypatch, tree)
    refused = await fake.slash(fake.user("alice"), fake.channel("lama"), "draw")  # no game
    assert refused.message is not None and refused.message.ephemeral
    await wait_until(lambda: responses and not any(r.clock_running for r in responses))


async def test_an_answered_button_leaves_no_stand_in_due(fake_discord, lamabot, monkeypatch):
    fake, bot = fake_discord, lamabot
    responses = keep_track(monkeypatch, buttons)
    _game_id, channel = await two_humans(fake, bot)
    table = [m for m in fake.public_messages(channel) if m.components_v2][-1]
    await fake.click(fake.user("bob"), table, "Rules")
    await wait_until(lambda: responses and not any(r.clock_running for r in responses))
