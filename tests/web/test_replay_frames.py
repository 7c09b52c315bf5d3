"""A finished game as frames (hosting.replay_frames): every deal and every move, all hands face
up, cards accounted for, each round shown as it was scored before the next deal."""

from __future__ import annotations

import random

import pytest

from lama import Game
from lama.actions import action_from_dict
from lama.rules import get_ruleset
from tests.support.web import GUILD, OTHER_GUILD, open_world, play_game


@pytest.fixture
async def world(tmp_path):
    w = await open_world(tmp_path / "lama.sqlite3")
    yield w
    await w.store.close()


@pytest.mark.parametrize("variant", ["classic", "party", "komarami"])
async def test_every_card_is_somewhere_in_every_frame(world, variant):
    game_id = await play_game(world, [(1, "A"), (2, "B"), (3, "C")], variant=variant,
                              target=25, rng=random.Random(variant))
    film = await world.site.film(GUILD, game_id)
    deck = len(get_ruleset(variant).deck)
    for frame in film.frames:
        board = frame.board
        assert sum(map(len, board.hands)) + board.draw_pile + board.discard_pile == deck


async def test_one_frame_per_deal_and_per_move(world):
    game_id = await play_game(world, [(1, "A"), (2, "B")], ai_seats=1, target=30)
    film = await world.site.film(GUILD, game_id)
    moves = await world.store.games.list_moves(game_id)
    deals = [f for f in film.frames if f.move is None]
    assert len(film.frames) == len(moves) + len(deals)
    assert [f.board.round_number for f in deals] == list(range(1, film.rounds + 1))
    assert [f.move.seq for f in film.frames if f.move] == [m.seq for m in moves]
    assert [f.index for f in film.frames] == list(range(len(film.frames)))


async def test_a_frame_is_the_engines_state_after_that_move(world):
    game_id = await play_game(world, [(1, "A"), (2, "B"), (3, "C")], target=20)
    film = await world.site.film(GUILD, game_id)
    record = await world.store.games.get_game(game_id)
    moves = await world.store.games.list_moves(game_id)
    game = Game.new(record.variant, len(record.seats), record.seed, target=record.target)
    by_seq = {f.move.seq: f for f in film.frames if f.move}
    for move in moves:
        game.apply(move.seat, action_from_dict(move.action))
        frame = by_seq[move.seq]
        if frame.round_ended is None:  # the round goes on: the frame is the engine's table
            board = frame.board
            assert board.hands == tuple(game.hand(s) for s in range(game.num_seats))
            assert (board.top_card, board.draw_pile, board.on_turn) == (
                game.top_card, game.draw_pile_size, game.current_seat)


async def test_a_round_is_shown_as_scored_then_the_next_deal(world):
    game_id = await play_game(world, [(1, "A"), (2, "B")], target=40, rng=random.Random(9))
    film = await world.site.film(GUILD, game_id)
    scored = [f for f in film.frames if f.round_ended is not None]
    assert len(scored) == film.rounds >= 2
    for frame in scored:
        results = frame.round_ended.results
        assert frame.board.hands == tuple(r.hand for r in results)
        assert frame.board.scores == tuple(r.score_after for r in results)
        assert frame.board.on_turn is None
        if frame.game_ended is None:
            deal = film.frames[frame.index + 1]
            assert deal.move is None and all(len(hand) == 6 for hand in deal.board.hands)
            assert deal.board.scores == frame.board.scores
    last = film.frames[-1]
    assert last.game_ended is not None and last.game_ended.winners == film.winners


async def test_only_a_finished_game_of_this_server_has_a_film(world):
    finished = await play_game(world, [(1, "A"), (2, "B")])
    running = await play_game(world, [(3, "C"), (4, "D")], finish=False)
    assert await world.site.film(GUILD, finished) is not None
    assert await world.site.film(OTHER_GUILD, finished) is None
    assert await world.site.film(GUILD, running) is None
    assert await world.site.film(GUILD, 12345) is None
