"""Hypothesis over what a member can send: every slash command the bot registered with option
values drawn from its declared types, the /play card autocomplete with any text, and presses
of buttons carrying any custom id (garbage, ids in the bot's layouts with wrong parts, real
ids with one part changed, up to Discord's 100 characters), in the game's channel, another
channel and a DM. Each input is answered once, inside Discord's 3 seconds, and changes nothing
of the running game: the sender is a member who plays in no game, so nothing they send may
(or a player whose turn it is not, sending moves).
(tests/e2e/test_fuzz.py plays games with random users; this one aims at the edges of input.)

The examples share one bot and one running game (the fixtures are set up once per test, not
per example), so their number stays modest: the module runs in a few seconds.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.button_views import ButtonsView
from loopback.driver import BOOLEAN, CHANNEL, INTEGER, NUMBER, STRING, USER
from tests.support.e2e import open_game, untagged

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
SUBCOMMANDS = (1, 2)
# Commands whose work is to change what a member may change (a lobby, a tournament, a
# server's settings: Manage Server only); everything else is sent.
LEFT_OUT = {"lama new", "lama tournament new", "lama settings"}
FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
KINDS = ["h", "t", "l", "r", "lb", "fm", "rp", "tn", "ts", "x"]
WORDS = ["join", "leave", "ai", "start", "cancel", "draw", "quit", "quitok", "back", "hand",
         "rules", "yes", "no", "p", "n", "3+", "L", "P", "rating", "all", "all_time", "s1"]


class World:
    """alice and bob play in #lama (no AI: nothing moves unless they do); the stranger plays
    nowhere; an older message of the bot in #lama and in the stranger's DM, one button each,
    whose custom id each example sets."""

    def __init__(self, fake, bot, game_id: int, presses: dict[str, Any]) -> None:
        self.fake, self.bot, self.game_id, self.presses = fake, bot, game_id, presses
        self.stranger = fake.user("stranger")
        self.real_ids = [untagged(c) for m in fake.public_messages("lama") for c in m.custom_ids]
        self.real_ids += [untagged(c) for m in fake.dms(fake.user("alice")) for c in m.custom_ids]

    async def game_now(self) -> tuple:
        view = self.bot.service.view(self.game_id)
        moves = await self.bot.store.games.list_moves(self.game_id)
        seats = [(s.user_id, s.is_ai) for s in view.seats]
        return view.status, view.move_count, view.round_number, seats, len(moves)

    async def answered_once(self, result) -> None:
        assert result.response_type is not None and result.refused is None, result
        assert result.elapsed is not None and result.elapsed < 3, result
        await asyncio.sleep(0.02)  # a second answer, if one were coming, is on its way
        calls = [c for c in self.fake.rest_calls(CALLBACK)
                 if c.params["interaction_id"] == str(result.record.id)]
        assert len(calls) == 1, [c.body for c in calls]


@pytest.fixture
async def world(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    fake.add_user("stranger")
    game_id = await open_game(fake, bot, fake.channel("lama"), fake.user("alice"),
                              fake.user("bob"))
    presses = {"channel": await older_message(fake, bot, fake.channel("lama").id),
               "dm": await older_message(fake, bot, None, fake.user("stranger"))}
    yield World(fake, bot, game_id, presses)
    await bot.http.delete_message(presses["channel"].channel_id, presses["channel"].id)


async def older_message(fake, bot, channel_id: int | None, user=None):
    """A message of the bot's with one button, as an older version could have left it."""
    if channel_id is None:
        channel_id = int((await bot.http.start_private_message(user.id))["id"])
    ui = ButtonsView()
    ui.add_item(discord.ui.Button(custom_id="lama:old", label="Old"))
    sent = await bot.get_partial_messageable(channel_id).send("An older message", view=ui)
    return next(m for m in fake.channels[channel_id].messages if m.id == sent.id)


# ------------------------------------------------------------------------ custom ids

def _changed(real: str, part: str, at: int) -> str:
    """A real custom id with one of its parts replaced (or, past its end, one added)."""
    parts = real.split(":")
    if at < len(parts):
        parts[at] = part
    else:
        parts.append(part)
    return ":".join(parts)


PART = st.one_of(st.integers(-5, 2**64).map(str), st.sampled_from(WORDS),
                 st.text(max_size=12), st.from_regex(r"[a-z][0-9a-z]{5}", fullmatch=True))


