"""Requests a hostile or careless visitor sends: numbers that are not ASCII digits, addresses
of files that do not exist, and what a private link's responses tell caches.

Every odd number is the site's own 404 page, never a 500 and never an ERROR in the log (a
traceback per request would let anyone fill the log). Everything under /s/ may hold a secret,
so nothing there may be stored by a browser or a proxy.
"""

from __future__ import annotations

import logging
from urllib.parse import quote

import aiohttp
import pytest
import pytest_asyncio
from yarl import URL

from hosting.site import SiteService
from tests.support.web import GUILD, open_world, play_game
from web import Paths

pytestmark = pytest.mark.asyncio(loop_scope="module")

# Digits Python's isdigit() or int() accept but an address must not, and other odd numbers.
ODD_NUMBERS = [
    "²", "1²", "５", "１２", "٣", "١٢٣", "१", "߁", "𝟙", "-1", "+1", "1.0", "1e3", "0x1", "1_0",
    "", " ", " 1", "1 ", "\t1", "1\n", "\n", "9" * 21, "9" * 400, "0" * 30 + "1",
]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await open_world(tmp_path_factory.mktemp("odd") / "lama.sqlite3")
    w.game = await play_game(w, [(1, "Alice"), (2, "Bob")])
    w.paths = Paths((await w.site.access(GUILD)).secret)
    await w.site.update_access(GUILD, public=True)  # its id is a key too
    yield w
    await w.store.close()


def odd_addresses(paths: Paths, game: int, value: str) -> list[str]:
    """Every place an address carries a number, with `value` there instead."""
    v = quote(value, safe="")
    return [
        f"{paths.root}/players/{v}", f"{paths.root}/games/{v}", f"{paths.root}/games/{game}/{v}",
        f"{paths.leaderboard()}?page={v}", f"{paths.leaderboard()}?sort=games&page={v}",
        f"{paths.games()}?page={v}", f"/s/{v}/leaderboard", f"/s/{v}", f"/s/{v}/players/1",
        f"/cards/classic/en/{v}.png",
    ]


async def get(http, path: str | URL) -> tuple[aiohttp.ClientResponse, str]:
    async with http.get(path, allow_redirects=False) as response:
        return response, (await response.read()).decode(errors="replace")


def complaints(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("value", ODD_NUMBERS, ids=ascii)
async def test_odd_numbers_are_the_sites_404_with_nothing_logged(world, site, caplog, value):
    caplog.set_level(logging.INFO)
    for path in odd_addresses(world.paths, world.game, value):
        response, page = await get(site, path)
        assert response.status == 404, path
        assert response.content_type == "text/html" and "Page not found" in page, path
    assert not complaints(caplog)


@pytest.mark.parametrize("escaped", ["%FF", "%00", "1%00", "%C0%AF", "%EF%BC%91%FF"])
async def test_bytes_that_are_no_text_are_the_sites_404_too(world, site, caplog, escaped):
    """Percent escapes that decode to no UTF-8 text (or to NUL), sent as they are."""
    caplog.set_level(logging.INFO)
    for path in odd_addresses(world.paths, world.game, "{}"):
        raw = path.replace(quote("{}", safe=""), escaped)
        response, page = await get(site, URL(raw, encoded=True))
        assert response.status == 404 and "Page not found" in page, raw
    assert not complaints(caplog)


async def test_the_same_addresses_with_ascii_digits_are_answered(world, site):
    """The odd numbers' addresses are right otherwise: ASCII digits open them."""
    root, game = world.paths.root, world.game
    for path in (f"{root}/players/1", f"{root}/players/02", f"{root}/games/{game}",
                 f"{root}/games/{game}/3", f"{root}/games/{game}/0", f"{root}/leaderboard?page=1",
                 f"{root}/leaderboard?sort=games&page=02", f"{root}/games?page=1",
                 f"/s/{GUILD}/leaderboard", f"/s/{GUILD}/players/1", "/cards/classic/en/1.png"):
        assert (await get(site, path))[0].status == 200, path
    assert (await get(site, f"/s/{GUILD}"))[0].status == 302


@pytest.mark.parametrize("key", ["５０００", "٥٠٠٠", "5000²", "é" * 22, "５" * 22])
async def test_the_site_service_reads_only_ascii_keys(world, key):
    """What hosting answers for a key the address's pattern already keeps out."""
    assert await SiteService(world.store, world.clock).guild_for(key) is None


# --- what caches are told -------------------------------------------------------------------


async def test_nothing_under_a_secret_link_is_stored(world, site):
    paths = world.paths
    for path in (paths.leaderboard(), paths.player(1), paths.games(), paths.replay(world.game),
                 paths.replay(world.game, 2), paths.root, paths.root + "/",
                 paths.player(999), paths.root + "/nothing", f"{paths.games()}?page=%C2%B2",
                 f"/s/{GUILD}/leaderboard", f"/s/{GUILD}"):
        response, _ = await get(site, path)
        assert response.headers.get("Cache-Control") == "no-store", (path, response.status)
        assert response.headers["Referrer-Policy"] == "no-referrer", path
        assert "noindex" in response.headers["X-Robots-Tag"], path
    async with site.post(paths.leaderboard()) as response:
        assert response.status == 405
        assert response.headers.get("Cache-Control") == "no-store"


async def test_the_redirect_that_carries_the_secret_is_not_stored(world, site):
    response, _ = await get(site, world.paths.root)
    assert response.status == 302 and response.headers["Location"] == world.paths.leaderboard()
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_pictures_and_styles_stay_cacheable(site):
    response, _ = await get(site, "/cards/classic/en/L.png")
    assert "immutable" in response.headers["Cache-Control"]
    response, _ = await get(site, "/static/site.css")
    assert response.status == 200 and "no-store" not in response.headers.get("Cache-Control", "")


# --- missing static files -------------------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/static/nope.css", "/static/site.css.map", "/static/nested/replay.js", "/static/%C2%B2.js",
    "/static/site.css/", "/static/.hidden", "/static/nope.css?v=123",
])
async def test_a_missing_static_file_is_the_sites_404_page(site, caplog, path):
    response, page = await get(site, path)
    assert response.status == 404, path
    assert response.content_type == "text/html" and "Page not found" in page, path
    assert '<link rel="stylesheet"' in page  # the site's look, not aiohttp's bare answer
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert not complaints(caplog)


async def test_the_static_files_there_are_still_served(site):
    page = (await get(site, "/"))[1]
    for name, kind in (("site.css", "css"), ("replay.js", "javascript")):
        response, _ = await get(site, f"/static/{name}")
        assert response.status == 200 and response.content_type.endswith(kind), name
    versioned = page.split('<link rel="stylesheet" href="', 1)[1].split('"', 1)[0]
    assert versioned.startswith("/static/site.css?v=")
    assert (await get(site, versioned))[0].status == 200
