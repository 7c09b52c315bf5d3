"""A finished game's result per seat, for the leaderboards: derived from its round endings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from lama import events as ev
from store import FinishedGame
from store import SeatResult as StoredSeatResult

from .options import TIMEOUTS_BEFORE_AI


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int | None  # None for a seat that was an AI from the start
    is_ai: bool  # an AI played it from the start: never ranked
    left: bool  # a human who left, was kicked or timed out: the game counts as lost
    final_score: int
    place: int  # as rated (`places_as_rated`): 1 = fewest points of those who stayed
    won: bool  # first place, and stayed to the end
    tokens_collected: int  # penalty points collected over the game, before token returns
    clean_rounds: int  # rounds in which this seat emptied its hand


@dataclass(frozen=True)
class GameResult:
    rounds: int
    seats: tuple[SeatResult, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.won)


def places_as_rated(
    scores: Sequence[int], left: Sequence[bool], kicked: Sequence[bool]
) -> list[int]:
    """Each seat's place as the game is rated (store.rating_book.rated_seats), by seat.

    Seats played to the end (by their human or an AI from the start) place by their points
    among themselves, equal points sharing a place; a seat whose human left or timed out (an
    AI finished for them) comes after all of those, whatever its points, sharing that place
    with any other; a kicked seat, rated for no one, after everyone (its points set no one's
    place)."""
    stayed = [s for s in range(len(scores)) if not left[s]]
    gone = sum(1 for s in range(len(scores)) if left[s] and not kicked[s])
    places = []
    for seat, score in enumerate(scores):
        place = 1 + (len(stayed) if left[seat] else sum(scores[o] < score for o in stayed))
        places.append(place + (gone if kicked[seat] else 0))
    return places


class Departure(StrEnum):
    """Why an AI finished a human's seat: how a list of a finished game's places says so."""

    LEFT = "left"  # they left: rated last
    TIMED_OUT = "timed_out"  # their turn time ran out TIMEOUTS_BEFORE_AI times in a row: last
    KICKED = "kicked"  # the host removed them: not rated, listed after everyone, no place


# What a standing says after a departed seat's points (each with {count}: TIMEOUTS_BEFORE_AI).
DEPARTURE_NOTES = {
    Departure.LEFT: "game.left_counts_as_last",
    Departure.TIMED_OUT: "game.timed_out_counts_as_last",
    Departure.KICKED: "game.kicked_not_rated",
}


def timed_out_of_game(left: bool, kicked: bool, timeouts_in_a_row: int) -> bool:
    """An AI took the seat because its human's turn time ran out too often in a row (the
    count stays where it stood: only the human's own moves reset it)."""
    return left and not kicked and timeouts_in_a_row >= TIMEOUTS_BEFORE_AI


class FinishedSeat(Protocol):
    """A seat of a finished game as the game-over view, a replay and the Activity know it."""

    @property
    def index(self) -> int: ...
    @property
    def left(self) -> bool: ...  # its human left, timed out or was kicked: an AI finished
    @property
    def kicked(self) -> bool: ...
    @property
    def timed_out_of_game(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a finished game's final standings."""

    seat: int
    place: int  # as rated (`places_as_rated`); a kicked seat's is after everyone's
    score: int
    departure: Departure | None  # None: played to the end (by its human, or an AI from the start)

    @property
    def ranked(self) -> bool:
        """Shown with its place ("3. Carol: 7 points"); a kicked seat, rated for no one, is
        listed without one ("– Carol: 7 points")."""
        return self.departure is not Departure.KICKED

    @property
    def note(self) -> str | None:
        """The catalogue key of what its line says after the points (`DEPARTURE_NOTES`)."""
        return None if self.departure is None else DEPARTURE_NOTES[self.departure]


@dataclass(frozen=True, slots=True)
class FinalStandings:
    standings: tuple[Standing, ...]  # as listed: by place, then points, then seat
    winners: tuple[int, ...]  # the seats the game names as its winners: those listed first


def final_standings(seats: Sequence[FinishedSeat], scores: Sequence[int]) -> FinalStandings:
    """A finished game's final order, as it is rated (`places_as_rated`) and as every list
    of its places shows it: the "Game over" post, the replays (Discord's and the web's) and
    the Activity's last screen. A seat whose human left or timed out comes after everyone
    who stayed, whatever the points its AI finished with; a kicked seat after everyone. The
    winners are the seats placed first (the fewest points of those who stayed), not the
    engine's by points alone."""
    places = places_as_rated(scores, [s.left for s in seats], [s.kicked for s in seats])
    order = sorted(seats, key=lambda s: (places[s.index], scores[s.index], s.index))
    standings = tuple(Standing(s.index, places[s.index], scores[s.index], _departure(s))
                      for s in order)
    winners = tuple(s.seat for s in standings if s.place == 1 and s.ranked)
    if not winners:  # every seat kicked: nobody is rated; name the fewest points
        low = min(scores)
        winners = tuple(s.seat for s in standings if s.score == low)
    return FinalStandings(standings, winners)


def _departure(seat: FinishedSeat) -> Departure | None:
    if not seat.left:
        return None
    if seat.kicked:
        return Departure.KICKED
    return Departure.TIMED_OUT if seat.timed_out_of_game else Departure.LEFT


def final_results(seats: Sequence, scores: Sequence[int], events: Iterable) -> GameResult:
    """`seats` are hosting seats (index, user_id, ai_level, left, kicked); `events` the whole
    game's. Places and wins are as rated (`places_as_rated`), not the engine's winners by
    points alone: a seat an AI finished for its human who left is not what the game
    announces as its winner."""
    endings = [e for e in events if isinstance(e, ev.RoundEnded)]
    collected = [0] * len(seats)
    clean = [0] * len(seats)
    for ending in endings:
        for r in ending.results:
            collected[r.seat] += r.penalty
            clean[r.seat] += int(r.emptied_hand)
    places = places_as_rated(scores, [s.left for s in seats], [s.kicked for s in seats])
    results = []
    for seat in seats:
        from_start_ai = seat.user_id is None
        results.append(
            SeatResult(
                seat=seat.index,
                user_id=seat.user_id,
                is_ai=from_start_ai,
                left=seat.left,
                final_score=scores[seat.index],
                place=places[seat.index],
                won=places[seat.index] == 1 and not seat.left,
                tokens_collected=collected[seat.index],
                clean_rounds=clean[seat.index],
            )
        )
    return GameResult(rounds=len(endings), seats=tuple(results))


def stored_result(result: GameResult) -> FinishedGame:
    """The same result in the store's terms (it knows seats' users and AI-ness itself)."""
    return FinishedGame(
        rounds=result.rounds,
        results=tuple(
            StoredSeatResult(
                seat=s.seat,
                final_score=s.final_score,
                place=s.place,
                won=s.won,
                tokens_collected=s.tokens_collected,
                clean_rounds=s.clean_rounds,
            )
            for s in result.seats
        ),
    )
