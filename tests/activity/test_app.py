"""The Activity's app in a real browser, inside a Discord host page, against a backend that
speaks the contract: signing in through the SDK, drawing each state, sending each press,
coming back after drops and expired sessions, in every language, by keyboard and by ear.
"""

from __future__ import annotations

import asyncio
import re

import pytest
import pytest_asyncio
from playwright.async_api import expect

from tests.activity import views
from tests.activity.discord_host import (
    LOCAL_NETWORK,
    DiscordUser,
    Launch,
    authenticated,
    open_activity,
)
from tests.activity.fake_backend import CLIENT_ID
from tests.support.e2e import wait_until
from tests.web.browser_support import DESKTOP, PHONE, require_chromium

pytestmark = pytest.mark.asyncio(loop_scope="module")

require_chromium()

ALICE = DiscordUser("101", "Alice")
BOB = DiscordUser("102", "Bob")
DANA = DiscordUser("105", "Dana")
LAUNCH = Launch(CLIENT_ID, "i-42", guild_id="5000", channel_id="5001")


class Side:
    """Discord's servers for the fake backend: codes it understands."""

    def __init__(self) -> None:
        self.here: list[DiscordUser] = [ALICE]

    async def authorize(self, user, args):
        return f"code-{user.id}"

    async def authenticate(self, user, access_token):
        return authenticated(user, access_token, CLIENT_ID)

    async def participants(self, launch):
        return self.here


def actions(backend) -> list[str]:
    return [r.message["action"] for r in backend.requests]


class Tabs:
    """Opens Discord tabs running the Activity; the test fails on any script error, console
    error or CSP report in them (the Activity's frame included), but for those it `allow`s."""

    def __init__(self, browser, backend) -> None:
        self.browser, self.backend = browser, backend
        self.contexts: list = []
        self.problems: list[str] = []
        self.allowed: list[re.Pattern] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def _problem(self, text: str) -> None:
        if not any(p.search(text) for p in self.allowed):
            self.problems.append(text)

    async def __call__(self, user=ALICE, *, viewport=DESKTOP, side=None, motion="reduce",
                       clock=False, **host):
        context = await self.browser.new_context(viewport=viewport, reduced_motion=motion,
                                                 permissions=LOCAL_NETWORK)
        if clock:
            await context.clock.install()
        context.on("weberror", lambda error: self._problem(f"page error: {error.error}"))
        context.on("console", lambda m: self._problem(f"console: {m.text}")
                   if m.type == "error" else None)
        self.contexts.append(context)
        return await open_activity(context, self.backend.url, user, LAUNCH, side or Side(),
                                   **host)


@pytest_asyncio.fixture(loop_scope="module")
async def tabs(browser, backend):
    opener = Tabs(browser, backend)
    yield opener
    for context in opener.contexts:
        await context.close()
    assert not opener.problems


