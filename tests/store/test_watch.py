"""WatchStore: what the Activity's live views poll where processes share the database. A
game's mark changes with everything a viewer sees (a move, a status, a seat taken, left or
handed to an AI, a thread); the places' active games are found many at once; the game that
just ended in a place, until another opens there, by index. Real SQLite files and a real
PostgreSQL server."""

from __future__ import annotations

from store import Dialect, GameStatus, GameStore, NewSeat, WatchStore
from tests.store.support import CHANNEL, GUEST, HOST, T0, all_results, lobby, move, running

THREAD = 777


async def test_a_mark_changes_with_every_seat_and_move(games: GameStore, db) -> None:
    watch = WatchStore(db)
    game = await lobby(games)
    first = (await watch.marks([game.id]))[game.id]
    assert first.status is GameStatus.LOBBY and first.seats == ((0, HOST, False),)
    await games.add_seat(game.id, NewSeat.human(GUEST, "Guest"), now=T0)
    joined = (await watch.marks([game.id]))[game.id]
    assert joined != first and joined.seats[1] == (1, GUEST, False)
    await games.remove_seat(game.id, 1, now=T0)
    assert (await watch.marks([game.id]))[game.id] == first  # as it was: nothing to show
    started = await games.start_game(game.id, seed=1, state={}, now=T0)
    after_start = (await watch.marks([game.id]))[game.id]
    assert after_start.status is GameStatus.RUNNING and after_start.last_seq == started.last_seq
    await games.hand_seat_to_ai(game.id, 0, ai_level="normal", now=T0)
    assert (await watch.marks([game.id]))[game.id].seats == ((0, HOST, True),)


async def test_marks_of_many_games_in_one_read(games: GameStore, db) -> None:
    watch = WatchStore(db)
    one = await running(games)
    two = await running(games, channel=CHANNEL + 1)
    await move(games, two.id, 1)
    await games.set_thread(one.id, THREAD)
    marks = await watch.marks([one.id, two.id, 999_999])
    assert set(marks) == {one.id, two.id}  # an unknown game: absent
    assert marks[one.id].thread_id == THREAD and marks[one.id].last_seq == 0
    assert marks[two.id].last_seq == 1
    assert await watch.marks([]) == {}


async def test_the_active_games_of_places_channel_first(games: GameStore, db) -> None:
    watch = WatchStore(db)
    shown_in_thread = await running(games)
    await games.set_thread(shown_in_thread.id, THREAD)
    elsewhere = await lobby(games, channel=CHANNEL + 1)
    ended = await lobby(games, channel=CHANNEL + 2)
    await games.cancel_game(ended.id, now=T0)
    found = await watch.active_in_places([CHANNEL, THREAD, CHANNEL + 1, CHANNEL + 2, 5])
    assert found == {CHANNEL: shown_in_thread.id, THREAD: shown_in_thread.id,
                     CHANNEL + 1: elsewhere.id}
    assert await watch.active_in_places([]) == {}


async def test_the_game_that_just_ended_in_a_place_until_another_opens(
        games: GameStore, db) -> None:
    watch = WatchStore(db)
    ended = await running(games)
    await games.set_thread(ended.id, THREAD)
    await move(games, ended.id, 1, finished=all_results([(1, True), (2, False)]))
    finished_at = T0 + 101  # the last move's time
    for place in (CHANNEL, THREAD):
        assert await watch.ended_in_place(place, since=finished_at) == ended.id
        assert await watch.ended_in_place(place, since=finished_at + 1) is None  # too long ago
    assert await watch.ended_in_place(CHANNEL + 1, since=0) is None  # no game there ever
    opened = await lobby(games)
    assert await watch.ended_in_place(CHANNEL, since=0) is None  # a lobby opened since
    await games.cancel_game(opened.id, now=T0 + 200)
    assert await watch.ended_in_place(CHANNEL, since=0) is None  # cancelled: still newer
    assert await watch.ended_in_place(THREAD, since=0) == ended.id  # the lobby is not there


async def test_the_ended_game_is_found_by_index(games: GameStore, db) -> None:
    plan = await WatchStore(db).explain_ended_in_place()
    text = "\n".join(plan)
    assert "games_by_channel" in text and "games_by_thread" in text, plan
    if db.dialect is Dialect.SQLITE:
        assert not any(line.startswith("SCAN games") for line in plan), plan
    else:
        assert "Seq Scan" not in text, plan
