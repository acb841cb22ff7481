"""Discord's HTTP routes: what each one does to the double's state, and the rules it checks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import DiscordError, invalid_form
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Interaction,
)
from .messages import Upload, apply_edit, fill_new
from .models import EPHEMERAL, LOADING, PRIVATE_THREAD, PUBLIC_THREAD, Channel, Message
from .permissions import Perm

if TYPE_CHECKING:
    from .server import FakeDiscord


@dataclass
class Call:
    method: str
    path: str
    template: str
    params: dict[str, str]
    query: Mapping[str, str]
    body: Any
    uploads: list[Upload] = field(default_factory=list)
    interaction: Interaction | None = None  # set when the route carries an interaction token
    bearer: str | None = None  # a person's OAuth2 access token, on the routes that take one

    def int_param(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise invalid_form(name, "NUMBER_TYPE_COERCE", "Value is not snowflake.") from None

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Result = tuple[int, Any]
Handler = Callable[["RestApi", Call], Awaitable[Result]]
ROUTES: dict[tuple[str, str], Handler] = {}


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        ROUTES[(method, template)] = fn
        return fn

    return deco


#: Routes asked with a person's OAuth2 bearer token instead of the bot's (the spec's
#: ``security`` lists OAuth2 for them), and the one asked with no token at all (the token
#: exchange authenticates the app by its client id and secret in the form).
BEARER_ROUTES: frozenset[tuple[str, str]] = frozenset({("GET", "/users/@me")})
NO_AUTH_ROUTES: frozenset[tuple[str, str]] = frozenset({("POST", "/oauth2/token")})

NO_CONTENT: Result = (204, None)
#: How long Discord remembers an enforced nonce ("the past few minutes").
NONCE_WINDOW = 5 * 60.0
GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 15


class RestApi:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.store = fake.store

    async def handle(self, call: Call) -> Result:
        handler = ROUTES.get((call.method, call.template))
        if handler is None:
            raise LookupError(f"{call.method} {call.template}")
        return await handler(self, call)

    # helpers ---------------------------------------------------------------------------------
    @property
    def bot_id(self) -> int:
        return self.fake.bot.id

    def _bot_channel(self, call: Call, *needed: Perm) -> Channel:
        chan = self.store.channel(call.int_param("channel_id"))
        self.store.require_bot(chan, self.bot_id, *needed)
        return chan

    def _new_message(self, chan: Channel, **kw: Any) -> Message:
        return Message(
            id=self.store.snowflake(),
            channel_id=chan.id,
            guild_id=chan.guild_id,
            author=self.fake.bot,
            timestamp=self.store.iso_now(),
            **kw,
        )

    async def _announce(self, event: str, msg: Message) -> None:
        """Gateway events for messages everyone can see (ephemeral ones are never dispatched);
        every message to the double's watchers first."""
        for watcher in self.fake.message_watchers:
            watcher(event, msg)
        intents = self.fake.gateway.intents
        if msg.ephemeral_for is not None or not intents & GUILD_MESSAGES:
            return
        data: dict[str, Any]
        if event == "MESSAGE_DELETE":
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        else:
            data = msg.to_json()
            if msg.author.id != self.bot_id and not intents & MESSAGE_CONTENT:
                # Without the privileged intent Discord blanks what other people wrote.
                data.update(content="", embeds=[], attachments=[], components=[])
            if event == "MESSAGE_CREATE" and msg.guild_id is not None:
                member = self.store.guilds[msg.guild_id].members.get(msg.author.id)
                if member is not None:
                    data["member"] = member.to_json(with_user=False)
        if msg.guild_id is not None:
            data["guild_id"] = str(msg.guild_id)
        await self.fake.gateway.dispatch(event, data)

    # identity --------------------------------------------------------------------------------
    @route("GET", "/users/@me")
    async def me(self, call: Call) -> Result:
        if call.bearer is not None:
            # A person's token (scope identify): that person, or 401 if it expired or is
            # not a token Discord gave.
            holder = self.fake.activities.holder(call.bearer)
            if holder is None:
                return 401, {"message": "401: Unauthorized", "code": 0}
            person = self.store.user(holder)
            return 200, {**person.to_json(), "locale": person.locale, "mfa_enabled": False}
        return 200, {**self.fake.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0}

    @route("POST", "/oauth2/token")
    async def oauth2_token(self, call: Call) -> Result:
        form = call.body if isinstance(call.body, dict) else {}
        return self.fake.activities.exchange({k: str(v) for k, v in form.items()})

    @route("GET", "/applications/{application_id}/activity-instances/{instance_id}")
    async def activity_instance(self, call: Call) -> Result:
        app = self._app(call)
        instance = self.fake.activities.instances.get(call.params["instance_id"])
        if instance is None:
            raise DiscordError(0)  # 404: no such instance running (ended, or never was)
        return 200, instance.to_json(app)

    @route("GET", "/users/{user_id}")
    async def get_user(self, call: Call) -> Result:
        return 200, self.store.user(call.int_param("user_id")).to_json()

    @route("GET", "/oauth2/applications/@me")
    @route("GET", "/applications/@me")
    async def application(self, call: Call) -> Result:
        return 200, self.fake.application_json()

    @route("GET", "/gateway")
    async def gateway(self, call: Call) -> Result:
        return 200, {"url": self.fake.gateway_url}

    @route("GET", "/gateway/bot")
    async def gateway_bot(self, call: Call) -> Result:
        gateway = self.fake.gateway
        limit = {
            "total": 1000,
            "remaining": 999,
            "reset_after": 0,
            "max_concurrency": gateway.max_concurrency,
        }
        return 200, {
            "url": self.fake.gateway_url,
            "shards": gateway.shard_count,
            "session_start_limit": limit,
        }

    # commands --------------------------------------------------------------------------------
    def _app(self, call: Call) -> int:
        if call.int_param("application_id") != self.fake.app_id:
            raise DiscordError(50001, detail="not this bot's application")
        return self.fake.app_id

    def _guild_scope(self, call: Call) -> int | None:
        if "guild_id" not in call.params:
            return None
        return self.store.guild(call.int_param("guild_id")).id

    @route("GET", "/applications/{application_id}/commands")
    @route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def list_commands(self, call: Call) -> Result:
        self._app(call)
        return 200, list(self.fake.commands.scope(self._guild_scope(call)).values())

    @route("PUT", "/applications/{application_id}/commands")
    @route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def put_commands(self, call: Call) -> Result:
        app = self._app(call)
        scope = self._guild_scope(call)
        return 200, self.fake.commands.put_all(app, scope, call.body, self.store.snowflake)

    @route("POST", "/applications/{application_id}/commands")
    @route("POST", "/applications/{application_id}/guilds/{guild_id}/commands")
    async def upsert_command(self, call: Call) -> Result:
        app = self._app(call)
        scope = self._guild_scope(call)
        return 201, self.fake.commands.upsert(app, scope, call.body, self.store.snowflake)

    @route("DELETE", "/applications/{application_id}/commands/{command_id}")
    @route("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}")
    async def delete_command(self, call: Call) -> Result:
        self._app(call)
        scope = self.fake.commands.scope(self._guild_scope(call))
        for name, cmd in list(scope.items()):
            if cmd["id"] == call.params["command_id"]:
                del scope[name]
                return NO_CONTENT
        raise DiscordError(10063)

    # guilds ----------------------------------------------------------------------------------
    @route("GET", "/guilds/{guild_id}")
    async def get_guild(self, call: Call) -> Result:
        guild = self.store.guild(call.int_param("guild_id"))
        data = self.store.guild_json(guild)
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key)
        return 200, data

    @route("GET", "/guilds/{guild_id}/channels")
    async def guild_channels(self, call: Call) -> Result:
        guild = self.store.guild(call.int_param("guild_id"))
        chans = [self.store.channels[c] for c in guild.channel_ids]
        return 200, [c.to_json() for c in chans if not c.deleted and not c.is_thread]

    @route("GET", "/guilds/{guild_id}/roles")
    async def guild_roles(self, call: Call) -> Result:
        guild = self.store.guild(call.int_param("guild_id"))
        return 200, [r.to_json() for r in guild.roles.values()]

    @route("GET", "/guilds/{guild_id}/members/{user_id}")
    async def guild_member(self, call: Call) -> Result:
        guild = self.store.guild(call.int_param("guild_id"))
        return 200, self.store.member(guild, call.int_param("user_id")).to_json()

    # channels and messages -------------------------------------------------------------------
    @route("GET", "/channels/{channel_id}")
    async def get_channel(self, call: Call) -> Result:
        return 200, self._bot_channel(call).to_json()

    @route("PATCH", "/channels/{channel_id}")
    async def edit_channel(self, call: Call) -> Result:
        chan = self._bot_channel(call)
        body = call.body or {}
        if chan.is_thread:
            if chan.owner_id != self.bot_id or "locked" in body:
                self.store.require_bot(chan, self.bot_id, Perm.MANAGE_THREADS)
            chan.archived = bool(body.get("archived", chan.archived))
            chan.locked = bool(body.get("locked", chan.locked))
        else:
            self.store.require_bot(chan, self.bot_id, Perm.MANAGE_CHANNELS)
        chan.name = body.get("name") or chan.name
        event = "THREAD_UPDATE" if chan.is_thread else "CHANNEL_UPDATE"
        await self.fake.gateway.dispatch(event, chan.to_json())
        return 200, chan.to_json()

    @route("PUT", "/channels/{channel_id}/thread-members/@me")
    @route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
    @route("DELETE", "/channels/{channel_id}/thread-members/@me")
    @route("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
    async def thread_member(self, call: Call) -> Result:
        chan = self._bot_channel(call)
        if not chan.is_thread:
            raise DiscordError(50024)
        user_id = int(call.params.get("user_id", self.bot_id))
        if user_id not in self.store.guild(chan.guild_id).members:
            raise DiscordError(10007)
        if chan.archived:
            raise DiscordError(50083)
        if call.method == "PUT":
            chan.members.add(user_id)
        else:
            if user_id != self.bot_id:
                self.store.require_bot(chan, self.bot_id, Perm.MANAGE_THREADS)
            chan.members.discard(user_id)
        return NO_CONTENT

    @route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me")
    @route("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me")
    async def own_reaction(self, call: Call) -> Result:
        chan = self._bot_channel(call, Perm.READ_MESSAGE_HISTORY)
        msg = self._channel_message(call, chan)
        emoji = call.params["emoji_name"]
        if call.method == "PUT":
            if emoji not in msg.reactions or not msg.reactions[emoji]:
                self.store.require_bot(chan, self.bot_id, Perm.ADD_REACTIONS)
            msg.reactions.setdefault(emoji, set()).add(self.bot_id)
        else:
            msg.reactions.get(emoji, set()).discard(self.bot_id)
        return NO_CONTENT

    @route("DELETE", "/channels/{channel_id}")
    async def delete_channel(self, call: Call) -> Result:
        chan = self._bot_channel(call, Perm.MANAGE_CHANNELS)
        await self.fake.delete_channel(chan)
        return 200, chan.to_json()

    @route("POST", "/channels/{channel_id}/typing")
    async def typing(self, call: Call) -> Result:
        self._bot_channel(call, Perm.SEND_MESSAGES)
        return NO_CONTENT

    @route("GET", "/channels/{channel_id}/messages")
    async def list_messages(self, call: Call) -> Result:
        chan = self._bot_channel(call, Perm.READ_MESSAGE_HISTORY)
        msgs = [m for m in self.store.messages.get(chan.id, []) if self._public(m)]
        if before := call.query.get("before"):
            msgs = [m for m in msgs if m.id < int(before)]
        if after := call.query.get("after"):
            msgs = [m for m in msgs if m.id > int(after)]
            msgs = msgs[: int(call.query.get("limit", 50))]
        else:
            msgs = msgs[-int(call.query.get("limit", 50)) :]
        return 200, [m.to_json() for m in reversed(msgs)]

    @staticmethod
    def _public(msg: Message) -> bool:
        return not msg.deleted and msg.ephemeral_for is None

    def _channel_message(self, call: Call, chan: Channel) -> Message:
        msg = self.store.message(chan.id, call.int_param("message_id"))
        if msg.ephemeral_for is not None:
            # Ephemeral messages exist only behind their interaction token: the channel routes
            # answer Unknown Message (discord/discord-api-docs#6007, #6253: "use the dedicated
            # endpoints for editing interaction responses").
            raise DiscordError(10008)
        return msg

    @route("POST", "/channels/{channel_id}/messages")
    async def create_message(self, call: Call) -> Result:
        send = Perm.SEND_MESSAGES_IN_THREADS if self._is_thread(call) else Perm.SEND_MESSAGES
        needed = [send] + ([Perm.ATTACH_FILES] if call.uploads else [])
        chan = self._bot_channel(call, *needed)
        if chan.is_thread and chan.archived:
            if chan.locked and not self.store.can(chan, self.bot_id, Perm.MANAGE_THREADS):
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
        key = (self.bot_id, str(nonce))
        if nonce is not None and call.body.get("enforce_nonce"):
            # Discord: "checked for uniqueness in the past few minutes. If another message was
            # created by the same author with the same nonce, that message will be returned
            # and no new message will be created."
            seen = self.store.nonces.get(key)
            if seen is not None and self.store.clock.now() - seen[0] < NONCE_WINDOW:
                return 200, seen[1].to_json()
        msg = fill_new(
            self.store, self._new_message(chan), call.body, call.uploads, self.fake.url_root
        )
        self.store.add_message(msg)
        if nonce is not None and call.body.get("enforce_nonce"):
            self.store.nonces[key] = (self.store.clock.now(), msg)
        await self._announce("MESSAGE_CREATE", msg)
        return 200, msg.to_json()

    def _is_thread(self, call: Call) -> bool:
        chan = self.store.channels.get(int(call.params["channel_id"]))
        return chan is not None and chan.is_thread

    @route("GET", "/channels/{channel_id}/messages/{message_id}")
    async def get_message(self, call: Call) -> Result:
        chan = self._bot_channel(call, Perm.READ_MESSAGE_HISTORY)
        return 200, self._channel_message(call, chan).to_json()

    @route("PATCH", "/channels/{channel_id}/messages/{message_id}")
    async def edit_message(self, call: Call) -> Result:
        chan = self._bot_channel(call)
        msg = self._channel_message(call, chan)
        # A public interaction answer is the bot's own message (its author is the bot user),
        # so this route edits it too, token expired or not; Discord documents neither way,
        # and bots rely on it in guilds (MaxOhn/Bathbot#702 moved to the token only because
        # the channel route failed in DMs, where the bot may not read the channel).
        if msg.author.id != self.bot_id:
            raise DiscordError(50005)
        if call.uploads:
            self.store.require_bot(chan, self.bot_id, Perm.ATTACH_FILES)
        apply_edit(self.store, msg, call.body, call.uploads, self.fake.url_root)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, msg.to_json()

    @route("DELETE", "/channels/{channel_id}/messages/{message_id}")
    async def delete_message(self, call: Call) -> Result:
        chan = self._bot_channel(call)
        msg = self._channel_message(call, chan)
        if msg.author.id != self.bot_id:
            self.store.require_bot(chan, self.bot_id, Perm.MANAGE_MESSAGES)
        msg.deleted = True
        await self._announce("MESSAGE_DELETE", msg)
        return NO_CONTENT

    # threads ---------------------------------------------------------------------------------
    async def _open_thread(
        self, parent: Channel, kind: int, name: str, thread_id: int | None
    ) -> Channel:
        guild = self.store.guild(parent.guild_id)
        thread = self.store.new_channel(
            guild, name, type=kind, parent_id=parent.id, owner_id=self.bot_id, channel_id=thread_id
        )
        data = {**thread.to_json(), "newly_created": True}
        await self.fake.gateway.dispatch("THREAD_CREATE", data)
        return thread

    @route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    async def thread_from_message(self, call: Call) -> Result:
        parent = self._bot_channel(call, Perm.CREATE_PUBLIC_THREADS)
        if parent.is_thread:
            raise DiscordError(50013, detail="threads cannot hold threads")
        msg = self._channel_message(call, parent)
        if msg.id in self.store.channels:
            raise invalid_form("message_id", "THREAD_ALREADY_CREATED", "A thread exists already")
        # A thread started from a message shares that message's id.
        thread = await self._open_thread(parent, PUBLIC_THREAD, call.body["name"], msg.id)
        return 201, thread.to_json()

    @route("POST", "/channels/{channel_id}/threads")
    async def thread_alone(self, call: Call) -> Result:
        kind = int(call.body.get("type") or PRIVATE_THREAD)
        needed = (
            Perm.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else Perm.CREATE_PUBLIC_THREADS
        )
        parent = self._bot_channel(call, needed)
        thread = await self._open_thread(parent, kind, call.body["name"], None)
        return 201, thread.to_json()

    # attachments (the CDN) -------------------------------------------------------------------
    def attachment(self, channel_id: int, attachment_id: int) -> tuple[str, bytes] | None:
        for msg in self.store.messages.get(channel_id, []):
            for att in msg.attachments:
                if att.id == attachment_id and not msg.deleted:
                    return att.content_type, att.data
        return None

    # interactions ----------------------------------------------------------------------------
    def interaction_for(self, call: Call) -> Interaction:
        """The interaction behind a callback or webhook route, with Discord's checks."""
        if "interaction_id" in call.params:
            inter = self.fake.interactions.get(call.int_param("interaction_id"))
            if inter is None or inter.token != call.params["interaction_token"]:
                raise DiscordError(10062)
            return inter
        inter = self.fake.interactions_by_token.get(call.params["webhook_token"])
        if inter is None or call.params["webhook_id"] != str(self.fake.app_id):
            raise DiscordError(10015)
        # "Interaction tokens are valid for 15 minutes" (Discord API docs, Interactions >
        # Receiving and Responding), on the double's clock, which tests move forward.
        if inter.expired(self.fake.clock.now()):
            raise DiscordError(50027)
        return inter

    def _answer(
        self,
        inter: Interaction,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        loading: bool = False,
        followup: bool = False,
    ) -> Message:
        """A message posted through the interaction (its answer or a follow-up)."""
        msg = self._new_message(
            inter.channel,
            ephemeral_for=inter.user.id if int(body.get("flags") or 0) & EPHEMERAL else None,
            interaction_token=inter.token,
            interaction=(inter.id, inter.type, inter.user, inter.command_name),
            webhook_id=self.fake.app_id,
            application_id=self.fake.app_id,
            type=20 if inter.type == APPLICATION_COMMAND else 19,
        )
        if loading:
            msg.flags = LOADING | (int(body.get("flags") or 0) & EPHEMERAL)
        else:
            fill_new(self.store, msg, body, uploads, self.fake.url_root)
        if inter.type != APPLICATION_COMMAND and inter.source_message is not None:
            msg.message_reference = {
                "type": 0,
                "message_id": str(inter.source_message.id),
                "channel_id": str(inter.channel.id),
            }
        if followup:
            msg.type = 0
        return self.store.add_message(msg)

    @route("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
    async def callback(self, call: Call) -> Result:
        inter = self.interaction_for(call)
        now = self.fake.clock.now()
        if inter.ack_type is not None:
            raise DiscordError(40060)
        if inter.too_late_to_ack(now):
            raise DiscordError(10062, detail=f"acknowledged {now - inter.created_at:.1f}s late")
        kind = int(call.body["type"])
        data = call.body.get("data") or {}
        on_message = inter.type == MESSAGE_COMPONENT or (
            inter.source_message is not None and inter.type != APPLICATION_COMMAND
        )
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE) and not on_message:
            why = f"Callback type {kind} needs a message component interaction"
            raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
        if (kind == AUTOCOMPLETE_RESULT) != (inter.type == AUTOCOMPLETE):
            why = "Autocomplete interactions take callback type 8, and only they do"
            raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
        if kind == MODAL and inter.type == MODAL_SUBMIT:
            raise invalid_form(
                "type", "INTERACTION_RESPONSE_TYPE_INVALID", "A modal cannot open one"
            )
        resource: Message | None = None
        if kind == CHANNEL_MESSAGE:
            resource = inter.response = self._answer(inter, data, call.uploads)
            await self._announce("MESSAGE_CREATE", resource)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            resource = inter.response = self._answer(inter, data, [], loading=True)
            await self._announce("MESSAGE_CREATE", resource)
        elif kind == DEFERRED_UPDATE:
            inter.response = inter.source_message
        elif kind == UPDATE_MESSAGE:
            assert inter.source_message is not None
            if inter.source_message.deleted:
                raise DiscordError(10008)
            resource = inter.response = apply_edit(
                self.store, inter.source_message, data, call.uploads, self.fake.url_root
            )
            await self._announce("MESSAGE_UPDATE", resource)
        elif kind == MODAL:
            inter.modal = data
        elif kind == AUTOCOMPLETE_RESULT:
            inter.choices = list(data.get("choices") or [])
        elif kind == LAUNCH_ACTIVITY:
            # "Launch the Activity associated with the app. Only available for apps with
            # Activities enabled" (Interactions > Receiving and Responding, callback type 12):
            # the person who clicked joins the channel's instance (one is made if none runs).
            if not self.fake.activities.enabled:
                why = "This application does not have Activities enabled"
                raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
            if inter.type not in (APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT):
                why = "Callback type 12 answers a command, a component or a modal"
                raise invalid_form("type", "INTERACTION_RESPONSE_TYPE_INVALID", why)
            launched = self.fake.activities.instance(inter.channel, [inter.user.id])
            inter.activity_instance_id = launched.instance_id
        else:
            raise invalid_form("type", "BASE_TYPE_CHOICES", f"Callback type {kind} unsupported")
        inter.ack_type, inter.acked_at = kind, now
        self.fake.notify_acknowledged(inter)
        if not call.flag("with_response"):
            return NO_CONTENT
        shown = inter.response
        out: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(shown.id) if shown else None,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(shown and shown.ephemeral_for is not None),
            }
        }
        if resource is not None:
            out["resource"] = {"type": kind, "message": resource.to_json()}
        if inter.activity_instance_id is not None:
            out["interaction"]["activity_instance_id"] = inter.activity_instance_id
            out["resource"] = {
                "type": kind,
                "activity_instance": {"id": inter.activity_instance_id},
            }
        return 200, out

    @route("POST", "/webhooks/{webhook_id}/{webhook_token}")
    async def followup(self, call: Call) -> Result:
        inter = self.interaction_for(call)
        if inter.ack_type is None:
            raise DiscordError(10015, detail="follow-up before the interaction was acknowledged")
        original = inter.response
        if original is not None and original.loading and not inter.followups:
            # The first follow-up after a "thinking" defer becomes the original answer.
            apply_edit(self.store, original, call.body, call.uploads, self.fake.url_root)
            original.edited_timestamp = None
            msg = original
            await self._announce("MESSAGE_UPDATE", msg)
        else:
            msg = self._answer(inter, call.body, call.uploads, followup=True)
            await self._announce("MESSAGE_CREATE", msg)
        inter.followups.append(msg)
        return (200, msg.to_json()) if call.flag("wait") else NO_CONTENT

    def _token_message(self, call: Call, inter: Interaction) -> Message:
        """What a token reaches: its original answer (for a component acknowledged with type
        6 or 7, the message clicked) and "a message sent with that token" (Discord API docs,
        Interactions > Receiving and Responding > Followup Messages); any other message id
        is Unknown Message."""
        mid = call.params.get("message_id", "@original")
        if mid == "@original":
            msg = inter.response
            if msg is None and inter.type == MESSAGE_COMPONENT and inter.ack_type is not None:
                msg = inter.source_message
        else:
            msg = next((m for m in inter.followups if str(m.id) == mid), None)
            if msg is None and inter.response is not None and str(inter.response.id) == mid:
                msg = inter.response
        if msg is None or msg.deleted:
            raise DiscordError(10008)
        return msg

    @route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    @route("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    async def token_get(self, call: Call) -> Result:
        return 200, self._token_message(call, self.interaction_for(call)).to_json()

    @route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    @route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    async def token_edit(self, call: Call) -> Result:
        inter = self.interaction_for(call)
        msg = self._token_message(call, inter)
        was_loading = msg.loading
        apply_edit(self.store, msg, call.body, call.uploads, self.fake.url_root)
        if was_loading:
            msg.edited_timestamp = None
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, msg.to_json()

    @route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    @route("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    async def token_delete(self, call: Call) -> Result:
        msg = self._token_message(call, self.interaction_for(call))
        msg.deleted = True
        await self._announce("MESSAGE_DELETE", msg)
        return NO_CONTENT
