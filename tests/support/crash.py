"""Helpers for the crash tests: the real bot.py killed with SIGKILL, its database read from the
outside (read-only, while it runs), and the messages every player saw counted."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from lama import QUIT, Game, game_from_dict
from lama import events as ev
from loopback import rest
from loopback.records import RestCall
from loopback.running import BOT_TOKEN, run_bot_process
from tests.support.e2e import enabled_hand_buttons, hand_button, names_game, untagged

REPO = Path(__file__).resolve().parents[2]
ARGS = [sys.executable, "bot.py"]


def bot_env(db_path: Path, render_delay: str = "0.3") -> dict[str, str]:
    return {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": str(db_path),
            "RENDER_DELAY": render_delay}


def running_bot(fake, db_path: Path, render_delay: str = "0.3"):
    return run_bot_process(fake, ARGS, env=bot_env(db_path, render_delay), cwd=REPO)


def read_db(db_path: Path, sql: str, params=()) -> list[tuple]:
    """A read-only look at the bot's database, as another process would take it."""
    with closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)) as conn:
        return conn.execute(sql, params).fetchall()


def stored_game(db_path: Path, game_id: int) -> tuple[str, Game | None]:
    [(status, state)] = read_db(db_path, "SELECT status, state_json FROM games WHERE id = ?",
                                (game_id,))
    return status, game_from_dict(json.loads(state)) if state else None


def effect_of_quit(game: Game) -> set[type]:
    """What the seat on turn quitting would do: the kinds of events it leads to."""
    draft = game.clone()
    return {type(e) for e in draft.apply(draft.current_seat, QUIT)}


def hands_of(fake, user, game_id: int) -> list:
    return [m for m in fake.dms(user) if any(names_game(c, "h", game_id) for c in m.custom_ids)]


def live_hands(fake, user, game_id: int) -> list:
    return [m for m in hands_of(fake, user, game_id) if enabled_hand_buttons(m)]


async def wait_for(predicate, timeout: float = 30.0, what: str = "condition") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def on_turn(fake, users, game_id: int, db_path: Path):
    """The user on turn (from the stored state) once their live hand DM has arrived."""
    _, game = stored_game(db_path, game_id)
    assert game is not None
    seat = game.current_seat
    user = users[seat]
    await wait_for(lambda: live_hands(fake, user, game_id), what=f"{user.name}'s live hand")
    return user


async def press(fake, user, game_id: int, action: str):
    """Draw or quit (with its confirmation) on the user's live hand DM; returns once the
    user sees the answer, which is when a crash test counts the move acknowledged."""
    message = live_hands(fake, user, game_id)[-1]
    if action == "quit":
        await _answered(await fake.click(user, message, hand_button(message, "quit")))
        action = "quitok"  # the question is on the same message now
    return await _answered(await fake.click(user, message, hand_button(message, action)))


async def quit_until_a_quit_leads_to(fake, users, game_id: int, db_path: Path,
                                     what: type) -> None:
    """Whoever is on turn quits from their hand DM, until the quit that leads to a ``what``
    event (RoundEnded, GameEnded) is acknowledged; a forced quit may end a round early."""
    for _ in range(100):
        user = await on_turn(fake, users, game_id, db_path)
        _, game = stored_game(db_path, game_id)
        assert game is not None
        leads_there = what in effect_of_quit(game)
        await press(fake, user, game_id, "quit")
        if leads_there:
            return
    raise AssertionError(f"no quit led to {what.__name__}")


async def _answered(result):
    """The bot's answer as the user sees it. A bot slower than 1.5 s stands in with a silent
    defer (cogs/timely.py), which shows nothing and says nothing about the move: its answer,
    after the commit, is the hand message's edit through the interaction's token."""
    assert result.refused is None, result.refused
    if result.deferred:
        await result.edited(timeout=30.0)
    return result


def outbox_empty(db_path: Path) -> bool:
    return not read_db(db_path, "SELECT game_id FROM render_outbox")


def public_texts(fake, channel) -> list[str]:
    return [m.text for m in fake.public_messages(channel)]


def rematch_posts(fake, channel, game_id: int) -> list:
    return [m for m in fake.public_messages(channel)
            if f"lama:r:{game_id}" in {untagged(c) for c in m.custom_ids}]


