"""A tournament table's seats (hosting/tournament_seats.py): each AI entrant keeps the number
it has among the AI entrants whatever its seat; the AIs that only fill empty seats are numbered
after all the entrants, so no two AIs at a table share a name."""

from __future__ import annotations

from hosting.tournament_seats import ai_entrant_name, ai_entrant_numbers, table_seats
from hosting.views import ai_called
from store.tournaments import Entry, Tournament, TournamentStatus

ENTRIES = (Entry(1, 101, None, "Eva"), Entry(2, None, "normal", "Llama-bot 1 (normal)"),
           Entry(3, 102, None, "Ana"), Entry(4, None, "hard", "Llama-bot 2 (hard)"),
           Entry(5, None, "easy", "Llama-bot 3 (easy)"))


def cup() -> Tournament:
    return Tournament(1, 1, 2, 101, "Cup", 2, 4, "classic", TournamentStatus.RUNNING, 1, None,
                      ENTRIES)


def called(seats) -> list[int | None]:
    return [ai_called(s.index, s.ai_number) if s.user_id is None else None for s in seats]


def test_ai_entrants_are_numbered_in_the_order_they_were_added():
    assert ai_entrant_numbers(cup()) == {2: 1, 4: 2, 5: 3}
    assert ai_entrant_name(2, "hard") == "Llama-bot 2 (hard)"


def test_an_ai_entrant_keeps_its_number_at_any_seat():
    by_entry = {e.entry: e for e in ENTRIES}
    seats = table_seats(cup(), [by_entry[5], by_entry[1], by_entry[2]], fillers=0)
    assert called(seats) == [3, None, 1]
    assert [s.ai_level for s in seats] == ["easy", None, "normal"]


def test_the_ais_that_fill_a_table_are_numbered_after_every_ai_entrant():
    by_entry = {e.entry: e for e in ENTRIES}
    seats = table_seats(cup(), [by_entry[1], by_entry[4]], fillers=2)
    assert called(seats) == [None, 2, 4, 5]
    assert [s.index for s in seats] == [0, 1, 2, 3]
    assert [s.name for s in seats] == ["Eva", "Llama-bot 2", "Llama-bot 4", "Llama-bot 5"]
