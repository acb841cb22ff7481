"""Guilds as the bot reads them: the guild, its channels, roles and members."""

from __future__ import annotations

from ..rest import Call, RestApi, Result, route


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
