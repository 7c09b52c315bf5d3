"""Whole games in the Activity against the real bot: bot.py with its web site, the loopback
Discord as Discord's servers, chromium as each player's Discord client (the host page framing
the Activity through the stand-in for Discord's proxy).

Two players in the Activity (one on a desktop, one on a phone), one with slash commands and an
AI play a game to its end, the bot killed and started again in the middle of it; the game's
end shows everyone's rating change, also to the slash player who opens the Activity just after
it, and a Rematch pressed in the Activity opens the next lobby.
A spectator in the same Activity sees every move and never receives a hand.
`LAMABOT_SCREENSHOTS=1` saves the pictures in docs/activity.md and the README.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest_asyncio
from playwright.async_api import expect

from cogs.moves import NO_CARD
from tests.activity.discord_host import LOCAL_NETWORK, ActivityTab, open_activity
from tests.activity.loopback_side import BotRun, LoopbackSide, as_user, launch
from tests.activity.proxy import proxied
from tests.web.browser_support import DESKTOP, PHONE, chromium, require_chromium

require_chromium()

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "images"
RESTART_AFTER = 6  # committed moves before the bot is killed and started again
WAIT = 60_000  # ms: a state after a restart may wait for bot.py's start-up on a busy machine
FAILED_REQUEST = re.compile(r"WebSocket connection to .* failed|Failed to load resource")


@pytest_asyncio.fixture
async def browser(activity_build):
    """One chromium for the test, on the test's own event loop (the loopback Discord's)."""
    async with chromium() as launched:
        yield launched


class Player:
    """One Discord client with the Activity open, and every state its page received."""

    def __init__(self, tab: ActivityTab) -> None:
        self.tab = tab
        self.states: list[dict[str, Any]] = []
        tab.page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        def received(payload) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                self.states.append(message["view"])

        socket.on("framereceived", received)

    @property
    def app(self):
        return self.tab.frame

    @property
    def view(self) -> dict[str, Any]:
        return self.states[-1]

    async def until(self, condition, timeout: float = WAIT / 1000) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (self.states and condition(self.view)):
            assert loop.time() < deadline, "the page never showed that state"
            await asyncio.sleep(0.05)
        return self.view

    async def move(self) -> None:
        """Play the first playable card, else draw, else quit (confirmed), as a player taps."""
        app = self.app
        playable = app.locator("#cards .card.playable")
        if await playable.count():
            await playable.first.click()
        elif await app.locator("[data-key=draw]").get_attribute("aria-disabled") is None:
            await app.locator("[data-key=draw]").click()
        else:
            await app.locator("[data-key=quit]").click()
            await app.locator("#quit-yes").click()


class Table:
    """The test's players: Activity pages by seat name, and Carol with slash commands."""

    def __init__(self, fake, players: dict[str, Player]) -> None:
        self.fake, self.players = fake, players
        self.problems: list[str] = []  # script errors, console errors, CSP reports

    def _console(self, name: str, message) -> None:
        # The browser logs each failed request too: those are judged by `_response`.
        if message.type == "error" and not FAILED_REQUEST.search(message.text):
            self.problems.append(f"{name}: {message.text}")

    def _response(self, name: str, response) -> None:
        """A request may fail only if it is a picture (the page then draws the card: the bot
        serves no card back yet) or the socket while the bot is down (the proxy's 502)."""
        if response.status < 400:
            return
        picture = response.request.resource_type == "image"
        bot_down = response.status == 502 and "/api/live" in response.url
        if not (picture or bot_down):
            self.problems.append(f"{name}: {response.status} {response.url}")

    async def open(self, browser, name: str, user, viewport) -> Player:
        context = await browser.new_context(viewport=viewport, permissions=LOCAL_NETWORK)
        context.on("weberror", lambda e: self.problems.append(f"{name}: {e.error}"))
        context.on("console", lambda m: self._console(name, m))
        context.on("response", lambda r: self._response(name, r))
        where = launch(self.fake, user, "lama")
        tab = await open_activity(context, self.proxy_url, as_user(user), where,
                                  LoopbackSide(self.fake))
        self.players[name] = player = Player(tab)
        await self.participants_changed(where.instance_id)
        return player

    async def participants_changed(self, instance_id: str) -> None:
        """What Discord tells every open Activity when someone joins the instance."""
        instance = self.fake.activities.instances[instance_id]
        participants = [as_user(self.fake.users_by_id[u]).as_discord() | {"flags": 0,
                        "bot": False} for u in instance.users]
        for player in self.players.values():
            await player.tab.dispatch("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE",
                                      {"participants": participants})

    async def slash_move(self, user, watcher: Player, moves: int) -> None:
        """Carol's move by slash commands: a card the autocomplete offers, else a draw, else
        (the draw refused: she is the last in the round, or the pile is empty) quitting."""
        choices = await self.fake.autocomplete(user, "lama", "play", focused="card")
        cards = [c["value"] for c in choices if c["value"] != NO_CARD]
        if cards:
            await self.fake.slash(user, "lama", "play", card=cards[0])
            return
        await self.fake.slash(user, "lama", "draw")
        try:
            await watcher.until(lambda v: v["moves"] > moves, timeout=3)
        except AssertionError:
            await self.fake.slash(user, "lama", "quit")


