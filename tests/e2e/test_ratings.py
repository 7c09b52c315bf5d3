"""Skill ratings end to end: the game-end message, /leaderboard and /lama stats, against the
loopback Discord. The figures users see are compared with the store's rating changes, which
the store tests check against the model."""

from __future__ import annotations

import random
import re

import pytest

from hosting import FakeClock
from tests.e2e.games import field, lines_by_user, play, play_to_the_end, ts
from tests.support.e2e import isolated, open_game, refused, spy_on_rest_budget, use_seed


def standings_lines(message) -> list[str]:
    return field(message, "Final standings").splitlines()


async def test_the_game_end_message_shows_each_humans_rating_change(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id = await play(fake, bot, channel, [alice, bob], rng=random.Random(3), ai_seats=1)
    changes = {c.user_id: c for c in await bot.store.ratings.changes_of_game(game_id)}
    end = next(m for m in reversed(channel.messages) if m.embeds
               and any(f["name"] == "Final standings" for f in m.embeds[0].get("fields") or []))
    lines = standings_lines(end)
    for user in (alice, bob):
        change = changes[user.id]
        sign = "+" if change.delta > 0 else ("−" if change.delta < 0 else "±")
        expected = f"rating {change.shown_after}? ({sign}{abs(change.delta)})"
        assert any(user.name in line.lower() and expected in line for line in lines), lines
    ai_line = next(line for line in lines if "🤖" in line)
    assert "rating" not in ai_line


async def test_a_winner_who_left_is_told_why_their_rating_fell(fake_discord, lamabot):
    """Alice leaves at once; the AI playing her seat finishes with the fewest points, while
    Bob quits every round. A leaver counts as last for the ratings: the standings list her
    last, with her AI's points, and say why; Bob, first as rated, is the one who wins."""
    fake, bot = fake_discord, lamabot
    use_seed(bot, 1)
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id = await open_game(fake, bot, channel, alice, bob, target=10)
    assert (await fake.slash(alice, channel, "lama leave")).ephemeral
    await play_to_the_end(bot, game_id, bob)
    await bot.renderer.flush_all()
    end = next(m for m in reversed(channel.messages) if "Final standings" in m.embed_text)
    first, second = standings_lines(end)
    assert first.lower().startswith(f"1. {isolated('bob')}"), first
    assert "left" not in first, first
    assert second.lower().startswith(f"2. 🤖 {isolated('alice')}"), second
    alice_points = bot.service.view(game_id).seats[0].score
    assert alice_points < bot.service.view(game_id).seats[1].score  # her AI had fewest
    assert f": {alice_points} points · left — an AI finished the game; counts as last " \
        "place · rating" in second, second
    assert "(−" in second, second
    assert end.embeds[0]["description"].startswith(f"{isolated('Bob')} wins"), end.embed_text


async def test_a_kicked_player_is_told_the_game_is_not_rated_for_them(fake_discord, lamabot):
    """Alice (the host) kicks Bob at once; the AI playing his seat finishes the game. Bob is
    not rated for it (no rating change, no loss); Alice is rated against the other AI."""
    fake, bot = fake_discord, lamabot
    use_seed(bot, 1)
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id = await open_game(fake, bot, channel, alice, bob, target=10, ai_seats=1)
    assert (await fake.slash(alice, channel, "lama kick", user=bob)).ephemeral
    await play_to_the_end(bot, game_id, alice)
    await bot.renderer.flush_all()
    end = next(m for m in reversed(channel.messages) if "Final standings" in m.embed_text)
    lines = standings_lines(end)
    bob_line = next(line for line in lines if "bob" in line.lower())
    alice_line = next(line for line in lines if "alice" in line.lower())
    assert "removed from the game: it is neither rated nor counted" in bob_line, bob_line
    assert "rating" not in bob_line and "last place" not in bob_line, bob_line
    assert "rating" in alice_line and "removed" not in alice_line, alice_line
    rated = {c.user_id for c in await bot.store.ratings.changes_of_game(game_id)}
    assert bob.id not in rated and alice.id in rated


async def test_leaderboard_defaults_to_ratings_once_games_are_rated(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    before = await fake.slash(alice, channel, "leaderboard")
    assert "Most wins" in before.message.embeds[0]["description"]
    await play(fake, bot, channel, [alice, bob], rng=random.Random(4), ai_seats=1)
    board = await fake.slash(alice, channel, "leaderboard")
    assert board.message.embeds[0]["title"] == "LAMA leaderboard: all time"  # seasons are off
    text = board.message.embeds[0]["description"]
    assert "Skill rating" in text and "provisional" in text
    shown = lines_by_user(text)
    assert set(shown) == {alice.id, bob.id}  # the AI is rated but never listed
    for user in (alice, bob):
        rating = await bot.store.ratings.player_rating(fake.guild.id, user.id, 1)
        assert re.match(rf"\*\*{rating.rating}\?\*\* · 1 game", shown[user.id]), shown[user.id]


async def test_stats_show_rating_recent_change_and_best(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    for seed in range(2):
        await play(fake, bot, channel, [alice, bob], rng=random.Random(seed), ai_seats=0)
    report = await bot.stats_service.player(fake.guild.id, alice.id)
    result = await fake.slash(bob, channel, "lama stats", user=alice)
    assert field(result.message, "Rating").startswith(f"{report.rating.rating}?")
    change = report.rating.change_recent
    sign = "+" if change > 0 else ("−" if change < 0 else "±")
    assert field(result.message, "Recent change") == f"{sign}{abs(change)} in the last 2 games"
    assert field(result.message, "Best rating") == str(report.rating.best)


async def test_a_rating_board_refuses_a_period_privately(fake_discord, lamabot):
    fake, _ = fake_discord, lamabot
    channel = fake.channel("lama")
    result = await fake.slash(fake.user("alice"), channel, "leaderboard", sort="rating",
                              period="week")
    refused(result, "Ratings count whole seasons")


async def test_an_unknown_season_is_refused_privately(fake_discord, lamabot):
    fake, _ = fake_discord, lamabot
    channel = fake.channel("lama")
    result = await fake.slash(fake.user("alice"), channel, "leaderboard", season=7)
    refused(result, "no season 7")


@pytest.mark.parametrize("bot_clock", [FakeClock(ts(2026, 3, 31, 23, 0))])
async def test_a_monthly_season_ends_with_the_top_3_in_the_games_channel(
    fake_discord, lamabot, bot_clock
):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    admin = fake.user("dave")
    await fake.grant(admin, manage_guild=True)
    players = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]  # dave: an admin
    saved = await fake.slash(admin, channel, "lama settings", seasons="monthly", channel=channel)
    assert "Monthly" in saved.message.embed_text
    await play(fake, bot, channel, players[:2], rng=random.Random(1), ai_seats=1)
    await play(fake, bot, channel, players[2:], rng=random.Random(2), ai_seats=0)
    march, _, _ = await bot.store.ratings.leaderboard(fake.guild.id, 1)
    assert await bot.season_keeper.tick() == 0  # still March

    bot_clock.set(ts(2026, 4, 1, 0, 0, 5))
    slots = spy_on_rest_budget(bot)
    assert await bot.season_keeper.tick() == 1
    assert (channel.id, "create") in slots  # the post waited its turn in the REST budget
    assert await bot.season_keeper.tick() == 0  # announced once
    post = channel.messages[-1]
    text = post.embed_text
    assert "March 2026 is over" in text and "April 2026 starts now" in text
    mentioned = [int(m) for m in re.findall(r"<@(\d+)>", text)]
    assert mentioned == [row.user_id for row in march[:3]]

    past = await fake.slash(players[0], channel, "leaderboard", season=1)
    assert "March 2026" in past.message.embed_text
    assert set(lines_by_user(past.message.embeds[0]["description"])) == {
        row.user_id for row in march}
    now = await fake.slash(players[0], channel, "leaderboard")
    assert "April 2026" in now.message.embed_text and not lines_by_user(
        now.message.embeds[0]["description"])
