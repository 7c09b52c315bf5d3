"""A tournament's stored tables as Swiss results, and the standings they make."""

from __future__ import annotations

from store.tournaments import TableOutcome, Tournament

from .swiss import Standing, TableResult, standings
from .views import Status


def table_results(tournament: Tournament, outcomes: list[TableOutcome]) -> list[TableResult]:
    """Finished tables as Swiss results: an entrant who left, or whose seat an AI played as
    they were busy in another game, ranks last; a cancelled table counts for nobody."""
    humans = {e.entry for e in tournament.entries if e.user_id is not None}
    results = []
    for outcome in outcomes:
        if outcome.status != Status.FINISHED.value:
            continue
        seats = len(outcome.table.entries) + outcome.table.ai_seats
        places, scores = {}, {}
        for seat, entry in enumerate(outcome.table.entries):
            absent = outcome.left.get(seat, False) or (
                entry in humans and outcome.ai.get(seat, False))
            places[entry] = seats if absent else outcome.places[seat]
            scores[entry] = outcome.scores[seat]
        results.append(TableResult(seats, places, scores))
    return results


def standings_of(tournament: Tournament, outcomes: list[TableOutcome]) -> list[Standing]:
    """Every entrant ranked by the finished tables so far."""
    entries = [e.entry for e in tournament.entries]
    return standings(entries, table_results(tournament, outcomes))
