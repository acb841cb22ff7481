"""The application's commands, global or a guild's: listed, replaced, upserted, deleted."""

from __future__ import annotations

from ..errors import DiscordError
from ..rest import NO_CONTENT, Call, RestApi, Result, route


def _guild_scope(api: RestApi, call: Call) -> int | None:
    if "guild_id" not in call.params:
        return None
    return api.store.guild(call.int_param("guild_id")).id


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def list_commands(api: RestApi, call: Call) -> Result:
    api.app(call)
    return 200, list(api.fake.commands.scope(_guild_scope(api, call)).values())


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
@route("POST", "/applications/{application_id}/commands")
@route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
async def save_commands(api: RestApi, call: Call) -> Result:
    """PUT replaces the scope's commands (200, all of them); POST creates or edits the one
    of that name (201)."""
    app, scope = api.app(call), _guild_scope(api, call)
    if call.method == "PUT":
        return 200, api.fake.commands.put_all(app, scope, call.body, api.store.snowflake)
    return 201, api.fake.commands.upsert(app, scope, call.body, api.store.snowflake)


@route("DELETE", "/applications/{application_id}/commands/{command_id}")
@route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_command(api: RestApi, call: Call) -> Result:
    api.app(call)
    scope = api.fake.commands.scope(_guild_scope(api, call))
    for name, cmd in list(scope.items()):
        if cmd["id"] == call.params["command_id"]:
            del scope[name]
            return NO_CONTENT
    raise DiscordError(10063)
