import pytest

from lama.cards import Card, cards
from lama.rules import CLASSIC, KOMARAMI, PARTY, RULESETS, TokenKind, get_ruleset


def plays(ruleset, top, hand):
    t = Card.from_code(top)
    return {c.code for c in cards(hand) if ruleset.can_follow(t, c)}


def count(ruleset, code):
    return ruleset.deck.count(Card.from_code(code))


def test_classic_deck_is_eight_of_each_number_and_eight_llamas():
    assert len(CLASSIC.deck) == 56
    assert all(count(CLASSIC, str(v)) == 8 for v in range(1, 7))
    assert count(CLASSIC, "L") == 8
    assert count(CLASSIC, "P") == 0


def test_party_deck_has_one_plus_card_per_value_seven_llamas_and_one_pink():
    assert len(PARTY.deck) == 56
    for v in range(1, 7):
        assert count(PARTY, str(v)) == 7
        assert count(PARTY, f"{v}+") == 1
    assert count(PARTY, "L") == 7
    assert count(PARTY, "P") == 1


def test_komarami_deck_has_seven_llamas_and_55_cards():
    assert len(KOMARAMI.deck) == 55
    assert all(count(KOMARAMI, str(v)) == 8 for v in range(1, 7))
    assert count(KOMARAMI, "L") == 7


def test_registry_and_lookup_by_name():
    assert set(RULESETS) == {"classic", "party", "komarami"}
    assert get_ruleset(" Party ") is PARTY
    assert get_ruleset(CLASSIC) is CLASSIC
    with pytest.raises(ValueError):
        get_ruleset("uno")


def test_default_target_is_40():
    assert CLASSIC.target == PARTY.target == KOMARAMI.target == 40


@pytest.mark.parametrize("v", range(1, 6))
def test_a_number_takes_the_same_value_or_one_higher(v):
    hand = "1 2 3 4 5 6 L"
    assert plays(CLASSIC, str(v), hand) == {str(v), str(v + 1)}


def test_worked_example_on_a_6_legal_plays_are_6_and_llama_not_1():
    assert plays(CLASSIC, "6", "6 L 1") == {"6", "L"}


def test_worked_example_on_a_llama_legal_plays_are_1_and_llama():
    assert plays(CLASSIC, "L", "1 2 L") == {"1", "L"}


def test_party_worked_example_on_a_4_only_the_pink_llama_of_pink_and_2():
    assert plays(PARTY, "4", "P 2") == {"P"}


def test_party_worked_example_on_the_pink_llama_llama_and_1():
    assert plays(PARTY, "P", "6 L 1") == {"L", "1"}


def test_party_pink_llama_may_be_played_on_any_card():
    assert all(PARTY.can_follow(c, Card.from_code("P")) for c in cards("1 2+ 3 4 5 6 6+ L"))


def test_party_pink_llama_on_a_6_and_on_a_llama():
    assert plays(PARTY, "6", "P") == {"P"}
    assert plays(PARTY, "L", "P") == {"P"}


def test_party_on_the_pink_llama_no_number_but_1_may_follow():
    assert plays(PARTY, "P", "L 2 6") == {"L"}


def test_plus_cards_follow_and_are_followed_as_their_number():
    assert plays(PARTY, "3", "3+ 4+ 5+ 2+") == {"3+", "4+"}
    assert plays(PARTY, "3+", "3 4 5 2") == {"3", "4"}
    assert plays(PARTY, "6+", "L 6 1") == {"L", "6"}
    assert plays(PARTY, "L", "1+ 2+") == {"1+"}


def test_classic_pink_llama_is_not_wild():
    # It is not in the classic deck; the table still answers sensibly.
    assert not CLASSIC.can_follow(Card.from_code("4"), Card.from_code("P"))


def test_distinct_number_values_count_once():
    assert CLASSIC.hand_penalty(cards("5 5 5")) == 5
    assert CLASSIC.hand_penalty(cards("1 1 4 6")) == 11


def test_worked_example_hand_scores_17_classic_and_27_komarami():
    hand = cards("2 2 5 L L")
    assert CLASSIC.hand_penalty(hand) == 17
    assert KOMARAMI.hand_penalty(hand) == 27


def test_party_worked_example_3_llama_pink_scores_33():
    assert PARTY.hand_penalty(cards("3 L P")) == 33


def test_party_normal_llamas_count_once_and_pink_adds_20():
    assert PARTY.hand_penalty(cards("L L L")) == 10
    assert PARTY.hand_penalty(cards("P")) == 20
    assert PARTY.hand_penalty(cards("L L P")) == 30


def test_party_plus_card_and_plain_card_of_a_value_count_once():
    assert PARTY.hand_penalty(cards("4 4+")) == 4


def test_highest_classic_hand_is_31():
    assert CLASSIC.hand_penalty(cards("1 2 3 4 5 6 L L L")) == 31


def test_empty_hand_scores_nothing():
    assert CLASSIC.hand_penalty(()) == 0


def test_token_kinds_are_ordered_most_valuable_first():
    assert CLASSIC.token_kinds == (TokenKind.BLACK, TokenKind.WHITE)
    assert PARTY.token_kinds == (TokenKind.PINK, TokenKind.BLACK, TokenKind.WHITE)
    assert KOMARAMI.token_kinds == (TokenKind.BLACK, TokenKind.WHITE)


def test_27_is_shown_as_2_black_7_white_and_in_party_1_pink_7_white():
    assert CLASSIC.tokens(27) == ((TokenKind.BLACK, 2), (TokenKind.WHITE, 7))
    assert PARTY.tokens(27) == ((TokenKind.PINK, 1), (TokenKind.WHITE, 7))


def test_tokens_sum_to_the_score():
    for rs in RULESETS.values():
        for score in range(0, 120):
            assert sum(int(k) * n for k, n in rs.tokens(score)) == score
    assert CLASSIC.tokens(0) == ()


@pytest.mark.parametrize(
    ("ruleset", "score", "returned"),
    [
        (CLASSIC, 0, 0), (CLASSIC, 7, 1), (CLASSIC, 23, 10),
        (PARTY, 0, 0), (PARTY, 7, 1), (PARTY, 23, 20),
        (KOMARAMI, 0, 0), (KOMARAMI, 7, 1), (KOMARAMI, 23, 10),
        (CLASSIC, 10, 10), (PARTY, 19, 10), (PARTY, 20, 20), (CLASSIC, 1, 1),
    ],
)
def test_token_return_is_the_most_valuable_token_held(ruleset, score, returned):
    assert ruleset.token_return(score) == returned


def test_custom_target_via_with_target():
    assert CLASSIC.with_target(60).target == 60
    assert CLASSIC.with_target(60).deck == CLASSIC.deck
