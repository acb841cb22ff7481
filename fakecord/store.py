"""The double's state: who exists, what they may do, and every message in every channel."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from .clock import FakeClock
from .errors import DiscordError
from .models import PRIVATE_THREAD, Channel, Guild, Member, Message, Overwrite, Role, User
from .permissions import ALL, Perm

DISCORD_EPOCH_MS = 1_420_070_400_000


class Store:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self._seq = itertools.count(1)
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, list[Message]] = {}  # channel id -> messages in order
        #: Guild scheduled events as the bot created them, by id.
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        self._by_id: dict[int, Message] = {}
        #: (author id, nonce) -> (when, message): messages created with enforce_nonce.
        self.nonces: dict[tuple[int, str], tuple[float, Message]] = {}

    # identities -------------------------------------------------------------------------
    def snowflake(self) -> int:
        """A real-looking snowflake, so discord.py's snowflake_time() gives the double's time."""
        ms = int(self.clock.now() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._seq) & 0x3FFFFF)

    def iso_now(self) -> str:
        return dt.datetime.fromtimestamp(self.clock.now(), dt.UTC).isoformat()

    def user(self, user_id: int) -> User:
        try:
            return self.users[user_id]
        except KeyError:
            raise DiscordError(10013) from None

    def guild(self, guild_id: int) -> Guild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise DiscordError(10004) from None

    def channel(self, channel_id: int) -> Channel:
        chan = self.channels.get(channel_id)
        if chan is None or chan.deleted:
            raise DiscordError(10003)
        return chan

    def member(self, guild: Guild, user_id: int) -> Member:
        try:
            return guild.members[user_id]
        except KeyError:
            raise DiscordError(10007) from None

    # permissions ------------------------------------------------------------------------
    def base_permissions(self, guild: Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL
        member = guild.members.get(user_id)
        if member is None:
            return 0
        perms = guild.everyone.permissions
        for role_id in member.role_ids:
            role = guild.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
        return ALL if perms & Perm.ADMINISTRATOR else perms

    def permissions(self, channel: Channel, user_id: int) -> int:
        """Discord's order: base, @everyone overwrite, role overwrites together, member overwrite.

        Threads take their parent's overwrites.
        """
        guild = self.guild(channel.guild_id)
        perms = self.base_permissions(guild, user_id)
        if perms == ALL and (user_id == guild.owner_id or perms & Perm.ADMINISTRATOR):
            return ALL
        source = self.channels[channel.parent_id] if channel.parent_id else channel
        ows = source.overwrites
        if (ow := ows.get(guild.id)) is not None:
            perms = (perms & ~ow.deny) | ow.allow
        member = guild.members.get(user_id)
        allow = deny = 0
        for role_id in member.role_ids if member else []:
            if (ow := ows.get(role_id)) is not None:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        if (ow := ows.get(user_id)) is not None:
            perms = (perms & ~ow.deny) | ow.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        # Private threads: only their members and the thread managers see them.
        private = channel.type == PRIVATE_THREAD and user_id not in channel.members
        if private and not perms & Perm.MANAGE_THREADS:
            return 0
        return perms

    def can(self, channel: Channel, user_id: int, perm: Perm) -> bool:
        return bool(self.permissions(channel, user_id) & perm)

    def require_bot(self, channel: Channel, bot_id: int, *needed: Perm) -> None:
        """Missing Access when the bot can't see the channel, Missing Permissions otherwise."""
        perms = self.permissions(channel, bot_id)
        if not perms & Perm.VIEW_CHANNEL:
            raise DiscordError(50001, detail=f"bot cannot view channel {channel.name}")
        for p in needed:
            if not perms & p:
                raise DiscordError(50013, detail=f"bot lacks {p.name} in {channel.name}")

    # messages ---------------------------------------------------------------------------
    def add_message(self, msg: Message) -> Message:
        self.messages.setdefault(msg.channel_id, []).append(msg)
        self._by_id[msg.id] = msg
        return msg

    def message(self, channel_id: int, message_id: int) -> Message:
        msg = self._by_id.get(message_id)
        if msg is None or msg.deleted or msg.channel_id != channel_id:
            raise DiscordError(10008)
        return msg

    def find_message(self, message_id: int) -> Message | None:
        """Any message ever stored, deleted ones included."""
        return self._by_id.get(message_id)

    def message_by_id(self, message_id: int) -> Message:
        msg = self._by_id.get(message_id)
        if msg is None or msg.deleted:
            raise DiscordError(10008)
        return msg

    # setup helpers used by the test-facing API ------------------------------------------
    def new_user(self, name: str, *, locale: str = "en-US", bot: bool = False) -> User:
        user = User(self.snowflake(), name, locale=locale, bot=bot)
        self.users[user.id] = user
        return user

    def new_guild(
        self,
        name: str,
        owner: User,
        *,
        preferred_locale: str = "en-US",
        shard: int = 0,
        shard_count: int = 1,
    ) -> Guild:
        """A guild whose id falls on ``shard`` of ``shard_count`` (its creation time moved up
        to shard_count - 1 ms later)."""
        guild_id = self.snowflake()
        ms = guild_id >> 22
        ms += (shard - ms) % shard_count
        guild_id = (ms << 22) | (guild_id & 0x3FFFFF)
        guild = Guild(guild_id, name, owner.id, preferred_locale=preferred_locale)
        guild.members[owner.id] = Member(owner, guild.id)
        self.guilds[guild.id] = guild
        return guild

    def new_role(self, guild: Guild, name: str, permissions: int) -> Role:
        role = Role(self.snowflake(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def new_channel(self, guild: Guild, name: str) -> Channel:
        """A text channel at the end of the guild's list."""
        chan = Channel(self.snowflake(), guild.id, name, position=len(guild.channel_ids))
        return self._add_channel(guild, chan)

    def new_thread(
        self, parent: Channel, name: str, kind: int, owner_id: int, thread_id: int | None
    ) -> Channel:
        """A thread of ``parent``, its starter its first member; a thread started from a
        message shares that message's id (``thread_id``)."""
        guild = self.guild(parent.guild_id)
        thread = Channel(
            thread_id or self.snowflake(),
            guild.id,
            name,
            type=kind,
            parent_id=parent.id,
            owner_id=owner_id,
            position=len(guild.channel_ids),
            members={owner_id},
        )
        return self._add_channel(guild, thread)

    def _add_channel(self, guild: Guild, chan: Channel) -> Channel:
        self.channels[chan.id] = chan
        guild.channel_ids.append(chan.id)
        return chan

    def set_overwrite(
        self, channel: Channel, target: User | Role, *, allow: int = 0, deny: int = 0
    ) -> None:
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites[target.id] = Overwrite(target.id, kind, allow=allow, deny=deny)

    def guild_json(self, guild: Guild) -> dict[str, Any]:
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "preferred_locale": guild.preferred_locale,
            "roles": [r.to_json() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "unavailable": False,
            "large": False,
            "member_count": len(guild.members),
            "joined_at": "2024-01-01T00:00:00+00:00",
            "members": [m.to_json() for m in guild.members.values()],
            "channels": [c.to_json() for c in channels if not c.is_thread],
            "threads": [c.to_json() for c in channels if c.is_thread],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
