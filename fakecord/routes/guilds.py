"""Guilds as the bot reads them: the guild, its channels, roles and members; a member given a
role; a scheduled event created."""

from __future__ import annotations

from typing import Any

from ..errors import DiscordError, invalid_form
from ..permissions import Perm
from ..rest import NO_CONTENT, Call, RestApi, Result, route


@route("GET", "/guilds/{guild_id}")
async def get_guild(api: RestApi, call: Call) -> Result:
    guild = api.store.guild(call.int_param("guild_id"))
    data = api.store.guild_json(guild)
    for key in ("members", "channels", "threads", "voice_states", "presences"):
        data.pop(key)
    return 200, data


@route("GET", "/guilds/{guild_id}/channels")
async def guild_channels(api: RestApi, call: Call) -> Result:
    guild = api.store.guild(call.int_param("guild_id"))
    chans = [api.store.channels[c] for c in guild.channel_ids]
    return 200, [c.to_json() for c in chans if not c.deleted and not c.is_thread]


@route("GET", "/guilds/{guild_id}/roles")
async def guild_roles(api: RestApi, call: Call) -> Result:
    guild = api.store.guild(call.int_param("guild_id"))
    return 200, [r.to_json() for r in guild.roles.values()]


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def guild_member(api: RestApi, call: Call) -> Result:
    guild = api.store.guild(call.int_param("guild_id"))
    return 200, api.store.member(guild, call.int_param("user_id")).to_json()


def _bot_guild_permissions(api: RestApi, guild_id: int) -> tuple[Any, int]:
    guild = api.store.guild(guild_id)
    return guild, api.store.base_permissions(guild, api.bot_id)


@route("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}")
async def add_member_role(api: RestApi, call: Call) -> Result:
    """Discord's "Add Guild Member Role": needs Manage Roles, and only a role below the bot's
    highest role may be given ("Role Management" in Discord's permissions topic: a bot can
    only assign roles lower than its highest), else Missing Permissions (50013)."""
    guild, perms = _bot_guild_permissions(api, call.int_param("guild_id"))
    if not perms & Perm.MANAGE_ROLES:
        raise DiscordError(50013, detail="bot lacks MANAGE_ROLES")
    role = guild.roles.get(call.int_param("role_id"))
    if role is None:
        raise DiscordError(10011)
    me = guild.members[api.bot_id]
    top = max((guild.roles[r].position for r in me.role_ids if r in guild.roles), default=0)
    if guild.owner_id != api.bot_id and role.position >= top:
        raise DiscordError(50013, detail="the role is not below the bot's highest role")
    member = api.store.member(guild, call.int_param("user_id"))
    if role.id not in member.role_ids:
        member.role_ids.append(role.id)
    return NO_CONTENT


@route("POST", "/guilds/{guild_id}/scheduled-events")
async def create_scheduled_event(api: RestApi, call: Call) -> Result:
    """Discord's "Create Guild Scheduled Event", for an external event (entity_type 3): needs
    Manage Events (apps cannot hold Create Events yet: discord-api-docs #6578); the name 1-100
    characters, privacy_level 2 (guild only), and for an external event entity_metadata's
    location and a scheduled_end_time."""
    guild, perms = _bot_guild_permissions(api, call.int_param("guild_id"))
    if not perms & Perm.MANAGE_EVENTS:
        raise DiscordError(50013, detail="bot lacks MANAGE_EVENTS")
    body = call.body
    name = str(body.get("name") or "")
    if not 1 <= len(name) <= 100:
        raise invalid_form("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if body.get("privacy_level") != 2:
        raise invalid_form("privacy_level", "BASE_TYPE_CHOICES", "Value must be one of {2}.")
    if body.get("entity_type") == 3:
        location = (body.get("entity_metadata") or {}).get("location")
        if not location:
            raise invalid_form("entity_metadata", "BASE_TYPE_REQUIRED", "This field is required")
        if not body.get("scheduled_end_time"):
            raise invalid_form("scheduled_end_time", "BASE_TYPE_REQUIRED", "This field is required")
    event = {
        "id": str(api.store.snowflake()),
        "guild_id": str(guild.id),
        "channel_id": body.get("channel_id"),
        "creator_id": str(api.bot_id),
        "name": name,
        "description": body.get("description"),
        "scheduled_start_time": body["scheduled_start_time"],
        "scheduled_end_time": body.get("scheduled_end_time"),
        "privacy_level": 2,
        "status": 1,
        "entity_type": body.get("entity_type"),
        "entity_id": None,
        "entity_metadata": body.get("entity_metadata"),
        "user_count": 0,
    }
    api.store.scheduled_events[int(event["id"])] = event
    return 200, event
