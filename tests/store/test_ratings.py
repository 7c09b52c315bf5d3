"""Ratings in the store: written with the game's results, read for boards and stats, seasons.

Games are finished through GameStore.commit_move(finished=...), the bot's own path.
"""

from __future__ import annotations

import asyncio

import pytest

from hosting.ratings import RULES
from store import (
    Actor,
    Dialect,
    FinishedGame,
    GameStatus,
    GameStore,
    NewSeat,
    RatingStore,
    SeasonStore,
    SeatResult,
    SettingsStore,
    StatsStore,
)
from store.records import GuildSettings
from store.seasons import sync_season
from tests.store.support import ts
from tests.support.backends import vacuum_analyze

GUILD, OTHER = 10, 11
A, B, C, D = 1, 2, 3, 4


NOV = ts(2026, 11, 10)


@pytest.fixture
def games(db):
    return GameStore(db, RULES)


@pytest.fixture
def ratings(db):
    return RatingStore(db)


@pytest.fixture
def seasons(db):
    return SeasonStore(db, RULES)


async def play(games: GameStore, when: int, *places, guild: int = GUILD, left=(),
               kicked=()) -> int:
    """A finished game; `places` are (player, place) with player a user id or an AI level;
    the users in `left` left it, those in `kicked` were kicked from it."""
    seats = [NewSeat.ai(f"AI {i}", who) if isinstance(who, str) else NewSeat.human(who, f"P{who}")
             for i, (who, _) in enumerate(places)]
    game = await games.create_lobby(
        guild_id=guild, channel_id=guild * 100, host_user_id=A, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1, now=when - 600, seats=seats)
    await games.start_game(game.id, seed=7, state={"round": 1}, now=when - 500)
    for seat, (who, _) in enumerate(places):
        if who in left or who in kicked:
            await games.hand_seat_to_ai(game.id, seat, ai_level="normal", now=when - 100,
                                        kicked=who in kicked)
    results = tuple(SeatResult(i, place * 10, place, place == 1, place, 0)
                    for i, (_, place) in enumerate(places))
    await games.commit_move(game.id, 1, 0, {"quit": True}, Actor.HUMAN, {"over": True}, when,
                            round_number=3, finished=FinishedGame(3, results))
    return game.id


# --- the live update ------------------------------------------------------------------------


async def test_a_game_finishing_while_another_is_being_rated_waits_and_both_count(
    games, ratings, db
):
    # As if another process were rating its game of this server, the first one ever (its
    # season 1 not committed yet): ours waits for it instead of opening season 1 again.
    async with db.transaction() as other:
        await sync_season(other, RULES, GUILD, NOV)
        ours = asyncio.create_task(play(games, NOV, (A, 1), ("normal", 2)))
        await asyncio.sleep(0.2)
        assert not ours.done()
    game_id = await ours
    assert [c.season for c in await ratings.changes_of_game(game_id)] == [1, 1]


async def test_finishing_a_game_rates_every_seat_in_the_same_commit(games, ratings):
    game_id = await play(games, NOV, (A, 1), (B, 2), ("hard", 3))
    changes = await ratings.changes_of_game(game_id)
    assert [(c.seat, c.user_id, c.ai_level) for c in changes] == [
        (0, A, None), (1, B, None), (2, None, "hard")]
    assert changes[0].delta > 0 > changes[2].delta
    assert all(c.shown_before == 1000 and c.career_games == 1 for c in changes)


async def test_a_rating_failure_rolls_back_the_whole_finish(db):
    class Broken:
        def __getattr__(self, name):
            return getattr(RULES, name)

        def rate_game(self, before, seats):
            raise RuntimeError("model failed")

    games = GameStore(db, Broken())
    with pytest.raises(RuntimeError, match="model failed"):
        await play(games, NOV, (A, 1), (B, 2))
    (game,) = await games.unfinished_games()
    assert game.status is GameStatus.RUNNING and game.last_seq == 0
    assert (await StatsStore(db).player_stats(GUILD, A)).games == 0


async def test_ratings_build_on_the_previous_game(games, ratings):
    await play(games, NOV, (A, 1), (B, 2))
    second = await play(games, NOV + 60, (A, 1), (B, 2))
    first_after = (await ratings.changes_of_game(second))[0].shown_before
    assert first_after > 1000


async def test_ratings_are_per_server(games, ratings):
    await play(games, NOV, (A, 1), (B, 2))
    other = await play(games, NOV + 60, (A, 2), (B, 1), guild=OTHER)
    assert all(c.shown_before == 1000 for c in await ratings.changes_of_game(other))


