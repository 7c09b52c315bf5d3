"""StatsStore: leaderboards and statistics over a small, hand-computed set of games.

The games are written through GameStore.commit_move(finished=...), the path the bot uses.

    game  when (UTC)            variant  seats: user score place won tokens clean
    g1    2024-01-10            classic  A 5 1 W 5 2 | B 20 2 - 2 0 | E 50 3 - 50 0
    g2    2024-01-20            classic  A 12 3 - 12 1 | B 3 1 W 3 3 | AI 8 2 | E 50 4
    g3    2024-01-31 23:59:59   party    A 7 2 - 7 0 | C 2 1 W 2 2 | E 50 3
    g4    2024-02-01 00:00:00   party    A 0 1 W 0 2 | C 0 1 W 4 1 (shared win) | B 15 3 | E 50 4
    g5    2024-02-02            classic  A 10 1 W 16 1 | D 30 3 - 30 0 | AI 11 2 | E 50 4
    g6    2024-02-03            classic  A 4 2 - 4 1 | D 1 1 W 1 4
    (and one game in another server, which must never count here)

    player games wins  score avg   tokens  per game  clean
    A      6     3     38    6.33  44      7.33      7
    B      3     1     38    12.67 20      6.67      3
    C      2     2     2     1.00  6       3.00      3
    D      2     1     31    15.50 31      15.50     4
    E      5     0     250   50.00 250     50.00     0
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from store import (
    RESULT_SORTS,
    Actor,
    Dialect,
    FinishedGame,
    GameStore,
    LeaderboardSort,
    NewSeat,
    SeatResult,
    StatsStore,
)
from tests.support.backends import vacuum_analyze

GUILD, OTHER_GUILD = 10, 11
A, B, C, D, E = 1, 2, 3, 4, 5
AI = None
W, L = True, False


def ts(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())


FEBRUARY = ts(2024, 2, 1)

GAMES = [
    (ts(2024, 1, 10), "classic", [(A, 5, 1, W, 5, 2), (B, 20, 2, L, 2, 0), (E, 50, 3, L, 50, 0)]),
    (ts(2024, 1, 20), "classic", [(A, 12, 3, L, 12, 1), (B, 3, 1, W, 3, 3), (AI, 8, 2, L, 8, 1),
                                  (E, 50, 4, L, 50, 0)]),
    (ts(2024, 1, 31, 23, 59, 59), "party", [(A, 7, 2, L, 7, 0), (C, 2, 1, W, 2, 2),
                                            (E, 50, 3, L, 50, 0)]),
    (FEBRUARY, "party", [(A, 0, 1, W, 0, 2), (C, 0, 1, W, 4, 1), (B, 15, 3, L, 15, 0),
                         (E, 50, 4, L, 50, 0)]),
    (ts(2024, 2, 2), "classic", [(A, 10, 1, W, 16, 1), (D, 30, 3, L, 30, 0), (AI, 11, 2, L, 11, 0),
                                 (E, 50, 4, L, 50, 0)]),
    (ts(2024, 2, 3), "classic", [(A, 4, 2, L, 4, 1), (D, 1, 1, W, 1, 4)]),
]
ELSEWHERE = (ts(2024, 2, 4), "classic", [(A, 0, 1, W, 0, 5), (B, 9, 2, L, 9, 0)])


async def play(games: GameStore, when: int, variant: str, rows, guild: int = GUILD,
               kicked=()) -> int:
    """A finished game; the users in `kicked` were kicked from it while it ran."""
    seats = [NewSeat.ai(f"Lama {i}", "easy") if user is AI else NewSeat.human(user, f"P{user}")
             for i, (user, *_) in enumerate(rows)]
    game = await games.create_lobby(
        guild_id=guild, channel_id=guild * 100, host_user_id=rows[0][0], variant=variant,
        target=40, turn_timeout_s=120, ai_delay_s=1, now=when - 600, seats=seats)
    await games.start_game(game.id, seed=7, state={"round": 1}, now=when - 500)
    for seat, (user, *_) in enumerate(rows):
        if user in kicked:
            await games.hand_seat_to_ai(game.id, seat, ai_level="normal", now=when - 100,
                                        kicked=True)
    results = tuple(SeatResult(i, score, place, won, tokens, clean)
                    for i, (_, score, place, won, tokens, clean) in enumerate(rows))
    await games.commit_move(game.id, 1, 0, {"quit": True}, Actor.HUMAN, {"over": True}, when,
                            round_number=3, finished=FinishedGame(3, results))
    return game.id


@pytest.fixture
async def stats(db):
    games = GameStore(db)
    for when, variant, rows in GAMES:
        await play(games, when, variant, rows)
    await play(games, *ELSEWHERE, guild=OTHER_GUILD)
    return StatsStore(db)


async def ranking(stats, sort, *, guild=GUILD, limit=100, **filters):
    """The rows of one leaderboard page, as the bot reads them (a slice of the ranking)."""
    return list((await stats.leaderboard_slice(guild, sort, limit=limit, **filters)).rows)


async def board(stats, sort, **filters):
    return [(r.rank, r.user_id) for r in await ranking(stats, sort, **filters)]


async def count_ranked(stats, sort, **filters):
    return (await stats.leaderboard_slice(GUILD, sort, limit=1, **filters)).total


async def rank_of(stats, user, sort, guild=GUILD):
    return (await stats.leaderboard_slice(guild, sort, limit=1, user_id=user)).me


# --- each sort, all time --------------------------------------------------------------------


async def test_wins_count_shared_wins_and_break_ties_by_fewer_games(stats):
    assert await board(stats, LeaderboardSort.WINS) == [(1, A), (2, C), (3, D), (3, B), (5, E)]


async def test_games_played_ranks_ties_together(stats):
    assert await board(stats, LeaderboardSort.GAMES) == [(1, A), (2, E), (3, B), (4, C), (4, D)]


async def test_average_final_score_lower_is_better(stats):
    rows = await ranking(stats, LeaderboardSort.AVG_SCORE)
    assert [(r.rank, r.user_id) for r in rows] == [(1, C), (2, A), (3, B), (4, D), (5, E)]
    assert rows[1].avg_score == pytest.approx(38 / 6)


async def test_tokens_rank_by_penalty_points_per_game_lower_is_better(stats):
    rows = await ranking(stats, LeaderboardSort.TOKENS)
    assert [(r.rank, r.user_id) for r in rows] == [(1, C), (2, B), (3, A), (4, D), (5, E)]
    assert (rows[2].tokens, rows[2].tokens_per_game) == (44, pytest.approx(44 / 6))


async def test_clean_rounds_rank_ties_together(stats):
    assert await board(stats, LeaderboardSort.CLEAN_ROUNDS) == [
        (1, A), (2, D), (3, C), (3, B), (5, E)]


async def test_win_rate_only_ranks_players_with_at_least_five_games(stats):
    rows = await ranking(stats, LeaderboardSort.WIN_RATE)
    assert [(r.rank, r.user_id, r.games, r.win_rate) for r in rows] == [
        (1, A, 6, 0.5), (2, E, 5, 0.0)]
    assert await count_ranked(stats, LeaderboardSort.WIN_RATE) == 2


async def test_a_row_carries_every_number_of_the_player(stats):
    (row,) = [r for r in await ranking(stats, LeaderboardSort.WINS) if r.user_id == A]
    assert (row.games, row.wins, row.tokens, row.clean_rounds) == (6, 3, 44, 7)
    assert (row.win_rate, row.avg_score) == (0.5, pytest.approx(38 / 6))


async def test_ai_seats_are_never_ranked(stats):
    ranked = {r.user_id for r in await ranking(stats, LeaderboardSort.GAMES)}
    assert ranked == {A, B, C, D, E}
    assert await count_ranked(stats, LeaderboardSort.GAMES) == 5


async def test_games_of_another_server_do_not_count(stats):
    assert [r.games for r in await ranking(stats, LeaderboardSort.GAMES, limit=1)] == [6]
    other = await ranking(stats, LeaderboardSort.WINS, guild=OTHER_GUILD)
    assert [(r.user_id, r.games, r.wins) for r in other] == [(A, 1, 1), (B, 1, 0)]


# --- filters and pages ----------------------------------------------------------------------


async def test_variant_filter(stats):
    assert await board(stats, LeaderboardSort.WINS, variant="classic") == [
        (1, A), (2, B), (2, D), (4, E)]
    assert await board(stats, LeaderboardSort.WINS, variant="party") == [
        (1, C), (2, A), (3, B), (3, E)]


async def test_period_filter_starts_exactly_at_the_month_boundary(stats):
    assert await board(stats, LeaderboardSort.WINS, since=FEBRUARY) == [
        (1, A), (2, C), (2, D), (4, B), (4, E)]
    one_second_earlier = await ranking(stats, LeaderboardSort.WINS, since=FEBRUARY - 1)
    assert {r.user_id: r.wins for r in one_second_earlier}[C] == 2  # g3 at 23:59:59 counts


async def test_variant_and_period_filters_combine(stats):
    assert await board(stats, LeaderboardSort.WINS, variant="classic", since=FEBRUARY) == [
        (1, A), (1, D), (3, E)]


async def test_pages_follow_the_ranking(stats):
    page = await ranking(stats, LeaderboardSort.GAMES, limit=2, offset=2)
    assert [(r.rank, r.user_id) for r in page] == [(3, B), (4, C)]


async def test_rank_of_a_player_off_the_first_page(stats):
    row = await rank_of(stats, D, LeaderboardSort.WINS)
    assert (row.rank, row.wins, row.games) == (3, 1, 2)


async def test_rank_of_an_unranked_player_is_none(stats):
    assert await rank_of(stats, B, LeaderboardSort.WIN_RATE) is None
    assert await rank_of(stats, 999, LeaderboardSort.WINS) is None


async def test_count_ranked_follows_the_filters(stats):
    assert await count_ranked(stats, LeaderboardSort.WINS, variant="party") == 4
    assert await count_ranked(stats, LeaderboardSort.WINS, since=ts(2024, 2, 3)) == 2


@pytest.mark.parametrize("sort", RESULT_SORTS)
@pytest.mark.parametrize(("variant", "since"), [(None, None), ("classic", None),
                                                (None, FEBRUARY), ("classic", FEBRUARY)])
async def test_every_leaderboard_reads_a_covering_index(
    stats, sort, variant, since, db, db_location
):
    await vacuum_analyze(db_location)
    plan = await stats.explain_leaderboard(GUILD, sort, variant, since, as_if_large=True)
    if db.dialect is Dialect.SQLITE:
        reads = [line for line in plan if "game_results" in line]
        assert reads and all(line.startswith("SEARCH game_results USING COVERING INDEX")
                             for line in reads), plan
    else:  # PostgreSQL's name for reading the index alone, never the table
        index = "results_by_guild_variant_user" if variant else "results_by_guild_user"
        reads = [line for line in plan if " on game_results" in line]
        assert reads and all(f"Index Only Scan using {index} " in line for line in reads), plan


# --- one player -----------------------------------------------------------------------------


async def test_player_stats_totals(stats):
    s = await stats.player_stats(GUILD, A)
    assert (s.games, s.wins, s.win_rate, s.best_score, s.tokens, s.clean_rounds) == (
        6, 3, 0.5, 0, 44, 7)
    assert s.avg_score == pytest.approx(38 / 6)
    assert (s.favourite_variant, s.games_vs_ai) == ("classic", 2)


async def test_player_stats_last_five_games_newest_first(stats):
    s = await stats.player_stats(GUILD, A)
    assert [(r.finished_at, r.variant, r.place, r.final_score, r.won) for r in s.last_games] == [
        (ts(2024, 2, 3), "classic", 2, 4, False),
        (ts(2024, 2, 2), "classic", 1, 10, True),
        (FEBRUARY, "party", 1, 0, True),
        (ts(2024, 1, 31, 23, 59, 59), "party", 2, 7, False),
        (ts(2024, 1, 20), "classic", 3, 12, False),
    ]


async def test_streak_ended_by_the_last_game(stats):
    s = await stats.player_stats(GUILD, A)  # W L L W W L
    assert (s.current_streak, s.longest_streak) == (0, 2)


async def test_streak_still_running(stats):
    c = await stats.player_stats(GUILD, C)  # W W
    d = await stats.player_stats(GUILD, D)  # L W
    assert (c.current_streak, c.longest_streak) == (2, 2)
    assert (d.current_streak, d.longest_streak) == (1, 1)


async def test_player_stats_of_someone_who_never_played(stats):
    s = await stats.player_stats(GUILD, 999)
    assert (s.games, s.wins, s.win_rate, s.avg_score, s.favourite_variant) == (
        0, 0, None, None, None)
    assert (s.current_streak, s.longest_streak, s.last_games) == (0, 0, ())


async def test_head_to_head(stats):
    ab = await stats.head_to_head(GUILD, A, B)
    assert (ab.games, ab.a_wins, ab.b_wins, ab.a_ahead, ab.b_ahead) == (3, 2, 1, 2, 1)
    ac = await stats.head_to_head(GUILD, A, C)
    assert (ac.games, ac.a_wins, ac.b_wins, ac.a_ahead, ac.b_ahead) == (2, 1, 2, 0, 1)


async def test_a_game_a_player_was_kicked_from_counts_in_none_of_their_statistics(db):
    games = GameStore(db)
    await play(games, ts(2024, 3, 1), "classic", [(A, 2, 1, L, 2, 3), (B, 9, 2, W, 9, 0)])
    await play(games, ts(2024, 3, 2), "classic", [(A, 3, 1, L, 3, 2), (B, 8, 2, L, 8, 0)],
               kicked={A})
    stats = StatsStore(db)
    mine = await stats.player_stats(GUILD, A)
    assert (mine.games, mine.wins, mine.avg_score, mine.tokens, mine.clean_rounds) == (
        1, 0, 2, 2, 3)
    assert [g.game_id for g in mine.last_games] == [1]
    assert [(r.user_id, r.games) for r in await ranking(stats, "games")] == [(B, 2), (A, 1)]


async def test_a_game_one_of_two_players_was_kicked_from_is_not_between_them(db):
    games = GameStore(db)
    await play(games, ts(2024, 3, 1), "classic", [(A, 2, 1, W, 2, 3), (B, 9, 2, L, 9, 0)])
    await play(games, ts(2024, 3, 2), "classic", [(A, 3, 1, L, 3, 2), (B, 8, 2, W, 8, 0)],
               kicked={A})
    ab = await StatsStore(db).head_to_head(GUILD, A, B)
    assert (ab.games, ab.a_wins, ab.b_wins) == (1, 1, 0)


async def test_recent_games_newest_first_with_players_and_winners(stats):
    latest, before = await stats.recent_games(GUILD, limit=2)
    assert (latest.finished_at, latest.variant, latest.rounds) == (ts(2024, 2, 3), "classic", 3)
    assert [(p.display_name, p.is_ai, p.place) for p in before.players] == [
        ("P1", False, 1), ("P4", False, 3), ("Lama 2", True, 2), ("P5", False, 4)]
    shared = (await stats.recent_games(GUILD, limit=1, offset=2))[0]
    assert [p.user_id for p in shared.winners] == [A, C]


# --- forgetting -----------------------------------------------------------------------------


async def test_forget_user_erases_their_statistics_everywhere(stats):
    assert await stats.forget_user(A) == 7  # six games here, one in the other server
    assert (await stats.player_stats(GUILD, A)).games == 0
    assert await rank_of(stats, A, LeaderboardSort.WINS) is None
    elsewhere = await ranking(stats, LeaderboardSort.WINS, guild=OTHER_GUILD)
    assert A not in {r.user_id for r in elsewhere}


async def test_forget_user_keeps_the_other_players_games_intact(stats):
    before = await ranking(stats, LeaderboardSort.WINS)
    await stats.forget_user(A)
    after = await ranking(stats, LeaderboardSort.WINS)
    assert [(r.user_id, r.games, r.wins) for r in after] == [
        (r.user_id, r.games, r.wins) for r in before if r.user_id != A]
    shared = (await stats.recent_games(GUILD, limit=1, offset=2))[0]
    assert [(p.user_id, p.display_name, p.won) for p in shared.players][:2] == [
        (None, "", True), (C, "P3", True)]
