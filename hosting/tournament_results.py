"""A tournament's stored tables as Swiss results, and the standings they make."""

from __future__ import annotations

from collections import Counter

from store.tournaments import TableKey, TableOutcome, Tournament, TournamentStatus

from .results import places_as_rated
from .swiss import Standing, TableResult, standings
from .views import Status


def table_results(tournament: Tournament, outcomes: list[TableOutcome]) -> list[TableResult]:
    """Finished tables as Swiss results: placed by their final scores as the games are rated
    (hosting.results.places_as_rated), an entrant who left, or whose seat an AI played as
    they were busy in another game, last and without points; the AI seats filling a table
    are places too. A cancelled table counts for nobody."""
    humans = {e.entry for e in tournament.entries if e.user_id is not None}
    results = []
    for outcome in outcomes:
        if outcome.status != Status.FINISHED.value:
            continue
        entries = outcome.table.entries
        seats = len(entries) + outcome.table.ai_seats
        scores = [outcome.scores[seat] for seat in range(seats)]
        absent = [seat < len(entries) and (outcome.left.get(seat, False) or (
            entries[seat] in humans and outcome.ai.get(seat, False))) for seat in range(seats)]
        places = places_as_rated(scores, absent, [False] * seats)
        alike = Counter(places)
        results.append(TableResult(
            seats, {e: places[seat] for seat, e in enumerate(entries)},
            {e: scores[seat] for seat, e in enumerate(entries)},
            absent=frozenset(e for seat, e in enumerate(entries) if absent[seat]),
            shared={e: alike[places[seat]] for seat, e in enumerate(entries)}))
    return results


def still_to_play(outcome: TableOutcome) -> bool:
    """Whether a table is still to be played: no game yet (it waits for its place), or its
    game waits in the lobby or runs."""
    return outcome.table.game_id is None or outcome.status in (
        Status.LOBBY.value, Status.RUNNING.value)


def others_to_play(outcomes: list[TableOutcome], table: TableKey) -> bool:
    """Whether another table of `table`'s round is still to be played (else it ends the
    round)."""
    return any(still_to_play(o) for o in outcomes
               if o.table.round == table.round and o.table.table_no != table.table_no)


def only_table(outcomes: list[TableOutcome], table: TableKey) -> bool:
    """Whether `table` is its round's only table (the round is that one game)."""
    return not any(o.table.round == table.round and o.table.table_no != table.table_no
                   for o in outcomes)


def games_of(outcomes: list[TableOutcome]) -> tuple[int, ...]:
    """The games the tables were played as (so far)."""
    return tuple(o.table.game_id for o in outcomes if o.table.game_id is not None)


def playing_now(tournament: Tournament, outcomes: list[TableOutcome]) -> set[int]:
    """The entrants at a table of a running tournament's current round still to be played."""
    if tournament.status is not TournamentStatus.RUNNING:
        return set()
    return {entry for o in outcomes if o.table.round == tournament.round and still_to_play(o)
            for entry in o.table.entries}


def standings_of(tournament: Tournament, outcomes: list[TableOutcome]) -> list[Standing]:
    """Every entrant ranked by the finished tables so far; mid-round, those whose table is
    still to be played are marked, after anyone on equal points who finished the round."""
    entries = [e.entry for e in tournament.entries]
    return standings(entries, table_results(tournament, outcomes),
                     playing=playing_now(tournament, outcomes))
