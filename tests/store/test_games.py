"""GameStore: lobbies, seats, moves, state, timers, restore. Real SQLite files and a real
PostgreSQL server, no mocks."""

from __future__ import annotations

import asyncio

import pytest

from store import (
    Actor,
    AlreadySeated,
    ChannelHasActiveGame,
    FinishedGame,
    GameStatus,
    GameStore,
    InteractionAlreadyApplied,
    LobbyChanged,
    LobbyFull,
    MessageRef,
    NewSeat,
    SeatResult,
    SeqConflict,
    WrongGameStatus,
    load_migrations,
    open_database,
)
from store.backend import Dialect
from store.bulk import BulkGame, BulkSeat, insert_finished_games
from store.game_rows import active_game_in_channel, lock_game_row
from store.postgres import is_postgres_url
from tests.store.support import CHANNEL, GUEST, GUILD, HOST, T0, all_results, lobby, move, running
from tests.support.backends import INTEGRITY_ERRORS, count_trips

# --- lobby ----------------------------------------------------------------------------------


async def test_create_lobby_returns_the_game_with_its_seats_in_order(games):
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.ai("Lama", "easy")])
    assert game.status is GameStatus.LOBBY
    assert game.state is None and game.seed is None and game.last_seq == 0
    assert [(s.seat, s.user_id, s.is_ai, s.ai_level) for s in game.seats] == [
        (0, HOST, False, None), (1, None, True, "easy")]
    assert game.created_at == game.updated_at == T0


async def test_a_rematch_lobby_remembers_the_game_it_replays(games):
    first = await lobby(games)
    assert first.rematch_of is None
    await games.cancel_game(first.id, now=T0 + 1)
    again = await games.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_user_id=HOST, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1.5, now=T0 + 2, seats=[NewSeat.human(HOST, "Host")],
        rematch_of=first.id,
    )
    assert again.rematch_of == first.id
    assert (await games.get_game(again.id)).rematch_of == first.id


async def test_a_game_knows_its_rematch_unless_that_was_cancelled(games):
    first = await lobby(games)
    await games.cancel_game(first.id, now=T0 + 1)
    assert await games.rematch_of(first.id) is None

    async def rematch(now: int):
        return await games.create_lobby(
            guild_id=GUILD, channel_id=CHANNEL, host_user_id=HOST, variant="classic",
            target=40, turn_timeout_s=120, ai_delay_s=1.5, now=now,
            seats=[NewSeat.human(HOST, "Host")], rematch_of=first.id)

    cancelled = await rematch(T0 + 2)
    assert (await games.rematch_of(first.id)).id == cancelled.id
    await games.cancel_game(cancelled.id, now=T0 + 3)
    assert await games.rematch_of(first.id) is None
    again = await rematch(T0 + 4)
    assert (await games.rematch_of(first.id)).id == again.id


async def test_a_game_remembers_its_thread_without_moving_its_clock(games):
    game = await running(games)
    await games.set_thread(game.id, 777)
    stored = await games.get_game(game.id)
    assert stored.thread_id == 777 and stored.updated_at == game.updated_at


async def test_one_active_game_per_channel(games):
    first = await lobby(games)
    with pytest.raises(ChannelHasActiveGame) as caught:
        await lobby(games)
    assert caught.value.game_id == first.id


async def test_the_database_itself_refuses_a_second_active_game_in_a_channel(games, db):
    await lobby(games)
    with pytest.raises(INTEGRITY_ERRORS):
        async with db.transaction() as tx:
            await tx.execute(
                "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
                "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
                "VALUES (?, ?, 1, 'classic', 40, 120, 1, 'lobby', 0, 0)", (GUILD, CHANNEL))


async def test_a_channel_is_free_again_after_its_game_is_cancelled(games):
    first = await lobby(games)
    await games.cancel_game(first.id, now=T0 + 5)
    second = await lobby(games)
    assert second.id > first.id
    assert (await games.get_game(first.id)).status is GameStatus.CANCELLED


