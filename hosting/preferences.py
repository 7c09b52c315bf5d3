"""Who wants what: each server's settings (read and changed: `/lama settings`) and every
language choice, owned in one place.

Languages follow two rules (interfaces pass in what the platform says, e.g. a Discord
client's locale, already as text):
- a reader (a reply, a DM): their own choice (`/lama language`), else the locale of their
  interaction, else — for a DM sent with no interaction — the locale their last interaction
  had, else the game's public language;
- public messages: the server's setting, else the server's preferred locale.
English is the fallback for anything we do not speak (`i18n.resolve_locale`).

Server settings are read from the store once per server per process and cached; user choices
likewise, once per user. Writes go to the store first, then to the cache. Another process
sharing the database may change them (issue 16): a cached entry is read again once it is
`CACHE_TTL_S` old, so a change made elsewhere shows here within that time.
"""

from __future__ import annotations

from dataclasses import replace

import i18n
from store import GuildSettings, Store

from . import options as limits
from .clock import Clock
from .errors import HostingError, Problem
from .views import GameOptions

CACHE_TTL_S = 30.0  # a cached setting older than this is read from the store again


class Preferences:
    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._settings: dict[int, GuildSettings] = {}
        self._chosen: dict[int, str] = {}  # users who chose a language themselves
        self._chosen_loaded: set[int] = set()  # users whose choice was read from the store
        self._last_seen: dict[int, str] = {}  # user -> locale of their last interaction
        self._turn_dms: dict[int, bool] = {}  # user -> wants turn DMs (/lama notify)
        self._read_at: dict[tuple[str, int], float] = {}  # (what, id) -> when it was cached

    def _fresh(self, what: str, key: int) -> bool:
        """Whether a cached entry is young enough to trust; an old one is dropped."""
        read_at = self._read_at.get((what, key))
        if read_at is not None and self._clock.now() - read_at < CACHE_TTL_S:
            return True
        self._read_at.pop((what, key), None)
        return False

    def _cached(self, what: str, key: int) -> None:
        self._read_at[(what, key)] = self._clock.now()

    # --------------------------------------------------------------- servers

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        if guild_id not in self._settings or not self._fresh("guild", guild_id):
            self._settings[guild_id] = await self._store.settings.get_settings(guild_id)
            self._cached("guild", guild_id)
        return self._settings[guild_id]

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self._store.settings.save_settings(settings, now=int(self._clock.now()))
        self._settings[settings.guild_id] = settings
        self._cached("guild", settings.guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        variant: str | None = None,
        target: int | None = None,
        turn_timeout_s: int | None = None,
        ai_delay_s: float | None = None,
        games_channel_id: int | None = None,
        clear_channel: bool = False,
        locale: str | None = None,
        game_threads: bool | None = None,
        seasons: str | None = None,
    ) -> GuildSettings:
        """Change the given settings (None: keep), validated; returns what is now saved.

        The limits are those of a game (hosting/options.py), so a server default is always a
        valid game option. `locale` is the language of public messages: "en", "cs", "es", or
        "auto" for the server's preferred locale. `seasons`: rating seasons off, monthly or
        quarterly.
        """
        limits.validate(
            seasons=seasons,
            language=locale,
            variant=variant,
            target=target,
            turn_timeout=turn_timeout_s,
            ai_delay=ai_delay_s,
        )
        if clear_channel and games_channel_id is not None:
            raise HostingError(Problem.BAD_OPTION, option="channel", value=games_channel_id)
        current = await self.guild_settings(guild_id)
        settings = replace(
            current,
            variant=current.variant if variant is None else variant,
            target=current.target if target is None else target,
            turn_timeout_s=current.turn_timeout_s if turn_timeout_s is None else turn_timeout_s,
            ai_delay_s=current.ai_delay_s if ai_delay_s is None else float(ai_delay_s),
            games_channel_id=None if clear_channel else (
                current.games_channel_id if games_channel_id is None else games_channel_id
            ),
            locale=current.locale if locale is None else (
                None if locale == limits.SERVER_LANGUAGE_AUTO else locale
            ),
            game_threads=current.game_threads if game_threads is None else game_threads,
            season_cadence=current.season_cadence if seasons is None else seasons,
        )
        given = (variant, target, turn_timeout_s, ai_delay_s, games_channel_id, locale,
                 game_threads, seasons)
        if clear_channel or any(value is not None for value in given):
            await self.save_guild_settings(settings)
        if seasons is not None and await self._store.seasons.current(guild_id) is not None:
            # the open season now ends where the new cadence says (or never, for off)
            await self._store.seasons.sync(guild_id, now=int(self._clock.now()))
        return settings

    def forget_cached_settings(self, guild_id: int | None = None) -> None:
        """Read the server's (every server's) settings from the store again next time."""
        if guild_id is None:
            self._settings.clear()
        else:
            self._settings.pop(guild_id, None)

    async def guild_defaults(self, guild_id: int) -> GameOptions:
        settings = await self.guild_settings(guild_id)
        return GameOptions(
            variant=settings.variant,
            target=settings.target,
            turn_timeout=settings.turn_timeout_s,
            ai_delay=settings.ai_delay_s,
        )

    def check_channel_allowed(self, guild_id: int, channel_id: int) -> None:
        settings = self._settings.get(guild_id)
        if settings and settings.games_channel_id not in (None, channel_id):
            raise HostingError(Problem.WRONG_CHANNEL, channel_id=settings.games_channel_id)

    def cached_guild_locale(self, guild_id: int | None) -> str | None:
        """The server's chosen language for public messages, if its settings are loaded
        (every server with a game has them: `/lama new` and `restore` load them)."""
        settings = self._settings.get(guild_id) if guild_id is not None else None
        return settings.locale if settings else None

    def public_locale(self, guild_id: int | None, preferred: str | None) -> str:
        """A server's public language: its setting, else its preferred locale (`preferred`),
        else English. Needs the settings loaded (`guild_settings`) to see the setting."""
        setting = self.cached_guild_locale(guild_id)
        if setting:
            return setting
        return i18n.resolve_locale(preferred) if preferred else i18n.DEFAULT_LOCALE

    async def load_public_locale(self, guild_id: int | None, preferred: str | None) -> str:
        """`public_locale`, the server's settings read first if they are not in memory."""
        if guild_id is not None:
            await self.guild_settings(guild_id)
        return self.public_locale(guild_id, preferred)

    # ----------------------------------------------------------------- users

    async def load_user_choice(self, user_id: int) -> str | None:
        """The user's own language choice, read from the store once per user per process."""
        if user_id not in self._chosen_loaded or not self._fresh("choice", user_id):
            self._chosen_loaded.discard(user_id)
            locale = await self._store.settings.get_user_locale(user_id)
            if user_id not in self._chosen_loaded:  # a /lama language meanwhile wins
                self._chosen_loaded.add(user_id)
                self._cached("choice", user_id)
                if locale:
                    self._chosen[user_id] = locale
                else:
                    self._chosen.pop(user_id, None)
        return self._chosen.get(user_id)

    async def set_user_choice(self, user_id: int, locale: str | None) -> None:
        """Store a user's language choice (None: follow their client's) and cache it."""
        await self._store.settings.set_user_locale(user_id, locale, now=int(self._clock.now()))
        self._chosen_loaded.add(user_id)
        self._cached("choice", user_id)
        if locale:
            self._chosen[user_id] = locale
        else:
            self._chosen.pop(user_id, None)

    def forget_user(self, user_id: int) -> None:
        """The user's data is erased from the store: forget what we know of them here too."""
        self._chosen.pop(user_id, None)
        self._last_seen.pop(user_id, None)
        self._turn_dms.pop(user_id, None)

    async def load_turn_dms(self, user_id: int) -> bool:
        """Whether the user wants a DM when it is their turn (`/lama notify`), read once."""
        if user_id not in self._turn_dms or not self._fresh("turn_dms", user_id):
            self._turn_dms[user_id] = await self._store.settings.get_turn_dms(user_id)
            self._cached("turn_dms", user_id)
        return self._turn_dms[user_id]

    async def set_turn_dms(self, user_id: int, on: bool) -> None:
        await self._store.settings.set_turn_dms(user_id, on, now=int(self._clock.now()))
        self._turn_dms[user_id] = on
        self._cached("turn_dms", user_id)

    def reader_locale(self, user_id: int, client_locale: str) -> str:
        """An answer's language: the user's choice, else their client's; the client's is
        remembered for DMs sent later without an interaction."""
        client = i18n.resolve_locale(client_locale)
        self._last_seen[user_id] = client
        return self._chosen.get(user_id) or client

    def dm_locale(self, user_id: int | None, fallback: str) -> str:
        """A DM's language (the choice must be loaded: `load_user_choice`): the user's choice,
        else the locale of their last interaction, else `fallback` (the game's public one)."""
        if user_id is None:
            return fallback
        return self._chosen.get(user_id) or self._last_seen.get(user_id) or fallback
