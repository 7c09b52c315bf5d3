"""Helpers for LamaBot's end-to-end tests: open games, wait for AIs, find messages, craft deals.

Positions are crafted by choosing the *seed* of the deal, never by rewriting a running game:
the move log then still replays from the seed, and the game can be played to its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import LamaBot, Settings
from cogs.moves import NO_CARD
from cogs.render.scheduler import Priority
from hosting import Status
from lama import QUIT, Game
from loopback.running import BOT_TOKEN, run_bot
from store import GuildSettings
from tests.support.lamabot import CHANNEL_PERIOD

HAND_PREFIX = "lama:h:"
DATABASE_SEGMENT = re.compile(r"^(lama:[a-z]+:)[a-z][0-9a-z]{5}:")


def isolated(name: str) -> str:
    """A member's name as the bot writes it into its sentences: between U+2068 (first strong
    isolate) and U+2069 (pop directional isolate), so its direction stays inside it."""
    return f"\u2068{name}\u2069"


def isolate_depths(text: str) -> list[int]:
    """How deep inside isolates each character of `text` is (openers U+2066 LRI, U+2067 RLI,
    U+2068 FSI; U+2069 PDI closes), counted after it."""
    depths, depth = [], 0
    for char in text:
        depth += 1 if char in "\u2066\u2067\u2068" else -1 if char == "\u2069" else 0
        depths.append(depth)
    return depths


def assert_isolates_balanced(text: str) -> None:
    """No isolate closed before it opened, none left open."""
    depths = isolate_depths(text)
    assert min(depths, default=0) >= 0 and depths[-1:] in ([], [0]), repr(text)


def without_isolates(text: str) -> str:
    """The text with the isolates around names taken out: for asserting what it must not
    say, isolated or not."""
    return text.replace("\u2068", "").replace("\u2069", "")


def untagged(custom_id: str) -> str:
    """A custom id without the database it names (cogs/buttons.py): `lama:h:<game>:...`."""
    return DATABASE_SEGMENT.sub(r"\1", custom_id)


def names_game(custom_id: str | None, kind: str, game_id: int) -> bool:
    """Whether a custom id is a ``kind`` button ("h", "t", "r", ...) of this game."""
    return bool(custom_id) and untagged(custom_id).startswith(f"lama:{kind}:{game_id}:")


def use_seed(bot, seed: int) -> None:
    """Deal every game this bot starts from now on from ``seed``.

    The one place the tests reach into the service: its seed source is a constructor
    argument the composition root leaves at its default (fresh system randomness).
    """
    bot.service.lobby.seed_source = lambda: seed


def find_seed(
    variant: str, seats: int, wanted: Callable[[Game], bool], *, target: int = 40
) -> int:
    """The first seed whose opening deal satisfies ``wanted``."""
    for seed in range(10_000):
        if wanted(Game.new(variant, seats, seed, target=target)):
            return seed
    raise AssertionError("no seed deals the position the test needs")


def the_first_quit_ends_round_1(game: Game) -> bool:
    """Two players: the starter quits, and the other, left alone with no card to play, is
    forced out, so that one quit ends round 1 (a deal for `find_seed`)."""
    game.apply(game.current_seat, QUIT)
    return game.round_number == 2


async def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.005)


async def open_game(fake, bot, channel, host, *others, start: bool = True, **options) -> int:
    """``host`` opens a lobby with ``options``, ``others`` join, the host starts it."""
    result = await fake.slash(host, channel, "lama new", **options)
    assert not result.ephemeral, result.text
    for user in others:
        joined = await fake.slash(user, channel, "lama join")
        assert joined.ephemeral, joined.text
    game_id = bot.service.game_in_channel(channel.id).game_id
    if start:
        started = await fake.slash(host, channel, "lama start")
        assert started.ephemeral, started.text
        await settle(bot, game_id)
    return game_id


async def two_humans(fake, bot, seed: int | None = None, **options):
    """alice (host, seat 0) and bob (seat 1) in #lama; returns game id, channel."""
    if seed is not None:
        use_seed(bot, seed)
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"), **options)
    return game_id, channel