async def test_add_seat_appends_in_join_order(games):
    game = await lobby(games)
    seat = await games.add_seat(game.id, NewSeat.human(GUEST, "Guest"), now=T0 + 1)
    assert (seat.seat, seat.user_id, seat.joined_at) == (1, GUEST, T0 + 1)
    assert (await games.get_game(game.id)).updated_at == T0 + 1


async def test_a_user_cannot_sit_twice_in_one_game(games):
    game = await lobby(games)
    with pytest.raises(AlreadySeated):
        await games.add_seat(game.id, NewSeat.human(HOST, "Again"), now=T0)


async def test_a_full_lobby_refuses_another_seat(games):
    game = await lobby(games)
    await games.add_seat(game.id, NewSeat.human(GUEST, "Guest"), now=T0, max_seats=2)
    with pytest.raises(LobbyFull):
        await games.add_seat(game.id, NewSeat.ai("Lama", "easy"), now=T0, max_seats=2)


async def test_remove_seat_closes_the_gap_keeping_join_order(games):
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest"),
                                     NewSeat.ai("A", "easy"), NewSeat.ai("B", "hard")])
    await games.remove_seat(game.id, 1, now=T0 + 2)
    seats = (await games.get_game(game.id)).seats
    assert [(s.seat, s.display_name) for s in seats] == [(0, "Host"), (1, "A"), (2, "B")]


async def test_an_ai_stored_without_a_number_keeps_its_place_then_as_its_number(games):
    """A lobby stored before every AI had its number: an AI called by its place ("Llama-bot
    3") keeps that name when it moves up; one with a number keeps its number."""
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest"),
                                     NewSeat.ai("A", "easy"), NewSeat.ai("B", "hard", 7)])
    await games.remove_seat(game.id, 1, now=T0 + 2)
    seats = (await games.get_game(game.id)).seats
    assert [(s.seat, s.ai_number) for s in seats] == [(0, None), (1, 3), (2, 7)]


async def test_a_seat_change_from_a_copy_behind_on_the_lobbys_seats_is_refused(games):
    """`seated`: the seats (user ids, None for an AI) the caller's copy has. Another process
    took the guest out meanwhile: every lobby write from that copy is refused, none made."""
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest")])
    await games.remove_seat(game.id, 1, now=T0 + 1)
    stale = [HOST, GUEST]
    with pytest.raises(LobbyChanged):
        await games.add_seat(game.id, NewSeat.human(300, "Late"), now=T0 + 2, seated=stale)
    with pytest.raises(LobbyChanged):
        await games.remove_seat(game.id, 1, now=T0 + 2, seated=stale)
    with pytest.raises(LobbyChanged):
        await games.set_host(game.id, GUEST, now=T0 + 2, seated=stale)
    with pytest.raises(LobbyChanged):
        await games.start_game(game.id, seed=1, state={"round": 1}, now=T0 + 2, seated=stale)
    with pytest.raises(LobbyChanged):  # a host leaving a lobby they think is theirs alone
        await games.cancel_game(game.id, now=T0 + 2, seated=stale)
    stored = await games.get_game(game.id)
    assert [s.user_id for s in stored.seats] == [HOST] and stored.status is GameStatus.LOBBY
    assert stored.host_user_id == HOST
    await games.add_seat(game.id, NewSeat.ai("A", "easy"), now=T0 + 3, seated=[HOST])
    await games.start_game(game.id, seed=1, state={"round": 1}, now=T0 + 4, seated=[HOST, None])


