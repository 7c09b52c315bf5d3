"""The web pages over HTTP: who may read them, what they show, and that nothing unsafe or
secret gets out. Games are really played through GameService; the site runs on a loopback
port and is read with an HTTP client (the browser tests are in test_web_browser.py)."""

from __future__ import annotations

import html
import io
import re
from dataclasses import replace

import aiohttp
import pytest
from PIL import Image

import cardart
from hosting.stats import Period
from store import RESULT_SORTS, LeaderboardSort
from store.rating_records import PlayerRating, Season
from tests.support.web import GUILD, HOSTILE, OTHER_GUILD, open_world, play_game, serving
from web import Paths
from web.cards import WIDTH

ALICE, BOB, CAROL, DAVE = (1, "Alice"), (2, HOSTILE), (3, "Carol"), (4, "Dave")


@pytest.fixture
async def world(db_location):
    w = await open_world(db_location)
    w.games = [
        await play_game(w, [ALICE, BOB, CAROL], ai_seats=1),
        await play_game(w, [BOB, DAVE], variant="party"),
        await play_game(w, [ALICE, DAVE], variant="komarami"),
    ]
    yield w
    await w.store.close()


@pytest.fixture
async def site(world):
    async with serving(world) as base, aiohttp.ClientSession(base) as http:
        yield http


async def secret_paths(world) -> Paths:
    return Paths((await world.site.access(GUILD)).secret)


async def get(http, path: str) -> tuple[int, str]:
    async with http.get(path, allow_redirects=False) as response:
        return response.status, await response.text()


# --- who may read ---------------------------------------------------------------------------


async def test_pages_are_private_by_default_and_open_with_the_secret_link(world, site):
    assert (await get(site, Paths(str(GUILD)).leaderboard()))[0] == 404
    paths = await secret_paths(world)
    status, page = await get(site, paths.leaderboard())
    assert status == 200 and "Alice" in page


async def test_a_public_server_is_read_by_its_id_and_keeps_its_secret_link(world, site):
    paths = await secret_paths(world)
    await world.site.update_access(GUILD, public=True)
    assert (await get(site, Paths(str(GUILD)).leaderboard()))[0] == 200
    assert (await get(site, paths.leaderboard()))[0] == 200
    await world.site.update_access(GUILD, public=False)
    assert (await get(site, Paths(str(GUILD)).leaderboard()))[0] == 404


async def test_a_new_link_retires_the_old_one_at_once(world, site):
    old = await secret_paths(world)
    await world.site.update_access(GUILD, new_link=True)
    new = await secret_paths(world)
    assert new.key != old.key and len(new.key) >= 22
    assert (await get(site, old.leaderboard()))[0] == 404
    assert (await get(site, new.leaderboard()))[0] == 200


@pytest.mark.parametrize("key", ["nope", "A" * 22, "A" * 40, "123", "-" * 22, "0", "9" * 20])
async def test_unknown_keys_look_like_missing_pages(world, site, key):
    status, page = await get(site, f"/s/{key}/leaderboard")
    assert status == 404 and "Page not found" in page


async def test_the_site_root_leads_to_the_leaderboard(world, site):
    paths = await secret_paths(world)
    async with site.get(paths.root, allow_redirects=False) as response:
        assert response.status == 302
        assert response.headers["Location"] == paths.leaderboard()


async def test_one_servers_link_never_shows_another_servers_game(world, site):
    elsewhere = await play_game(world, [ALICE, CAROL], guild=OTHER_GUILD)
    paths = await secret_paths(world)
    assert (await get(site, paths.replay(elsewhere)))[0] == 404
    assert (await get(site, paths.replay(world.games[0])))[0] == 200


# --- what is never shown --------------------------------------------------------------------


async def test_a_running_game_is_never_shown(world, site):
    running = await play_game(world, [CAROL, DAVE], finish=False)
    paths = await secret_paths(world)
    assert (await get(site, paths.replay(running)))[0] == 404
    assert (await get(site, paths.replay(running, 1)))[0] == 404
    games = (await get(site, paths.games()))[1]
    assert f"#{running}" not in games


async def test_forget_me_is_respected_on_every_page(world, site):
    paths = await secret_paths(world)
    before = (await get(site, paths.replay(world.games[0])))[1]  # the replay is kept in memory
    assert "Alice" in before
    await world.stats.forget(ALICE[0])
    assert (await get(site, paths.player(ALICE[0])))[0] == 404
    for page in (paths.leaderboard(), paths.games(), paths.replay(world.games[0]),
                 paths.player(DAVE[0])):
        status, text = await get(site, page)
        assert status == 200 and "Alice" not in text, page
    assert "(forgotten player)" in (await get(site, paths.games()))[1]
    assert "(forgotten player)" in (await get(site, paths.replay(world.games[0])))[1]


