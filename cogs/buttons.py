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
- the handler it is given to: the object that registered it (`Presses`, usually
  its cog), typed: `LamaButton[H]` hands its press to an `H`, a protocol naming the
  methods the button calls, which mypy checks the registering cog against;
- error reporting: a refusal or a bug becomes an ephemeral answer, never "did not respond";
  a handler that returns without answering is such a bug;
- an answer in time: a handler slower than cogs.timely.DEFER_AFTER is deferred for (as
  `deferral` says) and its answer delivered through the token (cogs/timely.py).

Subclasses give their custom id's layout (`ids=`, a `cogs.custom_ids.CustomId`: the regex
and the id come from one field list), `home_guild` and `pressed`; they never override
`callback`, so no handler can forget the error reporting. Each cog registers its own items
with itself as their handler (`Presses(bot, cog).answer(...)`).

Every custom id names the database whose game (round, tournament, ...) it acts on, after its
kind: `lama:h:<database>:<game>:…` (`store.SettingsStore.identity`, a letter and five letters
or digits). Game ids are numbered per database, so a button made with another database (an
old SQLite file, a bot moved to PostgreSQL) must never act on this database's game of the same
number: it is refused politely instead. Ids from before carry none and count as this
database's.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar, cast
from weakref import WeakKeyDictionary

import discord

from hosting import HostingError, Problem

from .custom_ids import LARGEST_ID, CustomId
from .errors import answer, report
from .text import t
from .timely import UPDATE, Deferral, keep_in_time

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)

NEVER = r"(?!)"  # the base itself is never registered
DISPATCH = "lamabot.dispatch"  # Interaction.extras: the task discord.py builds the button in
KIND = re.compile(r"lama:[a-z]+:")  # every custom id starts with its kind
DATABASE = r"(?:(?P<database>[a-z][0-9a-z]{5}):)?"

H = TypeVar("H", contravariant=True)  # what a button's press is handed to
T = TypeVar("T")

# Per client (a test process may run more than one bot): each registered button class, and
# the handler its presses are given to.
_HANDLERS: WeakKeyDictionary[object, dict[type[Any], object]] = WeakKeyDictionary()


async def reader_locale(interaction: discord.Interaction) -> str:
    """The presser's language, with their /lama language choice loaded first."""
    bot = cast("LamaHost", interaction.client)
    await bot.preferences.load_user_choice(interaction.user.id)
    return bot.locales.locale_of(interaction)


# What an id's kind is about, where that is not a game: the answer to an unknown press then
# names the command that shows it as it is now (a game's, or an id of no kind: /lama hand).
AREA_OF_KIND = {"lama:lb:": "leaderboard", "lama:tn:": "tournament", "lama:ts:": "tournament",
                "lama:rp:": "replay", "lama:fm:": "forget"}


def unknown_press(interaction: discord.Interaction, kind: str, custom_id: object) -> HostingError:
    """The refusal of a press no handler knows (a "button", a select "menu" or a "form"),
    logged once, at INFO: an old message or garbage, not a fault of the bot."""
    log.info("an unknown %s %r answered for user %s in channel %s", kind, custom_id,
             interaction.user.id, interaction.channel_id)
    prefix = KIND.match(custom_id) if isinstance(custom_id, str) else None
    area = AREA_OF_KIND.get(prefix.group()) if prefix else None
    return HostingError(Problem.UNKNOWN_PRESS, kind=kind, area=area)


def manages_server(interaction: discord.Interaction, guild_id: int | None) -> bool:
    """Manage Server (or Administrator) in `guild_id`: the interaction's permissions are the
    user's in the server it comes from, so they count there only (never from a DM)."""
    perms = interaction.permissions
    return (guild_id is not None and interaction.guild_id == guild_id
            and bool(perms and (perms.manage_guild or perms.administrator)))


class RegistersItems(Protocol):
    """What `Presses` needs of a bot: discord.py's registry of dynamic items."""

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...


class Presses(Generic[T]):
    """Presses on buttons, answered for `bot` by `handler` (usually a cog, from its
    `cog_load`): every button given must hand its press to something `handler` is, which
    mypy checks (`Presses(bot, self).answer(HandButton)` fails to type-check in a cog with
    no `hand_button`)."""

    def __init__(self, bot: RegistersItems, handler: T) -> None:
        self.bot, self.handler = bot, handler

    def answer(self, *buttons: type[LamaButton[T]]) -> None:
        """Answer presses on `buttons`, also on those of messages sent before a restart."""
        self.bot.add_dynamic_items(*buttons)
        _HANDLERS.setdefault(self.bot, {}).update(dict.fromkeys(buttons, self.handler))

    def stop(self, *buttons: type[LamaButton[T]]) -> None:
        """No longer answer them (the cog unloaded)."""
        self.bot.remove_dynamic_items(*buttons)
        handlers = _HANDLERS.get(self.bot, {})
        for button in buttons:
            handlers.pop(button, None)


def press_handler(client: object, button: type[LamaButton[T]]) -> T:
    """What answers presses on `button` for this client; none registered is a bug (its cog
    is not loaded), reported as one."""
    handler = _HANDLERS.get(client, {}).get(button)
    if handler is None:
        raise RuntimeError(f"nothing answers {button.__name__}: what registered it is unloaded")
    return cast(T, handler)


class LamaButton(discord.ui.DynamicItem[discord.ui.Button], Generic[H], template=NEVER):
    # The layout of its custom id: the template a press is matched with, and the id a new
    # button is made with, from one list of fields.
    ids: ClassVar[CustomId]
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

    def __init_subclass__(cls, *, ids: CustomId | None = None, **kwargs: Any) -> None:
        if ids is None:
            raise TypeError(f"{cls.__name__}: a LamaButton says its custom id's layout (ids=)")
        cls.ids = ids
        kind = KIND.match(ids.template)
        if kind is None:
            raise TypeError(f"{cls.__name__}: a custom id starts with lama:<kind>:")
        with_database = kind.group() + DATABASE + ids.template[kind.end():]
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
        interaction.extras[DISPATCH] = asyncio.current_task()  # cogs/presses.py watches it
        pressed = cls.from_match(match)
        pressed.made_with = match["database"]
        pressed.out_of_range = any(
            part.isdigit() and int(part) > LARGEST_ID for part in match.groups() if part)
        return pressed

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The pressed button, made again from the values its id carries: each button's
        constructor takes them in the order of its `ids` fields (then its looks)."""
        return cls(*cls.ids.values(match))

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
            await self.pressed(interaction, press_handler(interaction.client, type(self)), locale)
            if response.awaits_answer():  # a handler always answers: silence is a bug
                raise RuntimeError(f"{type(self).__name__} answered nothing")
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

    async def pressed(self, interaction: discord.Interaction, handler: H, locale: str) -> None:
        """The press, handed to what registered this button (`Presses`)."""
        raise NotImplementedError