async def test_a_refused_lobby_write_among_others_at_once_undoes_only_itself(games):
    """Writes at once share one trip on SQLite (Database.write): one refused leaves the
    others, and its own game, as they were."""
    pair = [NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest")]
    refused = await lobby(games, seats=pair)
    joined = await lobby(games, channel=CHANNEL + 1, seats=[NewSeat.human(300, "Other")])
    started = await lobby(games, channel=CHANNEL + 2, seats=[NewSeat.human(500, "Third"),
                                                              NewSeat.ai("A", "easy")])
    outcomes = await asyncio.gather(
        games.add_seat(joined.id, NewSeat.human(400, "Joins"), now=T0 + 1, seated=[300]),
        games.remove_seat(refused.id, 1, now=T0 + 1, seated=[HOST]),  # a copy behind
        games.start_game(started.id, seed=1, state={"round": 1}, now=T0 + 1,
                         seated=[500, None]),
        return_exceptions=True)
    assert isinstance(outcomes[1], LobbyChanged)
    assert [s.user_id for s in (await games.get_game(refused.id)).seats] == [HOST, GUEST]
    assert [s.user_id for s in (await games.get_game(joined.id)).seats] == [300, 400]
    assert (await games.get_game(started.id)).status is GameStatus.RUNNING


async def test_seats_cannot_be_added_once_the_game_runs(games):
    game = await running(games)
    with pytest.raises(WrongGameStatus):
        await games.add_seat(game.id, NewSeat.ai("Late", "easy"), now=T0)


async def test_start_game_stores_seed_and_state(games):
    game = await lobby(games)
    started = await games.start_game(
        game.id, seed=2**62, state={"round": 1, "hands": [[1, 2]]}, now=T0 + 10)
    assert started.status is GameStatus.RUNNING
    assert (started.seed, started.state, started.started_at) == (
        2**62, {"round": 1, "hands": [[1, 2]]}, T0 + 10)


async def test_a_game_cannot_start_twice(games):
    game = await running(games)
    with pytest.raises(WrongGameStatus):
        await games.start_game(game.id, seed=1, state={}, now=T0)


# --- moves ----------------------------------------------------------------------------------


async def test_commit_move_appends_the_move_and_saves_the_state(games):
    game = await running(games)
    committed = await move(games, game.id, 1)
    reloaded = await games.get_game(game.id)
    assert (reloaded.last_seq, reloaded.state, reloaded.updated_at) == (1, {"after": 1}, T0 + 101)
    assert committed.action == {"play": 1} and committed.actor is Actor.HUMAN


async def test_moves_replay_in_order(games):
    game = await running(games)
    for seq in range(1, 6):
        await move(games, game.id, seq, seat=seq % 2)
    moves = await games.list_moves(game.id)
    assert [m.seq for m in moves] == [1, 2, 3, 4, 5]
    assert [m.action for m in moves] == [{"play": s} for s in range(1, 6)]
    assert [m.seat for m in moves] == [1, 0, 1, 0, 1]


async def game_of_three_rounds(games):
    """Moves 1-2 in round 1, 3-4 in round 2, 5 in round 3."""
    game = await running(games)
    for seq, round_number in zip(range(1, 6), (1, 1, 2, 2, 3), strict=True):
        await games.commit_move(game.id, seq, 0, {"play": seq}, Actor.HUMAN, {"after": seq},
                                T0 + seq, round_number=round_number)
    return game


async def test_the_moves_to_replay_a_round_are_those_from_its_start_on(games):
    game = await game_of_three_rounds(games)
    assert [m.seq for m in await games.moves_to_replay(game.id, 2)] == [3, 4, 5]
    assert [m.seq for m in await games.moves_to_replay(game.id, 2, first_seq=3)] == [3, 4, 5]


async def test_a_move_wanted_from_an_earlier_round_needs_the_whole_log(games):
    game = await game_of_three_rounds(games)
    assert [m.seq for m in await games.moves_to_replay(game.id, 3, first_seq=4)] == [
        1, 2, 3, 4, 5]


async def test_a_stale_expected_seq_raises_and_changes_nothing(games):
    game = await running(games)
    await move(games, game.id, 1)
    with pytest.raises(SeqConflict) as caught:
        await move(games, game.id, 1)  # a second press computed from the same state
    assert caught.value.next_seq == 2
    assert len(await games.list_moves(game.id)) == 1
    assert (await games.get_game(game.id)).state == {"after": 1}


async def test_one_interaction_is_one_move_even_when_delivered_twice(games):
    game = await running(games)
    await games.commit_move(game.id, 1, 0, {"draw": 1}, Actor.HUMAN, {"after": 1}, T0,
                            round_number=1, interaction_id=555)
    with pytest.raises(InteractionAlreadyApplied) as caught:  # computed from the new state
        await games.commit_move(game.id, 2, 0, {"draw": 1}, Actor.HUMAN, {"after": 2}, T0,
                                round_number=1, interaction_id=555)
    assert (caught.value.game_id, caught.value.seq) == (game.id, 1)
    assert [m.seq for m in await games.list_moves(game.id)] == [1]
    await games.commit_move(game.id, 2, 1, {"draw": 1}, Actor.HUMAN, {"after": 2}, T0,
                            round_number=1, interaction_id=556)  # another interaction moves
    assert (await games.get_game(game.id)).last_seq == 2


async def test_moves_without_an_interaction_are_never_duplicates(games):
    game = await running(games)
    for seq in (1, 2):
        await move(games, game.id, seq, actor=Actor.AI)
    assert [m.seq for m in await games.list_moves(game.id)] == [1, 2]


async def test_the_stored_version_and_a_players_active_games_are_read_from_the_database(games):
    game = await running(games)
    await lobby(games, channel=CHANNEL + 1, seats=[NewSeat.human(GUEST, "Guest")])
    await move(games, game.id, 1)
    assert await games.version(game.id) == (GameStatus.RUNNING, 1)
    assert await games.version(game.id + 99) is None
    assert await games.active_game_ids_of(GUEST) == [game.id, game.id + 1]
    assert await games.active_game_ids_of(HOST) == [game.id]


async def test_versions_asked_for_together_are_one_read_on_postgresql(games, db, monkeypatch):
    """A process checks a game's stored version about once a turn of every game (hosting/
    loader.py): on PostgreSQL those asked for while one read is under way go as one."""
    game = await running(games)
    other = await lobby(games, channel=CHANNEL + 1, seats=[NewSeat.human(GUEST, "Guest")])
    await move(games, game.id, 1)
    statements: list[str] = []
    real = db.fetchall

    async def counted(sql, params=()):
        statements.append(sql)
        return await real(sql, params)

    monkeypatch.setattr(db, "fetchall", counted)
    asked = [game.id, other.id, game.id, game.id + 99]
    found = await asyncio.gather(*(games.version(game_id) for game_id in asked))
    assert found == [(GameStatus.RUNNING, 1), (GameStatus.LOBBY, 0),
                     (GameStatus.RUNNING, 1), None]
    if db.dialect is Dialect.POSTGRESQL:
        assert len(statements) == 1


async def test_a_move_commits_in_one_trip_to_the_sqlite_thread(tmp_path, monkeypatch):
    db = await open_database(tmp_path / "lama.sqlite3")
    games = GameStore(db)
    game = await running(games)
    trips = count_trips(db, monkeypatch)
    await move(games, game.id, 1)
    assert len(trips) == 1
    assert (await games.get_game(game.id)).last_seq == 1
    await db.close()


async def test_message_ids_and_shown_marks_are_stored_in_one_trip_to_the_sqlite_thread(
        tmp_path, monkeypatch):
    """The renderer stores a hand's id at once after each DM; statement by statement that
    held the one writer for several trips, and every move's commit waited behind it."""
    db = await open_database(tmp_path / "lama.sqlite3")
    try:
        games = GameStore(db)
        game = await running(games)
        trips = count_trips(db, monkeypatch)
        await games.save_message_refs(
            [MessageRef(game.id, "table", CHANNEL, 777),
             MessageRef(game.id, "hand", 900, 901, seat=1, round_number=1)], [(game.id, 0)])
        assert len(trips) == 1
        assert (await games.get_game(game.id)).seats[1].hand_message_id == 901
    finally:
        await db.close()


async def test_moves_are_refused_before_the_game_starts(games):
    game = await lobby(games)
    with pytest.raises(WrongGameStatus):
        await move(games, game.id, 1)


async def test_commit_move_is_atomic_when_a_late_step_fails(games):
    game = await running(games)
    await move(games, game.id, 1)
    broken = FinishedGame(rounds=1, results=(
        SeatResult(0, 5, 1, True, 5, 1),
        SeatResult(1, 9, 0, False, 9, 0),  # place 0 violates a CHECK after the move is written
    ))
    with pytest.raises(INTEGRITY_ERRORS):
        await move(games, game.id, 2, finished=broken)
    reloaded = await games.get_game(game.id)
    assert reloaded.status is GameStatus.RUNNING
    assert (reloaded.last_seq, reloaded.state) == (1, {"after": 1})
    assert [m.seq for m in await games.list_moves(game.id)] == [1]


async def test_results_must_cover_every_seat_exactly_once(games):
    game = await running(games)
    with pytest.raises(ValueError, match="seats"):
        await move(games, game.id, 1, finished=FinishedGame(1, (SeatResult(0, 0, 1, True, 0, 1),)))
    assert (await games.get_game(game.id)).last_seq == 0


async def test_the_move_log_is_append_only(games, db):
    game = await running(games)
    await move(games, game.id, 1)
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        async with db.transaction() as tx:
            await tx.execute("UPDATE moves SET action_json = '{}' WHERE game_id = ?", (game.id,))


async def test_the_finishing_move_ends_the_game_and_writes_its_results(games, db):
    seats = [NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest"), NewSeat.ai("L", "easy")]
    game = await running(games, seats=seats)
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False), (1, True)]))
    ended = await games.get_game(game.id)
    assert (ended.status, ended.finished_at) == (GameStatus.FINISHED, T0 + 101)
    async with db.read() as tx:
        fin = await tx.fetchone("SELECT * FROM finished_games WHERE game_id = ?", (game.id,))
        rows = await tx.fetchall(
            "SELECT seat, user_id, is_ai, place, won, vs_ai, guild_id, variant, finished_at "
            "FROM game_results WHERE game_id = ? ORDER BY seat", (game.id,))
    assert (fin["rounds"], fin["player_count"], fin["human_count"], fin["ai_count"]) == (
        3, 3, 2, 1)
    assert [tuple(r) for r in rows] == [
        (0, HOST, 0, 1, 1, 1, GUILD, "classic", T0 + 101),
        (1, GUEST, 0, 2, 0, 1, GUILD, "classic", T0 + 101),
        (2, None, 1, 1, 1, 0, GUILD, "classic", T0 + 101),
    ]