# --- safe by construction -------------------------------------------------------------------


async def test_a_hostile_name_is_text_everywhere(world, site):
    paths = await secret_paths(world)
    for page in (paths.leaderboard(), paths.player(BOB[0]), paths.player(ALICE[0]),
                 paths.games(), paths.replay(world.games[0]), paths.replay(world.games[0], 3)):
        status, text = await get(site, page)
        assert status == 200
        assert HOSTILE not in text, page
        assert html.escape(HOSTILE, quote=False) in text.replace("&#34;", '"'), page


@pytest.mark.parametrize("suffix", [
    "/players/999", "/players/99999999999999999999", "/players/abc", "/players/-1",
    "/games/999", "/games/99999999999999999999", "/games/1/99999", "/games/x",
    "/leaderboard?sort=magic", "/leaderboard?variant=uno", "/leaderboard?period=year",
    "/leaderboard?page=0", "/leaderboard?page=-2", "/leaderboard?page=two",
    "/games?page=abc", "/nothing-here",
])
async def test_bad_ids_and_options_are_404_not_500(world, site, suffix):
    paths = await secret_paths(world)
    status, page = await get(site, paths.root + suffix)
    assert status == 404, suffix
    assert "Page not found" in page


@pytest.mark.parametrize("path", [
    "/static/", "/static", "/static/../web/app.py", "/static/%2e%2e/app.py", "/cards/",
    "/cards/classic/en/9.png", "/cards/classic/xx/1.png", "/cards/uno/en/1.png",
    "/cards/classic/en/P.png",
])
async def test_no_directory_listing_and_no_file_outside_static(site, path):
    status, page = await get(site, path)
    assert status == 404, path
    assert "app.py" not in page and "Index of" not in page


async def test_every_response_carries_the_security_headers(world, site):
    paths = await secret_paths(world)
    for path in (paths.leaderboard(), paths.replay(world.games[0]), "/", "/nothing",
                 "/static/site.css", "/cards/classic/en/L.png"):
        async with site.get(path) as response:
            csp = response.headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp and "script-src 'self'" in csp, path
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert "frame-ancestors 'none'" in csp
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_pages_have_no_inline_script_or_style(world, site):
    paths = await secret_paths(world)
    for path in (paths.leaderboard(), paths.player(ALICE[0]), paths.games(),
                 paths.replay(world.games[0], 2), "/"):
        text = (await get(site, path))[1]
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), path
        assert "<style" not in text and " style=" not in text and " on" + "click" not in text


async def test_the_site_is_read_only(world, site):
    paths = await secret_paths(world)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        async with site.request(method, paths.leaderboard()) as response:
            assert response.status == 405, method
            assert "GET" in response.headers["Allow"]


# --- what the pages show --------------------------------------------------------------------


async def test_the_leaderboard_links_every_sort_variant_and_period(world, site):
    paths = await secret_paths(world)
    text = (await get(site, paths.leaderboard()))[1]
    links = [paths.leaderboard(sort) for sort in RESULT_SORTS]
    links += [paths.leaderboard(period=period) for period in Period]
    links += [paths.leaderboard(variant=v) for v in ("classic", "party", "komarami")]
    for link in links:
        assert f'href="{html.escape(link)}"' in text, link
        assert (await get(site, link))[0] == 200, link


async def test_the_leaderboard_pages_by_ten(world, site):
    for first in range(10, 22, 2):
        await play_game(world, [(first, f"P{first}"), (first + 1, f"P{first + 1}")])
    paths = await secret_paths(world)
    first_page = (await get(site, paths.leaderboard(LeaderboardSort.GAMES)))[1]
    second_page = (await get(site, paths.leaderboard(LeaderboardSort.GAMES, page=1)))[1]
    on_first = re.findall(r'href="/s/[^/"]+/players/(\d+)"', first_page)
    on_second = re.findall(r'href="/s/[^/"]+/players/(\d+)"', second_page)
    assert len(on_first) == 10 and len(on_second) == 6 and not set(on_first) & set(on_second)
    assert "Page 1 of 2" in first_page and "Page 2 of 2" in second_page
    assert f'rel="next" href="{html.escape(paths.leaderboard(LeaderboardSort.GAMES, page=1))}"' \
        in first_page
    far = (await get(site, paths.leaderboard(LeaderboardSort.GAMES, page=40)))[1]
    assert "Page 2 of 2" in far  # a page past the end shows the last one