def tables_of_round(fake, channel, game_id: int, round_number: int) -> list:
    marker = f"lama:t:{game_id}:{round_number}:"
    return [m for m in fake.public_messages(channel)
            if any(untagged(c).startswith(marker) for c in m.custom_ids)]


def round_ended(events: set[type]) -> bool:
    return ev.RoundEnded in events


def newest_hand(fake, user):
    hands = [m for m in fake.dms(user) if any(c.startswith("lama:h:") for c in m.custom_ids)]
    return hands[-1] if hands else None


def enabled_buttons(message):
    return [b for b in message.buttons if not b.disabled] if message else []


async def wait_disconnected(fake, timeout=30.0):
    """Until the fake has seen the killed bot's connection close. (Returning with it still
    open would let the next start's wait for a connection take the dead one.)"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while fake.gateway.is_connected():
        if loop.time() > deadline:
            raise AssertionError("the bot's gateway connection did not close")
        await asyncio.sleep(0.02)


async def start(fake, channel, host, guest, **options):
    await fake.slash(host, channel, "lama new", **options)
    await fake.slash(guest, channel, "lama join")
    await fake.slash(host, channel, "lama start")


async def kill_after(bot, fake, seconds: float) -> None:
    await asyncio.sleep(seconds)
    bot.kill()
    await wait_disconnected(fake)


async def all_shown(db_path) -> None:
    """Everything committed is on Discord (the outbox is empty), and a moment more for any
    duplicate to show up."""
    await wait_for(lambda: outbox_empty(db_path), what="the outbox to empty")
    await asyncio.sleep(1.0)


@dataclass
class HeldAnswer:
    """A call Discord did and whose answer it holds back (`answer_held`): the moment a bot
    that dies now has sent it and never hears of it."""

    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    calls: list[RestCall] = field(default_factory=list)

    async def wait(self, timeout: float = 30.0) -> RestCall:
        await asyncio.wait_for(self.arrived.wait(), timeout)
        return self.calls[0]


def answer_held(monkeypatch, operation: str, picked: Callable[[object, RestCall], bool]
                ) -> HeldAnswer:
    """The first call of `operation` that `picked(fake, call)` takes is done by the loopback
    Discord (a message posted shows, its nonce is taken) and its answer never sent: the bot
    waits for it until it is killed (the fake drops the call with the connection)."""
    handler, held = rest.HANDLERS[operation], HeldAnswer()

    async def holding(fake, call):
        result = await handler(fake, call)
        if not held.calls and picked(fake, call):
            held.calls.append(call)
            held.arrived.set()
            await asyncio.Event().wait()  # until the connection is gone
        return result

    monkeypatch.setitem(rest.HANDLERS, operation, holding)
    return held


def components_in(body) -> list[dict]:
    """Every component of a request body, however deep."""
    found: list[dict] = []
    stack = list((body or {}).get("components") or [])
    while stack:
        component = stack.pop()
        found.append(component)
        stack.extend(component.get("components") or [])
        if component.get("accessory"):
            stack.append(component["accessory"])
    return found


def custom_ids_in(body) -> list[str]:
    return [c["custom_id"] for c in components_in(body) if c.get("custom_id")]


def posts_table(game_id: int, round_number: int) -> Callable[[object, RestCall], bool]:
    """A post of that round's table (its buttons name the game and the round)."""
    marker = f"lama:t:{game_id}:{round_number}:"
    return lambda fake, call: any(untagged(c).startswith(marker)
                                  for c in custom_ids_in(call.body))


def pending_moves(db_path: Path, game_id: int) -> list[int]:
    """The game's moves committed and not marked shown (the render outbox)."""
    rows = read_db(db_path, "SELECT seq FROM render_outbox WHERE game_id = ? ORDER BY seq",
                   (game_id,))
    return [seq for (seq,) in rows]


def posts_a_waiting_hand(game_id: int) -> Callable[[object, RestCall], bool]:
    """A hand DM of the game whose buttons are all off: a seat's deal while another starts."""
    def picked(fake, call) -> bool:
        buttons = [c for c in components_in(call.body)
                   if names_game(c.get("custom_id"), "h", game_id)]
        return bool(buttons) and all(b.get("disabled") for b in buttons)
    return picked
