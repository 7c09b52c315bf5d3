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
    """Who is rated on each seat and at which rank, by seat; kicked seats are left out.

    An AI seat is its level's identity; a human who left or timed out (an AI finished for
    them) is rated as last place, tied with anyone else who left; everyone else by their
    final place. A human the host kicked did not choose to leave: the game is not rated for
    them, and the others are ranked among themselves (the points their AI finished with set
    no one's rank). If a kick leaves fewer than two seats to rate, nobody is rated.
    """
    counted = [s for s in seats if not s.kicked]
    if len(counted) < min(2, len(seats)):  # a kick left nobody to be rated against
        return []
    ranks = {s.seat: 1 + sum(o.place < s.place for o in counted) for s in counted}
    last = max(ranks.values()) + 1
    rated = []
    for s in counted:
        if s.is_ai:
            player = PlayerKey(ai_level=s.ai_level or "normal")
        else:
            player = PlayerKey(user_id=s.user_id)  # None: forgotten, rated anonymously
        rated.append(RatedSeat(s.seat, player, last if s.left else ranks[s.seat]))
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
        """Rate one finished game in `season`; returns each rated seat's change, by seat
        (none for a kicked seat, none at all if fewer than two seats are rated)."""
        rated = rated_seats(seats)
        if not rated:
            return []
        before = [self.state_in(season, r.player, finished_at) for r in rated]
        after = self._rules.rate_game([b.skill for b in before], rated)
        winners = {s.seat for s in seats if s.won}
        won = {r.player for r in rated if r.seat in winners}
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
