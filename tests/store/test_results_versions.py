"""A server's results version (store/results_versions.py, migration 0028), on both backends:
raised by every write of what the server's leaderboards show, by whichever store (process)
wrote it, and by nothing else; read in one primary-key look-up."""

from __future__ import annotations

import ast
import re

from hosting.ratings import RULES
from store import (
    Dialect,
    GameStore,
    NewSeat,
    RatingStore,
    SeasonStore,
    SettingsStore,
    StatsStore,
    load_migrations,
)
from store.bulk import BulkGame, BulkSeat, insert_finished_games
from store.records import GuildSettings
from store.results_versions import READ, RESULTS_VERSIONS_SINCE
from tests.store.support import HOST, T0, all_results, migrated, move, ts
from tests.support.backends import vacuum_analyze
from tests.support.code import ROOT, module_name, parsed, production_files

GUILD, OTHER, THIRD = 10, 11, 12
A, B, C = 1, 2, 3


async def finish(games: GameStore, guild: int, *users: int) -> int:
    """A game of `users` finished in `guild` (the first won), through commit_move."""
    game = await games.create_lobby(
        guild_id=guild, channel_id=guild * 100 + len(users), host_user_id=users[0],
        variant="classic", target=40, turn_timeout_s=120, ai_delay_s=1.5, now=T0,
        seats=[NewSeat.human(user, f"P{user}") for user in users])
    await games.start_game(game.id, seed=7, state={"round": 1}, now=T0 + 10)
    await move(games, game.id, 1)
    await move(games, game.id, 2, finished=all_results(
        [(place, place == 1) for place in range(1, len(users) + 1)]))
    return game.id


async def versions(stats: StatsStore) -> tuple[int, int, int]:
    return (await stats.results_version(GUILD), await stats.results_version(OTHER),
            await stats.results_version(THIRD))


async def test_a_finished_game_raises_its_servers_version_and_a_move_does_not(db):
    games, stats = GameStore(db, RULES), StatsStore(db)
    assert await versions(stats) == (0, 0, 0)  # no row yet: nothing written since 0028
    await finish(games, GUILD, A, B)
    first = await versions(stats)
    assert first[0] > 0 and first[1:] == (0, 0)
    game = await games.create_lobby(
        guild_id=GUILD, channel_id=999, host_user_id=HOST, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1.5, now=T0, seats=[NewSeat.human(A, "A"),
                                                          NewSeat.human(B, "B")])
    await games.start_game(game.id, seed=7, state={"round": 1}, now=T0 + 10)
    await move(games, game.id, 1)  # a running game's move shows on no board
    assert await versions(stats) == first
    await move(games, game.id, 2, finished=all_results([(1, True), (2, False)]))
    assert (await versions(stats))[0] > first[0]


async def test_a_game_another_process_finished_shows_in_this_ones_version(stores):
    here, there = stores
    before = await here.stats.results_version(GUILD)
    await finish(GameStore(there.db, RULES), GUILD, A, B)  # the other process's store
    assert await here.stats.results_version(GUILD) > before


async def test_a_forgotten_player_raises_every_server_they_played_in_and_no_other(db):
    games, stats = GameStore(db, RULES), StatsStore(db)
    await finish(games, GUILD, A, B)
    await finish(games, OTHER, C, A)
    await finish(games, THIRD, B, C)
    before = await versions(stats)
    await stats.forget_user(A)
    after = await versions(stats)
    assert after[0] > before[0] and after[1] > before[1] and after[2] == before[2]
    await stats.forget_user(A)  # nothing of them is left to change
    assert await versions(stats) == after


async def test_a_rerate_raises_its_servers_version(db):
    await finish(GameStore(db, RULES), GUILD, A, B)
    stats = StatsStore(db)
    before = await versions(stats)
    await RatingStore(db).replace_ratings(GUILD, [], [])
    after = await versions(stats)
    assert after[0] > before[0] and after[1:] == before[1:]


