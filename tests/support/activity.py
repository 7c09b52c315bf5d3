"""The Activity as a test drives it: a player's page without a browser. It opens the Activity
in a channel of the loopback Discord, signs in as the Embedded App SDK lets a page (the
`authorize` code, traded by the bot's backend), and talks to the live socket with aiohttp,
as the page's script does (the contract: docs/activity.md)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import Any

import aiohttp

from loopback import FakeDiscord
from loopback.model import FakeUser
from loopback.places import FakeChannel

PUBLIC_URL = "https://lama.example.org"
WAIT_S = 10.0  # seconds a test waits for what must come (a state, an answer)
_ids = itertools.count(1)


def activity_settings(fake: FakeDiscord) -> dict[str, Any]:
    """The bot's settings that turn the Activity on, against the loopback Discord (whose
    application then has Activities enabled)."""
    fake.enable_activities()
    return {"web_port": 0, "web_host": "127.0.0.1", "web_public_url": PUBLIC_URL,
            "discord_client_secret": fake.activities.client_secret}


def activity_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/activity"


class Page:
    """One player's Activity: signed in, with its live socket once `connect`ed."""

    def __init__(self, fake: FakeDiscord, base: str, user: FakeUser,
                 channel: FakeChannel | str) -> None:
        self.fake, self.base, self.user = fake, base, user
        self.instance = fake.launch_activity(user, channel)
        self.http = aiohttp.ClientSession()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.session: str | None = None
        self.states: list[dict[str, Any]] = []  # every state received, in order
        self.answers: dict[str, dict[str, Any]] = {}  # request id -> ok / refused
        self.other: list[dict[str, Any]] = []  # anything else (expired, refused sessions)
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    async def sign_in(self, *, locale: str | None = None) -> tuple[int, dict[str, Any]]:
        """What the page does after the SDK's `authorize`: the code to the bot's backend."""
        body: dict[str, Any] = {"code": self.fake.authorize(self.user),
                                "instance_id": self.instance.id}
        if locale is not None:
            body["locale"] = locale
        async with self.http.post(f"{self.base}/api/session", json=body) as response:
            answer = await response.json()
            if response.status == 200:
                self.session = answer["session"]
            return response.status, answer

    async def connect(self, *, session: str | None = None, instance_id: str | None = None,
                      wait_state: bool = True) -> None:
        params = {"session": session or self.session or "",
                  "instance_id": instance_id or self.instance.id}
        self.ws = await self.http.ws_connect(f"{self.base}/api/live", params=params)
        self._reader = asyncio.create_task(self._read())
        if wait_state:
            await self.state()

    async def reconnect(self) -> None:
        """The socket dropped (a network blip, a reload of the page) and the page connects
        again with its session, as the page's script does; waits for the new first state."""
        assert self.ws is not None and self._reader is not None
        await self.ws.close()
        await self._reader
        received = len(self.states)
        await self.connect(wait_state=False)
        await self.state(after=received)

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                continue
            data = message.json()
            if data["type"] == "state":
                self.states.append(data)
            elif data["type"] in ("ok", "refused") and data.get("request_id"):
                self.answers[data["request_id"]] = data
            else:
                self.other.append(data)
            self._changed.set()
        self._changed.set()

    async def until(self, condition: Callable[[], Any], timeout: float = WAIT_S) -> Any:
        """Wait until `condition()` is truthy (what arrived meets it); return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (found := condition()):
            assert loop.time() < deadline, "not received in time"
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), deadline - loop.time())
        return found

    async def state(self, condition: Callable[[dict[str, Any]], bool] = lambda v: True,
                    *, after: int = 0) -> dict[str, Any]:
        """The view of the newest state received after the first `after` ones that meets
        `condition`."""
        def found() -> dict[str, Any] | None:
            newer = self.states[after:]
            return newer[-1]["view"] if newer and condition(newer[-1]["view"]) else None
        return await self.until(found)

    @property
    def view(self) -> dict[str, Any]:
        return self.states[-1]["view"]

    async def request(self, action: str, card: str | int | None = None) -> dict[str, Any]:
        """Send a request and wait for its answer (`ok`, or `refused` with its message)."""
        assert self.ws is not None
        request_id = f"r{next(_ids)}"
        message: dict[str, Any] = {"type": "request", "request_id": request_id,
                                   "action": action}
        if card is not None:
            message["card"] = card
        await self.ws.send_json(message)
        return await self.until(lambda: self.answers.get(request_id))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader
        await self.http.close()


async def two_players(fake: FakeDiscord, page: Callable[..., Any], *,
                      locale: str = "en-US") -> list[Page]:
    """Alice and Bob in a game to 10 points in #lama, opened by slash commands, and each one's
    page there (`page`: the tests' fixture that opens one)."""
    alice, bob = fake.user("alice"), fake.user("bob")
    alice.locale = bob.locale = locale
    await fake.slash(alice, "lama", "lama new", target=10)
    await fake.slash(bob, "lama", "lama join")
    await fake.slash(alice, "lama", "lama start")
    return [await page(alice), await page(bob)]


async def quit_to_the_end(pages: list[Page]) -> dict[str, Any]:
    """Whoever is on turn quits, from their page, round after round until the game is over
    (a game to 10 points ends in a few rounds); every page has the final state. Returns the
    first page's view of the game's end."""
    for _ in range(100):
        view = pages[0].view
        if view["status"] != "running":
            break
        mover = next(p for p in pages if p.view["can"]["quit"])
        moves = view["moves"]
        assert (await mover.request("quit"))["type"] == "ok"
        await pages[0].state(lambda v, m=moves: v["moves"] > m)
    for made in pages:
        await made.state(lambda v: v["status"] == "finished")
    return pages[0].view