@dataclass(frozen=True)
class OnTurn:
    """A running game and the player on turn in it, with their seat's observation."""

    game_id: int
    channel: Any
    mover: Any
    obs: Any


async def two_humans_on_turn(fake, bot, **options) -> OnTurn:
    """`two_humans`, and who is on turn: the start of a test about one player's move."""
    game_id, channel = await two_humans(fake, bot, **options)
    mover, obs = on_turn(fake, bot, game_id)
    return OnTurn(game_id, channel, mover, obs)


def humans_turn_or_over(bot, game_id: int) -> bool:
    hosted = bot.service.registry.find(game_id)
    if hosted is None:  # stored, not hosted yet: a tournament's table is registered once
        return False    # its lobby's commit is back, which a poll of the store can outrun
    view = hosted.view()
    if view.status is not Status.RUNNING:
        return True
    return view.current_seat is not None and not view.seats[view.current_seat].is_ai


def move_in_progress(bot, game_id: int) -> bool:
    """A move is being committed: the engine has moved on, its update is not yet published.

    (The game's lock is held from the engine's apply until after the commit; the update is
    handed to the renderer right after the lock is released, without yielding.)"""
    return bot.service.registry.get(game_id).lock.locked()


async def settle(bot, game_id: int) -> None:
    """Wait until the AIs have moved (a human is on turn, or the game is over) and every
    update is on Discord."""
    await wait_until(
        lambda: humans_turn_or_over(bot, game_id) and not move_in_progress(bot, game_id)
    )
    await bot.renderer.flush_all()


def on_turn(fake, bot, game_id: int):
    """The user whose turn it is, with their seat's observation."""
    view = bot.service.view(game_id)
    seat = view.seats[view.current_seat]
    return fake.users_by_id[seat.user_id], bot.service.observation(game_id, seat.user_id)


def table(fake, channel):
    """The newest table message (Components V2) in the channel."""
    return [m for m in fake.public_messages(channel) if m.components_v2][-1]


async def draw_from_my_hand(fake, bot, game_id: int, channel, user) -> None:
    """``user``, on turn, opens My hand under the table and draws from that private hand;
    returns once the draw is committed."""
    shown = await fake.click(user, table(fake, channel), "My hand")
    moves = bot.service.view(game_id).move_count
    await fake.click(user, shown.message, hand_button(shown.message, "draw"))
    await wait_until(lambda: bot.service.view(game_id).move_count == moves + 1)


def hand_messages(fake, user, game_id: int) -> list:
    """The user's DMs that carry hand buttons of this game, oldest first."""
    return [m for m in fake.dms(user) if any(names_game(c, "h", game_id) for c in m.custom_ids)]


def hand_button(message, action: str) -> str:
    """The custom id of the button for ``action`` ("draw", "quit" or a card code)."""
    for custom_id in message.custom_ids:
        if custom_id.startswith(HAND_PREFIX) and custom_id.rsplit(":", 1)[1] == action:
            return custom_id
    raise LookupError(f"no {action!r} button on message {message.id}: {message.custom_ids}")


def enabled_hand_buttons(message) -> list[str]:
    return [
        b.custom_id
        for b in message.buttons
        if b.custom_id and b.custom_id.startswith(HAND_PREFIX) and not b.disabled
    ]


