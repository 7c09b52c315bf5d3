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
    place: int  # 1 = fewest points; tied scores share a place
    won: bool
    tokens_collected: int  # penalty points collected over the game, before token returns
    clean_rounds: int  # rounds in which this seat emptied its hand


@dataclass(frozen=True)
class GameResult:
    rounds: int
    seats: tuple[SeatResult, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.won)


def final_results(
    seats: Sequence, scores: Sequence[int], winners: Iterable[int], events: Iterable
) -> GameResult:
    """`seats` are hosting seats (index, user_id, ai_level, left); `events` the whole game's."""
    endings = [e for e in events if isinstance(e, ev.RoundEnded)]
    collected = [0] * len(seats)
    clean = [0] * len(seats)
    for ending in endings:
        for r in ending.results:
            collected[r.seat] += r.penalty
            clean[r.seat] += int(r.emptied_hand)
    winners = set(winners)
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
                place=1 + sum(1 for s in scores if s < scores[seat.index]),
                won=seat.index in winners and not seat.left,
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
