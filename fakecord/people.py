"""What a person at the keyboard does: run a slash command, click a button, read a channel."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING, Any

from .commands import build_command_data
from .errors import UsageRefused
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
)
from .models import Channel, Message, User
from .permissions import Perm
from .world import World

if TYPE_CHECKING:
    from .models import Guild

QUIET_SECONDS = 0.03  # the bot counts as idle after this long without a request
#: How long settle() waits before it calls the bot stuck: a guard for a hung test, not a figure
#: of speed (a starved process is slow, not stuck).
SETTLE_GUARD = 120.0


class People(World):
    """The test-facing actions of people in the guild (FakeDiscord's, by inheritance)."""

    async def slash(
        self, user: User, channel: Channel, command: str, *, wait: bool = True, **options: Any
    ) -> Interaction:
        """`/nines start mode=...` by `user` in `channel`. Refused (UsageRefused) where the
        Discord client would not offer it: no such synced command, channel not visible, ..."""
        data, name = self._command_data(user, channel, command, options)
        return await self._interact(APPLICATION_COMMAND, user, channel, data, wait=wait, name=name)

    async def autocomplete(
        self, user: User, channel: Channel, command: str, focused: str, **typed: Any
    ) -> list[dict[str, Any]]:
        """`user` types into option `focused` (its text in `typed`); returns the choices the bot
        offered ([] if it did not answer in time)."""
        data, name = self._command_data(user, channel, command, typed, focused)
        inter = await self._interact(AUTOCOMPLETE, user, channel, data, wait=True, name=name)
        return inter.choices or []

    def _command_data(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any],
        focused: str | None = None,
    ) -> tuple[dict[str, Any], str]:
        """The interaction's data for a command `user` runs (or types into, ``focused``) in
        `channel`, and the command's full name; refused where the client would not offer it."""
        name, *path = command.split()
        guild, perms = self._reachable(user, channel)
        if not perms & Perm.USE_APPLICATION_COMMANDS:
            raise UsageRefused(f"{user.name} may not use application commands here")
        cmd = self.commands.find(guild.id, name)
        if cmd is None:
            raise UsageRefused(f"/{name} was never synced to Discord")
        needed = cmd.get("default_member_permissions")
        # "0" hides the command from everyone but administrators.
        if needed is not None and (
            int(needed) & perms != int(needed)
            or (int(needed) == 0 and not perms & Perm.ADMINISTRATOR)
        ):
            raise UsageRefused(f"{user.name} lacks the permissions /{name} asks for")
        data = build_command_data(cmd, path, options, guild, focused=focused)
        for uid, member in data.get("resolved", {}).get("members", {}).items():
            member["permissions"] = str(self.store.permissions(channel, int(uid)))
        return data, " ".join([name, *path])

    async def click(
        self, user: User, message: Message | int, label_or_custom_id: str, *, wait: bool = True
    ) -> Interaction:
        """Click a button found by its exact label, else by its custom_id."""
        msg, channel = self._message_in_reach(user, message)
        buttons = msg.buttons()
        by_label = [b for b in buttons if b.label == label_or_custom_id]
        if len(by_label) > 1:
            raise UsageRefused(f"several buttons are labelled {label_or_custom_id!r}")
        found = by_label or [b for b in buttons if b.custom_id == label_or_custom_id]
        if not found:
            raise UsageRefused(f"no button {label_or_custom_id!r} on message {msg.id}")
        button = found[0]
        if button.disabled:
            raise UsageRefused(f"button {label_or_custom_id!r} is disabled")
        if button.custom_id is None:
            raise UsageRefused("link buttons open a browser; the bot hears nothing")
        data = {"custom_id": button.custom_id, "component_type": 2}
        return await self._interact(MESSAGE_COMPONENT, user, channel, data, wait=wait, source=msg)

    async def select(
        self,
        user: User,
        message: Message | int,
        placeholder_or_custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
    ) -> Interaction:
        """Pick `values` (option values or labels) in a string select menu, found by its
        placeholder or custom_id."""
        msg, channel = self._message_in_reach(user, message)
        menus = [c for c in msg.all_components() if c.get("type") == 3]
        menu = next(
            (
                m
                for m in menus
                if placeholder_or_custom_id in (m.get("placeholder"), m["custom_id"])
            ),
            None,
        )
        if menu is None:
            raise UsageRefused(f"no select menu {placeholder_or_custom_id!r} on message {msg.id}")
        if menu.get("disabled"):
            raise UsageRefused(f"select menu {placeholder_or_custom_id!r} is disabled")
        by_label = {o["label"]: o["value"] for o in menu.get("options", [])}
        offered = set(by_label.values())
        picked = [v if v in offered else by_label.get(v, v) for v in values]
        if not set(picked) <= offered:
            raise UsageRefused(f"{sorted(set(picked) - offered)} are not options")
        if not menu.get("min_values", 1) <= len(picked) <= menu.get("max_values", 1):
            raise UsageRefused(f"{len(picked)} values picked, outside the menu's bounds")
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": picked}
        return await self._interact(MESSAGE_COMPONENT, user, channel, data, wait=wait, source=msg)

    async def submit_modal(
        self, user: User, opened_by: Interaction, values: dict[str, str], *, wait: bool = True
    ) -> Interaction:
        """Fill in and submit the modal the bot showed in answer to `opened_by`. `values` are
        keyed by a field's custom_id or its label; fields left out are submitted empty."""
        modal = opened_by.modal
        if modal is None or opened_by.user.id != user.id:
            raise UsageRefused(f"{user.name} has no modal open from that interaction")

        def answer(field: dict[str, Any], label: str | None) -> dict[str, Any]:
            cid = field["custom_id"]
            value = values.get(cid, values.get(label or field.get("label") or "", ""))
            if field.get("type") == 4:
                if field.get("required", True) and not value:
                    raise UsageRefused(f"field {label or cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": value}
            return {"type": field["type"], "custom_id": cid, "values": list(value or [])}

        submitted = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                row = [answer(c, None) for c in comp.get("components", [])]
                submitted.append({"type": 1, "components": row})
            elif comp.get("type") == 18:
                inner = answer(comp["component"], comp.get("label"))
                submitted.append({"type": 18, "component": inner})
        data = {"custom_id": modal["custom_id"], "components": submitted}
        self._reachable(user, opened_by.channel)
        return await self._interact(
            MODAL_SUBMIT, user, opened_by.channel, data, wait=wait, source=opened_by.source_message
        )

    def visible(self, user: User, channel: Channel) -> list[Message]:
        """The messages `user` sees in `channel`, oldest first; their own ephemerals included."""
        if channel.deleted or not self.store.can(channel, user.id, Perm.VIEW_CHANNEL):
            return []
        return [
            m
            for m in self.store.messages.get(channel.id, [])
            if not m.deleted and m.ephemeral_for in (None, user.id)
        ]

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """A person types a plain message in the channel."""
        self._reachable(user, channel)
        if not self.store.can(channel, user.id, Perm.SEND_MESSAGES):
            raise UsageRefused(f"{user.name} may not write in #{channel.name}")
        msg = Message(
            self.store.snowflake(),
            channel.id,
            channel.guild_id,
            user,
            content=content,
            timestamp=self.store.iso_now(),
        )
        self.store.add_message(msg)
        await self.rest.announce("MESSAGE_CREATE", msg)
        return msg

    async def settle(self, within: float = SETTLE_GUARD) -> None:
        """Wait until no request is in flight, none came for ~30 ms (nor is the bot sitting out a
        rate limit or retry), no interaction awaits its acknowledgement, no deferred "thinking"
        answer is still owed, the gateway is not half-way through a reconnect, and every busy
        probe says done."""
        deadline = time.monotonic() + within
        pause = 0.005
        while True:
            await asyncio.sleep(pause)
            pause = 0.005
            now = time.monotonic()
            clock_now = self.clock.now()
            self._pending = {i for i in self._pending if not i.too_late_to_ack(clock_now)}
            # A "thinking" answer is still owed to the person (until the token runs out).
            self._thinking = {
                i
                for i in self._thinking
                if i.response is not None
                and i.response.loading
                and not i.response.deleted
                and not i.expired(clock_now)
            }
            busy = (
                self._thinking
                or self._in_flight
                or self._pending
                or self.gateway.reconnecting
                or now - max(self._last_activity, self._hold_until) < QUIET_SECONDS
                or any(probe() for probe in self.busy_probes)
            )
            if not busy:
                return
            # Busy until a quiet window after the last request or the end of a wait Discord
            # asked for, whatever else changes (both only move later): sleep until then, not
            # in 5 ms steps through a rate limit's seconds (each step costs CPU a test lacks).
            quiet_at = max(self._last_activity, self._hold_until) + QUIET_SECONDS
            pause = max(pause, min(quiet_at, deadline + 0.005) - now)
            if now > deadline:
                raise TimeoutError(
                    f"not settled after {within}s: in_flight={self._in_flight} "
                    f"pending={self._pending} thinking={self._thinking} "
                    f"reconnecting={self.gateway.reconnecting}"
                )

    # internals -------------------------------------------------------------------------------
    def _message_in_reach(self, user: User, message: Message | int) -> tuple[Message, Channel]:
        """The message as the person's client has it: there, and theirs to see."""
        msg = message if isinstance(message, Message) else self.store.find_message(message)
        if msg is None or msg.deleted:
            raise UsageRefused("the message is gone")
        if msg.ephemeral_for not in (None, user.id):
            raise UsageRefused(f"{user.name} cannot see that ephemeral message")
        if msg.loading:
            raise UsageRefused("the bot is still thinking; nothing to click yet")
        channel = self.store.channels[msg.channel_id]
        self._reachable(user, channel)
        return msg, channel

    def _reachable(self, user: User, channel: Channel) -> tuple[Guild, int]:
        if channel.deleted:
            raise UsageRefused(f"#{channel.name} was deleted")
        guild = self.store.guild(channel.guild_id)
        if user.id not in guild.members:
            raise UsageRefused(f"{user.name} is not in {guild.name}")
        perms = self.store.permissions(channel, user.id)
        if not perms & Perm.VIEW_CHANNEL:
            raise UsageRefused(f"{user.name} cannot see #{channel.name}")
        return guild, perms

    async def _interact(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        wait: bool,
        name: str | None = None,
        source: Message | None = None,
    ) -> Interaction:
        guild = self.store.guild(channel.guild_id)
        if self.gateway.session_for(guild.id) is None:
            raise RuntimeError(f"no bot session serves the shard of {guild.name}")
        member = guild.members[user.id]
        perms = self.store.permissions(channel, user.id)
        inter_id, token = self.store.snowflake(), "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(inter_id),
            "application_id": str(self.app_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.to_json(), "permissions": str(perms)},
            "member": {**member.to_json(), "permissions": str(perms)},
            "locale": user.locale,
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(self.store.permissions(channel, self.bot.id)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if source is not None:
            payload["message"] = source.to_json()
        inter = Interaction(
            inter_id,
            token,
            kind,
            user,
            channel,
            guild,
            self.clock.now(),
            payload,
            command_name=name,
            source_message=source,
        )
        self.interactions[inter_id] = inter
        self.interactions_by_token[token] = inter
        self._pending.add(inter)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self.settle()
        return inter
