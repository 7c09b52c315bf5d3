"""The test's side of Discord: users using slash commands, autocomplete, buttons and selects.

Interactions are built from the commands the bot registered (so options carry the types the
bot declared) and refused the way the Discord client would refuse them (unknown option,
missing required option, a disabled button) with an exception in the test.
"""

from __future__ import annotations

import base64
import secrets
import time
from typing import Any, Protocol

import discord

from .model import FakeAttachment, FakeMessage, FakeRole, FakeUser
from .places import FakeChannel, FakeGuild
from .records import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
)
from .results import InteractionResult
from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
DM_APP_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True,
    read_message_history=True, add_reactions=True, use_external_emojis=True,
).value
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def interaction_token(interaction_id: int) -> str:
    """An interaction's token as Discord makes it: "interaction:<id>:<secret>" in URL-safe
    base64 without padding, so a bot puts it in a webhook path as it is (one with ':' in it
    made every bot percent-encode every answer's path, a cost real tokens do not have)."""
    raw = f"interaction:{interaction_id}:{secrets.token_urlsafe(48)}".encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class DriverHost(World, Protocol):
    """What the driver needs of the class it is mixed into: the world, and the first guild,
    the DM channels and the attachments users upload."""

    guild: FakeGuild  # the first guild: a channel named by a string is one of its
    dm_channels: dict[int, FakeChannel]  # user id → their DM channel, once opened
    uploads: dict[int, FakeAttachment]  # attachment options users sent, by id


