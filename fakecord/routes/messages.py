"""Messages in a channel: listed, sent, read, edited, deleted, and the bot's own reactions."""

from __future__ import annotations

from ..errors import DiscordError, invalid_form
from ..messages import apply_edit, fill_new
from ..models import Message
from ..permissions import Perm
from ..rest import NO_CONTENT, Call, RestApi, Result, route

#: How long Discord remembers an enforced nonce ("the past few minutes").
NONCE_WINDOW = 5 * 60.0


@route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me")
@route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me")
async def own_reaction(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call, Perm.READ_MESSAGE_HISTORY)
    msg = api.channel_message(call, chan)
    emoji = call.params["emoji_name"]
    if call.method == "PUT":
        if emoji not in msg.reactions or not msg.reactions[emoji]:
            api.store.require_bot(chan, api.bot_id, Perm.ADD_REACTIONS)
        msg.reactions.setdefault(emoji, set()).add(api.bot_id)
    else:
        msg.reactions.get(emoji, set()).discard(api.bot_id)
    return NO_CONTENT


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call, Perm.READ_MESSAGE_HISTORY)
    msgs = [m for m in api.store.messages.get(chan.id, []) if _public(m)]
    if before := call.query.get("before"):
        msgs = [m for m in msgs if m.id < int(before)]
    if after := call.query.get("after"):
        msgs = [m for m in msgs if m.id > int(after)]
        msgs = msgs[: int(call.query.get("limit", 50))]
    else:
        msgs = msgs[-int(call.query.get("limit", 50)) :]
    return 200, [m.to_json() for m in reversed(msgs)]


def _public(msg: Message) -> bool:
    return not msg.deleted and msg.ephemeral_for is None


@route("POST", "/channels/{channel_id}/messages")
async def create_message(api: RestApi, call: Call) -> Result:
    send = Perm.SEND_MESSAGES_IN_THREADS if _is_thread(api, call) else Perm.SEND_MESSAGES
    needed = [send] + ([Perm.ATTACH_FILES] if call.uploads else [])
    chan = api.bot_channel(call, *needed)
    if chan.is_thread and chan.archived:
        if chan.locked and not api.store.can(chan, api.bot_id, Perm.MANAGE_THREADS):
            raise DiscordError(50083)
        chan.archived = False  # sending into an archived thread reopens it
    if not (
        call.body.get("content")
        or call.body.get("embeds")
        or call.uploads
        or call.body.get("components")
        or call.body.get("sticker_ids")
    ):
        raise invalid_form("content", "BASE_TYPE_REQUIRED", "Cannot send an empty message")
    nonce = call.body.get("nonce")
    key = (api.bot_id, str(nonce))
    if nonce is not None and call.body.get("enforce_nonce"):
        # Discord: "checked for uniqueness in the past few minutes. If another message was
        # created by the same author with the same nonce, that message will be returned
        # and no new message will be created."
        seen = api.store.nonces.get(key)
        if seen is not None and api.store.clock.now() - seen[0] < NONCE_WINDOW:
            return 200, seen[1].to_json()
    msg = fill_new(api.store, api.new_message(chan), call.body, call.uploads, api.fake.url_root)
    api.store.add_message(msg)
    if nonce is not None and call.body.get("enforce_nonce"):
        api.store.nonces[key] = (api.store.clock.now(), msg)
    await api.announce("MESSAGE_CREATE", msg)
    return 200, msg.to_json()


def _is_thread(api: RestApi, call: Call) -> bool:
    chan = api.store.channels.get(int(call.params["channel_id"]))
    return chan is not None and chan.is_thread


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call, Perm.READ_MESSAGE_HISTORY)
    return 200, api.channel_message(call, chan).to_json()


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call)
    msg = api.channel_message(call, chan)
    # A public interaction answer is the bot's own message (its author is the bot user),
    # so this route edits it too, token expired or not; Discord documents neither way,
    # and bots rely on it in guilds (MaxOhn/Bathbot#702 moved to the token only because
    # the channel route failed in DMs, where the bot may not read the channel).
    if msg.author.id != api.bot_id:
        raise DiscordError(50005)
    if call.uploads:
        api.store.require_bot(chan, api.bot_id, Perm.ATTACH_FILES)
    apply_edit(api.store, msg, call.body, call.uploads, api.fake.url_root)
    await api.announce("MESSAGE_UPDATE", msg)
    return 200, msg.to_json()


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(api: RestApi, call: Call) -> Result:
    chan = api.bot_channel(call)
    msg = api.channel_message(call, chan)
    if msg.author.id != api.bot_id:
        api.store.require_bot(chan, api.bot_id, Perm.MANAGE_MESSAGES)
    msg.deleted = True
    await api.announce("MESSAGE_DELETE", msg)
    return NO_CONTENT