def custom_ids(real_ids: list[str]):
    layouts = st.builds(lambda kind, parts: f"lama:{kind}:" + ":".join(parts),
                        st.sampled_from(KINDS), st.lists(PART, max_size=8))
    changed = st.builds(_changed, st.sampled_from(real_ids), PART, st.integers(2, 8))
    return st.one_of(st.text(min_size=1, max_size=100), layouts, changed).map(
        lambda custom_id: custom_id[:100]).filter(lambda custom_id: custom_id)


@FUZZ
@given(data=st.data())
async def test_a_press_of_any_custom_id_is_answered_once_and_changes_nothing(world, data):
    custom_id = data.draw(custom_ids(world.real_ids), label="custom_id")
    place = data.draw(st.sampled_from(["channel", "dm"]), label="place")
    message = world.presses[place]
    message.components[0]["components"][0]["custom_id"] = custom_id
    before = await world.game_now()
    result = await world.fake.click(world.stranger, message, custom_id)
    await world.answered_once(result)
    assert result.ephemeral, result
    assert await world.game_now() == before


# ---------------------------------------------------------------------- slash options

def leaves(fake, *, in_dm: bool) -> list[tuple[str, dict[str, Any]]]:
    """Every slash command the bot registered that Discord offers there (a server channel,
    or a DM): its path ("lama tournament new") and its leaf."""
    found: list[tuple[str, dict[str, Any]]] = []

    def walk(path: str, node: dict[str, Any]) -> None:
        inner = [o for o in node.get("options") or [] if o["type"] in SUBCOMMANDS]
        if not inner:
            found.append((path, node))
        for option in inner:
            walk(f"{path} {option['name']}", option)

    for registered in fake.commands.get(None, []):
        contexts = registered.get("contexts")
        in_dms = (1 in contexts) if contexts else registered.get("dm_permission", True)
        if registered.get("type", 1) == 1 and (in_dms or not in_dm):
            walk(registered["name"], registered)
    return [(path, leaf) for path, leaf in found if path not in LEFT_OUT]


def value(option: dict[str, Any], fake):
    """Any value Discord's client lets a member send for this option."""
    kind = option["type"]
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    if kind == STRING:
        low, high = max(option.get("min_length", 1), 1), min(option.get("max_length", 120), 120)
        return st.text(min_size=low, max_size=high)
    if kind in (INTEGER, NUMBER):
        numbers = st.integers if kind == INTEGER else st.floats
        return numbers(min_value=option.get("min_value", -(2**53)),
                       max_value=option.get("max_value", 2**53))
    if kind == BOOLEAN:
        return st.booleans()
    if kind == USER:
        return st.sampled_from(fake.users)
    if kind == CHANNEL:
        return st.sampled_from([fake.channel("lama"), fake.channel("general")])
    raise AssertionError(f"no values for option type {kind}: add them here")


def options(leaf: dict[str, Any], fake):
    declared = leaf.get("options") or []
    return st.fixed_dictionaries(
        {o["name"]: value(o, fake) for o in declared if o.get("required")},
        optional={o["name"]: value(o, fake) for o in declared if not o.get("required")})


@FUZZ
@given(data=st.data())
async def test_any_slash_command_with_any_options_is_answered_and_changes_nothing(world, data):
    fake = world.fake
    place = data.draw(st.sampled_from(["lama", "lama-2", None]), label="place")
    path, leaf = data.draw(st.sampled_from(leaves(fake, in_dm=place is None)), label="command")
    sent = data.draw(options(leaf, fake), label="options")
    before = await world.game_now()
    result = await fake.slash(world.stranger, place, path, **sent)
    await world.answered_once(result)
    assert await world.game_now() == before


@FUZZ
@given(command=st.sampled_from(["play", "draw", "quit"]), card=st.text(min_size=1, max_size=120),
       place=st.sampled_from(["lama", "lama-2", None]))
async def test_a_move_by_the_player_waiting_for_their_turn_changes_nothing(
    world, command, card, place
):
    view = world.bot.service.view(world.game_id)
    waiting = next(s.user_id for s in view.seats if s.index != view.current_seat)
    before = await world.game_now()
    sent = {"card": card} if command == "play" else {}
    result = await world.fake.slash(world.fake.users_by_id[waiting], place, command, **sent)
    await world.answered_once(result)
    assert result.ephemeral and await world.game_now() == before


@FUZZ
@given(typed=st.text(max_size=100), place=st.sampled_from(["lama", "general", None]))
async def test_the_card_autocomplete_answers_any_text(world, typed, place):
    choices = await world.fake.autocomplete(world.stranger, place, "play", focused="card",
                                            card=typed)
    assert len(choices) <= 25
    assert all(1 <= len(c["name"]) <= 100 for c in choices)