async def test_signs_in_through_the_sdk_and_shows_the_table(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    app = tab.frame
    await expect(app.locator(".seat")).to_have_count(4)
    # The handshake and sign-in, as the SDK said them to Discord.
    log = await tab.host_log()
    handshake = next(p for d, op, p in log if d == "in" and op == 0)
    assert handshake["client_id"] == CLIENT_ID and handshake["v"] == 1
    assert handshake["sdk_version"] and handshake["frame_id"]
    commands = [p for d, op, p in log if d == "in" and op == 1]
    authorize = next(c for c in commands if c["cmd"] == "AUTHORIZE")
    assert authorize["args"]["scope"] == ["identify"]
    assert authorize["args"]["response_type"] == "code"
    assert authorize["args"]["client_id"] == CLIENT_ID
    auth = next(c for c in commands if c["cmd"] == "AUTHENTICATE")
    assert auth["args"] == {"access_token": "token-101"}
    assert (await tab.host_state())["authenticated"] == ALICE.id
    assert backend.sign_ins == [ALICE.id] and backend.connects == [ALICE.id]
    # The table: seats with names, figures and whose turn; the piles; the hand.
    await expect(app.locator(".seat.on-turn")).to_contain_text("Alice")
    await expect(app.locator(".seat.you .tag").first).to_have_text("you")
    await expect(app.locator(".seat").nth(2)).to_contain_text("AI")
    bob = app.locator(".seat").nth(1)
    await expect(bob.locator(".figure.black")).to_have_text("Black tokens: 1")
    await expect(app.locator(".top-card")).to_have_attribute("alt", "Top card: 3")
    await expect(app.locator(".pile.draw .count")).to_have_text("Draw pile: 31")
    await expect(app.locator(".turn")).to_contain_text("Your turn")
    await expect(app.locator(".deadline")).to_have_text(re.compile(r"0:4[0-5]"))
    cards = app.locator("#cards .card")
    await expect(cards).to_have_count(5)
    await expect(app.locator("#cards .card.playable")).to_have_count(3)
    await expect(cards.nth(0)).to_have_attribute("aria-label", "Play a 3")
    await expect(cards.nth(3)).to_have_attribute("aria-label", "llama (does not fit now)")
    await expect(cards.nth(3)).to_have_attribute("aria-disabled", "true")
    await expect(app.locator("#moves")).to_contain_text("Chen played a 3")
    assert await app.locator("img").evaluate_all(
        "imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")


async def test_the_countdown_runs_on_the_server_s_clock(tabs, backend):
    # The view's `now` is the server's clock (years from the browser's): 12 s are left.
    backend.views[ALICE.id] = views.running(deadline=12)
    tab = await tabs()
    deadline = tab.frame.locator(".deadline")
    await expect(deadline).to_have_text(re.compile(r"0:1[0-2]"))
    await expect(deadline).to_have_text(re.compile(r"0:0\d"), timeout=5000)
    await expect(deadline).to_have_class(re.compile("hurry"))
    await expect(tab.frame.locator("#announce")).to_contain_text("s left for your turn")


RECORD_ANIMATIONS = """() => {
    window.animated = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
        window.animated.push(this.className);
        return animate.apply(this, args);
    };
}"""


async def test_a_tap_plays_the_card_and_the_new_state_shows_it(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs(motion="no-preference")
    app = tab.frame
    await expect(app.locator("#cards .card")).to_have_count(5)
    await app.locator("html").evaluate(RECORD_ANIMATIONS)
    await app.locator("#cards .card.playable").nth(1).click()
    await wait_until(lambda: len(backend.requests) == 1)
    request = backend.requests[0].message
    assert request["action"] == "play" and request["card"] == views.card("4", "en")["value"]
    after = views.running(turn=1, hand=("3", "4", "L", "6"), top="4")
    after["discard_pile"] += 1
    after["recent"].append("Alice played a 4")
    await backend.push(ALICE.id, after)
    await expect(app.locator(".top-card")).to_have_attribute("alt", "Top card: 4")
    await expect(app.locator("#cards .card")).to_have_count(4)
    await expect(app.locator("#cards .card.playable")).to_have_count(0)
    await expect(app.locator(".turn")).to_contain_text("On turn: Bob")
    await expect(app.locator("#announce")).to_contain_text("Alice played a 4")
    # The played card slid onto the pile; then a drawn one slides into the hand.
    assert await app.locator("html").evaluate("() => window.animated") == ["card-face top-card"]
    drew = views.running(turn=0, hand=("3", "4", "L", "6", "2"), top="4")
    drew["discard_pile"] = after["discard_pile"]
    await backend.push(ALICE.id, drew)
    await expect(app.locator("#cards .card")).to_have_count(5)
    assert (await app.locator("html").evaluate("() => window.animated"))[1:] == ["card"]
    await expect(app.locator("#announce")).to_contain_text("Your turn")


async def test_with_less_motion_nothing_moves(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs(motion="reduce")
    app = tab.frame
    await expect(app.locator("#cards .card")).to_have_count(5)
    await app.locator("html").evaluate(RECORD_ANIMATIONS)
    after = views.running(turn=1, top="4")
    after["discard_pile"] += 1
    await backend.push(ALICE.id, after)
    await expect(app.locator(".top-card")).to_have_attribute("alt", "Top card: 4")
    assert await app.locator("html").evaluate("() => window.animated") == []


async def test_a_refused_move_says_why_in_the_backend_s_words(tabs, backend):
    backend.views[ALICE.id] = views.running()
    backend.answer = lambda request: "It's not your turn: Bob is playing."
    tab = await tabs()
    await tab.frame.get_by_role("button", name="Draw").click()
    toast = tab.frame.locator("#toast")
    await expect(toast).to_have_text("It's not your turn: Bob is playing.")
    await expect(toast).to_have_attribute("role", "alert")
    assert [r.message["action"] for r in backend.requests] == ["draw"]


async def test_quitting_asks_first(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    app = tab.frame
    await app.get_by_role("button", name="Quit round").click()
    dialog = app.get_by_role("dialog")
    await expect(dialog).to_contain_text("Quit this round? Your cards will still count.")
    await expect(app.get_by_role("button", name="Keep playing")).to_be_focused()
    await app.get_by_role("button", name="Keep playing").click()
    await expect(dialog).to_be_hidden()
    assert backend.requests == []
    await app.get_by_role("button", name="Quit round").click()
    await app.get_by_role("button", name="Yes, quit").click()
    await wait_until(lambda: actions(backend) == ["quit"])


async def test_the_keyboard_reaches_every_control_and_plays(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    app = tab.frame
    await expect(app.locator("#cards .card")).to_have_count(5)
    await app.locator("#cards .card").first.focus()
    order = [await app.locator(":focus").get_attribute("aria-label")]
    for _ in range(6):
        await tab.page.keyboard.press("Tab")
        order.append(await app.locator(":focus").evaluate(
            "e => e.getAttribute('aria-label') || e.textContent"))
    assert order == ["Play a 3", "Play a 4", "Play a 4", "llama (does not fit now)",
                     "6 (does not fit now)", "Draw", "Quit round"]
    outline = await app.locator(":focus").evaluate(
        "e => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth")
    assert outline == "solid 3px"
    await app.locator("#cards .card").nth(2).focus()
    await tab.page.keyboard.press("Enter")
    await wait_until(lambda: len(backend.requests) == 1)
    # A state that redraws the hand keeps the keyboard where it was.
    await backend.push(ALICE.id, views.running(hand=("3", "4", "L", "6"), turn=1))
    await expect(app.locator("#cards .card")).to_have_count(4)
    await expect(app.locator("#cards .card").nth(2)).to_be_focused()


async def test_a_spectator_sees_the_table_and_no_hand(tabs, backend):
    backend.views[DANA.id] = views.running(you=None, turn=1)
    tab = await tabs(DANA)
    app = tab.frame
    await expect(app.locator(".seat")).to_have_count(4)
    await expect(app.locator("#panel")).to_contain_text("You are watching")
    await expect(app.locator("#hand")).to_be_hidden()
    await expect(app.locator("#cards .card")).to_have_count(0)
    await expect(app.locator(".turn")).to_contain_text("On turn: Bob")


async def test_the_lobby_and_no_game_offer_their_buttons(tabs, backend):
    backend.views[BOB.id] = views.nothing()
    tab = await tabs(BOB)
    app = tab.frame
    await expect(app.locator("#panel")).to_contain_text("No game at this table yet")
    await app.get_by_role("button", name="Open a lobby").click()
    await backend.push(BOB.id, views.lobby(host=False))
    await app.get_by_role("button", name="Join").click()
    await backend.push(BOB.id, views.lobby(host=True))
    await app.get_by_role("button", name="Add AI").click()
    await app.get_by_role("button", name="Start").click()
    await wait_until(lambda: actions(backend) == ["open_lobby", "join", "add_ai", "start"])
    await expect(app.locator(".piles")).to_be_hidden()


async def test_a_round_result_then_the_game_over_with_ratings_and_rematch(tabs, backend):
    during = views.running()
    during["round_result"] = views.round_result("en", 1)
    backend.views[ALICE.id] = during
    tab = await tabs()
    app = tab.frame
    result = app.locator("#result")
    await expect(result).to_contain_text("Round 1 is over")
    # The hands the round revealed, as cards (the lines say them in words).
    await expect(result.locator(".reveal")).to_have_count(3)
    await expect(result.locator(".reveal").nth(1).locator("img")).to_have_count(3)
    await expect(result.locator(".reveals")).to_have_attribute("aria-hidden", "true")
    await result.get_by_role("button", name="Close").click()
    await expect(result).to_be_hidden()
    await backend.push(ALICE.id, views.finished())
    await expect(result).to_contain_text("Round 5 is over")
    panel = app.locator("#panel")
    await expect(panel).to_contain_text("Game over")
    await expect(panel.locator(".place").first).to_contain_text("Chen")
    await expect(panel.locator(".place.you .rating")).to_have_text("Rating: +3")
    await expect(panel.locator(".place").nth(3).locator(".rating")).to_have_text("Rating: −9")
    await expect(panel.locator(".place").nth(2).locator(".rating")).to_have_count(0)
    await expect(app.locator("#announce")).to_contain_text("Game over")
    await panel.get_by_role("button", name="Rematch").click()
    await wait_until(lambda: actions(backend) == ["rematch"])
    # The rematch's own first round shows its result, though round 1 of the last was closed.
    await result.get_by_role("button", name="Close").click()
    rematch = views.running()
    rematch.update(game_id=8, round=2, round_result=views.round_result("en", 1))
    await backend.push(ALICE.id, rematch)
    await expect(result).to_contain_text("Round 1 is over")


async def test_a_seat_rated_last_says_why_and_a_kicked_one_has_no_place(tabs, backend):
    """As the "Game over" post: a seat whose player left (or timed out) is listed after those
    who stayed with the post's note; one the host kicked without a place (the backend sends
    its rank as null, and the screen showed it a place of its own)."""
    over = views.finished()
    left = "left — an AI finished the game; counts as last place"
    kicked = "removed from the game: it is neither rated nor counted in their statistics"
    over["game_over"]["places"][3].update(name="🤖 Bob", note=left)
    over["game_over"]["places"].append({"name": "🤖 Dana", "points": 2, "rating_change": None,
                                        "rank": None, "you": False, "note": kicked})
    backend.views[ALICE.id] = over
    places = (await tabs()).frame.locator("#panel .place")
    await expect(places).to_have_count(5)
    await expect(places.nth(3).locator(".note")).to_have_text(left)
    await expect(places.nth(0).locator(".note")).to_have_count(0)
    await expect(places.nth(4).locator(".rank")).to_have_text("–")
    await expect(places.nth(4)).not_to_contain_text("Place")
    await expect(places.nth(4).locator(".note")).to_have_text(kicked)


async def test_after_a_network_drop_it_reconnects_and_resumes(tabs, backend):
    tabs.allow("WebSocket connection to .* failed|status of 502")  # the browser, while it is down
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    app = tab.frame
    await expect(app.locator(".seat")).to_have_count(4)
    await backend.proxy.cut()
    await expect(app.locator("#link")).to_have_text("Connection lost: reconnecting…")
    # While it is down, a move is not sent, and the player is told so.
    await app.get_by_role("button", name="Draw").click()
    await expect(app.locator("#toast")).to_contain_text("Not sent")
    backend.views[ALICE.id] = views.running(turn=3)
    await asyncio.sleep(1.5)  # a few retries fail meanwhile
    backend.proxy.mend()
    await expect(app.locator(".turn")).to_contain_text("On turn: Chen", timeout=15000)
    await expect(app.locator("#link")).to_have_text("Connected again.")
    assert backend.sign_ins == [ALICE.id], "the session was still good: no new sign-in"
    assert backend.connects.count(ALICE.id) == 2


async def test_an_expired_session_signs_in_again(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    await expect(tab.frame.locator(".seat")).to_have_count(4)
    backend.expire()
    await backend.drop()
    backend.views[ALICE.id] = views.running(turn=2)
    await expect(tab.frame.locator(".turn")).to_contain_text("On turn: Llama-bot 1", timeout=15000)
    assert backend.sign_ins == [ALICE.id, ALICE.id]
    authorizes = [c for c in await tab.host_log() if c[0] == "in" and c[1] == 1
                  and c[2]["cmd"] == "AUTHORIZE"]
    assert len(authorizes) == 2


async def test_a_refused_session_signs_in_again_after_a_pause(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    await expect(tab.frame.locator(".seat")).to_have_count(4)
    backend.forged.update(backend.sessions)
    await backend.drop()
    backend.views[ALICE.id] = views.running(turn=1)
    await expect(tab.frame.locator(".turn")).to_contain_text("On turn: Bob", timeout=15000)
    assert backend.sign_ins == [ALICE.id, ALICE.id]


@pytest.mark.parametrize(("locale", "turn", "draw"), [("cs", "Jsi na tahu", "Líznout si"),
                                                       ("es", "Te toca", "Robar")])
async def test_the_words_are_the_user_s_language(tabs, backend, locale, turn, draw):
    backend.locales[ALICE.id] = locale
    backend.views[ALICE.id] = views.running(locale)
    tab = await tabs()
    app = tab.frame
    await expect(app.locator(".turn")).to_contain_text(turn)
    await expect(app.locator("[data-key=draw]")).to_have_text(draw)
    assert await app.locator("html").get_attribute("lang") == locale
    label = views.running(locale)["hand"][0]["label"]
    await expect(app.locator("#cards .card").first).to_have_attribute("aria-label", label)


async def test_a_refused_sign_in_says_why_and_offers_to_try_again(tabs, backend):
    tabs.allow("status of 403")  # the browser logs the refused sign-in
    backend.refuse_sign_in = "You are not in this Activity."
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    boot = tab.frame.locator("#boot")
    await expect(boot).to_contain_text("Could not sign in. You are not in this Activity.")
    backend.refuse_sign_in = None
    await boot.get_by_role("button", name="Try again").click()
    await expect(tab.frame.locator(".seat")).to_have_count(4)
    assert (await tab.host_state())["handshakes"] == 1, "one handshake per page"


async def test_a_discord_client_that_never_answers_is_given_up_on_and_tried_again(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs(clock=True, ignore_handshakes="1")
    boot = tab.frame.locator("#boot")
    await expect(boot).to_contain_text("Connecting to the table…")
    await tab.page.clock.run_for(16_000)
    await expect(boot).to_contain_text("Could not sign in.")
    await boot.get_by_role("button", name="Try again").click()
    await expect(tab.frame.locator(".seat")).to_have_count(4)
    assert (await tab.host_state())["handshakes"] == 1  # the second one was answered


async def test_outside_discord_it_says_where_to_start_it(browser, backend):
    context = await browser.new_context(viewport=DESKTOP, locale="cs-CZ",
                                        permissions=LOCAL_NETWORK)
    page = await context.new_page()
    await page.goto(backend.url)
    await expect(page.locator("#boot")).to_contain_text("spusť ji v Discordu")
    assert backend.sign_ins == []
    await context.close()


async def test_who_else_is_watching_follows_discord_s_participants(tabs, backend):
    # Dana watches Alice's game: Alice is seated, and Dana is not told she watches herself.
    backend.views[DANA.id] = views.running(you=None)
    side = Side()
    side.here = [ALICE, DANA]
    tab = await tabs(DANA, side=side)
    await expect(tab.frame.locator(".seat")).to_have_count(4)
    watching = tab.frame.locator("#watching")
    await expect(watching).to_have_text("")
    evan, fay = DiscordUser("106", "Evan"), DiscordUser("107", "Fay")
    participants = [u.as_discord() | {"flags": 0, "bot": False} for u in (ALICE, DANA, evan, fay)]
    assert await tab.dispatch("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE",
                              {"participants": participants})
    await expect(watching).to_have_text("Watching: Evan and Fay")


async def test_in_discord_s_picture_in_picture_only_the_table_shows(tabs, backend):
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    app = tab.frame
    await expect(app.locator("#hand")).to_be_visible()
    assert await tab.dispatch("ACTIVITY_LAYOUT_MODE_UPDATE", {"layout_mode": 1})  # PIP
    await expect(app.locator("#hand")).to_be_hidden()
    await expect(app.locator(".top-card")).to_be_visible()
    assert await tab.dispatch("ACTIVITY_LAYOUT_MODE_UPDATE", {"layout_mode": 0})  # focused
    await expect(app.locator("#hand")).to_be_visible()


async def test_a_card_picture_that_does_not_load_is_a_card_saying_its_name(tabs, backend):
    tabs.allow("status of 404")  # the browser logs each missing picture
    backend.missing_art = True
    backend.views[ALICE.id] = views.running()
    tab = await tabs()
    app = tab.frame
    await expect(app.locator(".pile.draw .card-face.drawn.back")).to_have_count(1)
    await expect(app.locator(".top-card")).to_have_text("Top card: 3")
    await expect(app.locator("#cards .card").nth(3)).to_have_text("llama")
    await expect(app.locator("#cards .card").nth(3)).to_have_attribute(
        "aria-label", "llama (does not fit now)")
    assert await app.locator("img.card-face").count() == 0, "no broken picture is left"


async def test_names_are_text_never_markup(tabs, backend):
    view = views.running()
    view["seats"][1]["name"] = '<img src=x onerror="document.title=1">'
    backend.views[ALICE.id] = view
    tab = await tabs()
    await expect(tab.frame.locator(".seat").nth(1)).to_contain_text("<img src=x")
    assert await tab.frame.locator(".seat img[src=x]").count() == 0


async def test_a_phone_gets_the_whole_table_without_sideways_scrolling(tabs, backend):
    backend.views[ALICE.id] = views.running(hand=("1", "2", "3", "3", "4", "5", "6", "L", "L"))
    tab = await tabs(viewport=PHONE)
    app = tab.frame
    await expect(app.locator("#cards .card")).to_have_count(9)
    width = await app.locator("html").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width[0] <= width[1]
    boxes = [await c.bounding_box() for c in await app.locator("#cards .card").all()]
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] for b in boxes)
    assert all(b["width"] >= 44 for b in boxes), "a finger can hit every card"
