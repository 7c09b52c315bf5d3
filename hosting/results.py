"""A finished game's result per seat, for the leaderboards: derived from its round endings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lama import events as ev
from store import FinishedGame
from store import SeatResult as StoredSeatResult


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
