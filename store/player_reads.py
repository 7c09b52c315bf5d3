"""The statements of one player's statistics in one server (`/lama stats`, the player's web
page): each reads only that player's entries of the `results_by_guild_user` index, in its
order, and no row of the table (tests/store/test_player_reads.py checks the plans). At
100,000 games a flood of players' pages reads these all the time (issue 33): one statement
that scanned the server's whole results (the favourite, by the variant index) or sorted a
player's games again (the streaks, before migration 0030) was a core's worth of reads.

Named parameters: `guild_id`, `user_id` (the head-to-head: `guild_id`, `a`, `b`). A kicked
player's game counts for them no more in the statistics than in the ratings (migration 0025).
"""

THEIRS = "guild_id = :guild_id AND user_id = :user_id AND kicked = 0"

TOTALS = (
    "SELECT COUNT(*) AS games, COALESCE(SUM(won), 0) AS wins, "
    "AVG(CAST(final_score AS DOUBLE PRECISION)) AS avg_score, "
    "MIN(final_score) AS best_score, "
    "COALESCE(SUM(tokens_collected), 0) AS tokens, "
    "COALESCE(SUM(clean_rounds), 0) AS clean_rounds, "
    "COALESCE(SUM(vs_ai), 0) AS games_vs_ai "
    f"FROM game_results WHERE {THEIRS}"
)

# The player's rows first (MATERIALIZED): grouped by variant straight from the table, SQLite
# took the (guild, variant, …) index for its order and read the whole server's results,
# 20-30 ms at 100,000 games, for every player.
FAVOURITE_VARIANT = (
    "WITH theirs AS MATERIALIZED ("
    f"SELECT variant, finished_at FROM game_results WHERE {THEIRS}) "
    "SELECT variant FROM theirs GROUP BY variant "
    "ORDER BY COUNT(*) DESC, MAX(finished_at) DESC, variant LIMIT 1"
)

# (current, longest) run of won games, in finishing order. Gaps and islands: counting the
# games not won so far gives every run of wins its own group number; the current streak is
# the group after the last game not won.
STREAKS = f"""
    WITH ordered AS (
        SELECT won,
               SUM(1 - won) OVER (ORDER BY finished_at, game_id
                                  ROWS UNBOUNDED PRECEDING) AS losses_so_far
        FROM game_results WHERE {THEIRS}
    ), runs AS (
        SELECT losses_so_far, COUNT(*) AS length FROM ordered
        WHERE won = 1 GROUP BY losses_so_far
    )
    SELECT COALESCE((SELECT length FROM runs WHERE losses_so_far =
                        (SELECT MAX(losses_so_far) FROM ordered)), 0) AS current,
           COALESCE((SELECT MAX(length) FROM runs), 0) AS longest
    """

LAST_GAMES = (
    "SELECT game_id, finished_at, variant, place, final_score, won "
    f"FROM game_results WHERE {THEIRS} "
    "ORDER BY finished_at DESC, game_id DESC LIMIT 5"
)

# How a and b fared in the games they both played in the server (but for one either of them
# was kicked from). Each side is a seek in the player index: a game's rows share its server
# and finishing time (copied from finished_games), so b's row of a's game is (server, b,
# finished_at, game_id) in the index. Joined by game_id alone, on the index of migration
# 0030 SQLite walked b's games and scanned all of a's entries for each (37 s for the two
# busiest players of 100,000 games).
HEAD_TO_HEAD = (
    "SELECT COUNT(*) AS games, "
    "COALESCE(SUM(a.won), 0) AS a_wins, COALESCE(SUM(b.won), 0) AS b_wins, "
    "COALESCE(SUM(CASE WHEN a.place < b.place THEN 1 ELSE 0 END), 0) AS a_ahead, "
    "COALESCE(SUM(CASE WHEN b.place < a.place THEN 1 ELSE 0 END), 0) AS b_ahead "
    "FROM game_results a JOIN game_results b ON b.game_id = a.game_id "
    "AND b.guild_id = a.guild_id AND b.finished_at = a.finished_at "
    "WHERE a.guild_id = :guild_id AND a.user_id = :a AND b.user_id = :b "
    "AND a.kicked = 0 AND b.kicked = 0"
)

STATEMENTS = {"totals": TOTALS, "favourite variant": FAVOURITE_VARIANT, "streaks": STREAKS,
              "last games": LAST_GAMES}