async def test_a_season_rolled_over_re_ended_or_announced_raises_its_servers_version(db):
    await SettingsStore(db).save_settings(GuildSettings(GUILD, season_cadence="monthly"),
                                          now=ts(2026, 11, 1))
    games, stats, seasons = GameStore(db, RULES), StatsStore(db), SeasonStore(db, RULES)
    await finish(games, GUILD, A, B)  # T0 (2023-11): the first season opens
    steps = []
    steps.append(await stats.results_version(GUILD))
    await seasons.sync_due(now=ts(2024, 1, 1))  # the keeper rolls it over, no game needed
    steps.append(await stats.results_version(GUILD))
    await seasons.mark_announced(GUILD, 1, now=ts(2024, 1, 1))
    steps.append(await stats.results_version(GUILD))
    await SettingsStore(db).save_settings(GuildSettings(GUILD, season_cadence="off"),
                                          now=ts(2024, 1, 2))
    await seasons.sync(GUILD, now=ts(2024, 1, 2))  # a new cadence re-ends the open season
    steps.append(await stats.results_version(GUILD))
    assert steps == sorted(set(steps)) and len(steps) == 4, steps
    assert await stats.results_version(OTHER) == 0


async def test_bulk_loaded_games_raise_their_servers_versions(db):
    stats = StatsStore(db)
    seats = [BulkSeat(A, "A", 0, 1, True, 0, 1), BulkSeat(B, "B", 20, 2, False, 0, 0)]
    await insert_finished_games(db, [BulkGame(guild, 1, "classic", 40, 3, T0, seats)
                                     for guild in (GUILD, GUILD, THIRD)])
    assert await versions(stats) == (1, 0, 1)


async def test_bulk_loads_into_a_schema_from_before_the_versions_raise_nothing(tmp_path):
    db = await migrated(tmp_path / "old.sqlite3", RESULTS_VERSIONS_SINCE - 1)
    seats = [BulkSeat(A, "A", 0, 1, True, 0, 1), BulkSeat(B, "B", 20, 2, False, 0, 0)]
    assert await insert_finished_games(db, [BulkGame(GUILD, 1, "classic", 40, 3, T0, seats)]) == 1
    await db.close()
    step = next(m for m in load_migrations(Dialect.SQLITE) if m.version == RESULTS_VERSIONS_SINCE)
    assert step.name == "results_versions"


async def test_the_version_is_one_look_up_of_the_servers_row(db, db_location):
    await finish(GameStore(db, RULES), GUILD, A, B)
    await vacuum_analyze(db_location)
    async with db.read() as tx:
        plan = await tx.explain(READ, (GUILD,), as_if_large=True)
    if db.dialect is Dialect.SQLITE:
        assert plan == ["SEARCH results_versions USING PRIMARY KEY (guild_id=?)"], plan
    else:
        assert "using results_versions_pkey on results_versions" in plan[0], plan


# What a board shows is written by these functions (store/results_versions.py says who raises
# the version for each); a new writer must be added there and here.
SHOWN = re.compile(r"\b(INSERT INTO|UPDATE|DELETE FROM)\s+(finished_games|game_results|ratings|"
                   r"rating_changes|seasons)\b")
KNOWN_WRITERS = {
    "store.bulk.insert_finished_games",  # raises
    "store.game_rows.write_results",  # move_commit._finish raises
    "store.ratings._save_states", "store.ratings._save_changes",  # _finish, replace_ratings
    "store.ratings.RatingStore.replace_ratings.replace",  # raises
    "store.ratings.forget_ratings",  # stats.forget_user raises
    "store.seasons.sync_season", "store.seasons._open",  # _finish, SeasonStore.sync raise
    "store.seasons.SeasonStore.mark_announced.mark",  # raises
    "store.stats.StatsStore.forget_user.forget",  # raises
}


def _writers(tree: ast.AST, module: str) -> set[str]:
    found: set[str] = set()

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, f"{scope}.{child.name}")
            elif isinstance(child, ast.Constant) and isinstance(child.value, str):
                if SHOWN.search(child.value):
                    found.add(scope)
            else:
                visit(child, scope)
    visit(tree, module)
    return found


def test_every_write_of_what_a_board_shows_is_one_whose_version_raise_is_known():
    writers = set().union(*(_writers(parsed(path), module_name(path))
                            for path in production_files()
                            if path.relative_to(ROOT).parts[0] == "store"))
    assert writers == KNOWN_WRITERS
