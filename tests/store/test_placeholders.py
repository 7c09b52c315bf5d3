"""SQLite's placeholders as PostgreSQL's, translated once per statement (store/placeholders.py)."""

from __future__ import annotations

import pytest

from store.placeholders import to_numbered


def test_question_marks_are_numbered_in_order():
    statement = to_numbered("UPDATE games SET status = ? WHERE id = ? AND last_seq = ?")
    assert statement.sql == "UPDATE games SET status = $1 WHERE id = $2 AND last_seq = $3"
    assert statement.args(("running", 7, 3)) == ("running", 7, 3)


def test_a_name_used_twice_is_one_parameter():
    statement = to_numbered("SELECT * FROM t WHERE a > :offset AND a <= :offset + :limit")
    assert statement.sql == "SELECT * FROM t WHERE a > $1 AND a <= $1 + $2"
    assert statement.args({"limit": 10, "offset": 20, "unused": 0}) == [20, 10]


def test_strings_comments_quoted_names_and_casts_are_left_alone():
    sql = "SELECT '?', ':x', \"a?b\", c::text -- why? :y\nFROM t /* :z ? */ WHERE d = ?"
    assert to_numbered(sql).sql == (
        "SELECT '?', ':x', \"a?b\", c::text -- why? :y\nFROM t /* :z ? */ WHERE d = $1")


def test_a_statement_without_placeholders_takes_no_arguments():
    assert to_numbered("SELECT 1").args(()) == ()
    assert to_numbered("SELECT 1").args({"any": 1}) == []


def test_mixing_both_kinds_is_refused():
    with pytest.raises(ValueError, match="mixes"):
        to_numbered("SELECT ? WHERE a = :a")


def test_the_wrong_kind_of_parameters_is_refused():
    with pytest.raises(TypeError):
        to_numbered("SELECT ?").args({"a": 1})
    with pytest.raises(TypeError):
        to_numbered("SELECT :a").args((1,))
