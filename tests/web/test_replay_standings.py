"""The web replay's last step agrees with the game's "Game over" post and its ratings: a
player who left is listed last with the post's note, whatever the points the AI that played
on for them finished with, and the winner named and starred is the one listed first (the page
listed the seats by points alone and starred the leaver's seat as the winner)."""

from __future__ import annotations

import html
import random
import re

import aiohttp
import pytest

import i18n
from tests.support.e2e import without_isolates
from tests.support.web import GUILD, open_world, play_game, serving
from web import Paths

ALICE, BOB, CAROL = (1, "Alice"), (2, "Bob"), (3, "Carol")


@pytest.fixture
async def world(db_location):
    w = await open_world(db_location)
    w.game = await play_game(w, [ALICE, BOB, CAROL], target=40, leaver=ALICE[0],
                             rng=random.Random(4))
    yield w
    await w.store.close()


def texts(page: str, pattern: str) -> list[list[str]]:
    """What each match of `pattern` says: its lines, tags and isolates taken out."""
    found = [without_isolates(html.unescape(re.sub(r"<[^>]+>", "\n", f)))
             for f in re.findall(pattern, page, re.S)]
    return [[line.strip() for line in text.splitlines() if line.strip()] for text in found]


async def last_step(world, locale: str) -> str:
    world.locale = locale
    film = await world.site.film(GUILD, world.game)
    paths = Paths((await world.site.access(GUILD)).secret)
    async with (serving(world) as base, aiohttp.ClientSession(base) as http,
                http.get(paths.replay(world.game, len(film.frames) - 1)) as response):
        assert response.status == 200
        return await response.text()


async def test_the_last_step_lists_a_leaver_last_and_names_the_best_who_stayed(world):
    record = await world.store.games.get_game(world.game)
    assert record.seats[0].has_left
    alice, bob, carol = (await world.site.film(GUILD, world.game)).scores
    assert alice < min(bob, carol)  # by points alone, Alice's seat would come first and win
    (first, first_name), (second, second_name) = sorted([(bob, "Bob"), (carol, "Carol")])
    for locale in ("en", "cs", "es"):
        page = await last_step(world, locale)

        def line(rank: int, name: str, points: int, locale: str = locale) -> str:
            return i18n.t("game.standing", locale, rank=rank, name=name, count=points)

        left = i18n.t("game.left_counts_as_last", locale)
        (standings,) = texts(page, r'<section class="standings".*?</section>')
        assert standings == [i18n.t("game.standings", locale), line(1, first_name, first),
                             line(2, second_name, second), line(3, "Alice", alice) + f" · {left}"]
        winner = i18n.t("game.winner", locale, name=first_name, count=first)
        assert winner in texts(page, r'<section class="caption.*?</section>')[0]
        starred = texts(page, r'<li class="seat[^"]*winner[^"]*">.*?class="seat-name">(.*?)<')
        assert starred == [[first_name]]
