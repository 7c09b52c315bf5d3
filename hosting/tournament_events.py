"""What a tournament tells its interface (hosting/tournament.py): each change as an update,
and how a game is played as a table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from store.tournaments import TableKey, TableRecord, Tournament

from .swiss import Standing


class TournamentEvent(StrEnum):
    SIGNUPS = "signups"  # someone joined or left, or an AI was added
    ROUND_SEATED = "round_seated"  # a round's tables are known
    TABLE_OPENED = "table_opened"  # a table's game started
    TABLE_WAITING = "table_waiting"  # a table without a thread waits for a casual game there
    FINISHED = "finished"  # final standings
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class TournamentUpdate:
    event: TournamentEvent
    tournament: Tournament
    standings: tuple[Standing, ...] = ()
    tables: tuple[TableRecord, ...] = ()  # ROUND_SEATED: the round; else the table
    channel_id: int | None = None  # TABLE_OPENED/WAITING: where the table's game shows itself
    stand_ins: tuple[int, ...] = ()  # TABLE_OPENED: entrants busy elsewhere, an AI plays
    # FINISHED, and ROUND_SEATED after the first round: the games of the round just played.
    # What is posted follows their "Game over" (the interface waits for their ends to show).
    after: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlayedAs:
    """A game played as a tournament's table."""

    tournament: Tournament
    table: TableKey
    last: bool  # no other table of its round is still to be played: the round ends with it
    alone: bool  # the only table of its round (its "Game over" names no other table)


TournamentListener = Callable[[TournamentUpdate], Awaitable[None]]
TablePlaces = Callable[[Tournament, TableRecord], Awaitable[int | None]]
"""Opens a table's own place (a thread of the tournament's channel) and returns its channel
id; None where none can be made (the table then plays in the tournament's channel)."""