async def test_no_move_after_the_game_finished(games):
    game = await running(games)
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False)]))
    with pytest.raises(WrongGameStatus):
        await move(games, game.id, 2)


async def test_timer_moves_count_timeouts_in_a_row_and_a_human_move_resets_them(games):
    game = await running(games)
    await move(games, game.id, 1, seat=1, actor=Actor.TIMER)
    await move(games, game.id, 2, seat=1, actor=Actor.TIMER)
    assert (await games.get_game(game.id)).seats[1].timeouts_in_a_row == 2
    await move(games, game.id, 3, seat=1, actor=Actor.HUMAN)
    assert (await games.get_game(game.id)).seats[1].timeouts_in_a_row == 0


async def test_a_human_move_does_not_write_a_time_out_count_that_is_zero_already(games, db):
    """Every human move resets its seat's count of expired turns: where it is 0 already the
    row is left as it is (no WAL page on SQLite, no row version on PostgreSQL, per move)."""
    game = await running(games)
    await move(games, game.id, 1)
    if db.dialect is Dialect.POSTGRESQL:
        async with db.read() as tx:
            before = await tx.fetchone(
                "SELECT xmin::text AS v FROM seats WHERE game_id = ? AND seat = 0", (game.id,))
        await move(games, game.id, 2)
        async with db.read() as tx:
            after = await tx.fetchone(
                "SELECT xmin::text AS v FROM seats WHERE game_id = ? AND seat = 0", (game.id,))
        assert after["v"] == before["v"]
    else:
        changed = db._conn.total_changes
        await move(games, game.id, 2)
        assert db._conn.total_changes - changed == 3  # the game, the move, its render note
    assert (await games.get_game(game.id)).seats[0].timeouts_in_a_row == 0


