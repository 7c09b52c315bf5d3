"""Who sits where at a tournament's table, and what its AIs are called.

A tournament's AI entrant is one player from sign-up to the final standings, so it keeps one
name: its number among the tournament's AI entrants, in the order they were added ("Llama-bot
2"), in the sign-ups, each round's pairings, at every table it sits at (whatever its seat) and
in the standings. The AIs that only fill a table's empty seats are not entrants: they are
numbered after all the AI entrants, so no two AIs at a table share a name.
"""

from __future__ import annotations

from store.tournaments import Entry, Tournament

from .hosted import Seat, ai_name


def ai_entrant_numbers(tournament: Tournament) -> dict[int, int]:
    """Each AI entrant's number (by entry): 1, 2, … in the order they were added."""
    ais = sorted(e.entry for e in tournament.entries if e.user_id is None)
    return {entry: number for number, entry in enumerate(ais, 1)}


def ai_entrant_name(count: int, level: str) -> str:
    """The name stored with the `count`-th AI entrant, in English ("Llama-bot 2 (normal)");
    interfaces name it in the reader's language, by its number."""
    return f"{ai_name(count - 1)} ({level})"


def table_seats(tournament: Tournament, entrants: list[Entry], fillers: int) -> list[Seat]:
    """The seats of a table: its entrants in their order, then `fillers` AIs of level normal;
    every AI seat with the number it is called by."""
    numbers = ai_entrant_numbers(tournament)
    seats = [
        Seat(i, e.display_name, e.user_id, e.ai_level) if e.user_id is not None
        else Seat(i, ai_name(numbers[e.entry] - 1), None, e.ai_level,
                  ai_number=numbers[e.entry])
        for i, e in enumerate(entrants)
    ]
    first = len(numbers) + 1
    seats += [Seat(len(seats) + k, ai_name(first + k - 1), None, "normal", ai_number=first + k)
              for k in range(fillers)]
    return seats
