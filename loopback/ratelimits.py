"""Discord's rate limits, as a bot meets them: a global limit per token and per-route buckets.

- **Global**: 50 requests in any second per bot token. Interaction endpoints (the callback and
  the `/webhooks/{application_id}/{interaction_token}` follow-ups and edits) do not count.
  Past it: 429, `X-RateLimit-Global: true`, `X-RateLimit-Scope: global`, body
  `{"global": true, "retry_after": …}`.
- **Per channel**: creating, editing and deleting messages each have a bucket per channel
  (the channel id is the route's major parameter): 5 per 5 seconds. Every answer on such a
  route carries the bucket's `X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket` headers,
  which discord.py reads to wait before it would exceed them; past it: 429 with
  `X-RateLimit-Scope: user`.

Windows run on real monotonic time (not `fake.clock`, which tests push forward for
interaction deadlines). Each 429 is kept in `hits` for tests and benchmarks to assert on.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50
CHANNEL_LIMIT = 5
CHANNEL_PERIOD = 5.0
# The routes limited per channel, by the bucket they share.
CHANNEL_BUCKETS = {
    "POST /channels/{channel_id}/messages": "create",
    "PATCH /channels/{channel_id}/messages/{message_id}": "edit",
    "DELETE /channels/{channel_id}/messages/{message_id}": "delete",
}
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")


def is_rate_limited(path: str) -> bool:
    """Whether a call counts against the bot's limits (interaction endpoints do not)."""
    return not path.startswith(EXEMPT_PREFIXES)


@dataclass
class Hit:
    """One 429 the fake answered."""

    route: str
    scope: str  # "global" or "user"
    retry_after: float
    at: float  # time.monotonic()


@dataclass
class _Bucket:
    reset_at: float
    used: int = 0


@dataclass
class RateLimits:
    enabled: bool = True
    global_per_second: int = GLOBAL_PER_SECOND
    channel_limit: int = CHANNEL_LIMIT
    channel_period: float = CHANNEL_PERIOD
    hits: list[Hit] = field(default_factory=list)
    _recent: deque[float] = field(default_factory=deque)  # accepted global calls, last 1 s
    _buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)

    def check(self, route: str, path: str, params: dict[str, str]) -> tuple[dict, Hit | None]:
        """Admit one call: (headers for its answer, the 429 to give instead, if any)."""
        now = time.monotonic()
        if not self.enabled or not is_rate_limited(path):
            return {}, None
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.global_per_second:
            hit = Hit(route, "global", self._recent[0] + 1.0 - now, now)
            self.hits.append(hit)
            return {}, hit
        kind = CHANNEL_BUCKETS.get(route)
        if kind is None:
            self._recent.append(now)
            return _headers(route, self.global_per_second, self.global_per_second - 1, 1.0), None
        key = (kind, params.get("channel_id", ""))
        bucket = self._buckets.get(key)
        if bucket is None or bucket.reset_at <= now:
            bucket = self._buckets[key] = _Bucket(now + self.channel_period)
            self._forget_expired(now)
        if bucket.used >= self.channel_limit:
            hit = Hit(route, "user", bucket.reset_at - now, now)
            self.hits.append(hit)
            return _headers(route, self.channel_limit, 0, hit.retry_after), hit
        bucket.used += 1
        self._recent.append(now)
        remaining = self.channel_limit - bucket.used
        return _headers(route, self.channel_limit, remaining, bucket.reset_at - now), None

    def _forget_expired(self, now: float) -> None:
        if len(self._buckets) > 10_000:
            self._buckets = {k: b for k, b in self._buckets.items() if b.reset_at > now}


def _headers(route: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
    bucket = hashlib.sha1(route.encode()).hexdigest()[:16]
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }


def too_many(hit: Hit) -> tuple[dict, dict[str, str]]:
    """Discord's 429: its body and headers (`Via` too: discord.py treats a 429 without it
    as a Cloudflare ban)."""
    is_global = hit.scope == "global"
    headers = _headers(hit.route, GLOBAL_PER_SECOND if is_global else CHANNEL_LIMIT, 0,
                       hit.retry_after)
    headers.update({
        "Retry-After": str(max(1, round(hit.retry_after + 0.5))),
        "X-RateLimit-Scope": hit.scope,
        "Via": "1.1 google",
    })
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {"message": "You are being rate limited.", "retry_after": round(hit.retry_after, 3),
            "global": is_global, "code": 0}
    return body, headers
