"""A server's pages: its leaderboard, a player's page, and its recent games.

Every number comes from hosting (StatsService, the same code as /leaderboard and /lama stats);
these handlers only check the address, ask, and render.
"""

from __future__ import annotations

from aiohttp import web

from hosting.boards import PERIOD_KEYS, RESULT_SORT_KEYS, LeaderboardPage, Period
from lama.rules import RULESETS
from store import RESULT_SORTS, LeaderboardSort

from .context import (
    DEPS,
    Site,
    html_response,
    path_id,
    query_page,
    render,
    render_in_turn,
    site_of,
)
from .limits import LIMITS, ReadLineFull
from .links import ALL_VARIANTS

PAGE_LASTS_S = 60.0  # a page whose board is the same is kept up to this long

# The leaderboard's columns, in order: the sort each heads, and the catalogue's label.
COLUMNS = (
    (LeaderboardSort.GAMES, "stats.games_played"),
    (LeaderboardSort.WINS, "stats.wins"),
    (LeaderboardSort.WIN_RATE, "stats.win_rate"),
    (LeaderboardSort.AVG_SCORE, "stats.average_score"),
    (LeaderboardSort.TOKENS, "web.leaderboard.tokens_per_game"),
    (LeaderboardSort.CLEAN_ROUNDS, "web.leaderboard.clean_rounds"),
)
async def home(request: web.Request) -> web.Response:
    """The site's front door: what it is, and no list of servers (links come from the bot)."""
    return render(request, "home.html")


async def site_root(request: web.Request) -> web.Response:
    site = await site_of(request)
    raise web.HTTPFound(site.paths.leaderboard())


def _query_choice(request: web.Request, name: str, choices: tuple[str, ...], default: str) -> str:
    value = request.query.get(name, default)
    if value not in choices:
        raise web.HTTPNotFound()
    return value


async def leaderboard(request: web.Request) -> web.Response:
    """A board's page. The board is kept while its server's results stay the same
    (hosting/board_cache.py), and its page by what the page shows: the board itself, the
    address (its links carry the key), the server's name and language. So a page is made
    again only when its board changed (up to `PAGE_LASTS_S`), not each time the board is
    ranked again; its names change only with a game finished in the server, which forgets
    the server's pages (another process's raises the server's results version, which a page
    is checked against at its time as a board is), or a player forgotten, which forgets
    them all."""
    site = await site_of(request)
    deps = request.app[DEPS]
    sort = LeaderboardSort(_query_choice(
        request, "sort", tuple(s.value for s in RESULT_SORTS), LeaderboardSort.WINS.value))
    variant = _query_choice(request, "variant", (ALL_VARIANTS, *RULESETS), ALL_VARIANTS)
    period = Period(_query_choice(
        request, "period", tuple(p.value for p in Period), Period.ALL_TIME.value))
    limits = request.app[LIMITS]
    try:  # a board nobody kept is made in one of the site's read turns (limits.py)
        board = await deps.stats.leaderboard(
            site.guild_id, sort, variant=None if variant == ALL_VARIANTS else variant,
            period=period, page=query_page(request), turn=limits.read_turn,
        )
    except ReadLineFull:
        return await limits.busy(request)
    shown = ("web page", site.paths.key, site.name, site.words.locale, board)
    html = await deps.stats.boards.get_or_make(
        site.guild_id, shown, lambda: _leaderboard_page(request, site, board),
        lasts_s=PAGE_LASTS_S)
    return html_response(html)


async def _leaderboard_page(request: web.Request, site: Site, board: LeaderboardPage) -> str:
    names = await request.app[DEPS].site.names(site.guild_id, [r.user_id for r in board.rows])
    return await render_in_turn(
        request, "leaderboard.html", site=site, board=board, names=names,
        columns=COLUMNS, sorts=RESULT_SORT_KEYS, periods=PERIOD_KEYS,
        variants=(None, *RULESETS),
        page_url=lambda page: site.paths.leaderboard(board.sort, board.variant, board.period,
                                                     page),
    )


async def player(request: web.Request) -> web.Response:
    site = await site_of(request)
    deps = request.app[DEPS]
    user_id = path_id(request, "user_id")
    report = await deps.stats.player(site.guild_id, user_id)
    if report.stats.games == 0:  # never played here, or asked to be forgotten
        raise web.HTTPNotFound()
    opponents = await deps.site.opponents(site.guild_id, user_id)
    names = await deps.site.names(site.guild_id, [user_id, *(h.user_b for h in opponents)])
    return html_response(await render_in_turn(
        request, "player.html", site=site, stats=report.stats, opponents=opponents,
        names=names, name=names.get(user_id, ""), rating=report.rating,
        rated=report.season is not None,  # a server without seasons rates nobody
    ))


async def games(request: web.Request) -> web.Response:
    site = await site_of(request)
    listing = await request.app[DEPS].site.games(site.guild_id, query_page(request))
    return html_response(await render_in_turn(
        request, "games.html", site=site, listing=listing, page_url=site.paths.games))
