"""LamaBot's composition root: settings from .env, logging, the database, the service, the cogs.

python bot.py           run the bot
python bot.py --sync    register the slash commands with Discord now, then run
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import logging
import os
import sys
from typing import Any, cast

import discord
import discord.gateway
import discord.http
import uvloop
import yarl
from discord.ext import commands
from dotenv import load_dotenv

import cardart
import gc_watch
import interpreter
from cogs.activity import ACTIVITY, entry_point_command
from cogs.answer_adapter import use_lean_http
from cogs.buttons import LamaButton
from cogs.card_letters import every_language
from cogs.emojis import CARD_EMOJIS
from cogs.lean_http import LeanHttp
from cogs.locales import Locales
from cogs.mentions import COMMANDS
from cogs.pings import NOBODY
from cogs.render.renderer import Renderer
from cogs.render.scheduler import CLOCK_MARGIN, RestBudget
from cogs.render.tournaments import TournamentAnnouncer
from cogs.translator import LamaTranslator
from cogs.tree import LamaTree
from hosting import GameService, Preferences, Presence, SystemClock
from hosting.clock import Clock
from hosting.rated_store import open_rated_store
from hosting.seasons import SeasonKeeper
from hosting.site import SiteService
from hosting.stats import StatsService
from hosting.tournament import TournamentService
from settings import ENV_FILE_VARIABLE, Settings
from store import DatabaseUnusable, SchemaTooNew, Store
from web import GuildProfile, PublicLinks, SiteDeps, WebServer
from web.activity import DISCORD_FRAME_ANCESTORS, ActivityDeps, Credentials
from web.activity.signin import DISCORD_API

log = logging.getLogger("lamabot")

EXTENSIONS = (
    "cogs.lama", "cogs.moves", "cogs.leaderboard", "cogs.seasons",
    "cogs.presses",  # the answer to presses no handler knows
)
TOKEN_HELP = (
    "DISCORD_TOKEN is {problem}. Create a bot at https://discord.com/developers/applications "
    "(Bot → Reset Token), put the token in .env as DISCORD_TOKEN=..., and start again."
)
# What the bot does in a channel, and nothing more: see the invite URL logged at start-up.
NEEDED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,  # games in threads (a server setting)
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_application_commands=True,
)


class LamaBot(commands.AutoShardedBot):
    """The bot: owns the database and the game service for as long as it runs."""

    # Built by setup_hook before the bot connects (the store opens asynchronously); cogs and
    # the renderer rely on them from their first line.
    store: Store
    preferences: Preferences  # server settings and every language choice
    presence: Presence  # who is at a game's table in the Activity: no DM pings for them
    service: GameService
    tournaments: TournamentService
    stats_service: StatsService
    site_service: SiteService  # the web pages' access and reads
    web_links: PublicLinks  # links from answers to the web pages
    locales: Locales  # every language the interface speaks in
    renderer: Renderer
    database_identity: str  # store.SettingsStore.identity: the suffix of every custom id

    def __init__(
        self, settings: Settings, *, clock: Clock | None = None, sync: bool = False,
        **options: Any,
    ) -> None:
        options.setdefault("shard_count", settings.shard_count)
        options.setdefault("shard_ids", list(settings.shard_ids) if settings.shard_ids else None)
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no message content
            # Servers, channels and threads; interactions need no intent. No message events:
            # they would only bring the bot's own posts back to be parsed and cached.
            intents=discord.Intents(guilds=True),
            max_messages=None,
            help_command=None,
            # Member-written text (names) must ping nobody: messages that mean to ping name
            # their players themselves (cogs/pings.py).
            allowed_mentions=NOBODY,
            tree_cls=LamaTree,
            **options,
        )
        self.settings = settings
        use_discord_endpoints(settings.discord_api_base_url, settings.discord_gateway_url)
        self.clock = clock or SystemClock()
        self.force_sync = sync
        self._opened = False  # setup_hook built the parts above
        self._background: list[asyncio.Task[None]] = []
        self.web: WebServer | None = None  # the web pages, when WEB_PORT is set
        self.answers_http: LeanHttp | None = None  # the interactions' answers (setup_hook)

    @property
    def lama_tree(self) -> LamaTree:
        return cast(LamaTree, self.tree)

    async def launch_shards(self) -> None:
        """With a gateway setting, ask Discord only how many shards to run: discord.py then
        connects to DEFAULT_GATEWAY (the setting) instead of the URL Discord advises."""
        if self.settings.discord_gateway_url and self.shard_count is None:
            self.shard_count, _advised, _limits = await self.http.get_bot_gateway()
        await super().launch_shards()

    async def setup_hook(self) -> None:
        """Open the database, build the service, load cogs, restore games — before connecting."""
        self.answers_http = LeanHttp(self.http.user_agent)
        use_lean_http(self.http._HTTPClient__session, self.answers_http)  # type: ignore[attr-defined]
        self.store = await open_rated_store(  # games from before ratings get rated here
            self.settings.database_url or self.settings.database_path, self.clock)
        # every button names its database: another database's game of the same number is not it
        self.database_identity = LamaButton.database = await self.store.settings.identity()
        self.preferences = Preferences(self.store, self.clock)
        self.service = GameService(self.store, self.clock, preferences=self.preferences)
        self.presence = Presence(self.clock)  # the Activity tells it, the renderer asks it
        self.stats_service = StatsService(self.store, self.clock, preferences=self.preferences)
        self.site_service = SiteService(self.store, self.clock)
        # Links only to pages this process serves: a public URL without WEB_PORT leads nowhere.
        serving = self.settings.web_port is not None
        self.web_links = PublicLinks(
            self.site_service, self.settings.web_public_url if serving else None
        )
        self.season_keeper = SeasonKeeper(self.store, self.clock)
        self.tournaments = TournamentService(self.store, self.clock, self.service)
        self.locales = Locales(self.preferences, self.get_guild)
        self.renderer = self._build_renderer()
        self._opened = True
        # first: the boards of a server whose game finished are made anew from now on
        self.service.add_listener(self.stats_service.on_game_update)
        self.service.add_listener(self.renderer.on_update)
        # after the renderer: a table's end is shown before the next table opens
        self.service.add_listener(self.tournaments.on_game_update)
        announcer = TournamentAnnouncer(self, self.locales, self.renderer.budget,
                                        self.renderer.game_shown)
        self.tournaments.add_listener(announcer.on_update)
        self.tournaments.set_table_places(announcer.open_table_thread)  # a thread per table
        await self.tree.set_translator(LamaTranslator())  # command names in cs and es
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # Before any timer moves a game: what was committed and never shown (the outbox) is
        # queued first, to go out with what comes next once the bot is connected.
        shards = self.settings.shards
        await self.renderer.restart(await self.service.restore(shards.runs_guild),
                                    alone=not shards.split)
        await self.tournaments.resume()  # a table that ended while the bot was away
        # draw every card tile, with every language's letters, off the event loop
        await asyncio.to_thread(cardart.warm_up, every_language())
        if self.settings.activity_enabled:  # its button, and its Entry Point command
            ACTIVITY.offer()
            self.lama_tree.entry_point = entry_point_command()
        await self.sync_commands_if_changed()
        await self.learn_card_emojis()
        if self.settings.web_port is not None:
            await self.start_web()
        self._background.append(asyncio.create_task(self.service.run_timers(), name="timers"))
        if self.settings.database_url:  # PostgreSQL: a timer left due is taken up by a sweep
            self._background.append(asyncio.create_task(self.service.run_sweeper(), name="sweep"))
            self._background.append(asyncio.create_task(  # and renders a process left unshown
                self.service.run_render_repairs(self.renderer.repair, self.renderer.showing),
                name="render-repairs"))
        self._background.append(asyncio.create_task(self.season_keeper.run(), name="seasons"))
        self._background.append(
            asyncio.create_task(self.service.run_message_writer(), name="message-ids")
        )

    def _build_renderer(self) -> Renderer:
        """The outbound adapter, given what it needs from outside (cogs/render/ports.py)."""
        budget = RestBudget(
            per_second=self.settings.shards.rest_share(self.settings.rest_per_second),
            channel_period=self.settings.channel_window + CLOCK_MARGIN,
        )
        return Renderer(
            self, self.service, locales=self.locales, turn_dms=self.preferences,
            present=self.presence, played_as=self.tournaments.table_of_game, clock=self.clock,
            coalesce_delay=self.settings.render_delay, budget=budget,
        )

    async def learn_card_emojis(self) -> None:
        """The card faces as application emojis, uploaded when missing (cogs/emojis.py).
        Without them hands show Unicode cards and a picture: a warning, not a stop."""
        try:
            uploaded = await CARD_EMOJIS.upload_missing(self)
        except discord.HTTPException as error:
            log.warning("no card emojis, hands show pictures instead: %s", error)
            return
        log.info("Card faces as application emojis: %d uploaded by this process", uploaded)

    async def start_web(self) -> None:
        """The read-only web pages, on the bot's own event loop (WEB_PORT). A port that cannot
        be opened is logged and the bot plays on without them: the games matter more."""
        deps = SiteDeps(self.stats_service, self.site_service, self.guild_profile)
        web = WebServer(deps, host=self.settings.web_host, port=self.settings.web_port or 0,
                        activity=self._activity_deps())
        try:
            await web.start()
        except OSError as error:
            log.error("No web pages: WEB_HOST=%s WEB_PORT=%s cannot be opened (%s)",
                      self.settings.web_host, self.settings.web_port, error)
            await web.stop()
            ACTIVITY.forget()  # nothing serves it: no button leads to it
            return
        self.web = web

    def _activity_deps(self) -> ActivityDeps | None:
        """What the Activity's backend is handed (web/activity/), when the bot offers it."""
        settings = self.settings
        if not settings.activity_enabled or settings.discord_client_secret is None:
            return None
        credentials = Credentials(settings.discord_api_base_url or DISCORD_API,
                                  lambda: self.application_id, settings.discord_client_secret,
                                  settings.token)
        return ActivityDeps(self.service, self.preferences, credentials,
                            self.renderer.post_lobby, self.channel_name, self.clock,
                            self.presence,
                            DISCORD_FRAME_ANCESTORS + settings.activity_frame_ancestors)

    def channel_name(self, channel_id: int) -> str | None:
        channel = self.get_channel(channel_id)
        name = getattr(channel, "name", None)
        return f"#{name}" if name else None

    async def guild_profile(self, guild_id: int) -> GuildProfile:
        """What the web pages show of a server: its name (if this bot sees it) and its
        public language."""
        guild = self.get_guild(guild_id)
        locale = await self.locales.load_public_locale(guild_id)
        return GuildProfile(guild.name if guild else None, locale)

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        if self.web is not None:
            await self.web.stop()
        if self._opened:  # what is being shown goes out before the connection closes
            await self.tournaments.settle()  # a table opening finishes before the store closes
            await self.renderer.flush_all()
            self.renderer.close()
        await super().close()
        if self.answers_http is not None:
            self.answers_http.close()
        COMMANDS.forget()  # another bot in this process (tests) learns its own
        ACTIVITY.forget()
        LamaButton.database = None
        CARD_EMOJIS.forget()
        if self._opened:
            await self.service.flush_message_refs()  # the ids still waiting to be written
            await self.store.close()

    # --------------------------------------------------------------- commands

    async def command_tree_hash(self) -> str:
        """A digest of what a sync would register, translations (and an Entry Point) included."""
        payload = await self.lama_tree.global_payload()
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()

    async def sync_commands_if_changed(self) -> None:
        """Sync on purpose: when the command tree changed since the last sync, or when asked."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        digest = f"{await self.command_tree_hash()}:{guild.id if guild else 'global'}"
        meta = self.store.settings
        if not self.force_sync and await meta.get_meta("command_tree_hash") == digest:
            log.info("Slash commands unchanged since the last sync; not syncing")
            await self._learn_command_ids(guild)
            return
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        COMMANDS.learn(synced)  # messages name commands as mentions (cogs/mentions.py)
        await meta.set_meta("command_tree_hash", digest)
        log.info(
            "Synced %d slash commands %s",
            len(synced),
            f"to guild {guild.id}" if guild else "globally",
        )

    async def _learn_command_ids(self, guild: discord.Object | None) -> None:
        """One fetch at start-up: the ids behind command mentions. Without them messages
        name commands in plain text, so a failure is worth a warning, not a stop."""
        try:
            COMMANDS.learn(await self.tree.fetch_commands(guild=guild))
        except discord.HTTPException as error:
            log.warning("could not fetch the command ids; commands are named as text: %s", error)

    async def on_ready(self) -> None:
        user_id = self.user.id if self.user else None
        log.info("Logged in as %s (%s) on %d servers", self.user, user_id, len(self.guilds))
        log.info("Event loop: %s", type(asyncio.get_running_loop()).__module__)
        log.info("Invite URL: %s", self.invite_url())
        self.renderer.go()  # what the restart queued (now that public languages are known)
        if self.settings.freeze_startup and not gc.get_freeze_count():
            interpreter.tune()

    def invite_url(self) -> str:
        if self.application_id is None:
            raise RuntimeError("the invite URL is known once the bot has logged in")
        return discord.utils.oauth_url(
            self.application_id,
            permissions=NEEDED_PERMISSIONS,
            scopes=("bot", "applications.commands"),
        )


def use_discord_endpoints(api_base_url: str | None, gateway_url: str | None) -> None:
    """Point discord.py's REST calls (webhooks and interaction callbacks too: `Route.BASE` is
    read as each request is built) and its gateway at other URLs; None keeps Discord's.
    discord.py keeps these per process, so every client in it follows."""
    if api_base_url:
        discord.http.Route.BASE = api_base_url
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def _load_env_file() -> None:
    """Settings from `.env` (beside bot.py or a folder above), or from the file that
    LAMABOT_ENV_FILE names; none where it is set empty (a bot a test starts sees only the
    environment the test gives it). Variables already set win over the file's."""
    path = os.environ.get(ENV_FILE_VARIABLE)
    if path is None:
        load_dotenv()
    elif path:
        load_dotenv(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run LamaBot.")
    parser.add_argument("--sync", action="store_true", help="register slash commands now")
    args = parser.parse_args(argv)
    _load_env_file()
    gc_watch.watch_from_env()  # a benchmark's report of the collector's pauses (opt-in)
    settings = Settings.from_env()
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO))
    if not settings.token:
        print(TOKEN_HELP.format(problem="missing"), file=sys.stderr)
        return 2
    if problem := settings.shard_problem():
        print(problem, file=sys.stderr)
        return 2
    bot = LamaBot(settings, sync=args.sync)
    # uvloop (libuv) runs the event loop's sockets, timers and thread wake-ups in C: what
    # every interaction, REST call and commit pays, at less CPU (issue 14), as RoboDanny
    # and most production discord.py bots run. discord.py's `run` makes its loop from it.
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(TOKEN_HELP.format(problem="not accepted by Discord"), file=sys.stderr)
        return 2
    except (DatabaseUnusable, SchemaTooNew) as error:  # found by setup_hook, before any game
        print(f"LamaBot cannot start: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
