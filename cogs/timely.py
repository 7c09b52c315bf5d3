"""Every interaction answered inside Discord's 3 seconds, however long its work takes.

Discord forgets an interaction whose first answer has not arrived after 3 s: the user sees
"The application did not respond" and the late answer fails with 10062 Unknown interaction.
Work can take longer than that: a database stall (another program holding SQLite's write
lock for seconds, a slow disk), a busy event loop. So each interaction's entry point
(`cogs.tree.LamaTree.interaction_check` for slash commands and autocomplete,
`LamaButton.callback` for buttons) calls `keep_in_time` first. It makes the interaction's
`response` a `TimelyResponse`: if the handler has not answered `DEFER_AFTER` seconds later,
it stands in with a defer, and the handler's answer, whenever it comes, is delivered the way
a deferred interaction allows (its token stays valid for 15 minutes). Handlers keep calling
`interaction.response.send_message` / `edit_message` as if nothing had happened.

How it stands in:
- a slash command: "LamaBot is thinking…", which the answer then replaces. Discord fixes at
  this moment whether the answer is public, so commands that answer in public are marked
  `@answers_publicly`; a private refusal after a public "thinking" replaces it by a private
  follow-up (and the other way round).
- a button: a silent acknowledgement (deferred update); an answer that edits the button's
  message then edits it through the token, a new message (a refusal) is a
  follow-up. Buttons whose answer is the presser's private hand (under the table) show a
  private "thinking…" instead: the hand must be the interaction's own message, which the
  renderer edits later (cogs/render/hands.py).
- autocomplete cannot be deferred: it answers with no choices, and the late choices are
  dropped (the user types on and asks again).

An interaction takes one answer. Discord may take one and the bot not hear of it (an edge
proxy's 502 after Discord did the work, which discord.py retries; a connection reset or a
reply that could not be read, which the handler sees as an error): a second answer is refused
with 40060 "already acknowledged". That refusal means the interaction has its answer, so it
counts as given: nothing else (the refusal path in cogs.errors) answers it again. An answer
whose request failed without Discord's word stops the clock: a stand-in after an answer that
may be out would be a second answer (an autocomplete's empty one, 1.5 s after its choices).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import InteractionResponseType, InteractionType, app_commands
from discord.webhook.async_ import async_context

from cogs.answer_adapter import ANSWERS

log = logging.getLogger(__name__)

DEFER_AFTER = 1.5  # seconds; leaves 1.5 of Discord's 3 for a busy loop and the round trip
ALREADY_ACKNOWLEDGED = 40060  # Discord's code for a second answer to one interaction
PUBLIC_ANSWER = "answers_publicly"  # the app command extras key `@answers_publicly` sets
TAKEN = "lamabot.taken"  # Interaction.extras: a handler took it (`keep_in_time`)
_EDIT_FIELDS = ("content", "embed", "embeds", "view", "allowed_mentions", "attachments")
_SEND_FIELDS = ("content", "embed", "embeds", "view", "allowed_mentions", "file", "files")

CommandT = TypeVar("CommandT", bound=app_commands.Command[Any, Any, Any])
# What an answer Discord took without the bot hearing of it counts as (for `is_done`).
_MESSAGE = InteractionResponseType.channel_message
_UPDATE = InteractionResponseType.message_update
_DEFERRED = InteractionResponseType.deferred_channel_message
_CHOICES = InteractionResponseType.autocomplete_result
_LAUNCH = InteractionResponseType.launch_activity


@dataclass(frozen=True)
class Deferral:
    """How an interaction is acknowledged when its answer is late."""

    thinking: bool  # a "thinking…" message the answer replaces; else a silent acknowledgement
    ephemeral: bool = True  # the "thinking…" message (and so the answer in it) is private


PRIVATE_REPLY = Deferral(thinking=True)
PUBLIC_REPLY = Deferral(thinking=True, ephemeral=False)
UPDATE = Deferral(thinking=False)


def answers_publicly(command: CommandT) -> CommandT:
    """Mark a slash command whose answer everyone in the channel sees (a lobby, a board)."""
    command.extras[PUBLIC_ANSWER] = True
    return command


def command_deferral(interaction: discord.Interaction) -> Deferral:
    command = interaction.command
    public = command is not None and bool(command.extras.get(PUBLIC_ANSWER))
    return PUBLIC_REPLY if public else PRIVATE_REPLY


class TimelyResponse(discord.InteractionResponse):
    """discord.py's `InteractionResponse` that stands in with a defer when the handler is
    slow, then delivers the handler's answer through the interaction's token."""

    # __weakref__: a hand's record waits for the answer without keeping it (render/hand_records)
    __slots__ = ("__weakref__", "_deferral", "_late_answered", "_late_landed", "_lock",
                 "_stood_in", "_tasks", "_timer")

    def __init__(self, parent: discord.Interaction, deferral: Deferral) -> None:
        super().__init__(parent)
        self._deferral = deferral
        self._lock = asyncio.Lock()  # the stand-in and the handler's answer never cross
        self._stood_in = False
        self._late_answered = False  # the handler's answer after a stand-in is on its way
        self._late_landed = False  # ... and Discord took it
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def start_clock(self, after: float | None = None) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(DEFER_AFTER if after is None else after,
                                      self._spawn_stand_in)

    def stop_clock(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    @property
    def clock_running(self) -> bool:
        """A stand-in is still due (the handler has not answered)."""
        return self._timer is not None

    @property
    def idle(self) -> bool:
        """No stand-in is due or under way: nothing more goes out on its own."""
        return self._timer is None and not self._tasks

    def _answered(self, result: Any) -> Any:
        """The handler's first answer is out: nothing stands in for it any more. (A running
        clock kept every answered interaction alive for 1.5 s, and then woke a task for it.)"""
        self.stop_clock()
        return result

    @property
    def stood_in(self) -> bool:
        return self._stood_in

    @property
    def answer_landed(self) -> bool:
        """The handler's own answer is out: its first one, or after a stand-in the one that
        replaced it (until then the interaction's message is the stand-in's "thinking…",
        which an edit through the token would change under the answer still on its way)."""
        return self.is_done() and (not self._stood_in or self._late_landed)

    def awaits_answer(self) -> bool:
        """Nothing the handler meant to say has gone out yet (at most our stand-in)."""
        return not self.is_done() or (self._stood_in and not self._late_answered)

    def _spawn_stand_in(self) -> None:
        self._timer = None  # fired: no stand-in is due any more, one is under way
        task = asyncio.get_running_loop().create_task(self.stand_in(), name="stand-in")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stand_in(self) -> None:
        """Acknowledge the interaction now, unless the handler has answered."""
        async with self._lock:
            if self.is_done():
                return
            parent = self._parent
            try:
                if parent.type is InteractionType.autocomplete:
                    await self._once(super().autocomplete([]), _CHOICES)
                else:
                    deferral = self._deferral
                    await self._once(super().defer(
                        ephemeral=deferral.ephemeral, thinking=deferral.thinking), _DEFERRED)
            except discord.HTTPException as error:
                log.warning("could not defer interaction %s in time: %s", parent.id, error)
                return
            self._stood_in = True
        log.info("interaction %s of user %s deferred: no answer after %.1f s",
                 parent.id, parent.user.id, DEFER_AFTER)

    # ------------------------------------------------ discord.py's answers, made late-proof

    async def send_message(self, content: Any = None, **fields: Any) -> Any:
        async with self._lock:
            if not self._stood_in:
                return self._answered(await self._once(
                    super().send_message(content, **fields), _MESSAGE))
            self._claim_late_answer()
            ephemeral = bool(fields.get("ephemeral", False))
            message = await self._deliver_new(ephemeral, {"content": content, **fields})
            self._late_landed = True
            return self._callback_for(message, ephemeral)

    async def edit_message(self, **fields: Any) -> Any:
        async with self._lock:
            if not self._stood_in:
                return self._answered(await self._once(
                    super().edit_message(**fields), _UPDATE))
            self._claim_late_answer()
            # After a silent acknowledgement the original is the button's own message; after
            # a "thinking…" one it is that message, which then shows the edit.
            await self._parent.edit_original_response(**_only(fields, _EDIT_FIELDS))
            self._late_landed = True
            return None

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            if self._stood_in:  # deferred already, as the handler wanted; it follows up
                self._late_answered = self._late_landed = True
                return None
            return self._answered(await self._once(
                super().defer(ephemeral=ephemeral, thinking=thinking), _DEFERRED))

    async def launch_activity(self) -> Any:
        """Open the app's Activity (callback type 12): only as the first answer, which Discord
        requires. None, sending nothing, where a stand-in acknowledged it already."""
        async with self._lock:
            if self._stood_in:
                return None
            return self._answered(await self._once(super().launch_activity(), _LAUNCH))

    async def autocomplete(self, choices: Any) -> None:
        async with self._lock:
            if self._stood_in:  # answered with no choices; the user's next keystroke asks again
                return
            await self._once(super().autocomplete(choices), _CHOICES)
            self.stop_clock()  # answered: nothing stands in for it any more

    async def _once(self, answer: Awaitable[Any], kind: InteractionResponseType) -> Any:
        """Send one of discord.py's answers; if Discord says it has taken one already (it did,
        and the bot never heard: see the module's docstring), the interaction is answered."""
        try:
            return await answer
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
            log.warning("interaction %s was answered already: %s", self._parent.id, error)
            self._response_type = kind
            return None
        except (discord.ClientException, ValueError, TypeError):
            raise  # refused before anything was sent
        except Exception:
            # No word from Discord (a reset, a reply that could not be read): the answer may
            # be out, so no stand-in may follow it. A later answer learns which (40060 above).
            self.stop_clock()
            raise

    def _claim_late_answer(self) -> None:
        if self._late_answered:
            raise discord.InteractionResponded(self._parent)
        self._late_answered = True

    async def _deliver_new(self, ephemeral: bool, fields: dict[str, Any]) -> discord.Message:
        """A new message's worth of answer, after the stand-in."""
        parent, deferral = self._parent, self._deferral
        if deferral.thinking and ephemeral == deferral.ephemeral:
            edit = _given(fields, _EDIT_FIELDS)
            files = [*([fields["file"]] if fields.get("file") else []), *fields.get("files", [])]
            if files:
                edit["attachments"] = files
            return await parent.edit_original_response(**edit)
        if deferral.thinking:
            # Discord decided the "thinking…" message's visibility at the defer; removing it
            # lets the follow-up be a message of its own with the visibility it needs.
            await parent.delete_original_response()
        send = _given(fields, _SEND_FIELDS)
        return await parent.followup.send(**send, ephemeral=ephemeral, wait=True)

    def _callback_for(self, message: discord.Message, ephemeral: bool) -> Any:
        """What `send_message` returns: the callback as Discord would have described it, so
        callers read `message_id` as usual."""
        parent = self._parent
        data: Any = {"interaction": {
            "id": str(parent.id), "type": parent.type.value,
            "response_message_id": str(message.id), "response_message_loading": False,
            "response_message_ephemeral": ephemeral,
        }}
        return discord.InteractionCallbackResponse(
            data=data, parent=parent, state=parent._state,
            type=InteractionResponseType.channel_message)


