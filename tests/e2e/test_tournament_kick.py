"""A seat at a tournament's table is the tournament's, not its host's: `/lama kick` there is
the organiser's or Manage Server's, as `/lama cancel` is (test_tournament_cancel.py).

A table's game has a host like any game (its first human entrant), and `/lama kick` let that
host remove a rival from their table in its thread: an AI played on for the rival, who
placed last at the table without points. Now the host is told, in their language, who may
remove a player, and nothing changes; the organiser's kick works as a casual host's does."""

from __future__ import annotations

import pytest

import i18n
from hosting import Status
from tests.e2e.tournaments import one_table_under_way
from tests.support.e2e import isolated, refused, settle


def rival_of(fake, bot, game_id: int, host):
    """Another human at the host's table."""
    seats = bot.service.view(game_id).seats
    return next(fake.users_by_id[s.user_id] for s in seats
                if s.user_id is not None and s.user_id != host.id)


def removed_in(fake, thread) -> list[str]:
    return [m.text for m in fake.public_messages(thread) if "removed" in m.text]


async def test_the_tables_host_cannot_kick_a_player(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    _tournament_id, game_id, _channel, thread, host = await one_table_under_way(fake, bot)
    rival = rival_of(fake, bot, game_id, host)
    answer = await fake.slash(host, thread, "lama kick", user=rival)
    refused(answer, "tournament", "organiser", f"<@{fake.user('alice').id}>", "Manage Server")
    await settle(bot, game_id)
    view = bot.service.view(game_id)
    assert view.status is Status.RUNNING
    seat = view.seat_of(rival.id)
    assert seat is not None and not seat.is_ai  # still theirs
    assert removed_in(fake, thread) == []


@pytest.mark.parametrize("locale", ["cs", "es"])
async def test_the_host_is_refused_in_their_language(fake_discord, lamabot, locale) -> None:
    fake, bot = fake_discord, lamabot
    _tournament_id, game_id, _channel, thread, host = await one_table_under_way(fake, bot)
    host.locale = locale
    answer = await fake.slash(host, thread, "lama kick", user=rival_of(fake, bot, game_id, host))
    organiser = f"<@{fake.user('alice').id}>"
    assert answer.ephemeral
    assert answer.text == i18n.t("error.kick_tournament_table", locale, name=organiser)


async def test_the_organiser_removes_a_player_from_a_table(fake_discord, lamabot) -> None:
    """Alice organises without playing: she may remove a player, and the table hears it as
    from a casual game's host (an AI plays on for them)."""
    fake, bot = fake_discord, lamabot
    _tournament_id, game_id, _channel, thread, host = await one_table_under_way(fake, bot)
    rival = rival_of(fake, bot, game_id, host)
    answer = await fake.slash(fake.user("alice"), thread, "lama kick", user=rival)
    assert answer.ephemeral and "You removed" in answer.text, answer.text
    await settle(bot, game_id)
    seat = next(s for s in bot.service.view(game_id).seats if s.user_id == rival.id)
    assert seat.is_ai and seat.kicked
    said = f"{isolated('Alice')} removed {isolated(rival.name.title())} from the game"
    assert any(said in text for text in removed_in(fake, thread)), removed_in(fake, thread)