async def pictures_shown(player: Player) -> None:
    """Every picture on the page has loaded (a card that failed is drawn instead; none may
    be left broken)."""
    html = player.app.locator("html")
    for _ in range(100):
        if await html.evaluate("() => Array.from(document.images).every(i => i.complete)"):
            break
        await asyncio.sleep(0.05)
    broken = await html.evaluate(
        "() => Array.from(document.images).filter(i => !i.naturalWidth).map(i => i.src)")
    assert not broken


async def screenshot(player: Player, name: str) -> None:
    await pictures_shown(player)
    if os.environ.get("LAMABOT_SCREENSHOTS") == "1":
        await player.tab.page.screenshot(path=str(SCREENSHOTS / name))


async def test_two_activity_players_a_slash_player_and_an_ai_to_the_end_and_a_rematch(
    fake_discord, browser, tmp_path
):
    fake = fake_discord
    fake.enable_activities()
    alice, bob, carol, dana = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    bot = BotRun(fake, str(tmp_path / "lama.sqlite3"))
    await bot.start()
    try:
        owner = fake.user("owner")
        await fake.grant(owner, manage_guild=True)
        await fake.slash(owner, "general", "lama settings", target=10, ai_delay=0.0,
                         turn_timeout=3600)
        async with proxied(bot.url) as (url, _proxy):
            table = Table(fake, {})
            table.proxy_url = url + "/"
            await play_the_game(table, browser, bot, alice, bob, carol, dana)
        assert not table.problems
    finally:
        await bot.stop()


