"""The Activity against the real bot: signed in through the loopback Discord, a channel with no
game, a lobby opened, joined and started from the Activity (and shown in the channel too),
moves made from the Activity and from slash commands, each reaching every socket of the
channel, hands only for their own players."""

from __future__ import annotations

import asyncio

import i18n
from lama import Card
from tests.support.e2e import enabled_hand_buttons, hand_messages, table


async def test_signing_in_gives_a_session_and_never_the_secret(fake_discord, page):
    fake = fake_discord
    alice = fake.user("alice")
    alice.locale = "cs"
    made = await page(alice, connect=False, sign_in=False)
    status, answer = await made.sign_in()
    assert status == 200
    assert set(answer) == {"access_token", "session", "user", "locale", "expires_at"}
    assert answer["user"]["id"] == str(alice.id) and answer["locale"] == "cs"
    assert fake.activities.client_secret not in str(answer)
    # the token is the user's: Discord knows it as theirs (the SDK's `authenticate`)
    assert fake.activities.tokens[answer["access_token"]].user is alice


async def test_a_code_used_twice_is_refused_in_the_players_language(fake_discord, page):
    fake = fake_discord
    made = await page(fake.user("bob"), connect=False, sign_in=False)
    body = {"code": fake.authorize(made.user), "instance_id": made.instance.id,
            "locale": "es-ES"}
    for _ in range(2):
        async with made.http.post(f"{made.base}/api/session", json=body) as response:
            status, answer = response.status, await response.json()
    assert status == 401 and answer["error"] == "sign_in"
    assert answer["message"].startswith("Discord no confirmó quién eres")


async def test_someone_not_in_the_instance_is_refused(fake_discord, page):
    fake = fake_discord
    made = await page(fake.user("carol"), connect=False, sign_in=False)
    fake.activities.leave(made.user, made.instance)
    status, answer = await made.sign_in()
    assert status == 403 and answer["error"] == "not_in_instance"


async def test_a_channel_without_a_game_offers_to_open_a_lobby(fake_discord, page):
    made = await page(fake_discord.user("alice"))
    view = made.view
    assert view["status"] == "none" and view["game_id"] is None
    assert view["can"]["open_lobby"] and not any(
        allowed for action, allowed in view["can"].items() if action != "open_lobby")
    assert view["words"]["action.draw"] == "Draw"  # the page's words, the bot's own
    assert view["words"]["table.on_turn"] == "On turn: {name}"  # templates the page fills


async def test_a_lobby_opened_joined_and_started_from_the_activity(fake_discord, lamabot, page):
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    host, guest = await page(alice), await page(bob)
    assert (await host.request("open_lobby"))["type"] == "ok"
    lobby = await guest.state(lambda v: v["status"] == "lobby")
    assert lobby["can"]["join"] and not lobby["can"]["start"]
    [message] = [m for m in fake.public_messages("lama") if m.embeds]  # shown in Discord too
    assert "Alice" in message.embed_text
    assert (await guest.request("join"))["type"] == "ok"
    await host.state(lambda v: len(v["seats"]) == 2 and v["can"]["start"])
    assert (await host.request("add_ai"))["type"] == "ok"
    assert (await host.request("start"))["type"] == "ok"
    running = await guest.state(lambda v: v["status"] == "running")
    assert [s["you"] for s in running["seats"]] == [False, True, False]
    assert len(running["hand"]) == 6 and running["top_card"] is not None
    card = running["hand"][0]
    assert card["art"] == f"classic/en/{card['code'].replace('+', 'p')}.png"  # below cards/
    assert card["label"].startswith("Play ") and card["name"] in card["label"]
    assert running["seats"][0]["tokens"] == {"white": 0, "black": 0}
    await lamabot.renderer.flush_all()
    assert "Bob" in fake.public_messages("lama")[-1].text  # the table, in the channel


async def started(fake, lamabot, page, *users):
    """A game of `users` opened and started by slash commands, and each user's page."""
    channel = fake.channel("lama")
    await fake.slash(users[0], channel, "lama new", target=10)
    for user in users[1:]:
        await fake.slash(user, channel, "lama join")
    await fake.slash(users[0], channel, "lama start")
    return [await page(user) for user in users]


def on_turn(view) -> int:
    return next(s["index"] for s in view["seats"] if s["on_turn"])


