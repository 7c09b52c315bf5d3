"""How LamaBot rates players: openskill's Weng-Lin Plackett-Luce model, made for multiplayer
free-for-all games with ties. Pure and deterministic; the store runs it inside the transaction
that stores a finished game, and a rerate runs it over every stored game.

Shown ratings are conservative: mu − 3·sigma (the skill we are 99.7 % sure a player has),
scaled so a newcomer shows 1000 and an average regular settles near 1500. `limit_sigma` keeps
sigma from growing after a game, so a good result never lowers a rating's certainty and the
order stays stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum

from openskill.models import PlackettLuce, PlackettLuceRating

from store.rating_records import RatedSeat, Skill

START_MU = 25.0
START_SIGMA = 25.0 / 3.0
DISPLAY_BASE = 1000  # a newcomer's shown rating: mu − 3·sigma = 0
DISPLAY_SCALE = 25  # shown points per unit of mu − 3·sigma
SEASON_PULL = 0.5  # a new season starts this far (mu and sigma) back toward the start


class SeasonCadence(StrEnum):
    OFF = "off"
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"


class WengLinRules:
    """The RatingRules the store is given (store/rating_records.py)."""

    def __init__(self) -> None:
        self._model = PlackettLuce(mu=START_MU, sigma=START_SIGMA, limit_sigma=True)

    def initial(self) -> Skill:
        return Skill(START_MU, START_SIGMA)

    def carried_over(self, final: Skill) -> Skill:
        return Skill(
            final.mu + (START_MU - final.mu) * SEASON_PULL,
            final.sigma + (START_SIGMA - final.sigma) * SEASON_PULL,
        )

    def shown(self, skill: Skill) -> int:
        # openskill's ordinal(z=3, alpha=DISPLAY_SCALE, target=DISPLAY_BASE), without building
        # a rating object (each one draws a uuid4: most of a rerate's time)
        ordinal = skill.mu - 3 * skill.sigma
        return round(DISPLAY_SCALE * (ordinal + DISPLAY_BASE / DISPLAY_SCALE))

    def rate_game(self, before: Sequence[Skill], seats: Sequence[RatedSeat]) -> list[Skill]:
        """Each seat is a team of one; equal ranks are ties.

        An identity on two seats (two AIs of one level) is rated on each seat from the same
        prior, then gets the mean of its seats' results: one combined update per game.
        """
        teams = [[self._rating(skill)] for skill in before]
        ranks: list[float] = [float(seat.rank) for seat in seats]
        rated = self._model.rate(teams, ranks=ranks)
        after = [Skill(team[0].mu, team[0].sigma) for team in rated]
        by_player: dict[object, list[int]] = {}
        for index, seat in enumerate(seats):
            if not seat.player.is_anonymous:
                by_player.setdefault(seat.player, []).append(index)
        for indexes in by_player.values():
            if len(indexes) > 1:
                mean = Skill(
                    sum(after[i].mu for i in indexes) / len(indexes),
                    sum(after[i].sigma for i in indexes) / len(indexes),
                )
                for i in indexes:
                    after[i] = mean
        return after

    def season_window(self, cadence: str, at: int) -> tuple[int, int | None]:
        return season_window(SeasonCadence(cadence), at)

    def _rating(self, skill: Skill) -> PlackettLuceRating:
        return self._model.rating(mu=skill.mu, sigma=skill.sigma)


def season_window(cadence: SeasonCadence, at: int) -> tuple[int, int | None]:
    """[start, end) in unix seconds, UTC calendar months or quarters; off: all of time."""
    if cadence is SeasonCadence.OFF:
        return 0, None
    moment = datetime.fromtimestamp(at, UTC)
    months = 1 if cadence is SeasonCadence.MONTHLY else 3
    first_month = (moment.month - 1) // months * months + 1
    start = datetime(moment.year, first_month, 1, tzinfo=UTC)
    end_month = first_month + months
    end = datetime(moment.year + (end_month - 1) // 12, (end_month - 1) % 12 + 1, 1, tzinfo=UTC)
    return int(start.timestamp()), int(end.timestamp())


RULES = WengLinRules()