async def test_a_seat_handed_to_ai_keeps_its_user_and_counts_as_left(games, db):
    game = await running(games)
    seat = await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 50)
    assert (seat.user_id, seat.has_left, seat.ai_level, seat.ai_controlled) == (
        GUEST, True, "normal", True)
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False)]))
    async with db.read() as tx:
        row = await tx.fetchone(
            "SELECT user_id, is_ai, left_game FROM game_results WHERE seat = 1")
    assert tuple(row) == (GUEST, 0, 1)


async def test_a_kicked_seat_and_its_result_row_stay_marked_as_kicked(games, db):
    game = await running(games)
    seat = await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 50, kicked=True)
    assert (seat.has_left, seat.kicked) == (True, True)
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False)]))
    async with db.read() as tx:
        rows = await tx.fetchall("SELECT seat, left_game, kicked FROM game_results ORDER BY seat")
    assert [tuple(r) for r in rows] == [(0, 0, 0), (1, 1, 1)]


async def test_a_seat_whose_player_left_is_not_marked_as_kicked(games):
    game = await running(games)
    seat = await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 50)
    assert (seat.has_left, seat.kicked) == (True, False)


async def test_a_kick_after_the_player_left_keeps_the_seat_a_leave(games):
    """A process that still thinks them seated (its memory stale) kicks a player who left:
    leaving still counts as last place, the kick does not turn it into "not rated"."""
    game = await running(games)
    await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 50)
    seat = await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 60, kicked=True)
    assert (seat.has_left, seat.kicked) == (True, False)


