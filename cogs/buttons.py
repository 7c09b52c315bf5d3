"""One base for every button LamaBot shows: a `DynamicItem` that survives restarts.

A button's custom id carries everything it acts on (the game, the round, whose it is), so
nothing lives in memory between the press and the game. The base does, once for every
button, what a press needs before its handler runs and what it needs if the handler fails:

- the reader's language (their /lama language choice, loaded once per process);
- where the press comes from: only from the server of what the button acts on (its game,
  tournament, leaderboard: `home_guild`), and from a DM only where the button lives in DMs
  too (`dm_presses`); an admin's permissions then count in that server (`manages_server`);
- the owner check: a button made for one user (`owner_id`) refuses anyone else politely
  and changes nothing (a crafted press on someone else's hand, another user's "forget me");
- an id in its layout that holds a number no id can be: an unknown press (cogs/presses.py);
- the cog that handles it, looked up by name with a None check;
- error reporting: a refusal or a bug becomes an ephemeral answer, never "did not respond";
- an answer in time: a handler slower than cogs.timely.DEFER_AFTER is deferred for (as
  `deferral` says) and its answer delivered through the token (cogs/timely.py).

Subclasses give `template`, `cog_name`, `from_match`, `home_guild` and `pressed`; they never
override `callback`, so no handler can forget the error reporting. Each cog registers its own
items.

Every custom id names the database whose game (round, tournament, ...) it acts on, after its
kind: `lama:h:<database>:<game>:…` (`store.SettingsStore.identity`, a letter and five letters
or digits). Game ids are numbered per database, so a button made with another database (an
old SQLite file, a bot moved to PostgreSQL) must never act on this database's game of the same
number: it is refused politely instead. Ids from before carry none and count as this
database's.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

import discord

from hosting import HostingError, Problem

from .errors import answer, handler_cog, report
from .text import t
from .timely import UPDATE, Deferral, keep_in_time

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)

NEVER = r"(?!)"  # the base itself is never registered
KIND = re.compile(r"lama:[a-z]+:")  # every custom id starts with its kind
DATABASE = r"(?:(?P<database>[a-z][0-9a-z]{5}):)?"
LARGEST_ID = 2**63 - 1  # the store's ids, and Discord's snowflakes, are signed 64-bit numbers


async def reader_locale(interaction: discord.Interaction) -> str:
    """The presser's language, with their /lama language choice loaded first."""
    bot = cast("LamaHost", interaction.client)
    await bot.preferences.load_user_choice(interaction.user.id)
    return bot.locales.locale_of(interaction)


def unknown_press(interaction: discord.Interaction, kind: str, custom_id: object) -> HostingError:
    """The refusal of a press no handler knows (a "button", a select "menu" or a "form"),
    logged once, at INFO: an old message or garbage, not a fault of the bot."""
    log.info("an unknown %s %r answered for user %s in channel %s", kind, custom_id,
             interaction.user.id, interaction.channel_id)
    return HostingError(Problem.UNKNOWN_PRESS, kind=kind)


def manages_server(interaction: discord.Interaction, guild_id: int | None) -> bool:
    """Manage Server (or Administrator) in `guild_id`: the interaction's permissions are the
    user's in the server it comes from, so they count there only (never from a DM)."""
    perms = interaction.permissions
    return (guild_id is not None and interaction.guild_id == guild_id
            and bool(perms and (perms.manage_guild or perms.administrator)))


class LamaButton(discord.ui.DynamicItem[discord.ui.Button], template=NEVER):
    cog_name: ClassVar[str] = ""
    # The identity of the database the running bot uses, set at start-up: every button
    # made from then on ends with it.
    database: ClassVar[str | None] = None
    owner_id: int | None = None  # only this user may press it (None: anyone)
    made_with: str | None = None  # the database identity a pressed button carried
    out_of_range = False  # a pressed id holds a number no id of ours can be: not ours
    # Where a press counts (`_check_origin`): in the server of what the button acts on, and
    # in a DM only where the button lives in DMs too (a player's hand).
    dm_presses: ClassVar[bool] = False
    home: int | None = None  # that server, once a press from it was let through
    # How a slow press is acknowledged: silently, by default (the answer edits this message
    # or follows up); PRIVATE_REPLY where the answer is the presser's own new message.
    deferral: ClassVar[Deferral] = UPDATE

    def __init_subclass__(cls, *, template: str, **kwargs: Any) -> None:
        kind = KIND.match(template)
        if kind is None:
            raise TypeError(f"{cls.__name__}: a custom id starts with lama:<kind>:")
        with_database = kind.group() + DATABASE + template[kind.end():]
        # (?a): \d is 0-9 only, as the bot writes numbers (not "١٢", which int() reads as 12)
        super().__init_subclass__(template="(?a)" + with_database, **kwargs)

    def __init__(self, custom_id: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=self.full_custom_id(custom_id), **button))

    @staticmethod
    def full_custom_id(custom_id: str) -> str:
        """`lama:h:12:…` → `lama:h:<database>:12:…` (once the database is known)."""
        kind = KIND.match(custom_id)
        if LamaButton.database is not None and kind is not None:
            return f"{kind.group()}{LamaButton.database}:{custom_id[kind.end():]}"
        return custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        pressed = cls.from_match(match)
        pressed.made_with = match["database"]
        pressed.out_of_range = any(
            part.isdigit() and int(part) > LARGEST_ID for part in match.groups() if part)
        return pressed

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        response = keep_in_time(interaction, self.deferral)
        try:
            locale = await reader_locale(interaction)
            bot = cast("LamaHost", interaction.client)
            if self.out_of_range:  # its layout, with numbers no game or user can have
                pressed: Any = interaction.data or {}
                raise unknown_press(interaction, "button", pressed.get("custom_id"))
            if self.made_with is not None and self.made_with != bot.database_identity:
                await answer(interaction, t("error.button_other_database", locale))
                return
            await self._check_origin(interaction, bot)
            if self.owner_id is not None and interaction.user.id != self.owner_id:
                await answer(interaction, t("error.button_not_yours", locale))
                return
            await self.pressed(interaction, handler_cog(interaction, self.cog_name), locale)
        except Exception as error:
            await report(interaction, error)
        finally:
            response.stop_clock()

    async def _check_origin(self, interaction: discord.Interaction, bot: LamaHost) -> None:
        """Refuse a press from another server than that of what the button acts on, or from
        a DM unless the button lives in DMs too (`dm_presses`). Discord sends a press only
        from the pressed message's own channel; the check costs next to nothing, and the
        permissions an admin's press brings are then those of the server it acts in."""
        if interaction.guild_id is None:
            if not self.dm_presses:
                raise HostingError(Problem.OTHER_SERVER, in_dm=True)
            return
        self.home = await self.home_guild(bot)
        if self.home is not None and self.home != interaction.guild_id:
            raise HostingError(Problem.OTHER_SERVER)

    async def home_guild(self, bot: LamaHost) -> int | None:
        """The server of what this button acts on (its game, tournament, leaderboard); None
        where there is none to check: it acts on the presser alone, or on nothing the bot
        keeps (its handler refuses it in its own words). Every button says which."""
        raise NotImplementedError

    async def pressed(self, interaction: discord.Interaction, cog: Any, locale: str) -> None:
        raise NotImplementedError
