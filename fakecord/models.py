"""The double's world as plain dataclasses: users, guilds, channels, messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .permissions import EVERYONE_DEFAULT


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = "2024-01-01T00:00:00+00:00"
    nick: str | None = None

    def to_json(self, *, with_user: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "nick": self.nick,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "avatar": None,
        }
        if with_user:
            out["user"] = self.user.to_json()
        return out


@dataclass
class Overwrite:
    target_id: int
    kind: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.target_id),
            "type": self.kind,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


TEXT, PUBLIC_THREAD, PRIVATE_THREAD = 0, 11, 12


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = TEXT
    parent_id: int | None = None
    owner_id: int | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    position: int = 0
    deleted: bool = False
    archived: bool = False
    locked: bool = False
    members: set[int] = field(default_factory=set)  # a thread's members

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if self.is_thread:
            out.update(
                owner_id=str(self.owner_id),
                member_count=len(self.members),
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2024-01-01T00:00:00+00:00",
                    "locked": self.locked,
                },
            )
        else:
            out.update(
                position=self.position,
                topic=None,
                permission_overwrites=[o.to_json() for o in self.overwrites.values()],
            )
        return out


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # @everyone shares the guild's id, as on Discord.
        self.roles.setdefault(self.id, Role(self.id, "@everyone", int(EVERYONE_DEFAULT)))

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    disabled: bool
    style: int
    url: str | None = None
    emoji: dict[str, Any] | None = None  # {"name": ..., "id": ...}: a custom or Unicode emoji

    @classmethod
    def of(cls, c: dict[str, Any]) -> Button:
        return cls(
            label=c.get("label"),
            custom_id=c.get("custom_id"),
            disabled=bool(c.get("disabled", False)),
            style=int(c.get("style", 1)),
            url=c.get("url"),
            emoji=c.get("emoji"),
        )


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(_walk(comp.get("components", [])))
        if isinstance(comp.get("accessory"), dict):
            out.append(comp["accessory"])
    return out


EPHEMERAL, LOADING, IS_COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    ephemeral_for: int | None = None
    interaction_token: str | None = None
    # (interaction id, type, user, command name) when the message answers an interaction.
    interaction: tuple[int, int, User, str | None] | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)  # emoji -> user ids
    # Who was pinged: <@id> mentions that allowed_mentions let through.
    mentions: list[User] = field(default_factory=list)
    # Every version the message has shown, (content, embeds), oldest first: what a person
    # watching the channel read between two looks (a test's own reads come less often).
    history: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)

    @property
    def loading(self) -> bool:
        """True while a deferred answer still shows "<bot> is thinking..."."""
        return bool(self.flags & LOADING)

    def buttons(self) -> list[Button]:
        return [Button.of(c) for c in _walk(self.components) if c.get("type") == 2]

    def button_rows(self) -> list[list[Button]]:
        """The buttons row by row (each action row's), as Discord lays them out."""
        rows = [
            [Button.of(b) for b in c.get("components", []) if b.get("type") == 2]
            for c in _walk(self.components)
            if c.get("type") == 1
        ]
        return [row for row in rows if row]

    def all_components(self) -> list[dict[str, Any]]:
        return _walk(self.components)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_json(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [u.to_json() for u in self.mentions],
            "mention_roles": [],
            "attachments": [a.to_json() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.reactions:
            out["reactions"] = [
                {"emoji": {"id": None, "name": emoji}, "count": len(users), "me": False}
                for emoji, users in self.reactions.items()
                if users
            ]
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            out["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            out["message_reference"] = self.message_reference
        if self.interaction is not None:
            iid, itype, user, name = self.interaction
            out["interaction_metadata"] = {
                "id": str(iid),
                "type": itype,
                "user": user.to_json(),
                "authorizing_integration_owners": {"0": str(self.guild_id or 0)},
            }
            out["interaction"] = {
                "id": str(iid),
                "type": itype,
                "name": name or "",
                "user": user.to_json(),
            }
        return out
