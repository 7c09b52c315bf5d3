"""What the hands (cogs/render/hands.py, ledger.py) know of one hand message: the interaction
that shows a hand (`HandAnswer`), how its answer is reached later (`AnswerReach`), the newest
message that shows a seat's hand (`ShownHand`) and a pressed one (`Pressed`), with how two of
them are told apart: a DM by its id, an
ephemeral (whose id is not known when it is sent) by the interaction it answers or the id a
press on it carries."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from ..timely import TimelyResponse
from .answer_token import AnswerToken

ANSWER_WINDOW = 3.0  # seconds Discord gives an interaction's first answer
TOKEN_LIFE = 14 * 60.0  # seconds we edit through an interaction's token (Discord: 15 min)


@dataclass(frozen=True)
class HandAnswer:
    """An interaction whose response shows its user's hand: a press on a DM hand (which
    redraws that message), or a slash move / table button (a new ephemeral message)."""

    interaction: discord.Interaction
    on_dm_hand: bool
    # Taken in the handler: once the handler is done the interaction lets go of its response
    # (cogs/timely.py), and only this one knows whether the answer went out.
    response: discord.InteractionResponse = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "response", self.interaction.response)

    @property
    def user_id(self) -> int:
        """Whose hand it shows (hosting.views.ShownBy)."""
        return self.interaction.user.id


class AnswerReach:
    """How a hand shown in an interaction's own answer is reached later, to redraw, close or
    delete it: the token alone (`AnswerToken`), and the interaction's response only while
    the answer is on its way (`out`). A hand is kept until a newer one replaces it, and the
    whole interaction with it was most of what young collections scanned (answer_token.py)."""

    __slots__ = ("_response", "token")

    def __init__(self, answer: HandAnswer) -> None:
        self.token = AnswerToken.of(answer.interaction)
        response = answer.response
        # The response refers to its interaction, which lives as long as its handler (and a
        # stand-in under way, cogs/timely.py): held weakly, it lets go of them once the
        # answer is out, whether anything asks then or not.
        self._response: Callable[[], discord.InteractionResponse | None] | None = None
        if not _landed(response):
            try:
                self._response = weakref.ref(response)
            except TypeError:  # a response no handler of ours wrapped: held
                self._response = lambda: response

    def out(self) -> bool:
        """Whether the answer is out: the token reaches it. Not while a stand-in holds its
        place: the answer that replaces it would overwrite an edit made meanwhile. A
        response gone is out: its handler and any stand-in are done, nothing is on its way."""
        if self._response is None:
            return True
        response = self._response()
        if response is None or _landed(response):
            self._response = None
            return True
        return False


def _landed(response: discord.InteractionResponse) -> bool:
    """The handler's own answer is out (cogs/timely.py: a stand-in is not the answer)."""
    return response.answer_landed if isinstance(response, TimelyResponse) else response.is_done()


@dataclass(frozen=True)
class Pressed:
    """A pressed hand message, as the press tells of it: its id, whether it is private
    (ephemeral), and for a private one the interaction it answered, if Discord says."""

    id: int
    ephemeral: bool
    made_by: int | None = None

    @classmethod
    def of(cls, message: discord.Message) -> Pressed:
        metadata = message.interaction_metadata
        return cls(message.id, message.flags.ephemeral,
                   metadata.id if metadata is not None else None)


@dataclass
class ShownHand:
    message_id: int | None  # None: the interaction's own (ephemeral) response
    channel_id: int | None  # the DM channel; None for an ephemeral
    reach: AnswerReach | None  # edits through its interaction's token, for free
    since: float  # loop time the token was issued
    live: bool  # shows enabled buttons or "your turn"
    moves: int = -1  # the game's move count it shows (-1: not known, recalled after a restart)
    # A snowflake no later than the message's own id: its id, or the id of the interaction it
    # answers (created just before it). Any hand message with a lower id is an older one.
    first_id: int = 0
    # The observation it shows, if known: closed, it keeps that hand (an older round's hand
    # never turns into the current one); None after a restart (closed as the hand is now).
    obs: Any = None
    # An ephemeral's name, its id being unknown when it is sent: the interaction it answers
    # (a press on it carries that in the message's `interaction_metadata`).
    made_by: int | None = None

    def token_fresh(self, now: float) -> bool:
        return self.reach is not None and now - self.since < TOKEN_LIFE

    def shown_on(self, pressed: Pressed) -> bool:
        """Whether this is the hand shown on the `pressed` message."""
        if not pressed.ephemeral:
            return self.message_id == pressed.id
        return self.message_id is None and (self.first_id == pressed.id or (
            pressed.made_by is not None and self.made_by == pressed.made_by))

    def same_message(self, other: ShownHand) -> bool:
        if self.message_id is not None or other.message_id is not None:
            return self.message_id == other.message_id
        # two ephemerals: answers to one interaction, or presses on one message
        return self.first_id == other.first_id or (
            self.made_by is not None and self.made_by == other.made_by)


def made_by(answer: HandAnswer, newest: ShownHand | None) -> int | None:
    """The interaction whose response shows the hand: this one's new message, or the one
    that made the pressed ephemeral (a press on it is no newer message: the same one).
    `newest`: the seat's newest hand message so far."""
    interaction, pressed = answer.interaction, answer.interaction.message
    if answer.on_dm_hand:
        return None
    if pressed is None or not pressed.flags.ephemeral:
        return interaction.id
    if pressed.interaction_metadata is not None:
        return pressed.interaction_metadata.id
    # not told: a press that passed `replaced` is on the newest hand, if that is private
    if newest is not None and newest.message_id is None and pressed.id >= newest.first_id:
        return newest.made_by
    return None

async def answer_out(reach: AnswerReach, *, shows_now: bool) -> bool:
    """Whether the hand's own response is out, for an edit through its token. One still on
    its way shows the state of its move: nothing to edit if that is the state now; else (the
    AIs moved meanwhile, say, and it is the player's turn again) the edit follows it, waited
    for as long as Discord gives an answer (its own takes milliseconds)."""
    if reach.out():
        return True
    if shows_now:
        return False
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANSWER_WINDOW
    while not reach.out() and loop.time() < deadline:
        await asyncio.sleep(0.02)
    return reach.out()
