"""GameStore: lobbies, seats, moves, state, timers, restore. Real SQLite files, no mocks."""

from __future__ import annotations

import sqlite3

import pytest

from store import (
    Actor,
    AlreadySeated,
    ChannelHasActiveGame,
    FinishedGame,
    GameStatus,
    GameStore,
    LobbyFull,
    NewSeat,
    SeatResult,
    SeqConflict,
    TimerKind,
    TimerSpec,
    WrongGameStatus,
    open_database,
)

GUILD, CHANNEL, HOST, GUEST = 10, 20, 100, 200
T0 = 1_700_000_000


@pytest.fixture
def games(db):
    return GameStore(db)


async def lobby(games, channel=CHANNEL, guild=GUILD, seats=None):
    return await games.create_lobby(
        guild_id=guild, channel_id=channel, host_user_id=HOST, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1.5, now=T0,
        seats=seats if seats is not None else [NewSeat.human(HOST, "Host")],
    )


async def running(games, channel=CHANNEL, seats=None):
    seats = seats or [NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest")]
    game = await lobby(games, channel=channel, seats=seats)
    return await games.start_game(game.id, seed=42, state={"round": 1}, now=T0 + 10)


async def move(games, game_id, seq, *, seat=0, actor=Actor.HUMAN, finished=None, timers=None):
    return await games.commit_move(
        game_id, seq, seat, {"play": seq}, actor, {"after": seq}, T0 + 100 + seq,
        round_number=1, finished=finished, timers=timers,
    )


def all_results(places_won):
    return FinishedGame(rounds=3, results=tuple(
        SeatResult(seat=i, final_score=10 * i, place=p, won=w, tokens_collected=10 * i,
                   clean_rounds=1)
        for i, (p, w) in enumerate(places_won)
    ))


# --- lobby ----------------------------------------------------------------------------------


async def test_create_lobby_returns_the_game_with_its_seats_in_order(games):
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.ai("Lama", "easy")])
    assert game.status is GameStatus.LOBBY
    assert game.state is None and game.seed is None and game.last_seq == 0
    assert [(s.seat, s.user_id, s.is_ai, s.ai_level) for s in game.seats] == [
        (0, HOST, False, None), (1, None, True, "easy")]
    assert game.created_at == game.updated_at == T0


async def test_one_active_game_per_channel(games):
    first = await lobby(games)
    with pytest.raises(ChannelHasActiveGame) as caught:
        await lobby(games)
    assert caught.value.game_id == first.id


async def test_the_database_itself_refuses_a_second_active_game_in_a_channel(games, db):
    await lobby(games)
    with pytest.raises(sqlite3.IntegrityError):
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


async def test_seats_cannot_be_added_once_the_game_runs(games):
    game = await running(games)
    with pytest.raises(WrongGameStatus):
        await games.add_seat(game.id, NewSeat.ai("Late", "easy"), now=T0)


async def test_start_game_stores_seed_state_and_first_timers(games):
    game = await lobby(games)
    started = await games.start_game(
        game.id, seed=2**62, state={"round": 1, "hands": [[1, 2]]}, now=T0 + 10,
        timers=[TimerSpec(TimerKind.TURN, T0 + 130.0, seat=0, round_number=1, move_seq=0)])
    assert started.status is GameStatus.RUNNING
    assert (started.seed, started.state, started.started_at) == (
        2**62, {"round": 1, "hands": [[1, 2]]}, T0 + 10)
    assert [t.kind for t in await games.all_timers()] == [TimerKind.TURN]


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


async def test_a_stale_expected_seq_raises_and_changes_nothing(games):
    game = await running(games)
    await move(games, game.id, 1)
    with pytest.raises(SeqConflict) as caught:
        await move(games, game.id, 1)  # a second press computed from the same state
    assert caught.value.next_seq == 2
    assert len(await games.list_moves(game.id)) == 1
    assert (await games.get_game(game.id)).state == {"after": 1}


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
    with pytest.raises(sqlite3.IntegrityError):
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
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with db.transaction() as tx:
            await tx.execute("UPDATE moves SET action_json = '{}' WHERE game_id = ?", (game.id,))