async def test_a_player_who_left_loses_rating_as_last_place(games, ratings):
    game_id = await play(games, NOV, (A, 1), (B, 2), ("easy", 3), left={A})
    a, b, ai = await ratings.changes_of_game(game_id)
    assert a.delta < ai.delta < b.delta


async def test_a_kicked_player_is_not_rated_for_the_game(games, ratings):
    game_id = await play(games, NOV, (A, 1), (B, 2), ("easy", 3), kicked={A})
    assert [c.seat for c in await ratings.changes_of_game(game_id)] == [1, 2]
    assert await ratings.player_rating(GUILD, A, 1) is None


async def test_the_others_at_a_kicked_leaders_table_are_rated_as_among_themselves(
    games, ratings
):
    kicked = await play(games, NOV, (A, 1), (B, 2), (C, 3), kicked={A})
    alone = await play(games, NOV, (B, 1), (C, 2), guild=OTHER)
    assert [(c.user_id, c.shown_after, c.delta) for c in await ratings.changes_of_game(kicked)] \
        == [(c.user_id, c.shown_after, c.delta) for c in await ratings.changes_of_game(alone)]


async def test_a_game_with_one_player_left_after_a_kick_is_rated_for_nobody(games, ratings):
    game_id = await play(games, NOV, (A, 2), (B, 1), kicked={B})
    assert await ratings.changes_of_game(game_id) == []
    assert await ratings.player_rating(GUILD, A, 1) is None


# --- the leaderboard ------------------------------------------------------------------------


async def test_the_rating_board_ranks_humans_only_best_first(games, ratings):
    await play(games, NOV, (A, 1), (B, 2), ("hard", 3), (C, 4))
    rows, total, me = await ratings.leaderboard(GUILD, 1, user_id=C)
    assert [(r.rank, r.user_id) for r in rows] == [(1, A), (2, B), (3, C)]
    assert total == 3 and me == rows[2]
    assert all(r.provisional and r.games == 1 for r in rows)


async def test_equal_ratings_share_a_rank(games, ratings):
    await play(games, NOV, (A, 1), (B, 1), (C, 3))
    rows, _, _ = await ratings.leaderboard(GUILD, 1)
    assert [r.rank for r in rows] == [1, 1, 3]


async def test_a_page_past_the_first_still_finds_me_and_the_count(games, ratings):
    await play(games, NOV, (A, 1), (B, 2), (C, 3), (D, 4))
    rows, total, me = await ratings.leaderboard(GUILD, 1, limit=2, offset=2, user_id=A)
    assert [r.user_id for r in rows] == [C, D] and total == 4 and me.user_id == A


async def test_the_rating_board_reads_only_its_covering_index(games, ratings, db, db_location):
    await play(games, NOV, (A, 1), (B, 2))
    await vacuum_analyze(db_location)
    plan = await ratings.explain_leaderboard(GUILD, 1, as_if_large=True)
    reads = [line for line in plan if "ratings" in line]
    if db.dialect is Dialect.SQLITE:
        assert reads and all("COVERING INDEX ratings_leaderboard" in line for line in reads), plan
        assert not any("TEMP B-TREE" in line for line in plan), plan
    else:  # the index alone, already in rating order: no Sort step
        reads = [line for line in plan if " on ratings" in line]
        assert reads and all("Index Only Scan using ratings_leaderboard " in line
                             for line in reads), plan
        assert not any("Sort" in line for line in plan), plan


# --- a player's rating ----------------------------------------------------------------------


async def test_player_rating_shows_change_over_the_last_ten_games_and_the_best(games, ratings):
    for i in range(12):
        await play(games, NOV + i * 60, (A, 1 if i < 11 else 2), (B, 2 if i < 11 else 1))
    mine = await ratings.player_rating(GUILD, A, 1)
    changes = [c for g in range(1, 13) for c in await ratings.changes_of_game(g) if c.user_id == A]
    assert mine.rating == changes[-1].shown_after and not mine.provisional
    assert mine.change_recent == changes[-1].shown_after - changes[2].shown_before
    assert mine.recent_games == 10 and mine.games == 12 and mine.rank == 1
    assert mine.best == max(c.shown_after for c in changes) > mine.rating


async def test_an_unrated_player_has_no_rating(games, ratings):
    assert await ratings.player_rating(GUILD, A, 1) is None


async def test_forgetting_a_user_erases_their_ratings(db, games, ratings):
    game_id = await play(games, NOV, (A, 1), (B, 2))
    await StatsStore(db).forget_user(A)
    rows, _, _ = await ratings.leaderboard(GUILD, 1)
    assert [r.user_id for r in rows] == [B]
    assert [c.user_id for c in await ratings.changes_of_game(game_id)] == [None, B]


