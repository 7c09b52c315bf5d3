"""Moving a server's whole history from the SQLite file of one process to the PostgreSQL
database several share (python -m store.copy): every row as it was, ids kept, new ids after
the copied ones, running games going on, a rerate of the copy matching its ratings, and a
destination that already holds data refused untouched."""

from __future__ import annotations

import pytest

from hosting import FakeClock, GameOptions, GameService, Preferences, Status
from hosting.ratings import RULES
from hosting.rerating import rerate_all
from store import Store
from store.copy import OWN_TABLES, TABLES, CopyRefused, copy, main, tables_of
from store.db import open_database
from store.records import GuildSettings
from tests.hosting.tournament_support import World, new_tournament, play_out, play_round
from tests.store.support import snapshot

GUILD, CASUAL_CHANNEL = 10, 777
NOW = 1_800_000_000


async def fill(location) -> int:
    """A lived-in database: a played tournament round (games, moves, results, ratings,
    seasons, entries, tables), settings of every kind, a rematch, and a game left running.
    Returns the running game's id."""
    store = await Store.open(location, rules=RULES)
    world = World(store, FakeClock(NOW))
    await store.settings.save_settings(
        GuildSettings(GUILD, locale="cs", season_cadence="monthly"), now=NOW)
    await store.settings.set_user_locale(2, "es", now=NOW)
    await store.settings.set_turn_dms(3, False, now=NOW)
    await store.site.ensure_access(GUILD, "s3cret", now=NOW)
    await store.settings.identity()
    tournament = await new_tournament(world, rounds=1)
    await world.tournaments.start(tournament.id, 1, is_admin=True)
    await play_round(world, tournament.id)
    finished = await _running_game(world, CASUAL_CHANNEL, host=6)
    await play_out(world, finished)
    await world.games.rematch(finished, 6, "P6")  # a lobby naming the game it replays
    running = await _running_game(world, CASUAL_CHANNEL + 1, host=7)
    await store.close()
    return running


async def _running_game(world: World, channel: int, host: int) -> int:
    """A casual game with a few moves made, left running."""
    lobby = await world.games.open_lobby(GUILD, channel, host, f"P{host}", GameOptions(),
                                         ai_seats=2)
    game_id = lobby.view.game_id
    await world.games.start(game_id, host)
    while len(await world.store.games.list_moves(game_id)) < 4:
        view = world.games.view(game_id)
        if view.seats[view.current_seat].user_id == host:
            await world.games.draw(game_id, host)
        else:
            world.clock.advance(5)
            await world.games.fire_due_timers()
    return game_id


async def dump(location) -> dict[str, list[tuple]]:
    """Every copied table's rows in key order, without the columns a database numbers itself."""
    db = await open_database(location)
    try:
        async with db.read() as tx:
            rows = {}
            for table in TABLES:
                order = f" ORDER BY {', '.join(table.key)}" if table.key else ""
                found = [tuple(r[k] for k in r.keys() if k not in table.numbered)  # noqa: SIM118
                         for r in await tx.fetchall(f"SELECT * FROM {table.name}{order}")]
                # Keyless: the dialects sort NULLs apart, so in an order of our own.
                rows[table.name] = found if table.key else sorted(found, key=repr)
            return rows
    finally:
        await db.close()


@pytest.fixture
async def source(tmp_path):
    path = tmp_path / "lama.sqlite3"
    running = await fill(path)
    return path, running


async def test_every_row_of_every_table_arrives_as_it_was(source, postgres_url):
    path, _ = source
    before = await dump(path)
    report = await copy(path, postgres_url)
    after = await dump(postgres_url)
    assert after == before
    assert report.rows == {name: len(rows) for name, rows in before.items()}
    assert all(before[t] for t in ("moves", "game_results", "ratings", "rating_changes",
                                   "tournament_tables", "web_sites", "user_notify"))
    db = await open_database(postgres_url)
    async with db.read() as tx:
        rematches = await tx.fetchone("SELECT COUNT(*) AS n FROM games WHERE rematch_of > 0")
    await db.close()
    assert rematches is not None and rematches["n"] == 1


async def test_a_copy_goes_back_from_postgresql_to_sqlite(source, postgres_url, tmp_path):
    path, _ = source
    before = await dump(path)
    await copy(path, postgres_url)
    await copy(postgres_url, tmp_path / "back.sqlite3")
    assert await dump(tmp_path / "back.sqlite3") == before


async def test_the_copy_takes_the_identity_along_and_the_source_gets_a_new_one(
        source, postgres_url):
    """Buttons posted before the move name the database: they work on the copy, and are
    refused by the old file if it is ever started again (its games number on apart)."""
    path, _ = source
    old = await Store.open(path)
    before = await old.settings.identity()
    await old.close()
    await copy(path, postgres_url)
    identities = []
    for location in (path, postgres_url):
        store = await Store.open(location)
        identities.append(await store.settings.identity())
        await store.close()
    assert identities[0] != identities[1] == before


