"""Addresses of the web pages: built here only, for the pages' own links and for the bot's
answers (which add the public base URL, WEB_PUBLIC_URL).

A page address starts with /s/<key>/: the key is a public server's id, or the secret of a
server's private link. Steps of a replay have their own address, so every move can be linked.
"""

from __future__ import annotations

from urllib.parse import urlencode

from hosting.site import SiteService
from hosting.stats import Period
from store import LeaderboardSort

ALL_VARIANTS = "all"


class Paths:
    """Paths of one server's pages (no scheme or host)."""

    def __init__(self, key: str, base: str = "") -> None:
        self.key = key
        self.root = f"{base.rstrip('/')}/s/{key}"

    def leaderboard(
        self,
        sort: LeaderboardSort = LeaderboardSort.WINS,
        variant: str | None = None,
        period: Period = Period.ALL_TIME,
        page: int = 0,
    ) -> str:
        """Default values stay out of the address, so the plain board has a short link."""
        query = {
            "sort": sort.value if sort is not LeaderboardSort.WINS else None,
            "variant": variant,
            "period": period.value if period is not Period.ALL_TIME else None,
            "page": str(page + 1) if page else None,
        }
        return self._with_query(f"{self.root}/leaderboard", query)

    def player(self, user_id: int) -> str:
        return f"{self.root}/players/{user_id}"

    def games(self, page: int = 0) -> str:
        return self._with_query(f"{self.root}/games", {"page": str(page + 1) if page else None})

    def replay(self, game_id: int, step: int = 0) -> str:
        return f"{self.root}/games/{game_id}" + (f"/{step}" if step else "")

    @staticmethod
    def _with_query(path: str, query: dict[str, str | None]) -> str:
        kept = {k: v for k, v in query.items() if v is not None}
        return f"{path}?{urlencode(kept)}" if kept else path


class PublicLinks:
    """Links for the bot's answers: only to a public server's pages, only when the site has
    a public address. A private server's secret link is never put in a message everyone in
    the channel reads; /lama settings shows it to those who manage the server."""

    def __init__(self, site: SiteService, base_url: str | None) -> None:
        self._site = site
        self._base = (base_url or "").strip().rstrip("/")

    @property
    def enabled(self) -> bool:
        return bool(self._base)

    async def paths(self, guild_id: int | None) -> Paths | None:
        if not self._base or guild_id is None:
            return None
        key = await self._site.public_key(guild_id)
        return None if key is None else Paths(key, self._base)

    def public(self, guild_id: int) -> Paths:
        """A public server's pages (for /lama settings)."""
        return Paths(str(guild_id), self._base)

    def private(self, secret: str) -> Paths:
        """The private link's pages (for /lama settings: never in a public message)."""
        return Paths(secret, self._base)
