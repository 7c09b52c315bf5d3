"""Scenarios from docs/rules.md, played through the public Game API."""

import pytest

from lama import (
    DRAW,
    QUIT,
    CardDrawn,
    CardPlayed,
    ExtraTurn,
    ForcedQuit,
    ForcedQuitReason,
    Game,
    GameEnded,
    IllegalAction,
    Play,
    PlayerQuit,
    Reason,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TurnPassed,
    card,
    cards,
    game_from_dict,
    game_to_dict,
)
from lama.scenario import scenario


def play(code):
    return Play(card(code))


def codes(cs):
    return " ".join(c.code for c in cs)


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]


# ---------------------------------------------------------------- dealing


def test_new_game_deals_six_cards_each_and_turns_one_card_face_up():
    g = Game.new("classic", 4, seed=1)
    assert g.hand_sizes == (6, 6, 6, 6)
    assert len(g.discard_pile) == 1
    assert g.draw_pile_size == 56 - 24 - 1
    assert g.round_number == 1 and g.scores == (0, 0, 0, 0)


def test_round_one_starting_seat_is_random_from_the_seed():
    starts = {Game.new("classic", 4, seed=s).current_seat for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert Game.new("party", 5, seed=9).current_seat == Game.new("party", 5, seed=9).current_seat


def test_any_card_may_start_the_discard_pile_including_llamas():
    tops = {Game.new("party", 2, seed=s).top_card.code for s in range(400)}
    assert {"L", "P", "1", "6+"} <= tops


@pytest.mark.parametrize("n", [1, 7, 0])
def test_two_to_six_seats_only(n):
    with pytest.raises(ValueError):
        Game.new("classic", n, seed=1)


# ---------------------------------------------------------------- legal plays


def test_top_6_hand_6_llama_1_plays_6_and_llama():
    g = scenario("classic", ["6 L 1", "2"], top="6", draw="3")
    assert codes(g.legal_plays(0)) == "6 L"
    assert g.legal_actions(0) == (play("6"), play("L"), DRAW, QUIT)


def test_top_llama_hand_1_2_llama_plays_1_and_llama():
    g = scenario("classic", ["1 2 L", "2"], top="L", draw="3")
    assert codes(g.legal_plays(0)) == "1 L"


def test_party_top_4_hand_pink_and_2_plays_only_pink():
    g = scenario("party", ["P 2", "2"], top="4", draw="3")
    assert codes(g.legal_plays(0)) == "P"


def test_party_on_pink_llama_llama_and_1_may_follow():
    g = scenario("party", ["6 L 1", "2"], top="P", draw="3")
    assert codes(g.legal_plays(0)) == "1 L"


def test_party_plus_card_is_a_distinct_action_from_the_plain_card():
    g = scenario("party", ["3 3+ 3", "2"], top="3", draw="5")
    assert g.legal_actions(0) == (play("3"), play("3+"), DRAW, QUIT)


def test_no_legal_actions_for_seats_not_on_turn():
    g = scenario("classic", ["1", "2", "3"], top="1", draw="4")
    assert g.legal_actions(1) == () and g.legal_plays(1) == () and not g.can_draw(1)


# ---------------------------------------------------------------- a turn


def test_playing_a_card_puts_it_on_the_discard_pile_and_passes_the_turn():
    g = scenario("classic", ["3 5", "2", "4"], top="3", draw="6")
    events = g.apply(0, play("3"))
    assert events == [CardPlayed(0, card("3"), 1), TurnPassed(1)]
    assert g.top_card == card("3") and codes(g.hand(0)) == "5"


def test_drawing_takes_the_top_card_of_the_pile_and_ends_the_turn():
    g = scenario("classic", ["3", "2"], top="3", draw="5 6")
    events = g.apply(0, DRAW)
    assert events == [CardDrawn(0, 1), TurnPassed(1)]
    assert codes(g.hand(0)) == "3 5"
    assert g.current_seat == 1  # the drawn card cannot be played this turn


def test_a_player_may_draw_even_when_they_could_play():
    g = scenario("classic", ["4", "2"], top="3", draw="5")
    assert DRAW in g.legal_actions(0)
    g.apply(0, DRAW)
    assert codes(g.hand(0)) == "4 5"


def test_a_player_may_quit_even_when_they_could_play():
    g = scenario("classic", ["4", "2", "3"], top="3", draw="5")
    assert g.apply(0, QUIT) == [PlayerQuit(0), TurnPassed(1)]
    assert g.has_quit(0)


def test_quit_players_are_skipped_in_turn_order():
    g = scenario("classic", ["4 4", "2 2", "3 3", "5 5"], top="3", draw="5 6", quit=[1, 2])
    g.apply(0, play("4"))
    assert g.current_seat == 3
    g.apply(3, DRAW)
    assert g.current_seat == 0


def test_quit_hand_keeps_its_cards_and_still_scores():
    g = scenario("classic", ["4 4", "2 6", "3"], top="3", draw="5")
    g.apply(0, QUIT)
    g.apply(1, QUIT)
    (ended,) = of_type(g.apply(2, play("3")), RoundEnded)  # seat 2 empties the hand
    assert codes(ended.results[0].hand) == "4 4" and ended.results[1].penalty == 8
    assert g.round_number == 2 and g.scores == (4, 8, 0)


# ---------------------------------------------------------------- party plus cards


def test_plus_card_gives_the_same_player_another_turn():
    g = scenario("party", ["3+ 4 5", "2"], top="3", draw="1 2")
    assert g.apply(0, play("3+")) == [CardPlayed(0, card("3+"), 2), ExtraTurn(0)]
    assert g.current_seat == 0
    assert g.observation(0).extra_turn
    assert g.legal_actions(0) == (play("4"), DRAW, QUIT)


def test_plus_card_extra_turn_may_be_another_play_then_the_turn_passes():
    g = scenario("party", ["3+ 4 5", "2"], top="3", draw="1 2")
    g.apply(0, play("3+"))
    assert g.apply(0, play("4")) == [CardPlayed(0, card("4"), 1), TurnPassed(1)]
    assert not g.extra_turn


def test_plus_card_extra_turn_may_be_a_draw():
    g = scenario("party", ["3+ 4 5", "2"], top="3", draw="1 2")
    g.apply(0, play("3+"))
    assert g.apply(0, DRAW) == [CardDrawn(0, 1), TurnPassed(1)]


def test_plus_card_extra_turn_may_be_a_quit():
    g = scenario("party", ["3+ 4 5", "2", "6"], top="3", draw="1 2")
    g.apply(0, play("3+"))
    assert g.apply(0, QUIT) == [PlayerQuit(0), TurnPassed(1)]


def test_plus_cards_chain_extra_turns():
    g = scenario("party", ["3+ 4+ 5", "2"], top="3", draw="1")
    g.apply(0, play("3+"))
    assert g.apply(0, play("4+"))[-1] == ExtraTurn(0)
    assert g.current_seat == 0


def test_plus_card_as_last_card_ends_the_round_without_an_extra_turn():
    g = scenario("party", ["3+", "2 L"], top="3", draw="1")
    events = g.apply(0, play("3+"))
    assert not of_type(events, ExtraTurn)
    (ended,) = of_type(events, RoundEnded)
    assert ended.ended_by is RoundEndReason.EMPTY_HAND
    assert ended.results[0].emptied_hand and ended.results[1].penalty == 12


def test_plus_card_extra_turn_with_no_choice_is_a_forced_quit():
    g = scenario("party", ["3+ 1", "4"], top="3")
    events = g.apply(0, play("3+"))
    assert events[1:] == [
        ExtraTurn(0),
        ForcedQuit(0, ForcedQuitReason.PILE_EMPTY),
        TurnPassed(1),
    ]


def test_plus_card_gives_no_extra_turn_in_classic_rules():
    g = scenario("classic", ["3 4", "2"], top="3", draw="1")
    assert g.apply(0, play("3"))[-1] == TurnPassed(1)


def test_pink_llama_on_any_card_then_only_1_or_llama():
    g = scenario("party", ["P 2", "1 5 L", "6"], top="4", draw="3")
    g.apply(0, play("P"))
    assert codes(g.legal_plays(1)) == "1 L"


# ---------------------------------------------------------------- drawing limits, forced quits


def test_draw_not_allowed_when_the_pile_is_empty():
    g = scenario("classic", ["3 4", "2"], top="3")
    assert not g.can_draw(0)
    assert DRAW not in g.legal_actions(0)


def test_draw_not_allowed_when_everyone_else_has_quit():
    g = scenario("classic", ["3 4", "2", "2"], top="3", draw="5 6", quit=[1, 2])
    assert not g.can_draw(0)
    assert g.legal_actions(0) == (play("3"), play("4"), QUIT)


def test_forced_quit_when_no_play_and_pile_empty():
    g = scenario("classic", ["4 5", "1 2", "4"], top="3")
    events = g.apply(0, play("4"))
    assert events == [
        CardPlayed(0, card("4"), 1),
        ForcedQuit(1, ForcedQuitReason.PILE_EMPTY),
        TurnPassed(2),
    ]
    assert g.has_quit(1)


def test_forced_quits_chain_after_the_last_card_is_drawn():
    g = scenario("classic", ["4 6", "1 1", "2 6"], top="3", draw="5")
    events = g.apply(0, DRAW)
    assert events == [
        CardDrawn(0, 0),
        ForcedQuit(1, ForcedQuitReason.PILE_EMPTY),
        ForcedQuit(2, ForcedQuitReason.PILE_EMPTY),
        TurnPassed(0),
    ]


def test_last_player_left_plays_on_alone_until_the_hand_is_empty():
    g = scenario("classic", ["4 6", "1 1", "2 6"], top="3", draw="5")
    g.apply(0, DRAW)
    assert g.current_seat == 0 and not g.can_draw(0)
    g.apply(0, play("4"))
    assert g.current_seat == 0  # alone: the turn comes straight back
    g.apply(0, play("5"))
    events = g.apply(0, play("6"))
    (ended,) = of_type(events, RoundEnded)
    assert ended.ended_by is RoundEndReason.EMPTY_HAND
    assert [r.penalty for r in ended.results] == [0, 1, 8]


def test_last_player_left_is_forced_out_when_they_can_play_no_more():
    g = scenario("classic", ["4 1", "2"], top="3", draw="5 6", quit=[1], last_quitter=1)
    events = g.apply(0, play("4"))
    assert events[1] == ForcedQuit(0, ForcedQuitReason.ALONE)
    (ended,) = of_type(events, RoundEnded)
    assert ended.ended_by is RoundEndReason.ALL_QUIT
    assert ended.results[0].penalty == 1


def test_last_player_left_may_still_quit_voluntarily():
    g = scenario("classic", ["4 5", "2"], top="3", draw="5", quit=[1], last_quitter=1)
    events = g.apply(0, QUIT)
    assert of_type(events, RoundEnded)[0].ended_by is RoundEndReason.ALL_QUIT


# ---------------------------------------------------------------- end of round


def test_round_ends_when_every_player_has_quit():
    g = scenario("classic", ["4 4", "3 L"], top="3", draw="5")
    g.apply(0, QUIT)
    events = g.apply(1, QUIT)
    assert events[0] == PlayerQuit(1)
    (ended,) = of_type(events, RoundEnded)
    assert ended.round_number == 1 and ended.ended_by is RoundEndReason.ALL_QUIT
    assert [(r.penalty, r.score_after) for r in ended.results] == [(4, 4), (13, 13)]
    assert g.scores == (4, 13)


def test_round_ends_immediately_when_a_player_plays_their_last_card():
    g = scenario("classic", ["4", "2 L", "5 5"], top="3", draw="5")
    events = g.apply(0, play("4"))
    assert [type(e) for e in events] == [CardPlayed, RoundEnded, RoundStarted]
    assert events[1].ended_by is RoundEndReason.EMPTY_HAND
    assert g.scores == (0, 12, 5)


def test_next_round_is_started_by_the_player_who_emptied_their_hand():
    g = scenario("classic", ["1 1", "4", "5 5"], top="3", draw="5", current=1)
    events = g.apply(1, play("4"))
    assert events[-1] == RoundStarted(2, 1, g.top_card)
    assert g.current_seat == 1 and g.round_number == 2


def test_next_round_is_started_by_the_last_player_to_quit_if_nobody_emptied():
    g = scenario("classic", ["1 1", "4", "5 5"], top="3", draw="5", current=2)
    g.apply(2, QUIT)
    g.apply(0, QUIT)
    events = g.apply(1, QUIT)
    assert of_type(events, RoundStarted)[0].starting_seat == 1
    assert g.current_seat == 1


def test_last_quitter_counts_forced_quits():
    g = scenario("classic", ["4 1", "2"], top="3", quit=[1], last_quitter=1)
    g.apply(0, play("4"))  # seat 0 is then forced out, last
    assert g.current_seat == 0


def test_next_round_is_a_fresh_deal_of_all_cards():
    g = scenario("classic", ["1 1", "4", "5 5"], top="3", draw="5", current=1)
    g.apply(1, play("4"))
    assert g.hand_sizes == (6, 6, 6)
    assert not any(g.has_quit(s) for s in range(3))
    assert len(g.discard_pile) == 1 and g.draw_pile_size == 56 - 19


@pytest.mark.parametrize(
    ("variant", "before", "after"),
    [
        ("classic", 23, 13), ("party", 23, 3), ("komarami", 23, 13),
        ("classic", 7, 6), ("party", 7, 6), ("komarami", 7, 6),
        ("classic", 0, 0), ("party", 0, 0), ("komarami", 0, 0),
    ],
)
def test_emptying_the_hand_returns_the_most_valuable_token(variant, before, after):
    g = scenario(variant, ["4", "2"], top="3", draw="5", scores=[before, 0])
    events = g.apply(0, play("4"))
    result = of_type(events, RoundEnded)[0].results[0]
    assert result.emptied_hand and result.penalty == 0
    assert result.token_returned == before - after
    assert (result.score_before, result.score_after) == (before, after)
    assert g.scores[0] == after


def test_party_round_scoring_pink_and_normal_llama_add_30():
    g = scenario("party", ["4", "3 L P"], top="3", draw="5")
    g.apply(0, play("4"))
    assert g.scores == (0, 33)


def test_komarami_each_llama_card_adds_10():
    g = scenario("komarami", ["4", "2 2 5 L L"], top="3", draw="5")
    g.apply(0, play("4"))
    assert g.scores == (0, 27)


# ---------------------------------------------------------------- end of game


def test_game_ends_when_a_player_reaches_40_and_fewest_points_wins():
    g = scenario("classic", ["4", "2 L", "6"], top="3", draw="5", scores=[30, 28, 20])
    events = g.apply(0, play("4"))
    assert events[-1] == GameEnded((20, 40, 26), (0,))
    assert g.is_over and g.current_seat is None and g.winners == (0,)
    assert not of_type(events, RoundStarted)


def test_ties_for_fewest_points_share_the_win():
    g = scenario("classic", ["4", "2 L", "6"], top="3", draw="5", scores=[0, 30, 0])
    events = g.apply(0, play("4"))
    assert g.scores == (0, 42, 6)
    g2 = scenario("classic", ["4", "2 L", "6"], top="3", draw="5", scores=[6, 30, 0])
    g2.apply(0, play("4"))
    assert g2.scores == (5, 42, 6)
    assert g2.winners == (0,)
    g3 = scenario("classic", ["4", "2 L", "6"], top="3", draw="5", scores=[7, 30, 0])
    events = g3.apply(0, play("4"))
    assert g3.scores == (6, 42, 6) and events[-1].winners == (0, 2)


def test_several_players_reaching_40_still_ends_the_game_once():
    g = scenario("classic", ["4", "2 L", "6 L"], top="3", draw="5", scores=[39, 39, 39])
    events = g.apply(0, play("4"))
    assert len(of_type(events, GameEnded)) == 1
    assert g.scores == (29, 51, 55) and g.winners == (0,)


def test_token_return_happens_before_the_end_check():
    # 40 before emptying: returning a black token brings it to 30, so no end.
    g = scenario("classic", ["4", "2"], top="3", draw="5", scores=[40, 0])
    g.apply(0, play("4"))
    assert not g.is_over and g.scores == (30, 2)


def test_custom_target_ends_the_game_earlier():
    g = scenario("classic", ["4", "2 L"], top="3", draw="5", target=10)
    g.apply(0, play("4"))
    assert g.is_over and g.target == 10
    assert Game.new("classic", 3, seed=1, target=100).target == 100


def test_no_action_is_accepted_after_the_game_ends():
    g = scenario("classic", ["4", "2 L"], top="3", draw="5", target=10)
    g.apply(0, play("4"))
    assert g.legal_actions(0) == () and g.legal_actions(1) == ()
    with pytest.raises(IllegalAction) as err:
        g.apply(0, QUIT)
    assert err.value.reason is Reason.GAME_OVER


# ---------------------------------------------------------------- errors change nothing


def rejected(g, seat, action, reason, **kw):
    before = game_to_dict(g)
    with pytest.raises(IllegalAction) as err:
        g.apply(seat, action, **kw)
    assert err.value.reason is reason
    assert game_to_dict(g) == before
    return err.value


def test_not_your_turn_is_rejected():
    g = scenario("classic", ["3", "3"], top="3", draw="5")
    e = rejected(g, 1, play("3"), Reason.NOT_YOUR_TURN)
    assert e.seat == 1


def test_quit_player_cannot_act_and_is_told_they_quit():
    g = scenario("classic", ["3", "3", "4"], top="3", draw="5", quit=[1])
    rejected(g, 1, QUIT, Reason.ALREADY_QUIT)
    rejected(g, 1, DRAW, Reason.ALREADY_QUIT)


def test_card_not_in_hand_is_rejected():
    g = scenario("classic", ["3", "3"], top="3", draw="5")
    e = rejected(g, 0, play("4"), Reason.CARD_NOT_IN_HAND)
    assert e.card == card("4")


def test_card_from_another_variant_is_not_in_this_game():
    g = scenario("classic", ["3", "3"], top="3", draw="5")
    e = rejected(g, 0, play("P"), Reason.CARD_NOT_IN_GAME)
    assert e.card == card("P")
    rejected(g, 0, play("4+"), Reason.CARD_NOT_IN_GAME)
    rejected(g, 1, play("P"), Reason.CARD_NOT_IN_GAME)  # whoever's turn it is


def test_card_not_playable_is_rejected_and_says_which_are():
    g = scenario("classic", ["1 6 L", "3"], top="6", draw="5")
    e = rejected(g, 0, play("1"), Reason.CARD_NOT_PLAYABLE)
    assert e.card == card("1") and e.playable == cards("6 L")


def test_draw_from_empty_pile_is_rejected():
    g = scenario("classic", ["3", "3"], top="3")
    rejected(g, 0, DRAW, Reason.DRAW_PILE_EMPTY)


def test_draw_when_alone_is_rejected():
    g = scenario("classic", ["3", "3"], top="3", draw="5", quit=[1])
    rejected(g, 0, DRAW, Reason.DRAW_ALONE)


def test_action_for_an_old_round_is_rejected():
    g = scenario("classic", ["3", "3"], top="3", draw="5", round_number=4)
    rejected(g, 0, QUIT, Reason.ROUND_OVER, round_number=3)
    g.apply(0, DRAW, round_number=4)


@pytest.mark.parametrize("seat", [-1, 2, 99, True, "0", None])
def test_no_such_seat_is_rejected(seat):
    g = scenario("classic", ["3", "3"], top="3", draw="5")
    rejected(g, seat, QUIT, Reason.NO_SUCH_SEAT)


def test_game_over_is_rejected():
    g = scenario("classic", ["4", "2 L"], top="3", draw="5", target=10)
    g.apply(0, play("4"))
    rejected(g, 1, DRAW, Reason.GAME_OVER)


def test_non_actions_are_a_type_error():
    g = scenario("classic", ["3", "3"], top="3", draw="5")
    with pytest.raises(TypeError):
        g.apply(0, "draw")  # type: ignore[arg-type]


# ---------------------------------------------------------------- observation


def test_observation_shows_own_hand_and_public_facts_only():
    g = scenario("classic", ["3 4", "5 L", "1"], top="3", draw="6 2", scores=[1, 2, 3])
    o = g.observation(1)
    assert codes(o.hand) == "5 L" and not o.is_my_turn and o.legal_plays == ()
    assert o.hand_sizes == (2, 2, 1) and o.draw_pile_size == 2
    assert o.top_card == card("3") and o.discard_pile[-1] == card("3")
    assert o.scores == (1, 2, 3) and o.target == 40 and o.variant == "classic"
    mine = g.observation(0)
    assert mine.is_my_turn and codes(mine.legal_plays) == "3 4" and mine.can_draw
    assert not hasattr(o, "hands")


def test_discard_pile_is_public_and_grows_with_every_play():
    g = scenario("classic", ["3 4", "4 L"], top="3", draw="6 2")
    before = len(g.observation(1).discard_pile)
    g.apply(0, play("4"))
    g.apply(1, play("4"))
    assert g.observation(0).discard_pile[-2:] == cards("4 4")
    assert len(g.observation(0).discard_pile) == before + 2


# ---------------------------------------------------------------- saving and replaying


def test_saved_game_loads_back_equal():
    g = Game.new("party", 5, seed=3)
    g.apply(g.current_seat, DRAW)
    d = game_to_dict(g)
    assert d["format"] == 1
    assert game_to_dict(game_from_dict(d)) == d
    assert game_from_dict(d) == g


def test_loaded_game_continues_exactly_like_the_original():
    g = Game.new("classic", 3, seed=11)
    h = game_from_dict(game_to_dict(g))
    for _ in range(12):
        seat = g.current_seat
        assert g.apply(seat, DRAW if g.can_draw(seat) else QUIT) == h.apply(
            seat, DRAW if h.can_draw(seat) else QUIT
        )
    assert g == h


def test_replay_rebuilds_the_game_from_seed_and_moves():
    g = Game.new("komarami", 4, seed=5)
    moves = []
    while g.round_number < 3:
        seat = g.current_seat
        action = g.legal_actions(seat)[0]
        g.apply(seat, action)
        moves.append((seat, action))
    assert Game.replay("komarami", 4, 5, moves) == g


@pytest.mark.parametrize(
    "change",
    [
        {"format": 2},
        {"variant": "uno"},
        {"hands": [["3"], ["3", "3"]]},
        {"current_seat": 5},
        {"draw_pile": []},
        {"has_quit": [True, False]},
        {"over": True},
    ],
)
def test_inconsistent_saved_games_are_refused(change):
    g = scenario("classic", ["3", "3"], top="3", draw="5")
    d = {**game_to_dict(g), **change}
    with pytest.raises(ValueError):
        game_from_dict(d)


def test_saved_state_where_the_player_on_turn_must_quit_is_refused():
    with pytest.raises(ValueError):
        scenario("classic", ["1", "3"], top="3")


def test_forced_quits_right_after_a_deal_are_taken_at_once():
    # A made-up 13-card deck leaves 2 players an empty draw pile from the start; when the
    # face-up card is the 4, nobody can play a 1, so both are out before anyone moves.
    from lama import Ruleset

    tiny = Ruleset("tiny", deck=cards("1") * 12 + cards("4"))
    games = [Game.new(tiny, 2, seed=s) for s in range(300)]
    skipped = [g for g in games if g.round_number > 1]
    assert skipped, "some seed turns the 4 face up"
    for g in skipped:
        assert g.scores == (g.round_number - 1,) * 2  # 1 point each per all-quit round
        assert g.top_card == card("1") and g.legal_plays(g.current_seat)


def test_a_finished_game_has_no_round_to_replay_from_its_deal():
    g = Game.new("classic", 2, 5, target=1)
    while not g.is_over:
        g.apply(g.current_seat, QUIT)
    with pytest.raises(ValueError):
        g.as_dealt(0)
