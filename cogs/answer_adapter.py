"""How the bot's interaction answers, and their later edits and deletes, reach Discord:
discord.py's webhook adapter with two changes.

- Discord's reply to an interaction's first answer loses the message it describes: discord.py
  would build a `Message` of it (its embeds, every button and its emoji: ~18 µs for a hand,
  on every move's answer) that nothing reads. The reply still names the message
  (`InteractionCallbackResponse.message_id`); only its `resource` stays None.
- A plain JSON request goes over the client's `LeanHttp` (cogs/lean_http.py) rather than
  aiohttp's session: the same request, the same rate limit and retry rules as discord.py's
  (a bucket per webhook token, its lock held over a spent bucket's reset; a 429 from
  Discord's edge retried after its `retry_after`; a 5xx retried up to five times; a reset
  connection likewise), at a fraction of the CPU (issue 33). Files and proxies keep
  discord.py's own path.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import quote, urlencode
from weakref import WeakKeyDictionary

import aiohttp
import discord
import orjson
from discord import utils
from discord.webhook.async_ import AsyncDeferredLock, AsyncWebhookAdapter, Route

from cogs.lean_http import LeanHttp, Response

log = logging.getLogger(__name__)

# each Discord client's LeanHttp, by its aiohttp session (what the adapter is handed)
_lean_of: WeakKeyDictionary[aiohttp.ClientSession, LeanHttp] = WeakKeyDictionary()


def use_lean_http(session: aiohttp.ClientSession, lean: LeanHttp) -> None:
    """From now on, the answers of the client whose session this is go over `lean`."""
    _lean_of[session] = lean


class AnswerAdapter(AsyncWebhookAdapter):
    async def create_interaction_response(self, *args: Any, **kwargs: Any) -> Any:
        reply = await super().create_interaction_response(*args, **kwargs)
        resource = reply.get("resource") if isinstance(reply, dict) else None
        if isinstance(resource, dict):
            resource.pop("message", None)
        return reply

    async def request(self, route: Route, session: aiohttp.ClientSession, *,
                      payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None,
                      proxy: str | None = None, proxy_auth: aiohttp.BasicAuth | None = None,
                      files: Any = None, reason: str | None = None,
                      auth_token: str | None = None, params: dict[str, Any] | None = None,
                      ) -> Any:
        lean = _lean_of.get(session)
        if lean is None or multipart or files or proxy:
            return await super().request(
                route, session, payload=payload, multipart=multipart, proxy=proxy,
                proxy_auth=proxy_auth, files=files, reason=reason, auth_token=auth_token,
                params=params)
        headers = _headers(payload, reason, auth_token)
        body = orjson.dumps(payload) if payload is not None else None  # bytes, as sent
        url = f"{route.url}?{urlencode(params)}" if params else route.url
        async with AsyncDeferredLock(self._lock_of(route)) as lock:
            return await _with_retries(lean, route, url, body, headers, lock)

    def _lock_of(self, route: Route) -> asyncio.Lock:
        bucket = (route.webhook_id, route.webhook_token)
        lock = self._locks.get(bucket)
        if lock is None:
            self._locks[bucket] = lock = asyncio.Lock()
        return lock


def backoff_s(attempt: int) -> float:
    """How long to wait before trying again after a 5xx or a reset connection."""
    return 1 + attempt * 2


def _headers(payload: Any, reason: str | None, auth_token: str | None) -> dict[str, str]:
    headers = {}
    if payload is not None:
        headers["Content-Type"] = "application/json"
    if auth_token is not None:
        headers["Authorization"] = f"Bot {auth_token}"
    if reason is not None:
        headers["X-Audit-Log-Reason"] = quote(reason, safe="/ ")
    return headers


async def _with_retries(lean: LeanHttp, route: Route, url: str, body: bytes | None,
                        headers: dict[str, str], lock: AsyncDeferredLock) -> Any:
    """discord.py's webhook request rules (AsyncWebhookAdapter.request), over `lean`."""
    response: Response | None = None
    data: Any = None
    for attempt in range(5):
        try:
            response = await lean.request(route.method, url, body=body, headers=headers)
        except OSError as error:
            if attempt < 4 and error.errno in (54, 10054):
                await asyncio.sleep(backoff_s(attempt))
                continue
            raise
        data = _json_or_text(response)
        if response.headers.get("X-Ratelimit-Remaining") == "0" and response.status != 429:
            lock.delay_by(utils._parse_ratelimit_header(response))
        if 300 > response.status >= 200:
            return data
        if response.status == 429:
            if not response.headers.get("Via"):  # not Discord's edge: a ban, not a bucket
                raise discord.HTTPException(response, data)
            log.warning("Webhook ID %s is rate limited. Retrying in %.2f seconds.",
                        route.webhook_id, data["retry_after"])
            await asyncio.sleep(data["retry_after"])
            continue
        if response.status >= 500:
            await asyncio.sleep(backoff_s(attempt))
            continue
        raise _refusal(response, data)
    assert response is not None
    if response.status >= 500:
        raise discord.DiscordServerError(response, data)
    raise discord.HTTPException(response, data)


def _refusal(response: Response, data: Any) -> discord.HTTPException:
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(
        response.status, discord.HTTPException)
    return kind(response, data)


def _json_or_text(response: Response) -> Any:
    """As discord.py's `json_or_text`: JSON when Discord says it is, else the text."""
    if response.headers.get("Content-Type") == "application/json":
        return orjson.loads(response.body)
    return response.text()


ANSWERS = AnswerAdapter()  # every answer, edit and delete of an interaction token
