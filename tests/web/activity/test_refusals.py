"""What the Activity refuses, and how it says so: a forged, expired or other instance's session
(the socket says why and closes), a move out of turn, another user's move, a request the
contract does not know; in the player's language, with the very words a slash command gets."""

from __future__ import annotations

import i18n
from tests.support.e2e import without_isolates
from web.activity.sessions import LIFETIME_S


async def test_a_forged_session_is_refused_and_the_socket_closed(fake_discord, page):
    made = await page(fake_discord.user("alice"), connect=False)
    payload, mac = made.session.split(".")
    await made.connect(session=f"{payload}x.{mac}", wait_state=False)
    refusal = await made.until(lambda: made.other)
    assert refusal == [{"type": "refused", "request_id": None, "error": "session",
                        "message": i18n.translate("error.session_invalid", "en")}]
    await made.until(lambda: made.ws.closed)
    assert made.ws.close_code == 4403 and made.states == []


async def test_a_session_for_another_instance_is_refused(fake_discord, page):
    fake = fake_discord
    here = await page(fake.user("alice"), connect=False)
    elsewhere = fake.launch_activity(fake.user("bob"), "lama-2")
    await here.connect(instance_id=elsewhere.id, wait_state=False)
    [refusal] = await here.until(lambda: here.other)
    assert refusal["error"] == "other_instance" and here.states == []


async def test_an_expired_session_says_so(fake_discord, lamabot, page, monkeypatch):
    made = await page(fake_discord.user("alice"))
    later = lamabot.clock.now() + LIFETIME_S + 1
    monkeypatch.setattr(lamabot.clock, "now", lambda: later)
    again = await page(made.user, connect=False, sign_in=False)
    await again.connect(session=made.session, instance_id=made.instance.id, wait_state=False)
    assert await again.until(lambda: again.other) == [{"type": "expired"}]
    await again.until(lambda: again.ws.closed)


async def two_players(fake, page):
    alice, bob = fake.user("alice"), fake.user("bob")
    await fake.slash(alice, "lama", "lama new", target=10)
    await fake.slash(bob, "lama", "lama join")
    await fake.slash(alice, "lama", "lama start")
    return await page(alice), await page(bob)


async def test_a_move_out_of_turn_is_refused_with_the_slash_commands_words(fake_discord,
                                                                         page):
    fake = fake_discord
    pages = await two_players(fake, page)
    waiting = next(p for p in pages if not p.view["can"]["draw"] and not p.view["can"]["play"])
    refused = await waiting.request("draw")
    slash = await fake.slash(waiting.user, "lama", "draw")
    assert refused["type"] == "refused"
    assert without_isolates(refused["message"]) == without_isolates(slash.text)
    assert "turn" in refused["message"]


async def test_a_spectators_move_is_not_theirs_to_make(fake_discord, page):
    fake = fake_discord
    await two_players(fake, page)
    dave = fake.user("dave")
    watcher = await page(dave)
    refused = await watcher.request("play", "1")
    assert refused["message"] == i18n.translate("error.not_in_game", "en")
    assert watcher.view["hand"] is None


async def test_only_the_host_starts(fake_discord, page):
    fake = fake_discord
    host, guest = await page(fake.user("alice")), await page(fake.user("bob"))
    await host.request("open_lobby")
    await guest.request("join")
    refused = await guest.request("start")
    assert refused["type"] == "refused" and "Alice" in refused["message"]


async def test_a_request_the_contract_does_not_know_is_refused(fake_discord, page):
    made = await page(fake_discord.user("alice"))
    await made.ws.send_str('{"type": "request", "request_id": "1", "action": "cheat"}')
    await made.ws.send_str("not json")
    refused = await made.until(lambda: len(made.other) == 2 and made.other)
    bad = i18n.translate("error.bad_request", "en")
    assert [r["message"] for r in refused] == [bad, bad]
