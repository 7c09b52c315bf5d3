"""One server's ratings in memory, and how one finished game changes them. No SQL.

The store fills a small book with the players of the game that just ended and writes back what
`RatingBook.apply` changed; a rerate fills one book with nothing and applies every stored game
in order. Both run this same code, so a rerate reproduces live ratings exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from store.rating_records import PlayerKey, RatedSeat, RatingChange, RatingRules, Skill, StoredSeat


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's rating in one season, as the ratings table holds it."""

    player: PlayerKey
    season: int
    skill: Skill
    shown: int
    games: int
    wins: int
    career_games: int
    best_shown: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class SeatChange:
    """One seat's change with the model's numbers, as rating_changes holds it."""

    change: RatingChange
    finished_at: int
    rank: int
    before: Skill
    after: Skill


def rated_seats(seats: Sequence[StoredSeat]) -> list[RatedSeat]:
    """Who is rated on each seat and at which rank.

    An AI seat is its level's identity; a human who left (an AI finished for them) is rated
    as last place, tied with anyone else who left; everyone else by their final place.
    """
    last = max((s.place for s in seats), default=0) + 1
    rated = []
    for s in seats:
        if s.is_ai:
            player = PlayerKey(ai_level=s.ai_level or "normal")
        else:
            player = PlayerKey(user_id=s.user_id)  # None: forgotten, rated anonymously
        rated.append(RatedSeat(s.seat, player, last if s.left else s.place))
    return rated


class RatingBook:
    """The latest rating of each player it was given or has rated, per season."""

    def __init__(self, rules: RatingRules, states: Iterable[RatingState] = ()) -> None:
        self._rules = rules
        self.latest: dict[PlayerKey, RatingState] = {s.player: s for s in states}
        self.changed: dict[tuple[int, PlayerKey], RatingState] = {}

    def state_in(self, season: int, player: PlayerKey, at: int) -> RatingState:
        """The player's rating as `season` stands: theirs, carried over, or a new start."""
        rules = self._rules
        latest = self.latest.get(player)
        if latest is not None and latest.season == season:
            return latest
        if latest is None or player.is_anonymous:
            skill = rules.initial()
            career = 0
        else:
            skill = rules.carried_over(latest.skill)
            career = latest.career_games
        shown = rules.shown(skill)
        return RatingState(player, season, skill, shown, 0, 0, career, shown, at)

    def apply(
        self, game_id: int, season: int, finished_at: int, seats: Sequence[StoredSeat]
    ) -> list[SeatChange]:
        """Rate one finished game in `season`; returns each seat's change, by seat."""
        rated = rated_seats(seats)
        before = [self.state_in(season, r.player, finished_at) for r in rated]
        after = self._rules.rate_game([b.skill for b in before], rated)
        won = {r.player for r, s in zip(rated, seats, strict=True) if s.won}
        updated: dict[PlayerKey, RatingState] = {}
        for r, old, skill in zip(rated, before, after, strict=True):
            if r.player in updated or r.player.is_anonymous:
                continue
            shown = self._rules.shown(skill)
            updated[r.player] = replace(
                old, skill=skill, shown=shown, games=old.games + 1,
                wins=old.wins + (r.player in won), career_games=old.career_games + 1,
                best_shown=max(old.best_shown, shown), updated_at=finished_at,
            )
        for player, state in updated.items():
            self.latest[player] = state
            self.changed[(season, player)] = state
        return [
            self._seat_change(game_id, season, finished_at, r, old, skill, updated)
            for r, old, skill in zip(rated, before, after, strict=True)
        ]

    def _seat_change(
        self, game_id: int, season: int, finished_at: int, rated: RatedSeat,
        old: RatingState, skill: Skill, updated: dict[PlayerKey, RatingState],
    ) -> SeatChange:
        state = updated.get(rated.player)
        career = state.career_games if state else old.career_games + 1
        change = RatingChange(
            game_id=game_id, seat=rated.seat, user_id=rated.player.user_id,
            ai_level=rated.player.ai_level, season=season, shown_before=old.shown,
            shown_after=self._rules.shown(skill), career_games=career,
        )
        return SeatChange(change, finished_at, rated.rank, old.skill, skill)
