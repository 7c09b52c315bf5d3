"""A tournament table is the tournament's, not its host's (issue 35 point 4).

A table's game has a host like any game (its first human entrant), and `/lama cancel` used to
let that host cancel it: an ordinary entrant cancelled their table in its thread, and the
tournament, finding its only table over, ended at once with every entrant first on 0 points.
Now only the organiser, or someone with Manage Server, cancels a table, and that goes
through the tournament: it is cancelled as a whole, its running tables with it, and no
standings are posted. A player who has to go is absent, not a cancellation: their turns
time out and the table plays on."""

from __future__ import annotations

from hosting import Status
from store.tournaments import TournamentStatus
from tests.e2e.tournaments import one_table_under_way
from tests.support.e2e import refused


async def test_the_tables_host_cannot_cancel_it(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    tournament_id, game_id, channel, thread, host = await one_table_under_way(fake, bot)
    answer = await fake.slash(host, thread, "lama cancel")
    refused(answer, "tournament", "organiser", "Manage Server")
    await bot.tournaments.settle()
    await bot.renderer.flush_all()
    assert bot.service.view(game_id).status is Status.RUNNING
    assert (await bot.tournaments.get(tournament_id)).status is TournamentStatus.RUNNING
    assert not [m for m in fake.public_messages(channel) if "Final standings" in m.text]


async def test_the_organiser_cancels_a_table_by_cancelling_the_tournament(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    tournament_id, game_id, channel, thread, _host = await one_table_under_way(fake, bot)
    answer = await fake.slash(fake.user("alice"), thread, "lama cancel")
    assert answer.ephemeral and "cancelled" in answer.text, answer.text
    await bot.tournaments.settle()
    await bot.renderer.flush_all()
    assert bot.service.view(game_id).status is Status.CANCELLED
    assert (await bot.tournaments.get(tournament_id)).status is TournamentStatus.CANCELLED
    texts = [m.text for m in fake.public_messages(channel)]
    assert any("Spring Cup" in text and "was cancelled" in text for text in texts), texts
    assert not [text for text in texts if "Final standings" in text]  # no standings at all


async def test_manage_server_cancels_a_table_through_the_tournament_too(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    tournament_id, game_id, _channel, thread, _host = await one_table_under_way(fake, bot)
    owner = fake.user("owner")
    await fake.grant(owner, manage_guild=True)
    await fake.slash(owner, thread, "lama cancel")
    await bot.tournaments.settle()
    assert bot.service.view(game_id).status is Status.CANCELLED
    assert (await bot.tournaments.get(tournament_id)).status is TournamentStatus.CANCELLED
