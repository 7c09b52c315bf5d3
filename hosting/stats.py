"""What a server remembers of its finished games: leaderboards, statistics, history, replays,
and a player's erase (/lama forget-me); a server's settings are `Preferences`'. No SQL (the
store has it) and no Discord (the cogs render what this returns).

Time enters through the injected clock only, so a test can stand at the last second of a month
and see "this month" change under it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from lama import Card, Game, RoundEnded, RoundStarted
from lama.actions import Action, action_from_dict
from store import (
    Actor,
    GameSummary,
    HeadToHead,
    LeaderboardSort,
    PlayerRating,
    PlayerStats,
    PlayerTotals,
    Season,
    Store,
    rank,
)
from store.rankings import LeaderboardSlice, min_games
from store.records import Game as GameRecord

from . import options as limits
from .board_cache import BoardCache, Turn
from .boards import (
    PAGE_SIZE,
    LeaderboardPage,
    Period,
    chosen_season,
    default_sort,
    rating_page,
)
from .clock import Clock
from .finished import finished_record
from .preferences import Preferences
from .results import FinalStandings, Standing, final_standings, timed_out_of_game
from .views import GameUpdate, Status

HISTORY_SIZE = 10
# A server's totals are kept for boards of up to this many ranked players (~150 bytes each),
# weighing one kept board per TOTALS_PER_WEIGHT of them (board_cache.py).
KEPT_PLAYERS = 20_000
TOTALS_PER_WEIGHT = 100





@dataclass(frozen=True)
class PlayerReport:
    stats: PlayerStats
    head_to_head: HeadToHead | None  # the asker (user_a) against the player, if not themselves
    rating: PlayerRating | None = None  # this season's; None before their first rated game
    season: Season | None = None  # the server's current season


@dataclass(frozen=True)
class ReplaySeat:
    index: int
    name: str  # '' once a forgotten user's name was erased
    user_id: int | None
    is_ai: bool
    ai_level: str | None = None  # an AI seat's level
    ai_number: int | None = None  # what an AI here is called by (views.ai_called)
    left: bool = False  # its human left, timed out or was kicked: an AI finished the game
    kicked: bool = False
    timed_out_of_game: bool = False  # left because the turn timer ran out too often in a row


@dataclass(frozen=True)
class ReplayStep:
    seq: int
    seat: int | None
    actor: Actor
    action: Action
    events: tuple  # what the engine said, in order (lama.events)


@dataclass(frozen=True)
class ReplayRound:
    number: int
    starting_seat: int
    top_card: Card
    steps: tuple[ReplayStep, ...]
    ended: RoundEnded | None  # None only if the log stops mid-round (it never should)


@dataclass(frozen=True)
class ReplayHeader:
    """What a replay of a finished game says before its moves, the bot's (`Replay`: its
    rounds) and the web pages' (`replay_frames.ReplayFilm`: its frames) alike."""

    game_id: int
    guild_id: int
    variant: str
    target: int
    finished_at: int | None
    seats: tuple[ReplaySeat, ...]


def seats_of(record: GameRecord) -> tuple[ReplaySeat, ...]:
    return tuple(
        ReplaySeat(s.seat, s.display_name, s.user_id, s.is_ai,
                   s.ai_level if s.is_ai else None, s.ai_number, left=s.has_left,
                   kicked=s.kicked,
                   timed_out_of_game=timed_out_of_game(s.has_left, s.kicked,
                                                       s.timeouts_in_a_row))
        for s in record.seats
    )


def final_of(seats: tuple[ReplaySeat, ...], game: Game) -> FinalStandings:
    """A replayed game's final standings, as its "Game over" post listed them and as it was
    rated (`results.final_standings`); none (and no winners) if its log stops short."""
    if not game.is_over:
        return FinalStandings((), ())
    return final_standings(seats, game.scores)