async def test_a_seat_handed_to_ai_remembers_the_last_move_its_player_held_it_for(games):
    game = await running(games)
    await move(games, game.id, 1)
    await move(games, game.id, 2, seat=1)
    seat = await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 50)
    assert seat.left_after_seq == 2
    await move(games, game.id, 3, seat=1, actor=Actor.AI)
    again = await games.hand_seat_to_ai(game.id, 1, ai_level="normal", now=T0 + 60)
    assert again.left_after_seq == 2  # handed over once: the first hand-over stands
    stored = (await games.get_game(game.id)).seats
    assert [s.left_after_seq for s in stored] == [None, 2]


async def handed_over_before_the_migration(db, channel: int, ai_moves: int) -> int:
    """A running game whose guest made move 1 and the host move 2; then the guest's seat was
    handed to an AI, which made `ai_moves` moves: rows in SQL of the schema before migration
    21 (today's GameStore reads its columns)."""
    async with db.transaction() as tx:
        game_id = await tx.insert(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, seed, state_json, created_at, started_at, "
            "updated_at, last_seq) "
            "VALUES (?, ?, ?, 'classic', 40, 120, 1.5, 'running', 42, '{}', ?, ?, ?, ?)",
            (GUILD, channel, HOST, T0, T0, T0, 2 + ai_moves))
        for index, (user_id, name) in enumerate([(HOST, "Host"), (GUEST, "Guest")]):
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, joined_at) "
                "VALUES (?, ?, ?, ?, 0, ?)", (game_id, index, user_id, name, T0))
        await tx.execute("UPDATE seats SET has_left = 1, ai_level = 'normal' "
                         "WHERE game_id = ? AND seat = 1", (game_id,))
        movers = [(1, "human"), (0, "human")] + [(1, "ai")] * ai_moves
        for seq, (seat, actor) in enumerate(movers, start=1):
            await tx.execute(
                "INSERT INTO moves (game_id, seq, round_number, seat, action_json, actor, "
                "created_at) VALUES (?, ?, 1, ?, '{}', ?, ?)", (game_id, seq, seat, actor, T0))
    return game_id


