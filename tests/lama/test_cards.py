import pytest

from lama.cards import CARDS, LLAMA, PINK_LLAMA, Card, CardKind, cards


def test_there_are_fourteen_distinct_cards_indexed_in_sort_order():
    assert len(CARDS) == 14
    assert list(CARDS) == sorted(CARDS)
    assert [c.code for c in CARDS] == [
        "1", "1+", "2", "2+", "3", "3+", "4", "4+", "5", "5+", "6", "6+", "L", "P",
    ]


def test_codes_round_trip_to_the_interned_instance():
    for c in CARDS:
        assert Card.from_code(c.code) is c


@pytest.mark.parametrize(
    ("code", "expected"),
    [(" l ", "L"), ("p", "P"), ("3 +", "3+"), ("\t6+\n", "6+"), ("llama", "L"), ("Pink", "P")],
)
def test_from_code_accepts_case_and_whitespace_variants(code, expected):
    assert Card.from_code(code).code == expected


@pytest.mark.parametrize("junk", ["", "0", "7", "L+", "P+", "++", "3++", "x", "1 2", None, 3])
def test_from_code_rejects_junk(junk):
    with pytest.raises(ValueError):
        Card.from_code(junk)


def test_equal_cards_are_equal_and_hash_alike_even_when_built_directly():
    built = Card(CardKind.NUMBER, 3, True)
    assert built == Card.from_code("3+")
    assert hash(built) == hash(Card.from_code("3+"))
    assert {built, Card.from_code("3+")} == {built}


def test_invalid_cards_cannot_be_built():
    with pytest.raises(ValueError):
        Card(CardKind.NUMBER, 7)
    with pytest.raises(ValueError):
        Card(CardKind.LLAMA, 3)
    with pytest.raises(ValueError):
        Card(CardKind.PINK_LLAMA, plus=True)


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        LLAMA.value = 3  # type: ignore[misc]


def test_penalty_rank_orders_pink_then_llama_then_six_down_to_one_plus_above_plain():
    by_rank = sorted(CARDS, key=lambda c: c.penalty_rank, reverse=True)
    assert [c.code for c in by_rank] == [
        "P", "L", "6+", "6", "5+", "5", "4+", "4", "3+", "3", "2+", "2", "1+", "1",
    ]


def test_llamas_are_llamas_and_numbers_are_not():
    assert LLAMA.is_llama and PINK_LLAMA.is_llama
    assert not any(c.is_llama for c in cards("1 6 6+"))
