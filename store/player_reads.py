"""The statements of one player's statistics in one server (`/lama stats`, the player's web
page): each reads only that player's entries of the `results_by_guild_user` index, in its
order, and no row of the table (tests/store/test_player_reads.py checks the plans). At
100,000 games a flood of players' pages reads these all the time (issue 33): one statement
that scanned the server's whole results (the favourite, by the variant index) or sorted a
player's games again (the streaks, before migration 0030) was a core's worth of reads.

Named parameters: `guild_id`, `user_id`. A kicked player's game counts for them no more in
the statistics than in the ratings (migration 0025).
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

STATEMENTS = {"totals": TOTALS, "favourite variant": FAVOURITE_VARIANT, "streaks": STREAKS,
              "last games": LAST_GAMES}
