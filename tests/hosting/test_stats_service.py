"""StatsService against a real SQLite store, with every game played through GameService.

The expected numbers are computed here from what the engine announced (the events and final
views the service published), never read back from the store's tables, so a wrong query and a
wrong expectation cannot agree by accident.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from hosting import FakeClock, GameOptions, GameService, Status
from hosting.results import Departure, final_standings
from hosting.stats import PAGE_SIZE, Period, StatsService
from lama import events as ev
from store import RESULT_SORTS, LeaderboardSort, Store
from tests.hosting.support import CHANNEL, GUILD, OTHER_GUILD
from tests.support.play_along import play_any


def ts(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())


@dataclass
class Played:
    """One finished game as the engine told it: enough to compute every statistic."""

    game_id: int
    variant: str
    finished_at: int
    users: list[int | None]  # per seat; None for an AI seat
    scores: list[int]
    winners: set[int]
    penalties: list[int]
    clean: list[int]
    events: list = field(default_factory=list)

    def place(self, seat: int) -> int:
        return 1 + sum(s < self.scores[seat] for s in self.scores)


@dataclass
class World:
    store: Store
    clock: FakeClock
    service: GameService
    stats: StatsService
    seeds: random.Random
    events: dict[int, list] = field(default_factory=lambda: defaultdict(list))
    views: dict[int, object] = field(default_factory=dict)


@pytest.fixture
async def world(db_location):
    store = await Store.open(db_location)
    clock = FakeClock(ts(2026, 3, 15, 12))
    seeds = random.Random(2026)
    service = GameService(store, clock, seed_source=lambda: seeds.getrandbits(40))
    stats = StatsService(store, clock, preferences=service.preferences)
    service.add_listener(stats.on_game_update)  # as the bot: a finished game, fresh boards
    w = World(store, clock, service, stats, seeds)

    async def collect(update):
        w.events[update.view.game_id].extend(update.events)
        w.views[update.view.game_id] = update.view

    service.add_listener(collect)
    yield w
    await store.close()


async def play_game(
    w: World,
    humans: list[int],
    *,
    ai_seats: int = 0,
    variant: str = "classic",
    target: int = 10,
    guild: int = GUILD,
    rng: random.Random | None = None,
    leaver: int | None = None,
) -> Played:
    """A whole game: humans move at random (legal) through the service, AIs by their timers.
    `leaver`: that player leaves at once (an AI plays their seat to the end)."""
    rng = rng or random.Random(len(w.events))
    options = GameOptions(variant=variant, target=target, turn_timeout=60, ai_delay=0,
                          ai_level="easy")
    update = await w.service.open_lobby(guild, CHANNEL + guild, humans[0], f"P{humans[0]}",
                                        options, ai_seats=ai_seats)
    game_id = update.view.game_id
    for user in humans[1:]:
        await w.service.join(game_id, user, f"P{user}")
    await w.service.start(game_id, humans[0])
    if leaver is not None:
        await w.service.leave(game_id, leaver)
    for _ in range(5000):
        view = w.service.view(game_id)
        if view.status is Status.FINISHED:
            break
        seat = view.seats[view.current_seat]
        if seat.is_ai:
            assert await w.service.fire_due_timers()
            continue
        await play_any(w.service, game_id, seat.user_id, rng, play=0.85, draw=0.7)
    view = w.service.view(game_id)
    assert view.status is Status.FINISHED
    events = w.events[game_id]
    seats = len(view.seats)
    penalties, clean = [0] * seats, [0] * seats
    for e in events:
        if isinstance(e, ev.RoundEnded):
            for r in e.results:
                penalties[r.seat] += r.penalty
                clean[r.seat] += r.emptied_hand
    ended = next(e for e in events if isinstance(e, ev.GameEnded))
    return Played(
        game_id, variant, int(w.clock.now()),
        [s.user_id if not s.is_ai else None for s in view.seats],
        list(ended.scores), set(ended.winners), penalties, clean, list(events),
    )


@dataclass
class Expected:
    games: int = 0
    wins: int = 0
    score: int = 0
    tokens: int = 0
    clean: int = 0


def expected(played: list[Played], variant: str | None = None, since: int | None = None):
    per: dict[int, Expected] = defaultdict(Expected)
    for g in played:
        if (variant and g.variant != variant) or (since and g.finished_at < since):
            continue
        for seat, user in enumerate(g.users):
            if user is None:
                continue
            e = per[user]
            e.games += 1
            e.wins += seat in g.winners
            e.score += g.scores[seat]
            e.tokens += g.penalties[seat]
            e.clean += g.clean[seat]
    return per


def as_tuple(row):
    return (row.games, row.wins, row.avg_score * row.games, row.tokens, row.clean_rounds)


async def whole_board(w: World, sort, **kw):
    first = await w.stats.leaderboard(GUILD, sort, **kw)
    rows = list(first.rows)
    for page in range(1, first.pages):
        rows += (await w.stats.leaderboard(GUILD, sort, page=page, **kw)).rows
    return first, rows


# ----------------------------------------------------------------------------- tests


@pytest.fixture
async def season(world):
    """Twelve players, AI seats in some games, all variants: 16 finished games."""
    played = []
    tables = [[1, 2], [3, 4, 5], [6, 7], [8, 9, 10, 11], [12, 1], [2, 3], [4, 6, 8],
              [5, 7], [9, 12], [10, 11, 1], [2, 4], [3, 6], [1, 2], [1, 3], [2, 5], [1, 4]]
    variants = ["classic", "party", "komarami"]
    for i, humans in enumerate(tables):
        world.clock.advance(3600)
        played.append(await play_game(world, humans, ai_seats=int(i % 3 == 0),
                                      variant=variants[i % 3]))
    world.clock.advance(3600)
    await play_game(world, [1, 2], guild=OTHER_GUILD)  # never counts in GUILD
    return played


@pytest.mark.parametrize("sort", RESULT_SORTS)
async def test_every_sort_ranks_exactly_what_the_games_produced(world, season, sort):
    want = expected(season)
    first, rows = await whole_board(world, sort)
    min_games = 5 if sort is LeaderboardSort.WIN_RATE else 1
    ranked = {u: e for u, e in want.items() if e.games >= min_games}
    assert len(ranked) >= 2  # players 1 and 2 have five games or more
    assert {r.user_id for r in rows} == set(ranked)
    assert first.total == len(ranked)
    for row in rows:
        e = ranked[row.user_id]
        assert as_tuple(row) == pytest.approx((e.games, e.wins, e.score, e.tokens, e.clean))
    metric = {
        LeaderboardSort.WINS: lambda e: -e.wins,
        LeaderboardSort.WIN_RATE: lambda e: -e.wins / e.games,
        LeaderboardSort.AVG_SCORE: lambda e: e.score / e.games,
        LeaderboardSort.TOKENS: lambda e: e.tokens / e.games,
        LeaderboardSort.CLEAN_ROUNDS: lambda e: -e.clean,
        LeaderboardSort.GAMES: lambda e: -e.games,
    }[sort]
    for row in rows:  # competition ranking: 1 + how many are strictly better
        better = sum(metric(o) < metric(ranked[row.user_id]) - 1e-12 for o in ranked.values())
        assert row.rank == 1 + better, row
    assert [metric(ranked[r.user_id]) for r in rows] == sorted(
        metric(ranked[r.user_id]) for r in rows
    )


async def test_ai_seats_are_never_ranked_but_their_games_count_for_humans(world, season):
    _, rows = await whole_board(world, LeaderboardSort.GAMES)
    assert all(r.user_id is not None for r in rows)
    with_ai = [g for g in season if None in g.users]
    assert with_ai
    for user in (1, 3, 8):
        report = await world.stats.player(GUILD, user)
        assert report.stats.games_vs_ai == sum(user in g.users for g in with_ai)


async def test_pages_of_ten_and_my_rank_when_i_am_off_the_page(world, season):
    first = await world.stats.leaderboard(GUILD, LeaderboardSort.GAMES, user_id=11)
    assert first.total == 12 and first.pages == 2 and len(first.rows) == PAGE_SIZE
    second = await world.stats.leaderboard(GUILD, LeaderboardSort.GAMES, page=1, user_id=11)
    assert len(second.rows) == 2 and second.page == 1
    assert not {r.user_id for r in first.rows} & {r.user_id for r in second.rows}
    where = 0 if first.me_on_page else 1
    assert (first, second)[where].me_on_page and not (first, second)[1 - where].me_on_page
    assert first.me == second.me and first.me.user_id == 11
    beyond = await world.stats.leaderboard(GUILD, LeaderboardSort.GAMES, page=99)
    assert beyond.page == 1  # clamped to the last page
    stranger = await world.stats.leaderboard(GUILD, LeaderboardSort.GAMES, user_id=999)
    assert stranger.me is None


async def test_variant_filter(world, season):
    for variant in ("classic", "party", "komarami"):
        want = expected(season, variant=variant)
        _, rows = await whole_board(world, LeaderboardSort.WINS, variant=variant)
        assert {r.user_id: (r.games, r.wins) for r in rows} == {
            u: (e.games, e.wins) for u, e in want.items()
        }


async def test_a_shared_win_counts_for_every_winner(world):
    played = []
    for attempt in range(200):  # random play ties now and then; find a tie to look at
        game = await play_game(world, [1, 2, 3], rng=random.Random(attempt), target=10)
        played.append(game)
        if len(game.winners) > 1:
            break
    else:
        pytest.fail("no shared win in 200 games")
    _, rows = await whole_board(world, LeaderboardSort.WINS)
    want = expected(played)
    assert {r.user_id: r.wins for r in rows} == {u: e.wins for u, e in want.items()}
    tie = await world.stats.history(GUILD, limit=1)
    assert len(tie[0].winners) == len(game.winners) > 1


async def test_the_period_filter_across_a_month_boundary(world):
    world.clock.set(ts(2026, 3, 31, 23, 59))  # a Tuesday
    march = await play_game(world, [1, 2])
    world.clock.set(ts(2026, 4, 1, 0, 1))
    april = await play_game(world, [1, 3])
    assert march.finished_at < ts(2026, 4, 1) <= april.finished_at

    async def users(period):
        _, rows = await whole_board(world, LeaderboardSort.GAMES, period=period)
        return {r.user_id: r.games for r in rows}

    assert await users(Period.MONTH) == {1: 1, 3: 1}
    assert await users(Period.WEEK) == {1: 2, 2: 1, 3: 1}  # Monday 30 March started the week
    assert await users(Period.ALL_TIME) == {1: 2, 2: 1, 3: 1}
    world.clock.set(ts(2026, 4, 6, 0, 0, 1))  # next Monday: a new week, same month
    assert await users(Period.WEEK) == {}
    assert await users(Period.MONTH) == {1: 1, 3: 1}


def test_period_starts_are_utc_midnights(world):
    world.clock.set(ts(2026, 3, 31, 23, 59, 59))
    assert world.stats.since(Period.MONTH) == ts(2026, 3, 1)
    assert world.stats.since(Period.WEEK) == ts(2026, 3, 30)
    assert world.stats.since(Period.ALL_TIME) is None
    world.clock.set(ts(2026, 4, 1))
    assert world.stats.since(Period.MONTH) == ts(2026, 4, 1)
    world.clock.set(ts(2026, 3, 29, 23, 59))  # a Sunday belongs to the week before
    assert world.stats.since(Period.WEEK) == ts(2026, 3, 23)


async def test_player_stats_and_head_to_head(world, season):
    want = expected(season)
    for user in (1, 2, 6):
        report = await world.stats.player(GUILD, user, asked_by=2)
        s, e = report.stats, want[user]
        mine = [g for g in season if user in g.users]
        seat = {g.game_id: g.users.index(user) for g in mine}
        assert (s.games, s.wins, s.tokens, s.clean_rounds) == (e.games, e.wins, e.tokens, e.clean)
        assert s.avg_score == pytest.approx(e.score / e.games)
        assert s.best_score == min(g.scores[seat[g.game_id]] for g in mine)
        won = [seat[g.game_id] in g.winners for g in mine]  # in finishing order
        runs, run = [], 0
        for w in won:
            run = run + 1 if w else 0
            runs.append(run)
        assert (s.current_streak, s.longest_streak) == (runs[-1], max(runs))
        assert [r.game_id for r in s.last_games] == [g.game_id for g in reversed(mine)][:5]
        assert [r.place for r in s.last_games] == [
            g.place(seat[g.game_id]) for g in reversed(mine)][:5]
        if user == 2:
            assert report.head_to_head is None
            continue
        both = [g for g in mine if 2 in g.users]
        h = report.head_to_head
        assert h.games == len(both)
        assert h.a_wins == sum(g.users.index(2) in g.winners for g in both)
        assert h.b_wins == sum(seat[g.game_id] in g.winners for g in both)


async def test_history_lists_the_servers_games_newest_first(world, season):
    history = await world.stats.history(GUILD)
    assert [g.game_id for g in history] == [g.game_id for g in reversed(season)][:10]
    newest = season[-1]
    assert [p.final_score for p in history[0].players] == newest.scores
    assert {p.seat for p in history[0].winners} == newest.winners


async def test_a_replay_reproduces_the_game_move_by_move(world):
    played = await play_game(world, [1, 2, 3], ai_seats=1, variant="party")
    replay = await world.stats.replay(GUILD, played.game_id)
    assert replay is not None
    assert list(replay.scores) == played.scores
    assert set(replay.winners) == played.winners
    steps = [e for rnd in replay.rounds for step in rnd.steps for e in step.events]
    assert steps == played.events[1:]  # all but the first deal, which start() announced
    ended = [e for e in played.events if isinstance(e, ev.RoundEnded)]
    assert [rnd.ended for rnd in replay.rounds] == ended
    assert [rnd.number for rnd in replay.rounds] == list(range(1, len(ended) + 1))
    assert replay.rounds[0].top_card == played.events[0].top_card
    assert [s.is_ai for s in replay.seats] == [u is None for u in played.users]


async def test_a_replay_ends_with_the_places_the_game_was_stored_rated_and_announced_with(
    world,
):
    """Its first player left and the AI that played on for them finished with the fewest
    points: the replay lists that seat last, as the stored (rated) results and the Game over
    view do, and names the best of those who stayed as the winner."""
    played = await play_game(world, [1, 2, 3], target=40, leaver=1, rng=random.Random(3))
    assert played.scores[0] < min(played.scores[1:])  # by points alone, seat 0 would win
    replay = await world.stats.replay(GUILD, played.game_id)
    (stored,) = [g for g in await world.stats.history(GUILD) if g.game_id == played.game_id]
    assert {s.seat: s.place for s in replay.standings} == {p.seat: p.place
                                                          for p in stored.players}
    assert replay.winners == tuple(p.seat for p in stored.winners) != (0,)
    over = final_standings(world.views[played.game_id].seats, played.scores)
    assert replay.standings == over.standings
    assert (replay.standings[-1].seat, replay.standings[-1].departure) == (0, Departure.LEFT)


async def test_a_replay_is_only_of_a_finished_game_of_this_server(world):
    played = await play_game(world, [1, 2], guild=OTHER_GUILD)
    assert await world.stats.replay(GUILD, played.game_id) is None
    assert await world.stats.replay(GUILD, 424242) is None
    lobby = await world.service.open_lobby(GUILD, CHANNEL, 5, "P5", GameOptions())
    assert await world.stats.replay(GUILD, lobby.view.game_id) is None


async def test_forget_me_takes_a_player_off_every_board_and_keeps_the_others(world, season):
    before = {r.user_id: r for r in (await whole_board(world, LeaderboardSort.GAMES))[1]}
    erased = await world.stats.forget(1)
    assert erased == sum(1 in g.users for g in season) + 1  # + the other server's game
    after = {r.user_id: r for r in (await whole_board(world, LeaderboardSort.GAMES))[1]}
    assert 1 not in after
    assert {u: as_tuple(r) for u, r in after.items()} == {
        u: as_tuple(r) for u, r in before.items() if u != 1
    }
    assert (await world.stats.player(GUILD, 1)).stats.games == 0


async def test_bulk_loaded_games_rank_like_played_ones(world):
    """store.bulk (the benchmark's loader) writes rows the leaderboard reads correctly."""
    from store.bulk import BulkGame, BulkSeat, insert_finished_games

    rng = random.Random(4)
    games = []
    for n in range(60):
        users = [*rng.sample(range(1, 9), 3), None]
        scores = [rng.randint(0, 40) for _ in users]
        seats = [BulkSeat(u, "x", s, 1 + sum(o < s for o in scores), s == min(scores), s, n % 2)
                 for u, s in zip(users, scores, strict=True)]
        games.append(BulkGame(GUILD, CHANNEL, "classic", 40, 4, ts(2026, 1, 1) + n, seats))
    assert await insert_finished_games(world.store.db, games) == 60
    _, rows = await whole_board(world, LeaderboardSort.WINS)
    wins = defaultdict(int)
    for g in games:
        for s in g.seats:
            if s.user_id is not None:
                wins[s.user_id] += s.won
    assert {r.user_id: r.wins for r in rows} == dict(wins)
    assert (await world.stats.player(GUILD, rows[0].user_id)).stats.games_vs_ai == sum(
        rows[0].user_id in [s.user_id for s in g.seats] for g in games)


@pytest.mark.parametrize("sort", RESULT_SORTS)
async def test_a_pages_slice_agrees_with_the_whole_ranking(world, season, sort):
    stats = world.store.stats
    whole = list((await stats.leaderboard_slice(GUILD, sort, limit=10_000)).rows)
    assert [r.rank for r in whole] == sorted(r.rank for r in whole)
    for offset, user in ((0, 11), (10, 1), (20, 5)):
        got = await stats.leaderboard_slice(GUILD, sort, limit=10, offset=offset, user_id=user)
        assert list(got.rows) == whole[offset : offset + 10]
        assert got.total == len(whole)
        assert got.me == next((r for r in whole if r.user_id == user), None)