@dataclass(frozen=True)
class Replay(ReplayHeader):
    rounds: tuple[ReplayRound, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # as the game named them: its final standings' first
    standings: tuple[Standing, ...] = ()  # as rated: the "Game over" post's order


class StatsService:
    def __init__(
        self, store: Store, clock: Clock, *, preferences: Preferences | None = None,
        boards: BoardCache | None = None, kept_players: int = KEPT_PLAYERS,
    ) -> None:
        """`preferences`: the game service's, so saved settings reach its cache at once.
        `boards`: where leaderboards are kept while the server's results version in the
        store stays the same (board_cache.py); the web's rendered pages are kept there too,
        and forgotten with them. `kept_players`: the most players whose totals a board's
        window keeps (`_totals`)."""
        self._store = store
        self._clock = clock
        self._preferences = preferences or Preferences(store, clock)
        self.boards = boards if boards is not None else BoardCache(
            clock, stored_version=store.stats.results_version)
        self._kept_players = kept_players

    async def on_game_update(self, update: GameUpdate) -> None:
        """The game service's listener: a finished game changes its server's boards."""
        if update.view.status is Status.FINISHED:
            self.boards.game_finished(update.view.guild_id)

    # ------------------------------------------------------------------ periods

    def since(self, period: Period) -> int | None:
        """Unix seconds where the period starts (UTC), or None for all time."""
        now = datetime.fromtimestamp(self._clock.now(), UTC)
        midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
        if period is Period.MONTH:
            return int(midnight.replace(day=1).timestamp())
        if period is Period.WEEK:
            return int((midnight - timedelta(days=midnight.weekday())).timestamp())
        return None

    def period_ends(self, period: Period) -> float | None:
        """Unix seconds where the period that is running now ends (UTC), or None for all
        time: its boards are other boards from then on."""
        since = self.since(period)
        if since is None:
            return None
        start = datetime.fromtimestamp(since, UTC)
        if period is Period.WEEK:
            return (start + timedelta(days=7)).timestamp()
        month = start.month % 12 + 1
        return start.replace(year=start.year + (month == 1), month=month).timestamp()

    # ------------------------------------------------------------- leaderboards

    async def leaderboard(
        self,
        guild_id: int,
        sort: LeaderboardSort | None,
        *,
        variant: str | None = None,
        period: Period = Period.ALL_TIME,
        page: int = 0,
        user_id: int | None = None,
        season: int | None = None,
        turn: Turn | None = None,
    ) -> LeaderboardPage:
        """A page of the server's ranking. `sort` None: by rating once the server has rated
        games (unless a variant or period asks for what ratings do not have), else by wins.
        `season`: that season's games (its ratings, for sort:rating). Kept a few seconds,
        until a game finishes in the server (`boards`: while its results version in the
        store stays the same, up to the period's end); `user_id`'s own row is part of it.
        `turn`: held while a board not kept is made (the web site's read turns)."""
        limits.validate(variant=variant)
        period = Period(period)
        sort = None if sort is None else LeaderboardSort(sort)
        asked = ("board", sort, variant, period, season, page, user_id)
        return await self.boards.get_or_make(guild_id, asked, lambda: self._leaderboard(
            guild_id, sort, variant, period, page, user_id, season),
            changes_at=self.period_ends(period), turn=turn)

    async def _leaderboard(
        self, guild_id: int, sort: LeaderboardSort | None, variant: str | None, period: Period,
        page: int, user_id: int | None, season: int | None,
    ) -> LeaderboardPage:
        if sort is None:
            plain = variant is None and period is Period.ALL_TIME
            sort = await default_sort(self._store, guild_id) if plain else LeaderboardSort.WINS
        chosen = await chosen_season(self._store, guild_id, sort, variant, period, season)
        if sort is LeaderboardSort.RATING:
            return await rating_page(self._store, guild_id, chosen, page, user_id)
        since, until = self.since(period), None
        if chosen is not None:
            since, until = chosen.starts_at, chosen.ends_at
        page = max(page, 0)
        totals = await self._totals(guild_id, variant, since, until)
        ranking = await self._ranked(totals, guild_id, sort, variant, since, until, page, user_id)
        pages = max(1, math.ceil(ranking.total / PAGE_SIZE))
        if page >= pages:  # a button from when there were more players: show the last page
            page = pages - 1
            ranking = await self._ranked(totals, guild_id, sort, variant, since, until, page,
                                         user_id)
        return LeaderboardPage(guild_id, sort, variant, period, page, pages, ranking.total,
                               ranking.rows, ranking.me, min_games(sort), chosen)

    async def _totals(self, guild_id: int, variant: str | None, since: int | None,
                      until: int | None) -> tuple[PlayerTotals, ...] | None:
        """The players' totals of the window, kept with the boards: every sort, page and
        asker of it ranks from them, one aggregation for all. None for a server with more
        than `kept_players` players there: its pages come from the database one by one."""
        async def read() -> tuple[PlayerTotals, ...] | None:
            totals = await self._store.stats.player_totals(
                guild_id, variant, since, until=until, most=self._kept_players + 1)
            return None if len(totals) > self._kept_players else tuple(totals)

        return await self.boards.get_or_make(
            guild_id, ("totals", variant, since, until), read,
            weight=lambda totals: 1 + len(totals or ()) // TOTALS_PER_WEIGHT)

    async def _ranked(self, totals: tuple[PlayerTotals, ...] | None, guild_id: int,
                      sort: LeaderboardSort, variant: str | None, since: int | None,
                      until: int | None, page: int, user_id: int | None) -> LeaderboardSlice:
        offset = page * PAGE_SIZE
        if totals is not None:
            return rank(totals, sort, limit=PAGE_SIZE, offset=offset, user_id=user_id)
        return await self._store.stats.leaderboard_slice(
            guild_id, sort, variant, since, until=until, limit=PAGE_SIZE, offset=offset,
            user_id=user_id)

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's rating seasons, newest first (for /leaderboard season:)."""
        return await self._store.seasons.seasons(guild_id)

    # ---------------------------------------------------------------- players

    async def player(
        self, guild_id: int, user_id: int, *, asked_by: int | None = None
    ) -> PlayerReport:
        stats = await self._store.stats.player_stats(guild_id, user_id)
        versus = None
        if asked_by is not None and asked_by != user_id:
            versus = await self._store.stats.head_to_head(guild_id, asked_by, user_id)
        season = await self._store.seasons.current(guild_id)
        rating = None
        if season is not None:
            rating = await self._store.ratings.player_rating(guild_id, user_id, season.number)
        return PlayerReport(stats, versus, rating, season)

    async def head_to_head(self, guild_id: int, user_a: int, user_b: int) -> HeadToHead:
        return await self._store.stats.head_to_head(guild_id, user_a, user_b)

    async def history(self, guild_id: int, *, limit: int = HISTORY_SIZE) -> list[GameSummary]:
        """The server's most recent finished games, newest first."""
        return await self._store.stats.recent_games(guild_id, limit=limit)

    # ----------------------------------------------------------------- replays

    async def replay(self, guild_id: int, game_id: int) -> Replay | None:
        """A finished game of this server rebuilt from seed and move log; None if no such game.

        Games of other servers are "not found" too: a game id is not a way to peek elsewhere.
        """
        record = await finished_record(self._store, guild_id, game_id)
        if record is None:
            return None
        moves = await self._store.games.list_moves(game_id)
        assert record.seed is not None
        game = Game.new(record.variant, len(record.seats), record.seed, target=record.target)
        rounds: list[ReplayRound] = []
        current = ReplayRound(game.round_number, game.seat_on_turn, game.top_card, (), None)
        steps: list[ReplayStep] = []
        for move in moves:
            if move.seat is None:  # no seat acted (the store allows it; hosting never does)
                continue
            action = action_from_dict(move.action)
            events = tuple(game.apply(move.seat, action))
            steps.append(ReplayStep(move.seq, move.seat, move.actor, action, events))
            for event in events:
                if isinstance(event, RoundEnded):
                    rounds.append(replace(current, steps=tuple(steps), ended=event))
                    steps = []
                elif isinstance(event, RoundStarted):
                    current = ReplayRound(
                        event.round_number, event.starting_seat, event.top_card, (), None
                    )
        if steps:  # a log that stops mid-round: show what there is
            rounds.append(replace(current, steps=tuple(steps)))
        seats = seats_of(record)
        final = final_of(seats, game)
        return Replay(
            game_id=record.id,
            guild_id=record.guild_id,
            variant=record.variant,
            target=record.target,
            finished_at=record.finished_at,
            seats=seats,
            rounds=tuple(rounds),
            scores=tuple(game.scores),
            winners=final.winners,
            standings=final.standings,
        )

    # ----------------------------------------------------------------- privacy

    async def forget(self, user_id: int) -> int:
        """Erase the user's statistics (and language choice) everywhere; returns how many
        results were anonymised. The erase is of what this service shows (their results,
        ratings and names in finished games); `Preferences` drops what it cached of them."""
        count = await self._store.stats.forget_user(user_id)
        self._preferences.forget_user(user_id)
        self.boards.clear()  # no board, kept or on the web, names them any more
        return count