async def test_the_migration_dates_a_hand_over_made_before_it_by_the_seats_first_ai_move(
    empty_db_location,
):
    """A seat handed over before migration 21 did not store when: its human held it up to
    the seat's first AI move, or (no AI move yet) up to the game's last move."""
    dialect = Dialect.POSTGRESQL if is_postgres_url(empty_db_location) else Dialect.SQLITE
    steps = load_migrations(dialect)
    version = next(m.version for m in steps if m.name == "seat_left_after_seq")
    before = await open_database(empty_db_location, migrations=steps[:version - 1])
    try:
        played = await handed_over_before_the_migration(before, CHANNEL, ai_moves=2)
        waiting = await handed_over_before_the_migration(before, CHANNEL + 1, ai_moves=0)
    finally:
        await before.close()
    after = await open_database(empty_db_location)
    try:
        games = GameStore(after)
        for game_id in (played, waiting):
            seats = (await games.get_game(game_id)).seats
            assert [s.left_after_seq for s in seats] == [None, 2]
    finally:
        await after.close()


# --- messages -------------------------------------------------------------------------------


async def test_lobby_table_and_hand_message_ids_are_remembered_in_one_batch(games):
    game = await running(games)
    await games.save_message_refs([
        MessageRef(game.id, "lobby", CHANNEL, 555),
        MessageRef(game.id, "table", CHANNEL + 1, 777, round_number=3),
        MessageRef(game.id, "hand", 900, 901, seat=1, round_number=2),
    ])
    reloaded = await games.get_game(game.id)
    assert (reloaded.lobby_message_id, reloaded.table_channel_id, reloaded.table_message_id) == (
        555, CHANNEL + 1, 777)
    assert reloaded.table_round == 3  # the round the table shows
    seat = reloaded.seats[1]
    assert (seat.dm_channel_id, seat.hand_message_id, seat.hand_round) == (900, 901, 2)
    assert reloaded.updated_at == game.updated_at  # the turn clock counts from the last move


async def test_every_rounds_table_is_remembered_not_only_the_newest(games):
    """A round's close retried or replayed after the game's table moved on finds that round's
    own table (issue 35); a round posted anew keeps its newest table."""
    game = await running(games)
    await games.save_message_refs([MessageRef(game.id, "table", CHANNEL, 771, round_number=1)])
    await games.save_message_refs([MessageRef(game.id, "table", CHANNEL, 772, round_number=2),
                                   MessageRef(game.id, "table", CHANNEL, 773, round_number=3)])
    await games.save_message_refs([MessageRef(game.id, "table", CHANNEL + 1, 774,
                                              round_number=2)])
    assert await games.round_table(game.id, 1) == (CHANNEL, 771)
    assert await games.round_table(game.id, 2) == (CHANNEL + 1, 774)
    assert await games.round_table(game.id, 4) is None
    assert (await games.get_game(game.id)).table_message_id == 774  # the newest, as before


async def test_the_game_end_post_id_is_remembered(games):
    """Its Rematch button comes back when the rematch is cancelled, also after a restart."""
    game = await running(games)
    await games.save_message_refs([MessageRef(game.id, "end", CHANNEL, 999)])
    assert (await games.get_game(game.id)).end_message_id == 999


async def test_a_batch_with_an_unknown_message_kind_stores_none_of_it(games):
    game = await running(games)
    with pytest.raises(ValueError, match="unknown message kind"):
        await games.save_message_refs([
            MessageRef(game.id, "table", CHANNEL, 777),
            MessageRef(game.id, "poster", CHANNEL, 778),
        ])
    assert (await games.get_game(game.id)).table_message_id is None


# --- finding games --------------------------------------------------------------------------


