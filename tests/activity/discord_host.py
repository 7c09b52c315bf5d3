"""Opening the Activity the way the Discord client does, in a real browser tab.

The tab loads the test host page (host/host.html) at https://discord.com itself: Playwright's
router answers for that origin with the page, so nothing leaves the machine, and the SDK, the
Activity's CSP (frame-ancestors) and the browser see the Discord client's own origin. The page
frames the Activity with the SDK's query parameters and answers the SDK over postMessage.
What only Discord's servers know — an OAuth2 code for the user, the user behind an access
token, who is in the activity instance — the page asks a `DiscordSide` for.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

HOST = "https://discord.com"
HOST_FILES = Path(__file__).resolve().parent / "host"
# Here Discord's page is public (https://discord.com) and the proxy and the bot are on this
# machine: chromium asks before a public page frames a local one (Local Network Access). A
# browser context grants it with these permissions. (In Discord the Activity is public too.)
LOCAL_NETWORK = ["local-network-access"]


@dataclass(frozen=True)
class DiscordUser:
    id: str
    username: str
    global_name: str | None = None  # the display name; None: the username
    avatar: str | None = None

    def as_discord(self) -> dict[str, Any]:
        return {"id": self.id, "username": self.username, "discriminator": "0",
                "global_name": self.global_name or self.username, "avatar": self.avatar,
                "public_flags": 0}


@dataclass(frozen=True)
class Launch:
    """Where the Activity was launched: what Discord puts in the iframe's query."""

    client_id: str
    instance_id: str
    guild_id: str
    channel_id: str
    platform: str = "desktop"


class DiscordSide(Protocol):
    async def authorize(self, user: DiscordUser, args: dict[str, Any]) -> str: ...
    async def authenticate(self, user: DiscordUser, access_token: str) -> dict[str, Any]: ...
    async def participants(self, launch: Launch) -> list[DiscordUser]: ...


@dataclass
class ActivityTab:
    page: Any
    user: DiscordUser
    launch: Launch
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def frame(self):
        """The Activity's document (a Playwright FrameLocator)."""
        return self.page.frame_locator("#activity")

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """An SDK event from Discord; False when the app has not subscribed to it."""
        return await self.page.evaluate("([e, d]) => window.hostDispatch(e, d)", [event, data])

    async def host_log(self) -> list[list[Any]]:
        return await self.page.evaluate("window.hostLog")

    async def host_state(self) -> dict[str, Any]:
        return await self.page.evaluate("window.hostState")


async def _serve_host(route) -> None:
    name = route.request.url.removeprefix(HOST).split("?")[0].lstrip("/") or "host.html"
    path = HOST_FILES / name
    if path.parent != HOST_FILES or not path.is_file():
        await route.fulfill(status=404, body="not found")
        return
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    await route.fulfill(status=200, body=path.read_bytes(), content_type=kind)


async def open_activity(context, app_url: str, user: DiscordUser, launch: Launch,
                        side: DiscordSide, **host: str) -> ActivityTab:
    """A new tab of `context` in which Discord runs the Activity at `app_url` for `user`.
    `host`: the host page's own options (`ignore_handshakes="1"`: a client that hangs)."""
    page = await context.new_page()
    tab = ActivityTab(page, user, launch)
    await context.route(f"{HOST}/**", _serve_host)

    async def discord(source, operation: str, args: dict[str, Any]):
        tab.calls.append((operation, args))
        if operation == "user":
            return user.as_discord()
        if operation == "authorize":
            return await side.authorize(user, args)
        if operation == "authenticate":
            return await side.authenticate(user, args.get("access_token") or "")
        if operation == "participants":
            return [u.as_discord() | {"flags": 0, "bot": False}
                    for u in await side.participants(launch)]
        raise ValueError(operation)

    await page.expose_binding("lamaDiscord", discord)
    query = urlencode({"app": app_url, "client_id": launch.client_id,
                       "instance_id": launch.instance_id, "platform": launch.platform,
                       "guild_id": launch.guild_id, "channel_id": launch.channel_id,
                       "location_id": f"gc-{launch.guild_id}-{launch.channel_id}", **host})
    await page.goto(f"{HOST}/host.html?{query}")
    return tab


def authenticated(user: DiscordUser, access_token: str, client_id: str) -> dict[str, Any]:
    """The AUTHENTICATE answer Discord gives for a good token (the SDK checks its shape)."""
    return {"access_token": access_token, "user": user.as_discord(), "scopes": ["identify"],
            "expires": "2099-01-01T00:00:00.000000+00:00",
            "application": {"id": client_id, "name": "LamaBot", "description": "",
                            "icon": None, "rpc_origins": []}}
