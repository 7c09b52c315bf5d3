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
from store import GuildSettings
from store.tournaments import TournamentStatus
from tests.e2e.tournaments import QUICK, round_games, sign_up, signup_message
from tests.support.e2e import refused, settle


async def one_table_under_way(fake, bot):
    """Alice organises the Spring Cup without playing; Bob, Carol and Dave play its one
    table (with an AI), in a thread: the table's host is one of them."""
    channel, organiser = fake.channel("lama"), fake.user("alice")
    entrants = [fake.user(n) for n in ("bob", "carol", "dave")]
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    await sign_up(fake, channel, organiser, entrants, ais=1, rounds=2)
    await fake.click(organiser, signup_message(channel), "Start")
    tournament = await bot.tournaments.in_channel(channel.id)
    (game_id,) = await round_games(bot, tournament.id, 1)
    await settle(bot, game_id)
    view = bot.service.view(game_id)
    thread = fake.channels[view.channel_id]
    assert thread.thread is not None and view.host_id in {u.id for u in entrants}
    return tournament.id, game_id, channel, thread, fake.users_by_id[view.host_id]


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