@pytest.mark.parametrize("into", ["postgresql", "sqlite"])
async def test_new_games_and_tournaments_are_numbered_after_the_copied_ones(
        into, source, postgres_url, tmp_path):
    path, _ = source
    destination = postgres_url if into == "postgresql" else tmp_path / "copy.sqlite3"
    await copy(path, destination)
    copied = await dump(destination)
    store = await Store.open(destination, rules=RULES)
    world = World(store, FakeClock(NOW + 10))
    lobby = await world.games.open_lobby(GUILD, 4242, 9, "P9", GameOptions())
    tournament = await world.tournaments.create(GUILD, 4343, 9, name="Autumn", rounds=1,
                                                table_size=4, variant="classic")
    await store.close()
    assert lobby.view.game_id == max(row[0] for row in copied["games"]) + 1
    assert tournament.id == max(row[0] for row in copied["tournaments"]) + 1


async def test_a_running_game_goes_on_in_the_copy(source, postgres_url):
    path, running = source
    await copy(path, postgres_url)
    store = await Store.open(postgres_url, rules=RULES)
    clock = FakeClock(NOW + 60)
    games = GameService(store, clock, preferences=Preferences(store, clock))
    try:
        restored = await games.restore()
        assert running in [view.game_id for view in restored]
        world = World(store, clock)
        world.games = games
        await play_out(world, running)
        assert games.view(running).status is Status.FINISHED
    finally:
        await store.close()


async def test_a_rerate_of_the_copy_reproduces_its_ratings(source, postgres_url):
    path, _ = source
    await copy(path, postgres_url)
    store = await Store.open(postgres_url, rules=RULES)
    copied = await snapshot(store)
    await rerate_all(store)
    assert await snapshot(store) == copied
    await store.close()


async def test_a_destination_that_holds_games_is_refused_and_left_as_it_was(
        source, postgres_url):
    path, _ = source
    await copy(path, postgres_url)
    before = await dump(postgres_url)
    with pytest.raises(CopyRefused, match="already holds data"):
        await copy(path, postgres_url)
    assert await dump(postgres_url) == before


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
async def test_the_copy_names_every_table_of_the_schema(dialect, tmp_path, postgres_url):
    location = tmp_path / "lama.sqlite3" if dialect == "sqlite" else postgres_url
    db = await open_database(location)
    async with db.read() as tx:
        tables = await tables_of(tx)
    await db.close()
    assert tables - OWN_TABLES == {table.name for table in TABLES}


def test_the_command_line_copies_and_says_how_much(tmp_path, capsys):
    import asyncio

    asyncio.run(fill(tmp_path / "lama.sqlite3"))
    main([str(tmp_path / "lama.sqlite3"), str(tmp_path / "copy.sqlite3")])
    out = capsys.readouterr().out
    assert "games:" in out and "moves:" in out and "Copied in" in out


def test_the_command_line_refuses_a_destination_with_data_in_one_line(tmp_path, capsys):
    import asyncio

    asyncio.run(fill(tmp_path / "lama.sqlite3"))
    main([str(tmp_path / "lama.sqlite3"), str(tmp_path / "copy.sqlite3")])
    with pytest.raises(SystemExit) as exited:
        main([str(tmp_path / "lama.sqlite3"), str(tmp_path / "copy.sqlite3")])
    assert exited.value.code == 2
    last_line = capsys.readouterr().err.splitlines()[-1]
    assert last_line == ("Nothing copied: the destination already holds data (1 row in "
                         "guild_settings): copy into a new, empty database.")


def test_the_command_line_names_a_missing_source(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main([str(tmp_path / "nowhere.sqlite3"), str(tmp_path / "copy.sqlite3")])
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "copy.sqlite3").exists()


@pytest.mark.parametrize("mistyped", ["postgresql:/db", "postgres:lamabot", "postgresq://db"])
def test_the_command_line_refuses_a_mistyped_url_instead_of_making_a_file(
        mistyped, tmp_path, capsys, monkeypatch):
    import asyncio

    asyncio.run(fill(tmp_path / "lama.sqlite3"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main([str(tmp_path / "lama.sqlite3"), mistyped])
    assert "neither a file nor a postgresql://" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("postgres")] == []


async def test_a_game_s_unshown_moves_arrive_whole_however_the_pages_fall(
        source, postgres_url, monkeypatch):
    """The render outbox holds a row per unshown move (several per game): paging by the game
    alone would skip those of a game split across two pages."""
    import store.copy

    path, _ = source
    monkeypatch.setattr(store.copy, "PAGE", 2)
    await copy(path, postgres_url)
    before, after = await dump(path), await dump(postgres_url)
    assert len(before["render_outbox"]) > len({row[0] for row in before["render_outbox"]})
    assert after["render_outbox"] == before["render_outbox"]


@pytest.mark.parametrize("held", ["source", "destination"])
async def test_a_copy_is_refused_while_a_bot_runs_on_either_database(
        source, postgres_url, held):
    """A bot running on the source would commit moves the copy misses; one on the destination
    would number games the copy brings. Each bot process holds its database's running mark
    while it runs (bot.py); the copy refuses, and writes nothing, while anyone holds it."""
    path, _ = source
    location = path if held == "source" else postgres_url
    bot = await open_database(location)
    mark = await bot.hold_running()
    assert mark is not None
    try:
        with pytest.raises(CopyRefused, match="a LamaBot process runs on"):
            await copy(path, postgres_url)
    finally:
        await mark.release()
        await bot.close()
    assert (await dump(postgres_url))["games"] == []
    await copy(path, postgres_url)  # stopped: the copy goes through