class Driver(DriverHost):
    """Mixed into :class:`FakeDiscord` (which is the host it declares): the actions of users
    and what they can see."""

    # ---- what users see -----------------------------------------------------------------
    def dms(self, user: FakeUser) -> list[FakeMessage]:
        channel = self.dm_channels.get(user.id)
        return channel.visible_messages() if channel else []

    def public_messages(self, channel: FakeChannel | str) -> list[FakeMessage]:
        return self._channel(channel).visible_messages()

    def ephemeral_messages(self, user: FakeUser) -> list[FakeMessage]:
        found = []
        for record in self.interactions_by_token.values():
            if record.user.id == user.id:
                found += [m for m in (record.original, *record.followups)
                          if m is not None and m.ephemeral and not m.deleted and m not in found]
        return found

    def rest_calls(self, route: str | None = None):
        """Every REST call so far (``route`` like "POST /channels/{channel_id}/messages")."""
        return [c for c in self.calls if route is None or c.route == route]

    # ---- what users do ------------------------------------------------------------------
    async def slash(
        self, user: FakeUser, channel: FakeChannel | str | None, command: str,
        /, **options: Any,
    ) -> InteractionResult:
        """Use ``/command`` (subcommands separated by spaces) and wait for the first answer.
        Positional-only, so a command may have options named ``user`` or ``channel``."""
        channel = self._channel(channel, user)
        registered, leaf, path = self._find_command(user, channel, command)
        data: dict[str, Any] = {"id": registered["id"], "name": registered["name"], "type": 1}
        if registered.get("guild_id"):
            data["guild_id"] = registered["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        data["options"] = _nest(path, self._options(leaf, options, resolved, channel, None))
        if resolved:
            data["resolved"] = resolved
        return await self._interact(user, channel, APPLICATION_COMMAND, data)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel | str | None, command: str, /, *,
        focused: str, **options: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` of ``/command``; returns the bot's choices."""
        channel = self._channel(channel, user)
        registered, leaf, path = self._find_command(user, channel, command)
        options.setdefault(focused, "")
        data: dict[str, Any] = {"id": registered["id"], "name": registered["name"], "type": 1}
        data["options"] = _nest(path, self._options(leaf, options, {}, channel, focused))
        result = await self._interact(user, channel, AUTOCOMPLETE, data)
        return result.choices or []

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str
    ) -> InteractionResult:
        """Press a button, found by ``custom_id`` or, failing that, by its label."""
        return await self._component(user, message, _press(message, custom_id))

    async def click_from(
        self, user: FakeUser, message: FakeMessage, custom_id: str,
        place: FakeChannel | str | None,
    ) -> InteractionResult:
        """Press a button of ``message`` in an interaction that says it comes from ``place``
        (a channel of any server, or None: the user's DM) instead of the message's channel.
        Discord never sends that: its client can press only what it shows, and Discord builds
        the interaction from the message's channel. A modified client or a bug could; this is
        how a test checks that the bot trusts no such claim. The interaction is exactly the
        one Discord would build for a press in ``place`` (its server, channel, ``context``,
        the member and their permissions there), carrying the message as pressed."""
        return await self._component(user, message, _press(message, custom_id),
                                     self._channel(place, user))

    async def select(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str]
    ) -> InteractionResult:
        component = message.component(custom_id)
        if component is None or component.get("type") not in (3, 5, 6, 7, 8):
            raise LookupError(f"no select menu {custom_id!r} on message {message.id}")
        if component.get("disabled"):
            raise PermissionError(f"select {custom_id!r} is disabled")
        offered = {o["value"] for o in component.get("options") or []}
        if offered and not set(values) <= offered:
            raise ValueError(f"{values} not among the options {sorted(offered)}")
        data = {"custom_id": custom_id, "component_type": component["type"], "values": values}
        return await self._component(user, message, data)

    async def submit_modal(
        self, user: FakeUser, opened: InteractionResult, **values: str
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened (response type 9), by text-input
        custom_id. Inputs left out are sent empty; a required one left out raises."""
        modal = opened.modal
        if modal is None:
            raise LookupError(f"the bot opened no modal: {opened!r}")

        def answer(component: dict[str, Any]) -> dict[str, Any] | None:
            kind = component.get("type")
            if kind == 1:
                row = [a for c in component.get("components") or [] if (a := answer(c))]
                return {"type": 1, "components": row}
            if kind == 18:  # a label wrapping its input
                inner = answer(component["component"])
                return {"type": 18, "id": component.get("id", 0), "component": inner}
            if kind == 4:
                custom_id = component["custom_id"]
                value = values.pop(custom_id, component.get("value") or "")
                if component.get("required", True) and not value:
                    raise ValueError(f"text input {custom_id!r} is required")
                return {"type": 4, "id": component.get("id", 0), "custom_id": custom_id,
                        "value": value}
            return None

        components = [a for c in modal.get("components") or [] if (a := answer(c))]
        if values:
            raise TypeError(f"no text inputs named {sorted(values)} in the modal")
        data = {"custom_id": modal["custom_id"], "components": components}
        record = opened.record
        return await self._interact(user, record.channel, MODAL_SUBMIT, data,
                                    record.source_message)

    # ---- building interactions ----------------------------------------------------------
    async def _component(
        self, user: FakeUser, message: FakeMessage, data: dict[str, Any],
        place: FakeChannel | None = None,
    ) -> InteractionResult:
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted")
        owner_id = (message.interaction or {}).get("user", {}).get("id")
        if message.ephemeral and owner_id != str(user.id):
            raise PermissionError("only the user who got an ephemeral message can use it")
        channel = self.channels[message.channel_id]
        # The press carries the message as the user's client shows it (maybe from before an
        # edit: a test's copy); an answer that updates it edits the one Discord holds.
        held = next((m for m in channel.messages if m.id == message.id), message)
        return await self._interact(user, place or channel, MESSAGE_COMPONENT, data, held,
                                    shown=message)

    def _channel(
        self, channel: FakeChannel | str | None, user: FakeUser | None = None
    ) -> FakeChannel:
        if channel is None:
            assert user is not None, "a DM needs the user"
            return self.dm_channel(user)
        return self.guild.channel(channel) if isinstance(channel, str) else channel

    def _find_command(self, user: FakeUser, channel: FakeChannel, command: str):
        name, *path = command.lstrip("/").split()
        scopes = [None] if channel.is_dm else [channel.guild_id, None]
        registered = next((c for scope in scopes for c in self.commands.get(scope, [])
                           if c["name"] == name and c.get("type", 1) == 1), None)
        if registered is None:
            known = sorted(c["name"] for s in scopes for c in self.commands.get(s, []))
            raise LookupError(f"/{name} is not registered (registered: {known}); did the bot sync?")
        contexts = registered.get("contexts")
        in_dm_allowed = (1 in contexts) if contexts else registered.get("dm_permission", True)
        if channel.is_dm and not in_dm_allowed:
            raise PermissionError(f"/{name} is not available in DMs")
        required = registered.get("default_member_permissions")
        if not channel.is_dm and required is not None:
            have = self.guild_of(channel).base_permissions(user)
            if have & int(required) != int(required):
                raise PermissionError(f"{user.name} cannot see /{name} (needs {required})")
        leaf = registered
        for word in path:
            sub = next((o for o in leaf.get("options") or []
                        if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                       None)
            if sub is None:
                raise LookupError(f"/{command}: no subcommand {word!r}")
            leaf = sub
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in leaf.get("options") or []):
            raise LookupError(f"/{command} needs a subcommand")
        return registered, leaf, [(w, _option_type(registered, path[: i + 1]))
                                  for i, w in enumerate(path)]

    def _options(
        self, leaf: dict[str, Any], given: dict[str, Any],
        resolved: dict[str, dict[str, Any]], channel: FakeChannel, focused: str | None,
    ) -> list[dict[str, Any]]:
        declared = {o["name"]: o for o in leaf.get("options") or []}
        out = []
        for key, value in given.items():
            name = key if key in declared else key.replace("_", "-")
            option = declared.get(name)
            if option is None:
                raise TypeError(f"option {key!r} not declared; declared: {sorted(declared)}")
            if name == focused:
                if not option.get("autocomplete"):
                    raise TypeError(f"option {name!r} has no autocomplete")
                out.append({"name": name, "type": option["type"], "value": str(value),
                            "focused": True})
                continue
            out.append({"name": name, "type": option["type"],
                        "value": self._value(option, value, resolved, channel)})
        if focused is None:
            missing = [n for n, o in declared.items() if o.get("required") and n not in
                       {x["name"] for x in out}]
            if missing:
                raise TypeError(f"required options missing: {missing}")
        return out

    def _value(self, option, value, resolved, channel: FakeChannel) -> Any:
        kind, name = option["type"], option["name"]
        if kind in (STRING, INTEGER, NUMBER):
            value = {STRING: str, INTEGER: int, NUMBER: float}[kind](value)
            choices = [c["value"] for c in option.get("choices") or []]
            if choices and value not in choices:
                raise ValueError(f"{name}={value!r} is not one of the choices {choices}")
            low, high = option.get("min_value"), option.get("max_value")
            if kind != STRING and ((low is not None and value < low)
                                   or (high is not None and value > high)):
                raise ValueError(f"{name}={value} outside [{low}, {high}]")
            if kind == STRING and not (option.get("min_length", 0) <= len(value)
                                       <= option.get("max_length", 6000)):
                raise ValueError(f"{name}={value!r} has the wrong length")
            return value
        if kind == BOOLEAN:
            return bool(value)
        if isinstance(value, FakeUser) and kind in (USER, MENTIONABLE):
            resolved.setdefault("users", {})[str(value.id)] = value.to_json()
            guild = None if channel.is_dm else self.guild_of(channel)
            if guild is not None and value.id in guild.members:
                member = guild.member_json(
                    value, permissions=guild.channel_permissions(value, channel))
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if isinstance(value, FakeRole) and kind in (ROLE, MENTIONABLE):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
            return str(value.id)
        if isinstance(value, FakeChannel) and kind == CHANNEL:
            data = value.to_json()
            data["permissions"] = str(
                self.guild_of(value).channel_permissions(self.bot, value))
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if kind == ATTACHMENT and isinstance(value, tuple):
            filename, content = value
            attachment_id = self.snowflakes.next()
            attachment = FakeAttachment(attachment_id, filename, content,
                                        f"{self.base_url}/attachments/0/{attachment_id}/{filename}")
            self.uploads[attachment_id] = attachment
            resolved.setdefault("attachments", {})[str(attachment_id)] = attachment.to_json()
            return str(attachment_id)
        raise TypeError(f"option {name!r} (type {kind}) cannot take {value!r}")

    async def _interact(
        self, user: FakeUser, channel: FakeChannel, kind: int,
        data: dict[str, Any], message: FakeMessage | None = None,
        shown: FakeMessage | None = None,
    ) -> InteractionResult:
        interaction_id = self.snowflakes.next()
        token = interaction_token(interaction_id)
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(self.application_id),
            "type": kind, "data": data, "token": token, "version": 1,
            "locale": user.locale, "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel.id), "channel": channel.to_json(),
        }
        if channel.is_dm:
            payload.update(user=user.to_json(), context=1,
                           app_permissions=str(DM_APP_PERMISSIONS),
                           authorizing_integration_owners={"1": str(user.id)})
        else:
            guild = self.guild_of(channel)
            member_permissions = guild.channel_permissions(user, channel)
            payload["channel"]["permissions"] = str(member_permissions)
            payload.update(
                guild_id=str(guild.id), guild_locale=guild.preferred_locale, context=0,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                member=guild.member_json(user, permissions=member_permissions),
                app_permissions=str(guild.channel_permissions(self.bot, channel)),
                authorizing_integration_owners={"0": str(guild.id)},
            )
        if message is not None:
            payload["message"] = (shown or message).to_json()
        # Discord sends a guild's interactions to the shard that receives the guild, and
        # DM interactions to shard 0.
        try:
            session = await self.gateway.wait_routed(channel.guild_id, self.wait_timeout)
        except TimeoutError:
            raise AssertionError(
                f"no gateway session receives {channel.guild_id or 'DMs'} (no process runs its"
                " shard); Discord shows 'The application did not respond'") from None
        record = InteractionRecord(interaction_id, token, kind, user, channel, payload,
                                   self.clock(), source_message=message)
        self.interactions_by_token[token] = record
        record.started = time.perf_counter()
        await session.dispatch("INTERACTION_CREATE", payload)
        result = InteractionResult(self, record)
        try:
            await result.wait_for(
                lambda: record.response_type is not None or record.refused is not None)
        except TimeoutError:
            raise AssertionError(
                f"the bot did not answer interaction {data.get('name') or data.get('custom_id')!r}"
                f" within {self.wait_timeout} s; Discord shows 'The application did not respond'"
            ) from None
        return result


def _press(message: FakeMessage, custom_id: str) -> dict[str, Any]:
    """A press's data: the enabled button found by ``custom_id`` or, failing that, by label."""
    component = message.component(custom_id)
    if component is None:
        component = next((c for c in message.walk_components()
                          if c.get("type") == 2 and c.get("label") == custom_id), None)
    if component is None or component.get("type") != 2:
        raise LookupError(f"no button {custom_id!r} on message {message.id}: {message.buttons}")
    if component.get("disabled"):
        raise PermissionError(f"button {custom_id!r} is disabled; Discord would not send it")
    return {"custom_id": component["custom_id"], "component_type": 2}


def _option_type(command: dict[str, Any], path: list[str]) -> int:
    node: dict[str, Any] = command
    for word in path:
        node = next(o for o in node.get("options") or [] if o["name"] == word)
    return node["type"]


def _nest(path: list[tuple[str, int]], leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap a leaf's options in its subcommand (group) options, as Discord sends them."""
    options = leaf_options
    for name, kind in reversed(path):
        options = [{"name": name, "type": kind, "options": options}]
    return options
