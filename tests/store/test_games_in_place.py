"""GameStore.active_game_in_place: the lobby or running game of a channel or game thread as
stored, whichever process opened it. A slash command asks it only when its process holds no
game there (hosting/loader.py), so it must be one indexed lookup, never a scan of every game
ever played. Real SQLite files and a real PostgreSQL server."""

from __future__ import annotations

from store import Dialect, GameStore
from tests.store.support import CHANNEL, T0, lobby, running

THREAD = 777


async def test_a_channels_lobby_is_found_there(games: GameStore) -> None:
    game = await lobby(games)
    assert await games.active_game_in_place(CHANNEL) == game.id


async def test_a_game_is_found_in_the_thread_it_shows_itself_in(games: GameStore) -> None:
    game = await running(games)
    await games.set_thread(game.id, THREAD)
    assert await games.active_game_in_place(THREAD) == game.id
    assert await games.active_game_in_place(CHANNEL) == game.id


async def test_a_tournament_table_opened_in_its_own_thread_is_found_there(
        games: GameStore) -> None:
    table = await games.create_lobby(
        guild_id=10, channel_id=THREAD, host_user_id=100, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1.5, now=T0, thread_id=THREAD)
    assert await games.active_game_in_place(THREAD) == table.id


async def test_an_ended_game_is_not_found_but_the_channels_next_one_is(
        games: GameStore) -> None:
    first = await running(games)
    await games.set_thread(first.id, THREAD)
    await games.cancel_game(first.id, now=T0 + 5)
    assert await games.active_game_in_place(CHANNEL) is None
    assert await games.active_game_in_place(THREAD) is None
    second = await lobby(games)
    assert await games.active_game_in_place(CHANNEL) == second.id


async def test_a_place_with_no_game_has_none(games: GameStore) -> None:
    await lobby(games)
    assert await games.active_game_in_place(CHANNEL + 1) is None


async def test_the_lookup_reads_the_indexes_of_active_games_only(games: GameStore, db) -> None:
    plan = await games.explain_active_game_in_place(as_if_large=True)
    text = "\n".join(plan)
    assert "games_active_per_channel" in text and "games_active_per_thread" in text, plan
    if db.dialect is Dialect.SQLITE:
        assert not any(line.startswith("SCAN g") or line == "SCAN games" for line in plan), plan
    else:
        assert "Seq Scan" not in text, plan
