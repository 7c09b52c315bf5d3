"""Property tests: random legal and illegal action sequences against an independent reading
of docs/rules.md, in every variant with 2-6 seats."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from lama import (
    CARDS,
    DRAW,
    QUIT,
    Card,
    Draw,
    ExtraTurn,
    ForcedQuit,
    Game,
    GameEnded,
    IllegalAction,
    Play,
    PlayerQuit,
    Quit,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    game_from_dict,
    game_to_dict,
    get_ruleset,
)
from lama.core import GameCore

VARIANTS = ("classic", "party", "komarami")
ANY_ACTION = st.one_of(st.just(DRAW), st.just(QUIT), st.sampled_from(CARDS).map(Play))


def is_legal(d, seat, action):
    """docs/rules.md's "Playing a card", read from a saved state, independently of the engine."""
    if d["over"] or seat != d["current_seat"]:
        return False
    rs = get_ruleset(d["variant"])
    if isinstance(action, Play):
        top = Card.from_code(d["discard_pile"][-1])
        return action.card.code in d["hands"][seat] and rs.can_follow(top, action.card)
    if isinstance(action, Draw):
        return bool(d["draw_pile"]) and d["has_quit"].count(False) > 1
    return True


def check_state(g):
    d = game_to_dict(g)
    rs = g.ruleset
    cards = Counter(c for h in d["hands"] for c in h) + Counter(d["draw_pile"] + d["discard_pile"])
    assert cards == Counter(c.code for c in rs.deck), "every card accounted for"
    assert game_to_dict(game_from_dict(d)) == d, "save/load round trip"
    assert [g.hand_size(s) for s in range(g.num_seats)] == [len(h) for h in d["hands"]]
    if g.is_over:
        assert g.current_seat is None and max(g.scores) >= g.target
        assert g.legal_actions(0) == ()
    else:
        seat = g.current_seat
        assert not g.has_quit(seat)
        # Whoever is on turn has a real choice (forced quits were already taken).
        assert g.legal_plays(seat) or g.can_draw(seat)
        assert g.legal_actions(seat)[-1] == QUIT
        assert 0 not in g.hand_sizes
    return d


def check_events(before, seat, action, events, g):
    rs = g.ruleset
    n = before["num_seats"]
    quitted = {s for s in range(n) if before["has_quit"][s]}
    scores = list(before["scores"])
    last_quitter = before["last_quitter"]
    emptier = None
    if isinstance(action, Play) and len(before["hands"][seat]) == 1:
        emptier = seat
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) <= 1
    for e in events:
        if isinstance(e, PlayerQuit | ForcedQuit):
            assert e.seat not in quitted
            quitted.add(e.seat)
            last_quitter = e.seat
        elif isinstance(e, ExtraTurn):
            assert rs.plus_extra_turn and action.card.plus and e.seat == seat
        elif isinstance(e, RoundEnded):
            assert e.round_number == before["round_number"]
            if emptier is not None:
                assert e.ended_by is RoundEndReason.EMPTY_HAND
            else:
                assert e.ended_by is RoundEndReason.ALL_QUIT
                assert quitted == set(range(n)), "all-quit round ends only when all quit"
            for r in e.results:
                assert r.score_before == scores[r.seat]
                assert r.emptied_hand == (r.seat == emptier)
                if r.emptied_hand:
                    assert r.hand == () and r.penalty == 0
                    assert r.token_returned == rs.token_return(r.score_before)
                else:
                    assert r.penalty == rs.hand_penalty(r.hand) and r.token_returned == 0
                assert r.score_after == r.score_before + r.penalty - r.token_returned
                scores[r.seat] = r.score_after
        elif isinstance(e, RoundStarted):
            assert e.round_number == before["round_number"] + 1
            assert e.starting_seat == (emptier if emptier is not None else last_quitter)
        elif isinstance(e, GameEnded):
            assert max(scores) >= g.target
            assert e.winners == tuple(s for s in range(n) if scores[s] == min(scores))
    if not ended:
        assert quitted != set(range(n)), "the round goes on while someone is in it"
        assert g.round_number == before["round_number"]
        assert list(g.scores) == before["scores"]
    else:
        assert list(g.scores) == scores
        assert g.is_over == (max(scores) >= g.target)
        assert g.is_over == any(isinstance(e, GameEnded) for e in events)


@settings(max_examples=120, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seats=st.integers(2, 6),
    seed=st.integers(-(2**40), 2**40),
    target=st.sampled_from([40, 12, 80]),
    data=st.data(),
)
def test_random_legal_and_illegal_actions_keep_every_rule(variant, seats, seed, target, data):
    g = Game.new(variant, seats, seed, target=target)
    moves = []
    snapshot_at = data.draw(st.integers(0, 60))
    snapshot = None
    d = check_state(g)
    for _ in range(data.draw(st.integers(1, 160))):
        if len(moves) == snapshot_at and snapshot is None:
            snapshot = (d, len(moves))
        if not g.is_over and data.draw(st.integers(0, 9)) < 7:
            seat = g.current_seat
            action = data.draw(st.sampled_from(g.legal_actions(seat)))
        else:
            seat = data.draw(st.integers(-1, seats))
            action = data.draw(ANY_ACTION)
        legal = is_legal(d, seat, action)
        try:
            events = g.apply(seat, action)
        except IllegalAction as err:
            assert not legal, f"legal action refused: {err}"
            assert game_to_dict(g) == d, "a refused action changes nothing"
            continue
        assert legal, "illegal action accepted"
        check_events(d, seat, action, events, g)
        d = check_state(g)
        moves.append((seat, action))
    # Determinism: the seed and the move log rebuild the same game.
    assert game_to_dict(Game.replay(variant, seats, seed, moves, target=target)) == d
    # A saved game continues exactly like the original.
    if snapshot is not None:
        saved, k = snapshot
        resumed = game_from_dict(saved)
        for seat, action in moves[k:]:
            resumed.apply(seat, action)
        assert game_to_dict(resumed) == d


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seats=st.integers(2, 6), seed=st.integers(0, 10**9))
def test_whole_games_end_with_a_winner_and_consistent_events(variant, seats, seed):
    g = Game.new(variant, seats, seed)
    log = []
    while not g.is_over:
        seat = g.current_seat
        actions = g.legal_actions(seat)
        action = actions[(seed + len(log)) % len(actions)]
        log.extend(g.apply(seat, action))
        assert len(log) < 20_000
    assert isinstance(log[-1], GameEnded)
    assert log[-1].winners == g.winners and max(g.scores) >= 40
    assert sum(isinstance(e, RoundEnded) for e in log) == g.round_number


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seats=st.integers(2, 6), seed=st.integers())
def test_same_seed_same_deal_card_for_card(variant, seats, seed):
    a, b = Game.new(variant, seats, seed), Game.new(variant, seats, seed)
    assert game_to_dict(a) == game_to_dict(b)