@pytest.mark.parametrize("sort", list(LeaderboardSort))
async def test_the_leaderboard_ranks_as_the_leaderboard_command_does(world, site, sort):
    paths = await secret_paths(world)
    board = await world.stats.leaderboard(GUILD, sort)
    text = (await get(site, paths.leaderboard(sort)))[1]
    shown = [int(m) for m in re.findall(r'href="/s/[^/"]+/players/(\d+)"', text)]
    assert shown == [row.user_id for row in board.rows]


async def test_pages_speak_the_servers_language(world, site):
    world.locale = "cs"
    paths = await secret_paths(world)
    text = (await get(site, paths.leaderboard()))[1]
    assert '<html lang="cs">' in text and "Žebříček" in text
    world.locale = "es"
    text = (await get(site, paths.replay(world.games[0])))[1]
    assert '<html lang="es">' in text and "Paso 1 de" in text


async def test_a_player_page_shows_record_streaks_last_games_and_head_to_head(world, site):
    paths = await secret_paths(world)
    report = await world.stats.player(GUILD, ALICE[0])
    text = (await get(site, paths.player(ALICE[0])))[1]
    assert "Current win streak" in text and "Head to head" in text
    for game in report.stats.last_games:
        assert f'href="{paths.replay(game.game_id)}"' in text
    assert f'href="{paths.player(DAVE[0])}"' in text  # met in game 3
    assert f'href="{paths.player(ALICE[0])}"' not in text  # not their own opponent


async def test_recent_games_link_every_finished_game_newest_first(world, site):
    paths = await secret_paths(world)
    text = (await get(site, paths.games()))[1]
    shown = [int(m) for m in re.findall(r'href="/s/[^/"]+/games/(\d+)"', text)]
    assert shown == sorted(world.games, reverse=True)


async def test_card_pictures_are_the_bots_card_art(site):
    async with site.get("/cards/party/es/3p.png") as response:
        assert response.status == 200 and response.content_type == "image/png"
        assert "immutable" in response.headers["Cache-Control"]
        assert (await response.read())[:8] == b"\x89PNG\r\n\x1a\n"


async def test_a_card_picture_carries_its_languages_corner_letter(site):
    """The Czech mosquito says K (komár), the English one M: the page hands cardart the
    letters of the language in its address."""
    pictures = {}
    for locale in ("cs", "en"):
        async with site.get(f"/cards/komarami/{locale}/L.png") as response:
            assert response.status == 200
            pictures[locale] = Image.open(io.BytesIO(await response.read())).convert("RGBA")
    komar = cardart.card_tile("L", "komarami", cardart.CornerLetters(mosquito="K"), WIDTH)
    assert pictures["cs"].tobytes() == komar.tobytes()
    assert pictures["en"].tobytes() == cardart.card_tile("L", "komarami", width=WIDTH).tobytes()
    assert pictures["cs"].tobytes() != pictures["en"].tobytes()


async def test_a_replay_reads_as_the_language_writes_it(world, site, caplog):
    """Every step in Czech: cards in the case the sentence needs, never English instead."""
    world.locale = "cs"
    paths = await secret_paths(world)
    film = await world.site.film(GUILD, world.games[0])
    played = 0
    for step in range(len(film.frames)):
        text = (await get(site, paths.replay(world.games[0], step)))[1]
        assert " played " not in text and "Top card" not in text, step
        played += " hraje " in text
    assert played and "Vrchní karta" in text
    assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]


async def test_a_player_page_shows_the_seasons_rating_when_the_server_rates(world, site):
    paths = await secret_paths(world)
    assert "Best rating" not in (await get(site, paths.player(ALICE[0])))[1]  # seasons off
    report = await world.stats.player(GUILD, ALICE[0])
    season = Season(GUILD, 3, "monthly", 0, None, None, None)
    rated = replace(report, season=season, rating=PlayerRating(
        season=3, rating=1234, provisional=False, games=9, change_recent=-8, recent_games=5,
        best=1301, rank=2))

    async def player(guild_id, user_id, **kw):
        return rated if user_id == ALICE[0] else replace(report, season=season)

    world.stats.player = player
    text = (await get(site, paths.player(ALICE[0])))[1]
    for shown in ("1,234", "#2 on this server", "−8 in the last 5 games", "1,301"):
        assert shown in text, shown
    assert "No rated games this season yet." in (await get(site, paths.player(DAVE[0])))[1]
