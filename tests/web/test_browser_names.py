"""Member-chosen names in a real browser (Debian's chromium, see tests/browser_support.py):
a name holding U+202E turns only itself around, never the words after it, and a long unbroken
name wraps instead of pushing the numbers beside it out of view.

(The markup that does it is checked over HTTP in tests/web/test_text.py.)
"""

from __future__ import annotations

import random

import pytest
import pytest_asyncio

from tests.support.web import GUILD, open_world, play_game
from tests.web.browser_support import DESKTOP, PHONE, open_page, require_chromium
from web import Paths

pytestmark = pytest.mark.asyncio(loop_scope="module")

require_chromium()

RLO = "\u202e"
SERVER = f"{RLO}Lama Klub"
REVERSER = (7, f"{RLO}Simon")
LONG = (8, "W" * 32)  # as long as a Discord display name may be, and as wide as letters go
FRIEND, OTHER = (9, "Zoe"), (10, "Yan")

# For every element matched by `selector` whose text holds `name` followed by a word: does
# that word read left to right (its first letter left of its last)? An override the name
# carries, left unisolated, runs on to the end of the paragraph and turns the word around.
WORDS_AFTER_THE_NAME = """([selector, name]) => {
  const checked = [], reversed = [];
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(name);
      if (at < 0) continue;
      const after = at + name.length;
      const word = /[A-Za-z]{3,}/.exec(node.data.slice(after));
      if (!word) continue;
      const start = after + word.index, end = start + word[0].length;
      const box = (from) => {
        const range = document.createRange();
        range.setStart(node, from);
        range.setEnd(node, from + 1);
        return range.getBoundingClientRect();
      };
      checked.push(element.textContent);
      if (!(box(start).left < box(end - 1).left)) reversed.push(element.textContent);
    }
  }
  return {checked, reversed};
}"""

# The numbers of the player page's head-to-head table: where they are, and the viewport.
HEAD_TO_HEAD_NUMBERS = """() => {
  const cells = Array.from(document.querySelectorAll("#versus ~ .table-wrap td.num"));
  const wrap = document.querySelector("#versus ~ .table-wrap");
  return {
    cells: cells.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; }),
    width: Math.min(document.documentElement.clientWidth, window.innerWidth),
    scrolls: wrap.scrollWidth > wrap.clientWidth,
  };
}"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await open_world(tmp_path_factory.mktemp("web-names") / "lama.sqlite3", seed=32)
    w.server_name = SERVER
    rng = random.Random(32)
    w.game = await play_game(w, [REVERSER, FRIEND, LONG, OTHER], target=20, rng=rng)
    await play_game(w, [FRIEND, LONG], rng=rng)
    w.paths = Paths((await w.site.access(GUILD)).secret)
    yield w
    await w.store.close()


@pytest_asyncio.fixture(loop_scope="module", params=["desktop", "phone"])
async def page(browser, base_url, request):
    phone = request.param == "phone"
    context = await browser.new_context(base_url=base_url, viewport=PHONE if phone else DESKTOP,
                                        device_scale_factor=2 if phone else 1, is_mobile=phone)
    tab = await context.new_page()
    yield tab
    await context.close()


async def test_a_reversing_name_turns_no_word_after_it_around(page, world):
    film = await world.site.film(GUILD, world.game)
    last = len(film.frames) - 1
    checked = 0
    for step in range(last + 1):
        await open_page(page, world.paths.replay(world.game, step))
        seen = await page.evaluate(WORDS_AFTER_THE_NAME,
                                   [".caption p, .standings li", REVERSER[1]])
        assert not seen["reversed"], (step, seen["reversed"])
        checked += len(seen["checked"])
    await page.locator("details.moves").evaluate("details => { details.open = true; }")
    seen = await page.evaluate(WORDS_AFTER_THE_NAME, [".move-list a", REVERSER[1]])
    assert seen["checked"] and not seen["reversed"], seen["reversed"]
    assert checked > 3  # the name's moves, and the standings at the end


async def test_a_reversing_name_stays_inside_its_heading_and_title(page, world):
    await open_page(page, world.paths.player(REVERSER[0]))
    assert await page.title() == f"\u2068{REVERSER[1]}\u2069 · LamaBot"
    seen = await page.evaluate(WORDS_AFTER_THE_NAME, ["#versus ~ .table-wrap th", REVERSER[1]])
    assert not seen["reversed"], seen["reversed"]  # "Ahead : behind (⁨name⁩)"
    header = page.locator("header .server bdi")
    assert await header.inner_text() == SERVER


@pytest.mark.parametrize("user", [FRIEND[0], LONG[0]], ids=["opponent", "own page"])
async def test_a_long_name_wraps_and_the_head_to_head_numbers_stay_in_view(page, world, user):
    await open_page(page, world.paths.player(user))
    shown = await page.evaluate(HEAD_TO_HEAD_NUMBERS)
    assert shown["cells"], "no head-to-head numbers"
    for left, right in shown["cells"]:
        assert left >= 0 and right <= shown["width"], (shown["cells"], shown["width"])
    assert not shown["scrolls"]
    wide = await page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"]


async def test_no_page_is_pushed_wider_than_the_screen_by_a_long_name(page, world):
    film = await world.site.film(GUILD, world.game)
    paths = world.paths
    for path in (paths.leaderboard(), paths.games(), paths.player(LONG[0]),
                 paths.player(FRIEND[0]), paths.replay(world.game, len(film.frames) - 1)):
        await open_page(page, path)
        # Against the screen's own width: a phone zooms out to show a page wider than itself.
        wide = await page.evaluate("document.documentElement.scrollWidth")
        assert wide <= page.viewport_size["width"], (path, wide)
    await open_page(page, paths.leaderboard())
    box = await page.locator("table.board tbody a.player", has_text=LONG[1]).bounding_box()
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]
