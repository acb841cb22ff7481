"""The double's state (users, guilds, channels, messages, interactions, the gateway, the REST
routes) and the calls a test builds its world with: guilds, roles, members, channels, overwrites.
FakeDiscord (fakecord/server.py) serves it over HTTP; People (fakecord/people.py) act in it."""

from __future__ import annotations

import asyncio
import base64
import secrets
import time
from collections.abc import Callable
from typing import Any

from .activities import Activities
from .app_emojis import AppEmojis
from .clock import FakeClock
from .commands import CommandRegistry
from .gateway import GUILD_MEMBERS, Gateway, Session
from .interactions import Interaction
from .models import Channel, Guild, Member, Message, Role, User
from .permissions import Perm
from .ratelimit import RateLimits
from .rest import RestApi
from .store import Store

API_PREFIX = "/api/v10"
# What the bot's role gets unless a test says otherwise: enough to play a game in any channel.
BOT_DEFAULT = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.MANAGE_MESSAGES
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.MANAGE_THREADS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.ADD_REACTIONS
)


class World:
    """One Discord's state, with a ready-made place to play: a guild (`guild`) with #general
    (`channel`), the bot in it with its own role (`bot_role`)."""

    def __init__(
        self, *, clock: FakeClock | None = None, bot_name: str = "Nines", shards: int = 1
    ) -> None:
        self.clock = clock or FakeClock()
        self.store = Store(self.clock)
        self.commands = CommandRegistry()
        self.ratelimits = RateLimits()
        self.bot = self.store.new_user(bot_name, bot=True)
        # Shaped like Discord's: base64 of the bot id, a timestamp part and an HMAC part.
        bot_part = base64.urlsafe_b64encode(str(self.bot.id).encode()).decode().rstrip("=")
        self.token = f"{bot_part}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
        self.app_id = self.bot.id
        self.owner = self.store.new_user("owner")
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.rest = RestApi(self)
        self.app_emojis = AppEmojis()
        self.activities = Activities(self)
        self.gateway = Gateway(self)
        self.gateway.shard_count = shards
        self._in_flight = 0
        self._hold_until = 0.0
        #: Checks that say the bot under test is still working on what it received, though
        #: silent (a computer thinking in its worker process): settle() waits for them too.
        self.busy_probes: list[Callable[[], bool]] = []
        #: Called with (event, message) for every message created, edited or deleted in any
        #: channel, ephemeral ones included, before the gateway dispatches it: a harness that
        #: reacts to what people see (bench/load.py's people) instead of polling channels.
        self.message_watchers: list[Callable[[str, Message], None]] = []
        self._pending: set[Interaction] = set()
        self._thinking: set[Interaction] = set()
        self._background: set[asyncio.Task[None]] = set()
        self._last_activity = time.monotonic()
        self.port = 0  # where FakeDiscord listens, once started
        # A ready-made place to play: a guild with #general, the bot in it with its own role.
        self.guild = self.add_guild("Nines Test", shard=0 if shards > 1 else None)
        self.bot_role = self.add_role(self.guild, "Nines", BOT_DEFAULT)
        self.add_member(self.guild, self.bot, roles=[self.bot_role])
        self.channel = self.add_channel(self.guild, "general")

    # addresses -------------------------------------------------------------------------------
    @property
    def url_root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.url_root + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # Activities (fakecord/activities.py) ---------------------------------------------
    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (DISCORD_CLIENT_SECRET)."""
        return self.activities.client_secret

    def enable_activities(self) -> dict[str, Any]:
        """Turn Activities on for the app, as the Developer Portal does: Discord makes its
        default Entry Point command (returned)."""
        return self.activities.enable()

    def activity_instance(self, channel: Channel, user_ids: list[int]) -> str:
        """An Activity running in ``channel`` with these people in it; its instance id."""
        return self.activities.instance(channel, user_ids).instance_id

    def authorize(self, user: User | int) -> str:
        """The authorization code the SDK's ``authorize`` gives this person's client."""
        return self.activities.authorize(user)

    # setting up the world --------------------------------------------------------------------
    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        guild: Guild | None = None,
        roles: list[Role] | None = None,
    ) -> User:
        """A person, member of `guild` (default: the ready-made guild)."""
        user = self.store.new_user(name, locale=locale)
        self.add_member(guild or self.guild, user, roles=roles)
        return user

    def add_guild(
        self, name: str, *, preferred_locale: str = "en-US", shard: int | None = None
    ) -> Guild:
        """A guild; with ``shard``, one whose id falls on that shard of gateway.shard_count."""
        guild = self.store.new_guild(
            name,
            self.owner,
            preferred_locale=preferred_locale,
            shard=shard or 0,
            shard_count=self.gateway.shard_count if shard is not None else 1,
        )
        if self.gateway.current is not None:
            self._later("GUILD_CREATE", self.store.guild_json(guild))
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        return self.store.new_role(guild, name, int(permissions))

    def add_member(self, guild: Guild, user: User, *, roles: list[Role] | None = None) -> Member:
        member = Member(user, guild.id, [r.id for r in roles or []])
        guild.members[user.id] = member
        if self.gateway.intents & GUILD_MEMBERS:
            self._later("GUILD_MEMBER_ADD", {**member.to_json(), "guild_id": str(guild.id)})
        return member

    def add_channel(self, guild: Guild | None = None, name: str = "games") -> Channel:
        guild = guild or self.guild
        chan = self.store.new_channel(guild, name)
        if self.gateway.current is not None:
            self._later("CHANNEL_CREATE", chan.to_json())
        return chan

    def set_permissions(
        self, channel: Channel, target: User | Role, *, allow: int = 0, deny: int = 0
    ) -> None:
        """A channel overwrite, e.g. deny=Perm.SEND_MESSAGES for fake.bot."""
        self.store.set_overwrite(channel, target, allow=int(allow), deny=int(deny))
        if self.gateway.current is not None:
            self._later("CHANNEL_UPDATE", channel.to_json())

    async def delete_channel(self, channel: Channel) -> None:
        channel.deleted = True
        await self.gateway.dispatch("CHANNEL_DELETE", channel.to_json())

    async def delete_message(self, message: Message) -> None:
        """Someone (a moderator) deletes a message."""
        message.deleted = True
        await self.rest.announce("MESSAGE_DELETE", message)

    def _later(self, event: str, data: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self.gateway.dispatch(event, data))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def members_of(
        self, guild_id: int, query: str, user_ids: list[int] | None, limit: int
    ) -> list[dict[str, Any]]:
        guild = self.store.guilds.get(guild_id)
        if guild is None:
            return []
        found = [
            m.to_json()
            for m in guild.members.values()
            if (user_ids is None or m.user.id in user_ids) and m.user.name.startswith(query)
        ]
        return found[:limit] if limit else found

    def application_json(self) -> dict[str, Any]:
        return {
            "id": str(self.app_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.to_json(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "bot": self.bot.to_json(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
        }

    def ready_payload(self, session: Session) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.store.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "session_type": "normal",
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "application": {"id": str(self.app_id), "flags": 0},
            "_trace": ["fakecord"],
        }

    # what the bot is doing (People.settle waits for it) --------------------------------------
    def touch(self) -> None:
        """A request or a dispatch now: settle() waits for quiet after the last one."""
        self._last_activity = time.monotonic()

    def _hold(self, seconds: float) -> None:
        """The bot was told to wait; settle() must not call it idle before it tries again."""
        if seconds > 0:
            self._hold_until = max(self._hold_until, time.monotonic() + seconds)

    def notify_acknowledged(self, inter: Interaction) -> None:
        """The bot acknowledged ``inter``: no longer pending; owed its answer if it is thinking."""
        self._pending.discard(inter)
        if inter.response is not None and inter.response.loading:
            self._thinking.add(inter)
        inter.answered.set()