async def test_moves_from_the_activity_and_from_slash_commands_reach_every_socket(
        fake_discord, lamabot, page):
    fake = fake_discord
    alice, bob, dave = fake.user("alice"), fake.user("bob"), fake.user("dave")
    pages = await started(fake, lamabot, page, alice, bob)
    watcher = await page(dave)  # in the instance, in no seat
    users = [alice, bob]
    for _ in range(6):
        view = pages[0].view
        seat = on_turn(view)
        mover = pages[seat]
        before = [len(p.states) for p in (*pages, watcher)]
        moves = view["seats"][seat]["cards"], view["top_card"]
        hand = mover.view["hand"]
        playable = [c["code"] for c in hand if c["playable"]]
        if seat == 0:  # Alice plays from the Activity
            answer = await mover.request("play", playable[0]) if playable else (
                await mover.request("draw"))
            assert answer["type"] == "ok", answer
        elif playable:  # Bob by slash command
            assert (await fake.slash(users[seat], "lama", "play", card=playable[0])).refused is None
        else:
            await fake.slash(users[seat], "lama", "draw")
        for index, made in enumerate((*pages, watcher)):
            await made.state(lambda v, m=moves, s=seat: (v["seats"][s]["cards"],
                                                         v["top_card"]) != m,
                             after=before[index])
        if pages[0].view["status"] != "running":
            break
    assert watcher.view["hand"] is None  # a spectator never gets a hand
    assert all(state["view"]["hand"] is None for state in watcher.states)
    mine = {c["code"] for c in pages[0].view["hand"] or []}
    assert all(Card.from_code(code) for code in mine)


async def test_a_move_from_the_activity_shows_on_the_table_and_in_the_next_hand(
        fake_discord, lamabot, page):
    """The Activity's move goes through the service: the renderer shows it in Discord (the
    table's top card, the next player's hand by DM), and the outbox has nothing left. The
    next player was dealt their hand a moment ago, so their turn is that one DM turned live in
    place (issue 34: one hand message per player), its buttons the cards the Activity shows
    them as playable."""
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    pages = await started(fake, lamabot, page, alice, bob)
    await lamabot.renderer.flush_all()
    seat = on_turn(pages[0].view)
    mover, other = pages[seat], pages[1 - seat]
    game_id = mover.view["game_id"]
    (dealt,) = hand_messages(fake, other.user, game_id)
    edits_before = dealt.edits
    playable = [c["code"] for c in mover.view["hand"] if c["playable"]]
    answer = await (mover.request("play", playable[0]) if playable else mover.request("draw"))
    assert answer["type"] == "ok"
    view = await other.state(lambda v: on_turn(v) == 1 - seat)
    await lamabot.renderer.flush_all()
    top = i18n.card_name(view["top_card"]["code"], view["variant"], "en")
    assert top in table(fake, "lama").text
    (hand,) = hand_messages(fake, other.user, game_id)
    assert hand.id == dealt.id and hand.edits > edits_before  # the same DM, edited
    assert "your turn" in hand.text.lower()
    live = {custom_id.rsplit(":", 1)[1] for custom_id in enabled_hand_buttons(hand)}
    assert live - {"draw", "quit"} == {c["code"] for c in view["hand"] if c["playable"]}
    await lamabot.service.flush_message_refs()  # marks written behind the moves, written now
    assert await lamabot.store.renders.pending() == []  # the outbox: every move shown


async def test_stopping_the_site_closes_every_socket_going_away(fake_discord, lamabot, page):
    """A restart: the pages hear 1001 (going away) at once and reconnect wherever the site
    is served; the bot's close does not wait for them."""
    made = await page(fake_discord.user("alice"))
    loop = asyncio.get_running_loop()
    started_at = loop.time()
    await lamabot.web.stop()
    await made.until(lambda: made.ws.closed)
    assert made.ws.close_code == 1001 and loop.time() - started_at < 5


async def test_the_page_learns_the_client_id_first_and_plays_a_card_by_its_value(
        fake_discord, lamabot, page):
    fake = fake_discord
    made = await page(fake.user("alice"), connect=False, sign_in=False)
    async with made.http.get(f"{made.base}/api/config") as response:
        config = await response.json()
    assert config["client_id"] == str(fake.application_id)
    assert set(config["boot_words"]) == {"en", "cs", "es"}
    pages = await started(fake, lamabot, page, fake.user("bob"), fake.user("carol"))
    for _ in range(20):  # a card by its value once one can be played; a draw till then
        mover = pages[on_turn(pages[0].view)]
        moves = mover.view["moves"]
        playable = [c for c in mover.view["hand"] if c["playable"]]
        if playable:  # a plus card or a llama has no number of its own: its value says which
            assert (await mover.request("play", playable[0]["value"]))["type"] == "ok"
            view = await mover.state(lambda v, m=moves: v["moves"] > m)
            assert view["top_card"]["code"] == playable[0]["code"]
            return
        assert (await mover.request("draw"))["type"] == "ok"
        await pages[0].state(lambda v, m=moves: v["moves"] > m)
    raise AssertionError("no card could be played in 20 moves")
