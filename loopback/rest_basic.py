"""Login, gateway discovery, command registration, and guild/user/channel look-ups."""

from __future__ import annotations

from typing import Any

from .activities import entry_point_refusal, me_as_bearer
from .records import DiscordError, RestCall, unknown
from .rest import handles
from .world import World


@handles("get_my_user")
async def get_my_user(fake: World, call: RestCall) -> Any:
    if call.bearer is not None:  # a user's own token (an Activity's backend signing them in)
        return me_as_bearer(call.bearer)
    return {**fake.bot.to_json(), "verified": True, "mfa_enabled": False, "locale": "en-US"}


@handles("get_my_oauth2_application")
async def get_my_application(fake: World, call: RestCall) -> Any:
    return {
        "id": str(fake.application_id), "name": fake.bot.name, "icon": None,
        "description": "LAMA for whole servers", "summary": "", "type": None,
        "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
        "flags": 0, "owner": fake.owner.to_json(), "team": None, "rpc_origins": [],
        "bot": fake.bot.to_json(), "interactions_endpoint_url": None,
        "redirect_uris": [], "tags": [], "install_params": None,
    }


@handles("get_bot_gateway")
async def get_bot_gateway(fake: World, call: RestCall) -> Any:
    return {
        "url": fake.ws_url, "shards": fake.shard_count,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000,
                                "max_concurrency": 1},
    }


@handles("get_gateway")
async def get_gateway(fake: World, call: RestCall) -> Any:
    return {"url": fake.ws_url}


# ---- application commands -------------------------------------------------------------

def _check_application(fake: World, call: RestCall) -> int | None:
    if int(call.params["application_id"]) != fake.application_id:
        raise DiscordError(403, 50001, "Missing Access")
    guild_id = call.params.get("guild_id")
    if guild_id is not None and int(guild_id) not in fake.guilds:
        raise DiscordError(403, 50001, "Missing Access")
    return int(guild_id) if guild_id else None


def _command(fake: World, body: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
    existing = next(
        (c for c in fake.commands.get(guild_id, [])
         if c["name"] == body["name"] and c["type"] == body.get("type", 1)),
        None,
    )
    command = {
        "type": 1, "description": "", "options": [], "default_member_permissions": None,
        "nsfw": False, "contexts": None, "integration_types": [0],
        **body,
        "id": existing["id"] if existing else str(fake.snowflakes.next()),
        "application_id": str(fake.application_id),
        "version": str(fake.snowflakes.next()),
    }
    if guild_id is not None:
        command["guild_id"] = str(guild_id)
    return command


@handles("bulk_set_application_commands", "bulk_set_guild_application_commands")
async def bulk_set_commands(fake: World, call: RestCall) -> Any:
    guild_id = _check_application(fake, call)
    refusal = entry_point_refusal(fake, call.body or [], guild_id, bulk=True)
    if refusal is not None:
        fake.record_error("invalid_body", f"{call.route}: {refusal.message}", call)
        raise refusal
    commands = [_command(fake, body, guild_id) for body in call.body or []]
    names = [(c["type"], c["name"]) for c in commands]
    if len(set(names)) != len(names):
        fake.record_error("invalid_body", f"duplicate command names in {names}", call)
        raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": [
            {"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": "duplicate names"}]})
    fake.commands[guild_id] = commands
    return commands


@handles("list_application_commands", "list_guild_application_commands")
async def list_commands(fake: World, call: RestCall) -> Any:
    return fake.commands.get(_check_application(fake, call), [])


@handles("create_application_command", "create_guild_application_command")
async def create_command(fake: World, call: RestCall) -> Any:
    guild_id = _check_application(fake, call)
    others = [c for c in fake.commands.get(guild_id, [])
              if (c["name"], c["type"]) != (call.body["name"], call.body.get("type", 1))]
    refusal = entry_point_refusal(fake, [*others, call.body], guild_id, bulk=False)
    if refusal is not None:
        fake.record_error("invalid_body", f"{call.route}: {refusal.message}", call)
        raise refusal
    command = _command(fake, call.body, guild_id)
    commands = [c for c in fake.commands.get(guild_id, []) if c["id"] != command["id"]]
    fake.commands[guild_id] = [*commands, command]
    return command


def _find_command(fake: World, call: RestCall) -> tuple[int | None, dict[str, Any]]:
    guild_id = _check_application(fake, call)
    for command in fake.commands.get(guild_id, []):
        if command["id"] == call.params["command_id"]:
            return guild_id, command
    raise unknown("application command", 10063)


@handles("get_application_command", "get_guild_application_command")
async def get_command(fake: World, call: RestCall) -> Any:
    return _find_command(fake, call)[1]


@handles("update_application_command", "update_guild_application_command")
async def update_command(fake: World, call: RestCall) -> Any:
    _, command = _find_command(fake, call)
    command.update(call.body or {})
    return command


@handles("delete_application_command", "delete_guild_application_command")
async def delete_command(fake: World, call: RestCall) -> Any:
    guild_id, command = _find_command(fake, call)
    fake.commands[guild_id].remove(command)


# ---- guild, users, channels -----------------------------------------------------------

def _guild(fake: World, call: RestCall):
    guild = fake.guilds.get(int(call.params["guild_id"]))
    if guild is None:
        raise unknown("Guild", 10004)
    return guild


@handles("get_guild")
async def get_guild(fake: World, call: RestCall) -> Any:
    return _guild(fake, call).to_json()


@handles("list_guild_channels")
async def list_guild_channels(fake: World, call: RestCall) -> Any:
    return [c.to_json() for c in _guild(fake, call).channels.values()]


@handles("list_guild_roles")
async def list_guild_roles(fake: World, call: RestCall) -> Any:
    return [r.to_json() for r in _guild(fake, call).roles.values()]


@handles("get_guild_member")
async def get_guild_member(fake: World, call: RestCall) -> Any:
    guild = _guild(fake, call)
    member = guild.members.get(int(call.params["user_id"]))
    if member is None:
        raise unknown("Member", 10007)
    return guild.member_json(member)


@handles("get_my_guild_member")
async def get_my_guild_member(fake: World, call: RestCall) -> Any:
    return _guild(fake, call).member_json(fake.bot)


@handles("list_my_guilds")
async def list_my_guilds(fake: World, call: RestCall) -> Any:
    return [{"id": str(g.id), "name": g.name, "icon": None, "owner": False,
             "permissions": str(g.base_permissions(fake.bot)), "features": []}
            for g in fake.guilds.values()]


@handles("get_user")
async def get_user(fake: World, call: RestCall) -> Any:
    user = fake.users_by_id.get(int(call.params["user_id"]))
    if user is None:
        raise unknown("User", 10013)
    return user.to_json()


@handles("get_channel")
async def get_channel(fake: World, call: RestCall) -> Any:
    return fake.channel_or_404(call.params["channel_id"]).to_json()


@handles("trigger_typing_indicator", "add_my_message_reaction", "delete_my_message_reaction")
async def accept_quietly(fake: World, call: RestCall) -> Any:
    fake.channel_or_404(call.params["channel_id"])
    return None
