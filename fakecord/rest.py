"""Discord's HTTP API in the double: a request as a route sees it (`Call`), the table of routes
(`route`, `ROUTES`), and what routes share (`RestApi`: the bot's channel, the messages it makes,
their gateway events). What each route does and the rules it checks are in fakecord/routes/, a
module a concern, and fakecord/app_emojis.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import DiscordError, invalid_form
from .interactions import Interaction
from .messages import Upload
from .models import Channel, Message
from .permissions import Perm

if TYPE_CHECKING:
    from .world import World


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
BEARER_ROUTES: frozenset[tuple[str, str]] = frozenset(
    {("GET", "/users/@me"), ("GET", "/oauth2/@me")}
)
NO_AUTH_ROUTES: frozenset[tuple[str, str]] = frozenset({("POST", "/oauth2/token")})

NO_CONTENT: Result = (204, None)
GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 15


class RestApi:
    def __init__(self, fake: World) -> None:
        self.fake = fake
        self.store = fake.store

    async def handle(self, call: Call) -> Result:
        handler = ROUTES.get((call.method, call.template))
        if handler is None:
            raise LookupError(f"{call.method} {call.template}")
        return await handler(self, call)

    @property
    def bot_id(self) -> int:
        return self.fake.bot.id

    def bot_channel(self, call: Call, *needed: Perm) -> Channel:
        chan = self.store.channel(call.int_param("channel_id"))
        self.store.require_bot(chan, self.bot_id, *needed)
        return chan

    def new_message(self, chan: Channel, **kw: Any) -> Message:
        return Message(
            id=self.store.snowflake(),
            channel_id=chan.id,
            guild_id=chan.guild_id,
            author=self.fake.bot,
            timestamp=self.store.iso_now(),
            **kw,
        )

    async def announce(self, event: str, msg: Message) -> None:
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

    def app(self, call: Call) -> int:
        """The application the route names, refused unless it is the bot's."""
        if call.int_param("application_id") != self.fake.app_id:
            raise DiscordError(50001, detail="not this bot's application")
        return self.fake.app_id

    def channel_message(self, call: Call, chan: Channel) -> Message:
        """The message a channel route names."""
        msg = self.store.message(chan.id, call.int_param("message_id"))
        if msg.ephemeral_for is not None:
            # Ephemeral messages exist only behind their interaction token: the channel routes
            # answer Unknown Message (discord/discord-api-docs#6007, #6253: "use the dedicated
            # endpoints for editing interaction responses").
            raise DiscordError(10008)
        return msg

    def attachment(self, channel_id: int, attachment_id: int) -> tuple[str, bytes] | None:
        """An attachment's type and bytes, as the CDN serves it (None once its message is gone)."""
        for msg in self.store.messages.get(channel_id, []):
            for att in msg.attachments:
                if att.id == attachment_id and not msg.deleted:
                    return att.content_type, att.data
        return None