async def test_a_seat_handed_to_an_ai_is_marked_left_for_a_restart(games):
    game = await running(games)
    await games.hand_seat_to_ai(game.id, 1, ai_level="easy", now=T0)
    (restored,) = await games.unfinished_games()
    assert [(s.user_id, s.has_left) for s in restored.seats] == [(HOST, False), (GUEST, True)]


async def test_unfinished_games_are_listed_for_restore_with_state_and_seats(db_location):
    path = db_location
    db = await open_database(path)
    games = GameStore(db)
    waiting = await lobby(games, channel=1)
    playing = await running(games, channel=2)
    await move(games, playing.id, 1)
    done = await running(games, channel=3)
    await move(games, done.id, 1, finished=all_results([(1, True), (2, False)]))
    await db.close()

    db = await open_database(path)  # as after a restart
    restored = await GameStore(db).unfinished_games()
    await db.close()
    assert [(g.id, g.status) for g in restored] == [
        (waiting.id, GameStatus.LOBBY), (playing.id, GameStatus.RUNNING)]
    assert restored[1].state == {"after": 1} and restored[1].last_seq == 1
    assert [s.user_id for s in restored[1].seats] == [HOST, GUEST]


# --- hosts ---------------------------------------------------------------------------------


async def test_set_host_hands_a_lobby_to_another_player(games):
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest")])
    await games.set_host(game.id, GUEST, now=T0 + 5)
    reloaded = await games.get_game(game.id)
    assert (reloaded.host_user_id, reloaded.updated_at) == (GUEST, T0 + 5)


async def test_set_host_is_refused_once_the_game_runs(games):
    game = await running(games)
    with pytest.raises(WrongGameStatus):
        await games.set_host(game.id, GUEST, now=T0)


async def test_a_commit_waits_for_another_writer_of_the_game_and_then_sees_its_move(games, db):
    # As if another process committed move 1 while ours was being decided: our commit waits
    # for that transaction (PostgreSQL: the game row's lock) and is refused as stale, instead
    # of reading the old last_seq and colliding with the other move.
    game = await running(games)
    async with db.transaction() as other:
        await lock_game_row(other, game.id)
        await other.execute(
            "INSERT INTO moves (game_id, seq, round_number, seat, action_json, actor, "
            "created_at) VALUES (?, 1, 1, 0, '{}', 'human', ?)", (game.id, T0))
        await other.execute("UPDATE games SET last_seq = 1 WHERE id = ?", (game.id,))
        ours = asyncio.create_task(move(games, game.id, 1))
        await asyncio.sleep(0.2)
        assert not ours.done()
    with pytest.raises(SeqConflict):
        await ours
    assert [m.seq for m in await games.list_moves(game.id)] == [1]


async def test_a_lobby_opened_after_a_bulk_load_gets_an_id_of_its_own(games, db):
    seats = [BulkSeat(HOST, "Host", 0, 1, True, 0, 1), BulkSeat(None, "AI", 9, 2, False, 9, 0)]
    loaded = [BulkGame(GUILD, CHANNEL, "classic", 40, 3, T0 + n, seats) for n in range(3)]
    assert await insert_finished_games(db, loaded) == 3
    assert (await lobby(games)).id == 4


async def test_a_lobby_opened_while_another_opens_in_the_channel_is_told_its_number(games, db):
    # As if another process were opening a lobby in this channel (not committed yet): ours
    # waits for it and is refused with its game, not with an integrity error.
    async with db.transaction() as other:
        assert await active_game_in_channel(other, CHANNEL) is None
        first = await other.insert(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
            "VALUES (?, ?, 1, 'classic', 40, 120, 1, 'lobby', 0, 0)", (GUILD, CHANNEL))
        ours = asyncio.create_task(lobby(games))
        await asyncio.sleep(0.2)
        assert not ours.done()
    with pytest.raises(ChannelHasActiveGame) as caught:
        await ours
    assert caught.value.game_id == first