async def play_the_game(table: Table, browser, bot: BotRun, alice, bob, carol, dana) -> None:
    fake = table.fake
    # Alice opens the Activity where no game is, and opens a lobby from it.
    a = await table.open(browser, "Alice", alice, DESKTOP)
    await expect(a.app.locator("#panel")).to_contain_text("No game at this table yet")
    await a.app.get_by_role("button", name="Open a lobby").click()
    await expect(a.app.locator("#panel")).to_contain_text("Lobby")
    # Bob, on his phone, joins from the Activity; Carol with a slash command.
    b = await table.open(browser, "Bob", bob, PHONE)
    await b.app.get_by_role("button", name="Join").click()
    await fake.slash(carol, "lama", "lama join")
    await a.app.get_by_role("button", name="Add AI").click()
    await expect(a.app.locator(".seat")).to_have_count(4)
    await a.app.get_by_role("button", name="Start").click()
    await a.until(lambda v: v["status"] == "running")
    # Dave only watches: the same table, no hand, ever.
    d = await table.open(browser, "Dave", dana, DESKTOP)
    await expect(d.app.locator("#panel")).to_contain_text("You are watching")
    await expect(a.app.locator("#watching")).to_contain_text("Dave")

    shot = {"desktop": False, "phone": False}
    restarted = False
    for _ in range(400):
        view = await a.until(lambda v: True)
        if view["status"] == "finished":
            break
        seat = next(s for s in view["seats"] if s["on_turn"])
        moves = view["moves"]
        if seat["name"] == "Alice":
            if not shot["desktop"] and moves >= 3 and can_play(a):
                shot["desktop"] = True
                await screenshot(a, "activity-desktop.png")
            await a.move()
        elif seat["name"] == "Bob":
            if not shot["phone"] and moves >= 3 and can_play(b):
                shot["phone"] = True
                await screenshot(b, "activity-phone.png")
            await b.move()
        elif seat["name"] == "Carol":
            await table.slash_move(carol, a, moves)
        await a.until(lambda v, m=moves: v["moves"] > m or v["status"] != "running")
        if not restarted and view["moves"] >= RESTART_AFTER:
            restarted = True
            await restart(bot, a, b, d)
    over = await a.until(lambda v: v["status"] == "finished")
    assert restarted
    # Carol, who played by slash commands, opens the Activity just after the last move.
    c = await table.open(browser, "Carol", carol, DESKTOP)
    await the_end_and_a_rematch(a, b, c, d, over)
    assert all(state["hand"] is None for state in d.states), "a spectator received a hand"
    assert len(d.states) > over["moves"] / 2, "the spectator followed the game live"


def can_play(player: Player) -> bool:
    """The page's newest state offers a card to play (the nicer picture)."""
    return any(card["playable"] for card in player.view["hand"] or [])


async def restart(bot: BotRun, *pages: Player) -> None:
    """Kill the bot mid-game and start it again: every page comes back by itself, on the
    session it had (the session key comes from the client secret, not the process)."""
    seen = [len(p.states) for p in pages]
    await bot.kill()
    for page in pages:
        await expect(page.app.locator("#link")).to_have_text("Connection lost: reconnecting…")
    await bot.start()
    for page, count in zip(pages, seen, strict=True):
        await page.until(lambda v, p=page, c=count: len(p.states) > c)
        await expect(page.app.locator("#link")).to_have_text("Connected again.", timeout=WAIT)


async def the_end_and_a_rematch(a: Player, b: Player, c: Player, d: Player,
                                over: dict[str, Any]) -> None:
    """The end on every page, Carol's too, opened after it (the places, their rating changes,
    her Rematch); Bob's Rematch opens the next lobby, on every page."""
    humans = [p for p in over["game_over"]["places"] if p["rating_change"] is not None]
    assert {p["name"] for p in humans} >= {"Alice", "Bob", "Carol"}
    for player in (a, c):
        panel = player.app.locator("#panel")
        await expect(panel).to_contain_text("Game over")
        await expect(panel.locator(".place")).to_have_count(4)
        await expect(panel.locator(".place .rating")).to_have_count(len(humans))
    await expect(c.app.locator("#panel .place.you")).to_contain_text("Carol")
    await expect(c.app.get_by_role("button", name="Rematch")).to_be_visible()
    await expect(d.app.locator("#panel")).to_contain_text("Game over")
    result = a.app.locator("#result")
    if await result.is_visible():  # the last round's result, over the places
        await result.get_by_role("button", name="Close").click()
    await screenshot(a, "activity-game-over.png")
    await b.app.get_by_role("button", name="Rematch").click()
    lobby = await a.until(lambda v: v["status"] == "lobby")
    assert lobby["game_id"] > over["game_id"]
    await expect(a.app.locator("#panel")).to_contain_text("Lobby")
    await expect(b.app.locator("#panel")).to_contain_text("Lobby")
    await expect(c.app.locator("#panel")).to_contain_text("Lobby")
