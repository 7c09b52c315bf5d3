"""The rating model (hosting/ratings.py) and one game's update (store/rating_book.py): pure."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from hosting.ratings import RULES, SeasonCadence, season_window
from store import PlayerKey, RatedSeat, RatingChange, Skill, StoredSeat
from store.rating_book import RatingBook, rated_seats

NEW = RULES.initial()
TAU, BETA = 25 / 300, 25 / 6


def seats(*ranks: int) -> list[RatedSeat]:
    return [RatedSeat(i, PlayerKey(user_id=100 + i), rank) for i, rank in enumerate(ranks)]


def stored(place: int, *, user: int | None = None, ai: str | None = None,
           left: bool = False, kicked: bool = False, seat: int = 0) -> StoredSeat:
    gone = left or kicked
    return StoredSeat(1, seat, user, ai is not None, ai, place, place == 1 and not gone, gone,
                      kicked)


# --- the model ------------------------------------------------------------------------------


def test_two_newcomers_move_by_the_weng_lin_plackett_luce_formula():
    # Weng & Lin (2011), Algorithm 4 for two players of equal prior: each wins with p = 1/2.
    var = NEW.sigma**2 + TAU**2
    c = math.sqrt(2 * var + 2 * BETA**2)
    omega = var / c * 0.5
    delta = math.sqrt(var) / c * var / c**2 * 0.25
    winner, loser = RULES.rate_game([NEW, NEW], seats(1, 2))
    assert winner.mu == pytest.approx(NEW.mu + omega)
    assert loser.mu == pytest.approx(NEW.mu - omega)
    assert winner.sigma == pytest.approx(math.sqrt(var * (1 - delta)))
    assert loser.sigma == pytest.approx(winner.sigma)


def test_a_tie_between_equals_moves_neither_mean():
    a, b = RULES.rate_game([NEW, NEW], seats(1, 1))
    assert a.mu == pytest.approx(NEW.mu) and b.mu == pytest.approx(NEW.mu)
    assert a.sigma < NEW.sigma


def test_tied_places_are_rated_alike_and_between_their_neighbours():
    first, second, also_second, last = RULES.rate_game([NEW] * 4, seats(1, 2, 2, 4))
    assert second == also_second
    assert first.mu > second.mu > last.mu


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    strong, weak = Skill(35, 3), Skill(15, 3)
    me = Skill(25, 3)
    over_strong = RULES.rate_game([me, strong], seats(1, 2))[0].mu - me.mu
    over_weak = RULES.rate_game([me, weak], seats(1, 2))[0].mu - me.mu
    assert over_strong > over_weak > 0


@given(st.lists(st.integers(1, 6), min_size=2, max_size=6),
       st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 8.4)), min_size=6, max_size=6))
def test_sigma_never_grows_after_a_game(ranks, priors):
    before = [Skill(mu, sigma) for mu, sigma in priors[: len(ranks)]]
    after = RULES.rate_game(before, seats(*ranks))
    assert all(a.sigma <= b.sigma for a, b in zip(after, before, strict=True))


def test_two_seats_of_one_ai_level_get_one_combined_rating():
    hard = PlayerKey(ai_level="hard")
    rated = [RatedSeat(0, PlayerKey(user_id=1), 2), RatedSeat(1, hard, 1), RatedSeat(2, hard, 3)]
    human, ai_first, ai_last = RULES.rate_game([NEW, NEW, NEW], rated)
    assert ai_first == ai_last
    separately = RULES.rate_game([NEW, NEW, NEW], seats(2, 1, 3))
    assert ai_first.mu == pytest.approx((separately[1].mu + separately[2].mu) / 2)
    assert human == separately[0]


def test_a_newcomer_shows_1000_and_certainty_raises_the_shown_rating():
    assert RULES.shown(NEW) == 1000
    assert RULES.shown(Skill(25, 2)) == 1000 + 25 * (25 - 6)


def test_the_shown_rating_is_openskills_ordinal_on_the_display_scale():
    for mu, sigma in ((25, 25 / 3), (31.7, 2.2), (12.4, 5.05)):
        ordinal = PlackettLuce().rating(mu=mu, sigma=sigma).ordinal(alpha=25, target=1000)
        assert RULES.shown(Skill(mu, sigma)) == round(ordinal)


def test_a_new_season_pulls_rating_halfway_back_to_the_start():
    assert RULES.carried_over(Skill(35, 2)) == Skill(30, (2 + 25 / 3) / 2)
    assert RULES.carried_over(NEW) == NEW


def test_provisional_until_five_rated_games():
    change = RatingChange(1, 0, 7, None, 1, 1000, 1050, career_games=4)
    assert change.provisional and change.delta == 50
    assert not RatingChange(1, 0, 7, None, 1, 1000, 1050, career_games=5).provisional


# --- one game's seats -----------------------------------------------------------------------


def test_ranks_follow_places_and_ties_stay_ties():
    ranks = [r.rank for r in rated_seats([stored(1, user=1), stored(2, user=2, seat=1),
                                          stored(2, user=3, seat=2)])]
    assert ranks == [1, 2, 2]


def test_a_player_who_left_is_rated_last_even_with_the_best_score():
    rated = rated_seats([stored(1, user=1, left=True), stored(2, user=2, seat=1),
                         stored(3, ai="easy", seat=2)])
    assert [r.rank for r in rated] == [4, 2, 3]


def test_a_kicked_player_is_not_rated_and_the_others_rank_among_themselves():
    rated = rated_seats([stored(1, user=1, kicked=True), stored(2, user=2, seat=1),
                         stored(3, ai="easy", seat=2)])
    assert [(r.seat, r.rank) for r in rated] == [(1, 1), (2, 2)]


def test_one_who_left_still_ranks_last_beside_a_kicked_player():
    rated = rated_seats([stored(1, user=1, kicked=True), stored(2, user=2, left=True, seat=1),
                         stored(3, user=3, seat=2), stored(4, ai="easy", seat=3)])
    assert [(r.seat, r.rank) for r in rated] == [(1, 4), (2, 2), (3, 3)]


def test_with_one_seat_left_to_rate_after_a_kick_nobody_is_rated():
    book = RatingBook(RULES)
    assert book.apply(1, 1, 0, [stored(1, user=1, kicked=True), stored(2, user=2, seat=1)]) == []
    assert book.latest == {}


def test_ai_seats_are_rated_as_their_level():
    (rated,) = rated_seats([stored(1, ai="hard")])
    assert rated.player == PlayerKey(ai_level="hard")


def test_a_forgotten_players_seat_is_rated_anonymously_and_never_kept():
    book = RatingBook(RULES)
    book.apply(1, season=1, finished_at=0, seats=[stored(1, user=None), stored(2, user=2, seat=1)])
    assert list(book.latest) == [PlayerKey(user_id=2)]


def test_a_book_counts_games_wins_and_the_best_rating():
    book = RatingBook(RULES)
    for game in range(3):
        book.apply(game, 1, game, [stored(1, user=1), stored(2, user=2, seat=1)])
    winner = book.latest[PlayerKey(user_id=1)]
    assert (winner.games, winner.wins, winner.career_games) == (3, 3, 3)
    assert winner.best_shown == winner.shown
    assert book.latest[PlayerKey(user_id=2)].wins == 0


def test_the_first_game_of_a_new_season_starts_from_the_softened_rating():
    book = RatingBook(RULES)
    for game in range(5):
        book.apply(game, 1, game, [stored(1, user=1), stored(2, user=2, seat=1)])
    final = book.latest[PlayerKey(user_id=1)]
    (change, _) = book.apply(9, 2, 99, [stored(1, user=1), stored(2, user=2, seat=1)])
    assert change.before == RULES.carried_over(final.skill)
    now = book.latest[PlayerKey(user_id=1)]
    assert (now.season, now.games, now.career_games) == (2, 1, 6)
    assert book.changed[(1, PlayerKey(user_id=1))] == final  # season 1's final row is kept


# --- seasons' calendar ----------------------------------------------------------------------


def ts(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())


def test_monthly_seasons_are_calendar_months_in_utc():
    assert season_window(SeasonCadence.MONTHLY, ts(2026, 12, 31, 23, 59, 59)) == (
        ts(2026, 12, 1), ts(2027, 1, 1))


def test_quarterly_seasons_start_in_january_april_july_and_october():
    assert season_window(SeasonCadence.QUARTERLY, ts(2026, 11, 30)) == (
        ts(2026, 10, 1), ts(2027, 1, 1))
    assert season_window(SeasonCadence.QUARTERLY, ts(2026, 4, 1)) == (
        ts(2026, 4, 1), ts(2026, 7, 1))


def test_with_seasons_off_one_season_lasts_forever():
    assert season_window(SeasonCadence.OFF, ts(2026, 11, 30)) == (0, None)
