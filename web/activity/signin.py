"""Signing a player in: the code the Embedded App SDK's `authorize` gave the browser, traded
at Discord for who they are and where they are.

Three calls to Discord's REST API (aiohttp, to the bot's own API base: Discord, a REST proxy,
or the loopback Discord in tests):
1. `POST /oauth2/token` with the application's client id and secret: the code becomes the
   user's access token (which the browser gets back for the SDK's `authenticate`);
2. `GET /users/@me` with that token: who they are, and their client's language;
3. `GET /applications/{id}/activity-instances/{instance_id}` with the bot's token: the
   instance's channel and server, and that the user really is in it.
The client secret and the bot token stay here; a failure is a `SignInRefused` with a reason
the page can say in the user's language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
TIMEOUT_S = 10.0


class SignInProblem(StrEnum):
    NOT_CONFIRMED = "sign_in"  # Discord did not accept the code (used, old, made up)
    NOT_IN_INSTANCE = "not_in_instance"  # no such instance, or the user is not in it
    UNAVAILABLE = "unavailable"  # Discord could not be reached, or failed


class SignInRefused(Exception):
    def __init__(self, problem: SignInProblem) -> None:
        super().__init__(problem.value)
        self.problem = problem


@dataclass(frozen=True)
class DiscordUser:
    id: int
    name: str  # their display name (global name), else their user name
    locale: str | None  # their Discord client's language ("cs", "es-ES", …)


@dataclass(frozen=True)
class Instance:
    id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


@dataclass(frozen=True)
class SignedIn:
    access_token: str
    user: DiscordUser
    instance: Instance


@dataclass(frozen=True)
class Credentials:
    """What the backend signs players in with: never sent to a browser."""

    api_base: str  # Discord's REST base, API version included
    application_id: Callable[[], int | None]  # the bot's, known once it has logged in
    client_secret: str
    bot_token: str


class DiscordSignIn:
    def __init__(self, credentials: Credentials) -> None:
        self._credentials = credentials
        self._http: aiohttp.ClientSession | None = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S))
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def sign_in(self, code: str, instance_id: str) -> SignedIn:
        """Who the code is for, and the instance they are in; or why not."""
        try:
            token = await self._token(code)
            user = await self._user(token)
            instance = await self._instance(instance_id)
        except (TimeoutError, aiohttp.ClientError, ValueError, KeyError, TypeError) as error:
            log.warning("Activity sign-in: Discord could not be asked: %r", error)
            raise SignInRefused(SignInProblem.UNAVAILABLE) from None
        if user.id not in instance.users:
            raise SignInRefused(SignInProblem.NOT_IN_INSTANCE)
        return SignedIn(token, user, instance)

    async def _token(self, code: str) -> str:
        credentials = self._credentials
        form = {"client_id": str(credentials.application_id()),
                "client_secret": credentials.client_secret,
                "grant_type": "authorization_code", "code": code}
        async with self._session().post(f"{credentials.api_base}/oauth2/token",
                                        data=form) as response:
            body = await _json(response)
            if response.status >= 500:
                raise aiohttp.ClientError(f"oauth2/token: {response.status}")
            if response.status != 200 or not isinstance(body.get("access_token"), str):
                log.info("Activity sign-in: a code was refused (%s %s)", response.status,
                         body.get("error"))
                raise SignInRefused(SignInProblem.NOT_CONFIRMED)
            return body["access_token"]

    async def _user(self, token: str) -> DiscordUser:
        url = f"{self._credentials.api_base}/users/@me"
        async with self._session().get(
                url, headers={"Authorization": f"Bearer {token}"}) as response:
            body = await _json(response)
            if response.status != 200:
                raise SignInRefused(SignInProblem.NOT_CONFIRMED)
            name = body.get("global_name") or body.get("username") or "?"
            return DiscordUser(int(body["id"]), str(name), body.get("locale"))

    async def _instance(self, instance_id: str) -> Instance:
        credentials = self._credentials
        url = (f"{credentials.api_base}/applications/{credentials.application_id()}"
               f"/activity-instances/{instance_id}")
        async with self._session().get(
                url, headers={"Authorization": f"Bot {credentials.bot_token}"}) as response:
            body = await _json(response)
            if response.status in (403, 404):
                raise SignInRefused(SignInProblem.NOT_IN_INSTANCE)
            if response.status != 200:
                raise aiohttp.ClientError(f"activity-instances: {response.status}")
            location = body["location"]
            guild = location.get("guild_id")
            return Instance(str(body["instance_id"]), int(location["channel_id"]),
                            int(guild) if guild else None,
                            frozenset(int(u) for u in body.get("users", [])))


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await response.json(content_type=None)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}