@given(action=ANY_ACTION)
def test_actions_round_trip_through_dicts(action):
    from lama import action_from_dict, action_to_dict

    assert action_from_dict(action_to_dict(action)) == action
    assert isinstance(action, Play | Draw | Quit)


def scripted_turn(game: Game, n: int):
    """The seat on turn and its n-th legal action (cycling): a whole game, reproducibly."""
    seat = game.current_seat
    actions = game.legal_actions(seat)
    return seat, actions[n % len(actions)]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seats=st.integers(2, 6), seed=st.integers(0, 10**9))
def test_a_clone_plays_on_exactly_like_the_original_and_apart_from_it(variant, seats, seed):
    g = Game.new(variant, seats, seed)
    steps = 0
    while not g.is_over and steps < 400:
        seat, action = scripted_turn(g, seed + steps)
        before = game_to_dict(g)
        draft = g.clone()
        assert game_to_dict(draft) == before
        events = draft.apply(seat, action)
        assert game_to_dict(g) == before, "a move on the clone leaves the original alone"
        assert g.apply(seat, action) == events
        assert game_to_dict(g) == game_to_dict(draft)
        steps += 1


def test_a_clone_shares_no_list_a_move_changes():
    """`clone` copies lists by kind: only the deck (a round's pile is dealt from a copy of
    it) may be shared; a list slot added later is copied or named here."""
    g = Game.new("classic", 3, 7)
    draft = g.clone()
    shared = [name for name in GameCore.__slots__ if isinstance(getattr(g, name), list)
              and getattr(draft, name) is getattr(g, name)]
    assert shared == ["_deck"]
    assert all(a is not b for a, b in zip(g._hands, draft._hands, strict=True))


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seats=st.integers(2, 6), seed=st.integers(0, 10**9))
def test_the_original_moving_first_leaves_its_clone_to_play_on_alike(variant, seats, seed):
    """A clone shares the round's RNG until one of the two draws: whichever draws first
    takes a copy, so neither changes the other's future."""
    g = Game.new(variant, seats, seed)
    steps = 0
    while not g.is_over and steps < 400:
        seat, action = scripted_turn(g, seed + steps)
        draft = g.clone()
        before = game_to_dict(draft)
        events = g.apply(seat, action)
        assert game_to_dict(draft) == before, "a move on the original leaves the clone alone"
        assert draft.apply(seat, action) == events
        assert game_to_dict(g) == game_to_dict(draft)
        g = draft if steps % 2 else g  # play on with either, as a committed draft does
        steps += 1


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seats=st.integers(2, 6), seed=st.integers(0, 10**9),
       saves=st.sets(st.integers(0, 400), max_size=40))
def test_a_game_saved_now_and_then_plays_on_exactly_like_one_never_saved(
        variant, seats, seed, saves):
    """A save completes the round's lazy shuffle for good: the future stays the same."""
    saved, unsaved = Game.new(variant, seats, seed), Game.new(variant, seats, seed)
    steps = 0
    while not unsaved.is_over and steps < 400:
        if steps in saves:
            game_to_dict(saved)
            if steps % 3 == 0:
                saved = saved.clone()  # a committed draft plays on
        seat, action = scripted_turn(unsaved, seed + steps)
        assert saved.apply(seat, action) == unsaved.apply(seat, action)
        steps += 1
    assert game_to_dict(saved) == game_to_dict(unsaved)


@settings(max_examples=80, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seats=st.integers(2, 6),
    seed=st.integers(-(2**40), 2**40),
    data=st.data(),
)
def test_a_round_replayed_from_its_deal_reaches_the_game_s_state(variant, seats, seed, data):
    g = Game.new(variant, seats, seed, target=40)
    starting, round_moves = g.current_seat, []
    for _ in range(data.draw(st.integers(0, 200))):
        if g.is_over:
            break
        seat = g.current_seat
        if not round_moves:
            assert seat == starting, "a round's first move is its starting seat's"
        action = data.draw(st.sampled_from(g.legal_actions(seat)))
        dealt = [e for e in g.apply(seat, action) if isinstance(e, RoundStarted)]
        round_moves.append((seat, action))
        if dealt:
            starting, round_moves = dealt[-1].starting_seat, []
    if g.is_over:
        return
    again = g.as_dealt(starting)
    for seat, action in round_moves:
        again.apply(seat, action)
    assert again == g
