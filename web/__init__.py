"""LamaBot's read-only web site: leaderboards, player pages, recent games and replays.

Served by the bot's own process (aiohttp) when WEB_PORT is set. Layering: web → hosting →
store; no Discord types here (the composition root hands in what the pages need to know about
a server: its name and language).
"""

from .context import GuildProfile, SiteDeps
from .links import Paths, PublicLinks
from .server import WebServer

__all__ = ["GuildProfile", "Paths", "PublicLinks", "SiteDeps", "WebServer"]
