"""Channels and threads: read, edited, deleted, typed in, joined and left, opened."""

from __future__ import annotations

from ..errors import DiscordError, invalid_form
from ..models import PRIVATE_THREAD, PUBLIC_THREAD, Channel
from ..permissions import Perm
from ..rest import NO_CONTENT, Call, RestApi, Result, route


@route("GET", "/channels/{channel_id}")
async def get_channel(api: RestApi, call: Call) -> Result:
    return 200, api.bot_channel(call).to_json()


@route("PATCH", "/channels/{channel_id}")
async def edit_channel(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call)
    body = call.body or {}
    if chan.is_thread:
        if chan.owner_id != api.bot_id or "locked" in body:
            api.store.require_bot(chan, api.bot_id, Perm.MANAGE_THREADS)
        chan.archived = bool(body.get("archived", chan.archived))
        chan.locked = bool(body.get("locked", chan.locked))
    else:
        api.store.require_bot(chan, api.bot_id, Perm.MANAGE_CHANNELS)
    chan.name = body.get("name") or chan.name
    event = "THREAD_UPDATE" if chan.is_thread else "CHANNEL_UPDATE"
    await api.fake.gateway.dispatch(event, chan.to_json())
    return 200, chan.to_json()


@route("PUT", "/channels/{channel_id}/thread-members/@me")
@route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
@route("DELETE", "/channels/{channel_id}/thread-members/@me")
@route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def thread_member(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call)
    if not chan.is_thread:
        raise DiscordError(50024)
    user_id = int(call.params.get("user_id", api.bot_id))
    if user_id not in api.store.guild(chan.guild_id).members:
        raise DiscordError(10007)
    if chan.archived:
        raise DiscordError(50083)
    if call.method == "PUT":
        chan.members.add(user_id)
    else:
        if user_id != api.bot_id:
            api.store.require_bot(chan, api.bot_id, Perm.MANAGE_THREADS)
        chan.members.discard(user_id)
    return NO_CONTENT


@route("DELETE", "/channels/{channel_id}")
async def delete_channel(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call, Perm.MANAGE_CHANNELS)
    await api.fake.delete_channel(chan)
    return 200, chan.to_json()


@route("POST", "/channels/{channel_id}/typing")
async def typing(api: RestApi, call: Call) -> Result:
    api.bot_channel(call, Perm.SEND_MESSAGES)
    return NO_CONTENT


async def _open_thread(
    api: RestApi, parent: Channel, kind: int, name: str, thread_id: int | None
) -> Channel:
    thread = api.store.new_thread(parent, name, kind, api.bot_id, thread_id)
    data = {**thread.to_json(), "newly_created": True}
    await api.fake.gateway.dispatch("THREAD_CREATE", data)
    return thread


@route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def thread_from_message(api: RestApi, call: Call) -> Result:
    parent = api.bot_channel(call, Perm.CREATE_PUBLIC_THREADS)
    if parent.is_thread:
        raise DiscordError(50013, detail="threads cannot hold threads")
    msg = api.channel_message(call, parent)
    if msg.id in api.store.channels:
        raise invalid_form("message_id", "THREAD_ALREADY_CREATED", "A thread exists already")
    # A thread started from a message shares that message's id.
    thread = await _open_thread(api, parent, PUBLIC_THREAD, call.body["name"], msg.id)
    return 201, thread.to_json()


@route("POST", "/channels/{channel_id}/threads")
async def thread_alone(api: RestApi, call: Call) -> Result:
    kind = int(call.body.get("type") or PRIVATE_THREAD)
    needed = Perm.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else Perm.CREATE_PUBLIC_THREADS
    parent = api.bot_channel(call, needed)
    thread = await _open_thread(api, parent, kind, call.body["name"], None)
    return 201, thread.to_json()
