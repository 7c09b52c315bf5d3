"""The web pages in a real headless browser: Debian's chromium driven by Playwright.

The site is started by the test (the bot's WebServer on a loopback port) over games really
played through GameService. `make test` installs chromium when it is missing; without it these
tests are skipped locally and fail in CI. `make screenshots` refreshes docs/web.md's pictures
(docs/images/web-*.png) from the same pages.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import pytest_asyncio

from hosting.stats import Period
from store import RESULT_SORTS, LeaderboardSort
from tests.support.web import GUILD, HOSTILE, open_world, play_game
from tests.web.browser_support import DESKTOP, PHONE, open_page, require_chromium
from web import Paths

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"

NAMES = ["Alice", "Bob", "Chen", "Dana", "Eliška", "José", "Kofi", "Lena", "Mateo", "Noor",
         "Olga", "Priya", "Quinn"]
HOSTILE_ID = 99

pytestmark = pytest.mark.asyncio(loop_scope="module")

require_chromium()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    """A season on one server: 13 players and one with a hostile name, several variants."""
    w = await open_world(tmp_path_factory.mktemp("web") / "lama.sqlite3", seed=2026)
    rng = random.Random(2026)
    players = list(enumerate(NAMES, start=1))
    w.replay_id = await play_game(w, players[:4], target=30, rng=rng)
    for _ in range(16):
        table = rng.sample(players, rng.randint(2, 4))
        await play_game(w, table, variant=rng.choice(("classic", "party", "komarami")),
                        target=20, rng=rng)
    await play_game(w, [(HOSTILE_ID, HOSTILE), players[1]], rng=rng)
    w.paths = Paths((await w.site.access(GUILD)).secret)
    yield w
    await w.store.close()


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser, base_url):
    """A fresh tab; the test fails on any script error, console error, dialog or CSP report."""
    context = await browser.new_context(base_url=base_url, viewport=DESKTOP)
    tab = await context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error"
           else None)
    tab.on("dialog", lambda d: problems.append(f"dialog: {d.message}"))
    tab.problems = problems
    yield tab
    await context.close()
    assert not problems, problems


async def all_images_loaded(page) -> bool:
    return await page.evaluate(
        "Array.from(document.images).every(i => i.complete && i.naturalWidth > 0 && i.alt !== null)"
    )


async def test_every_page_opens_with_its_pictures(page, world):
    paths = world.paths
    for path, heading in ((paths.leaderboard(), "Leaderboard"),
                          (paths.player(1), "Alice"),
                          (paths.games(), "Recent games"),
                          (paths.replay(world.replay_id), f"game #{world.replay_id}"),
                          ("/", "LamaBot")):
        await open_page(page, path)
        assert heading in await page.locator("h1").inner_text(), path
        assert await all_images_loaded(page), path


async def test_a_missing_page_says_so_in_the_sites_look(browser, base_url, world):
    context = await browser.new_context(base_url=base_url)
    tab = await context.new_page()
    try:
        await open_page(tab, world.paths.player(12345), status=404)
        assert await tab.locator("h1").inner_text() == "Page not found"
        assert await all_images_loaded(tab)
    finally:
        await context.close()


async def test_every_card_picture_has_alt_text(page, world):
    await open_page(page, world.paths.replay(world.replay_id, 5))
    alts = await page.locator("img.card").evaluate_all("imgs => imgs.map(i => i.alt)")
    assert len(alts) > 10 and all(alts), alts


async def test_click_through_a_replay_to_its_end(page, world):
    film = await world.site.film(GUILD, world.replay_id)
    steps = len(film.frames)
    await open_page(page, world.paths.replay(world.replay_id))
    status = page.locator("#step-status")
    for step in range(1, steps):
        assert (await status.inner_text()).startswith(f"Step {step} of {steps}")
        await page.get_by_role("link", name="Next step").click()
    assert (await status.inner_text()).startswith(f"Step {steps} of {steps}")
    assert await page.get_by_role("link", name="Next step").count() == 0  # the end
    winner = film.seats[film.winners[0]].name
    assert f"\u2068{winner}\u2069 wins" in await page.locator(".caption").inner_text()
    assert await page.locator(".standings li").count() == len(film.seats)


async def test_the_keyboard_steps_through_a_replay(page, world):
    film = await world.site.film(GUILD, world.replay_id)
    steps = len(film.frames)
    await open_page(page, world.paths.replay(world.replay_id, 3))
    status = page.locator("#step-status")
    await page.keyboard.press("ArrowRight")
    await page.wait_for_url(f"**{world.paths.replay(world.replay_id, 4)}")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_url(f"**{world.paths.replay(world.replay_id, 3)}")
    await page.keyboard.press("End")
    await page.wait_for_url(f"**{world.paths.replay(world.replay_id, steps - 1)}")
    assert (await status.inner_text()).startswith(f"Step {steps} of {steps}")
    await page.keyboard.press("Home")
    await page.wait_for_url(f"**/games/{world.replay_id}")
    assert (await status.inner_text()).startswith(f"Step 1 of {steps}")


async def test_tab_reaches_the_step_buttons(page, world):
    await open_page(page, world.paths.replay(world.replay_id, 2))
    for _ in range(12):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.dataset.step === 'next'"):
            break
    else:
        pytest.fail("Tab never reached the Next step button")
    await page.keyboard.press("Enter")
    await page.wait_for_url(f"**{world.paths.replay(world.replay_id, 3)}")


async def test_every_step_has_its_own_link(page, world):
    await open_page(page, world.paths.replay(world.replay_id))
    await page.locator("details.moves summary").click()
    links = page.locator(".move-list a")
    film = await world.site.film(GUILD, world.replay_id)
    assert await links.count() == len(film.frames)
    await links.nth(7).click()
    await page.wait_for_url(f"**{world.paths.replay(world.replay_id, 7)}")
    assert (await page.locator("#step-status").inner_text()).startswith("Step 8 of")


async def shown_players(page) -> list[int]:
    hrefs = await page.locator("table.board tbody a.player").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    return [int(href.rsplit("/", 1)[1]) for href in hrefs]


async def test_the_leaderboard_sorts_by_every_column_and_chip(page, world):
    await open_page(page, world.paths.leaderboard())
    for sort in RESULT_SORTS:  # the pages rank results; ratings are the bot's
        label = {LeaderboardSort.WINS: "Most wins", LeaderboardSort.WIN_RATE: "Best win rate",
                 LeaderboardSort.AVG_SCORE: "Lowest average score",
                 LeaderboardSort.TOKENS: "Fewest tokens per game",
                 LeaderboardSort.CLEAN_ROUNDS: "Most clean rounds",
                 LeaderboardSort.GAMES: "Most games played"}[sort]
        await page.get_by_role("link", name=label, exact=True).click()
        await page.wait_for_load_state()
        board = await world.stats.leaderboard(GUILD, sort)
        assert await shown_players(page) == [row.user_id for row in board.rows], sort
        sorted_header = page.locator("table.board th[aria-sort]")
        assert await sorted_header.count() == 1
        assert "sorted" in await sorted_header.get_attribute("class")
    await page.get_by_role("link", name="This month").click()
    await page.wait_for_load_state()
    assert await page.get_by_role("link", name="This month").get_attribute("aria-current")
    board = await world.stats.leaderboard(GUILD, LeaderboardSort.GAMES, period=Period.MONTH)
    assert await shown_players(page) == [row.user_id for row in board.rows]


async def test_the_leaderboard_pages(page, world):
    board = await world.stats.leaderboard(GUILD, LeaderboardSort.WINS)
    assert board.pages == 2
    await open_page(page, world.paths.leaderboard())
    first = await shown_players(page)
    await page.get_by_role("link", name="Next").click()
    await page.wait_for_load_state()
    second = await shown_players(page)
    assert "Page 2 of 2" in await page.locator(".pager").inner_text()
    assert len(first) == 10 and second and not set(first) & set(second)
    assert await page.get_by_role("link", name="Next").count() == 0
    await page.get_by_role("link", name="Previous").click()
    await page.wait_for_load_state()
    assert await shown_players(page) == first


async def test_a_hostile_name_shows_as_text(page, world):
    await open_page(page, world.paths.player(HOSTILE_ID))
    assert await page.locator("h1").inner_text() == HOSTILE
    await open_page(page, world.paths.games())
    assert await page.get_by_text(HOSTILE).count() >= 1
    assert await page.evaluate("document.querySelectorAll('main script').length") == 0
    # the page fixture fails the test on any dialog the name might have opened


async def test_the_pages_fit_a_phone(browser, base_url, world):
    context = await browser.new_context(base_url=base_url, viewport=PHONE,
                                        device_scale_factor=2, is_mobile=True, has_touch=True)
    tab = await context.new_page()
    try:
        for path in (world.paths.leaderboard(), world.paths.player(1), world.paths.games(),
                     world.paths.replay(world.replay_id, 9), "/"):
            await open_page(tab, path)
            overflow = await tab.evaluate(
                "document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, (path, overflow)
        await open_page(tab, world.paths.leaderboard(LeaderboardSort.WIN_RATE))
        visible = await tab.locator("table.board thead th").evaluate_all(
            "cells => cells.filter(c => c.offsetParent !== null).map(c => c.className)")
        assert any("sorted" in c for c in visible) and len(visible) == 3, visible
        if os.environ.get("LAMABOT_SCREENSHOTS"):
            await open_page(tab, world.paths.replay(world.replay_id, 23))
            await tab.screenshot(path=SCREENSHOTS / "web-replay-phone.png")
    finally:
        await context.close()


async def test_screenshots_for_the_readme(page, world, tmp_path):
    """`make screenshots` writes them into docs/images; otherwise they only have to work."""
    folder = SCREENSHOTS if os.environ.get("LAMABOT_SCREENSHOTS") else tmp_path
    shots = {"web-leaderboard.png": world.paths.leaderboard(),
             "web-replay.png": world.paths.replay(world.replay_id, 23)}
    for name, path in shots.items():
        await open_page(page, path)
        await page.screenshot(path=folder / name, full_page=True)
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / name).stat().st_size > 20_000