# --- seasons --------------------------------------------------------------------------------


async def monthly(db) -> None:
    await SettingsStore(db).save_settings(
        GuildSettings(GUILD, season_cadence="monthly"), now=NOV)


async def test_with_seasons_off_every_game_is_in_season_one(games, seasons):
    await play(games, NOV, (A, 1), (B, 2))
    await play(games, ts(2027, 5, 1), (A, 1), (B, 2))
    (season,) = await seasons.seasons(GUILD)
    assert (season.number, season.starts_at, season.ends_at) == (1, 0, None)


async def test_a_monthly_season_rolls_over_at_the_first_game_of_the_next_month(
    db, games, ratings, seasons
):
    await monthly(db)
    await play(games, NOV, (A, 1), (B, 2))
    december = await play(games, ts(2026, 12, 1), (A, 1), (B, 2))
    new, old = await seasons.seasons(GUILD)
    assert (old.number, old.ends_at, old.closed_at) == (1, ts(2026, 12, 1), ts(2026, 12, 1))
    assert (new.number, new.starts_at, new.ends_at) == (2, ts(2026, 12, 1), ts(2027, 1, 1))
    assert {c.season for c in await ratings.changes_of_game(december)} == {2}


async def test_last_seasons_final_standings_stay_as_they_were(db, games, ratings):
    await monthly(db)
    await play(games, NOV, (A, 1), (B, 2))
    final, _, _ = await ratings.leaderboard(GUILD, 1)
    await play(games, ts(2026, 12, 2), (A, 2), (B, 1))
    await play(games, ts(2026, 12, 3), (A, 2), (B, 1))
    assert (await ratings.leaderboard(GUILD, 1))[0] == final
    december, _, _ = await ratings.leaderboard(GUILD, 2)
    assert [r.user_id for r in december] == [B, A]


async def test_a_new_season_starts_from_the_softened_rating(db, games, ratings):
    await monthly(db)
    for i in range(5):
        await play(games, NOV + i, (A, 1), (B, 2))
    november = (await ratings.player_rating(GUILD, A, 1)).rating
    first = await play(games, ts(2026, 12, 5), (A, 1), (B, 2))
    start = (await ratings.changes_of_game(first))[0].shown_before
    assert 1000 < start < november


async def test_the_keeper_rolls_ended_seasons_without_a_game(db, games, seasons):
    await monthly(db)
    await play(games, NOV, (A, 1), (B, 2))
    assert await seasons.sync_due(now=ts(2026, 11, 30, 23, 59, 59)) == []
    (opened,) = await seasons.sync_due(now=ts(2026, 12, 1))
    assert opened.number == 2
    assert [(s.guild_id, s.number) for s in await seasons.to_announce()] == [(GUILD, 1)]
    await seasons.mark_announced(GUILD, 1, now=ts(2026, 12, 1))
    assert await seasons.to_announce() == []


async def test_after_a_long_pause_the_next_season_is_the_current_month(db, games, seasons):
    await monthly(db)
    await play(games, NOV, (A, 1), (B, 2))
    (opened,) = await seasons.sync_due(now=ts(2027, 3, 15))
    assert (opened.number, opened.starts_at, opened.ends_at) == (
        2, ts(2027, 3, 1), ts(2027, 4, 1))


async def test_turning_seasons_on_ends_the_open_season_at_the_next_boundary(db, games, seasons):
    await play(games, NOV, (A, 1), (B, 2))
    await monthly(db)
    season = await seasons.sync(GUILD, now=NOV + 60)
    assert (season.number, season.ends_at) == (1, ts(2026, 12, 1))


async def test_servers_whose_oldest_games_predate_ratings_are_found(db, games, ratings):
    unrated = GameStore(db)  # as the store was before ratings: results only
    await play(unrated, ts(2026, 3, 1), (A, 1), ("normal", 2), guild=GUILD)
    await play(games, ts(2026, 3, 2), (A, 1), ("normal", 2), guild=GUILD)  # rated live
    await play(games, ts(2026, 3, 2), (A, 1), ("normal", 2), guild=GUILD + 1)
    assert await ratings.guilds_with_unrated_games() == [GUILD]


async def test_a_server_whose_oldest_game_was_rated_for_nobody_is_not_taken_for_unrated(
    games, ratings
):
    # A kick left one player: no rating change at all. That is no game from before ratings
    # (or every start-up would rerate the server).
    await play(games, ts(2026, 3, 1), (A, 2), (B, 1), kicked={B})
    await play(games, ts(2026, 3, 2), (A, 1), ("normal", 2))
    assert await ratings.guilds_with_unrated_games() == []