def _only(fields: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """The fields another endpoint takes; None kept (an edit's None removes, e.g. a view)."""
    return {name: fields[name] for name in names if name in fields}


def _given(fields: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """A new message's fields: None means "none", so it is left out (a Components V2
    message must not even carry an empty content)."""
    return {name: value for name in names if (value := fields.get(name)) is not None}


def handler_took(interaction: discord.Interaction) -> bool:
    """Whether a handler of ours took the interaction (`keep_in_time`): it answers, or stands
    in with a defer. (cogs/presses.py answers a press no handler took.)"""
    return bool(interaction.extras.get(TAKEN))


def keep_in_time(interaction: discord.Interaction, deferral: Deferral) -> TimelyResponse:
    """Give the interaction a response that stands in for a slow handler (call it first, before
    anything touches `interaction.response`); returns it, its clock running. The interaction
    counts as taken by a handler from now on (`handler_took`); its task answers through
    `cogs.answer_adapter.ANSWERS`."""
    interaction.extras[TAKEN] = True
    async_context.set(ANSWERS)  # this task's (and what it starts) from here on
    current = interaction.response
    if isinstance(current, TimelyResponse):
        return current  # the tree's check and a button both guard some interactions
    response = TimelyResponse(interaction, deferral)
    # discord.py caches `Interaction.response` in this slot (utils.cached_slot_property).
    interaction._cs_response = response  # type: ignore[attr-defined]
    response.start_clock()
    handler = asyncio.current_task()
    if handler is not None:
        handler.add_done_callback(functools.partial(_let_go, interaction))
    return response


def _let_go(interaction: discord.Interaction, _handler: asyncio.Task[Any]) -> None:
    """The handler is done: the interaction stops holding its response, which holds the
    interaction. Without that cycle the interaction (its member, user, namespace: some 15
    objects) is freed by its last reference, not by a garbage collection; an answer that
    waited for its commit had outlived two young collections, so its interaction lingered
    until a full one (issue 14). A stand-in still under way keeps the response, and the
    response the interaction."""
    with contextlib.suppress(AttributeError):  # never cached, or already let go
        del interaction._cs_response  # type: ignore[attr-defined]