async def test_the_finishing_move_ends_the_game_and_writes_its_results(games, db):
    seats = [NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest"), NewSeat.ai("L", "easy")]
    game = await running(games, seats=seats)
    await games.set_timer(game.id, TimerSpec(TimerKind.TURN, T0 + 500))
    await move(games, game.id, 1, finished=all_results([(1, True), (2, False), (1, True)]))
    ended = await games.get_game(game.id)
    assert (ended.status, ended.finished_at) == (GameStatus.FINISHED, T0 + 101)
    assert await games.all_timers() == []
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


# --- messages -------------------------------------------------------------------------------


async def test_table_lobby_and_dm_message_ids_are_remembered(games):
    game = await running(games)
    await games.set_lobby_message(game.id, 555, now=T0 + 1)
    await games.set_table_message(game.id, CHANNEL, 777, now=T0 + 2)
    await games.set_seat_dm(game.id, 1, dm_channel_id=900, hand_message_id=901, hand_round=2,
                            now=T0 + 3)
    reloaded = await games.get_game(game.id)
    assert (reloaded.lobby_message_id, reloaded.table_channel_id, reloaded.table_message_id) == (
        555, CHANNEL, 777)
    seat = reloaded.seats[1]
    assert (seat.dm_channel_id, seat.hand_message_id, seat.hand_round) == (900, 901, 2)
    assert reloaded.updated_at == T0 + 3


# --- finding games --------------------------------------------------------------------------


async def test_active_game_in_channel_ignores_ended_games(games):
    game = await lobby(games)
    assert (await games.active_game_in_channel(CHANNEL)).id == game.id
    await games.cancel_game(game.id, now=T0)
    assert await games.active_game_in_channel(CHANNEL) is None


async def test_active_games_of_user_by_guild_and_everywhere(games):
    here = await lobby(games, channel=1, guild=GUILD)
    there = await lobby(games, channel=2, guild=GUILD + 1)
    ended = await lobby(games, channel=3, guild=GUILD)
    await games.cancel_game(ended.id, now=T0)
    assert [g.id for g in await games.active_games_of_user(HOST, GUILD)] == [here.id]
    assert [g.id for g in await games.active_games_of_user(HOST)] == [here.id, there.id]
    assert await games.active_games_of_user(GUEST) == []


async def test_a_user_whose_seat_went_to_ai_is_no_longer_in_that_game(games):
    game = await running(games)
    await games.hand_seat_to_ai(game.id, 1, ai_level="easy", now=T0)
    assert await games.active_games_of_user(GUEST) == []


async def test_unfinished_games_are_listed_for_restore_with_state_and_seats(tmp_path):
    path = tmp_path / "lama.sqlite3"
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


# --- timers ---------------------------------------------------------------------------------


async def test_due_timers_are_those_at_or_before_now_earliest_first(games):
    a = await running(games, channel=1)
    b = await running(games, channel=2)
    await games.set_timer(a.id, TimerSpec(TimerKind.TURN, T0 + 120, seat=0, round_number=1,
                                          move_seq=0))
    await games.set_timer(a.id, TimerSpec(TimerKind.REMINDER, T0 + 60))
    await games.set_timer(b.id, TimerSpec(TimerKind.AI, T0 + 1.5))
    due = await games.due_timers(T0 + 60)
    assert [(t.game_id, t.kind) for t in due] == [(b.id, TimerKind.AI), (a.id, TimerKind.REMINDER)]
    assert len(await games.all_timers()) == 3


async def test_setting_a_timer_of_the_same_kind_replaces_it(games):
    game = await running(games)
    await games.set_timer(game.id, TimerSpec(TimerKind.TURN, T0 + 120, move_seq=0))
    await games.set_timer(game.id, TimerSpec(TimerKind.TURN, T0 + 240, move_seq=1))
    timers = await games.all_timers()
    assert [(t.due_at, t.move_seq) for t in timers] == [(T0 + 240, 1)]


async def test_clear_timers_of_one_kind_or_all(games):
    game = await running(games)
    for kind in TimerKind:
        await games.set_timer(game.id, TimerSpec(kind, T0 + 10))
    assert await games.clear_timers(game.id, TimerKind.REMINDER) == 1
    assert {t.kind for t in await games.all_timers()} == {TimerKind.TURN, TimerKind.AI}
    assert await games.clear_timers(game.id) == 2
    assert await games.all_timers() == []


async def test_commit_move_can_replace_the_games_timers_atomically(games):
    game = await running(games)
    await games.set_timer(game.id, TimerSpec(TimerKind.TURN, T0 + 120, seat=0, move_seq=0))
    await move(games, game.id, 1, timers=[TimerSpec(TimerKind.AI, T0 + 102.5, seat=1,
                                                    move_seq=1)])
    assert [(t.kind, t.seat, t.move_seq) for t in await games.all_timers()] == [
        (TimerKind.AI, 1, 1)]


async def test_timers_survive_a_restart(tmp_path):
    path = tmp_path / "lama.sqlite3"
    db = await open_database(path)
    game = await running(GameStore(db))
    await GameStore(db).set_timer(game.id, TimerSpec(TimerKind.TURN, T0 + 120, seat=1,
                                                     round_number=1, move_seq=0))
    await db.close()
    db = await open_database(path)
    timers = await GameStore(db).all_timers()
    await db.close()
    assert [(t.game_id, t.kind, t.due_at, t.seat) for t in timers] == [
        (game.id, TimerKind.TURN, T0 + 120, 1)]


async def test_cancelling_a_game_clears_its_timers(games):
    game = await running(games)
    await games.set_timer(game.id, TimerSpec(TimerKind.TURN, T0 + 120))
    await games.cancel_game(game.id, now=T0 + 1)
    assert await games.all_timers() == []


async def test_set_host_hands_a_lobby_to_another_player(games):
    game = await lobby(games, seats=[NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest")])
    await games.set_host(game.id, GUEST, now=T0 + 5)
    reloaded = await games.get_game(game.id)
    assert (reloaded.host_user_id, reloaded.updated_at) == (GUEST, T0 + 5)


async def test_set_host_is_refused_once_the_game_runs(games):
    game = await running(games)
    with pytest.raises(WrongGameStatus):
        await games.set_host(game.id, GUEST, now=T0)
