"""Who is who, and where the gateway is: the bot's user (or a person's, by their OAuth2
token), any user, the application, the gateway's address and how many shards it wants."""

from __future__ import annotations

from ..rest import Call, RestApi, Result, route


@route("GET", "/users/@me")
async def me(api: RestApi, call: Call) -> Result:
    if call.bearer is not None:
        # A person's token (scope identify): that person, or 401 if it expired or is
        # not a token Discord gave.
        holder = api.fake.activities.holder(call.bearer)
        if holder is None:
            return 401, {"message": "401: Unauthorized", "code": 0}
        person = api.store.user(holder)
        return 200, {**person.to_json(), "locale": person.locale, "mfa_enabled": False}
    return 200, {**api.fake.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}


@route("GET", "/oauth2/@me")
async def authorization(api: RestApi, call: Call) -> Result:
    """A bearer token's application, scopes, expiry and (with ``identify``) person; 401 for a
    token that expired, was revoked or was never Discord's."""
    found = api.fake.activities.authorization(call.bearer or "")
    if found is None:
        return 401, {"message": "401: Unauthorized", "code": 0}
    return 200, found


@route("GET", "/users/{user_id}")
async def get_user(api: RestApi, call: Call) -> Result:
    return 200, api.store.user(call.int_param("user_id")).to_json()


@route("GET", "/oauth2/applications/@me")
@route("GET", "/applications/@me")
async def application(api: RestApi, call: Call) -> Result:
    return 200, api.fake.application_json()


@route("GET", "/gateway")
async def gateway(api: RestApi, call: Call) -> Result:
    return 200, {"url": api.fake.gateway_url}


@route("GET", "/gateway/bot")
async def gateway_bot(api: RestApi, call: Call) -> Result:
    gateway = api.fake.gateway
    limit = {
        "total": 1000,
        "remaining": 999,
        "reset_after": 0,
        "max_concurrency": gateway.max_concurrency,
    }
    return 200, {
        "url": api.fake.gateway_url,
        "shards": gateway.shard_count,
        "session_start_limit": limit,
    }