class Unchanged:
    """Remembers a game's move log and the public messages, to prove a refusal changed
    nothing."""

    def __init__(self, fake, bot, game_id: int | None, *channels) -> None:
        self.fake, self.bot, self.game_id, self.channels = fake, bot, game_id, channels

    async def __aenter__(self) -> Unchanged:
        await self.bot.renderer.flush_all()
        self.moves = await self._moves()
        self.public = self._public()
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.bot.renderer.flush_all()
        if exc_info[0] is None:
            assert await self._moves() == self.moves, "a refused request added a move"
            assert self._public() == self.public, "a refused request changed a public message"

    async def _moves(self):
        if self.game_id is None:
            return []
        return await self.bot.store.games.list_moves(self.game_id)

    def _public(self):
        return [
            (m.id, m.content, str(m.embeds), str(m.components), m.deleted)
            for channel in self.channels
            for m in self.fake.public_messages(channel)
        ]


def refused(result, *fragments: str) -> None:
    """The answer is private and says what the test expects."""
    assert result.ephemeral, f"not ephemeral: {result!r}"
    for fragment in fragments:
        assert fragment in result.text, f"{fragment!r} not in {result.text!r}"


def spy_on_rest_budget(bot) -> list[tuple[int | None, str]]:
    """Record every slot the bot's REST budget hands out from now on: (channel id, kind)."""
    taken: list[tuple[int | None, str]] = []
    budget = bot.renderer.budget
    slot = budget.slot

    def spied(priority, channel_id=None, kind="create"):
        taken.append((channel_id, kind))
        return slot(priority, channel_id, kind)

    budget.slot = spied
    return taken


@contextlib.asynccontextmanager
async def closes_held(bot):
    """Inside, closing an older hand waits (a busy REST budget); the closes go on after."""
    hands, close, released = bot.renderer.hands, bot.renderer.hands.close, asyncio.Event()

    async def held(*args, **kwargs):
        await released.wait()
        await close(*args, **kwargs)

    hands.close = held
    try:
        yield
    finally:
        released.set()


def offered_cards(choices: list[dict]) -> list[str]:
    """The card codes a /play autocomplete offered, sorted; without the one choice that says
    why there is none (on turn with nothing that fits, as a deal can leave a player; that
    choice: tests/e2e/test_play_hints.py)."""
    return sorted(c["value"] for c in choices if c["value"] != NO_CARD)


def hold_rest_slots(bot, held: Callable[[Priority, int | None, str], bool]) -> asyncio.Event:
    """From now on the slots of the bot's REST budget that ``held(priority, channel id,
    kind)`` picks wait until the returned event is set: a process short of budget."""
    budget, slot, released = bot.renderer.budget, bot.renderer.budget.slot, asyncio.Event()

    @contextlib.asynccontextmanager
    async def holding(priority, channel_id=None, kind="create"):
        if held(priority, channel_id, kind):
            await released.wait()
        async with slot(priority, channel_id, kind):
            yield

    budget.slot = holding
    return released


def count_rest_slots(bot, counted: Callable[[Priority, int | None, str], bool]) -> list[Priority]:
    """From now on the slots of the bot's REST budget that ``counted(priority, channel id,
    kind)`` picks are listed (their priorities) in the returned list as they are asked for."""
    budget, slot, asked = bot.renderer.budget, bot.renderer.budget.slot, []

    @contextlib.asynccontextmanager
    async def counting(priority, channel_id=None, kind="create"):
        if counted(priority, channel_id, kind):
            asked.append(priority)
        async with slot(priority, channel_id, kind):
            yield

    budget.slot = counting
    return asked


@contextlib.asynccontextmanager
async def bot_with_instant_ais(fake, tmp_path):
    """A bot of its own whose renderer shows each update at once and whose server's AIs move
    at once (and an hour's turn timer): a press races the AIs' moves it brings on. Discord's
    per-channel window is shortened as for the `lamabot` fixture: at 5 s, the table's edits
    held a whole game to one move a second."""
    fake.ratelimits.channel_period = CHANNEL_PERIOD
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3",
                        render_delay=0, channel_window=CHANNEL_PERIOD)
    bot = LamaBot(settings, guild_ready_timeout=0.05)
    async with run_bot(fake, bot, sync_commands=False):
        await bot.service.save_guild_settings(
            GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
        yield bot
