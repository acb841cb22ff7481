"""Web tables open in a channel with no game, waiting for one to open there.

A page opened where no game runs used to be refused (``no-game``) and closed; it reconnected seconds
later, each hello two Discord calls, for as long as it stayed open. With one process (no relay),
such a socket now stays open once signed in: it is told once (``waiting``,
docs/activity-protocol.md), costs Discord nothing meanwhile (its pings are answered here), and when
a game opens in its channel in this process it sits down at that game's table (``ready``) like any
socket. ``Sessions.opened`` tells it (bot/game/session.py: a lobby opened, a game restored or taken
over, a table moved to its thread).

On PostgreSQL (the relay, bot/activity/relay.py) a game may open in another process, which
this one does not hear: there the hub refuses with ``no-game`` and closes, and the page asks again
only minutes later (web/src/connection.ts), or at once when the person asks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..game import GameSession
from .protocol import waiting_frame
from .words import refusal

if TYPE_CHECKING:
    from .hub import Client, Hub

log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class Waiter:
    """A signed-in socket waiting in a channel: what it needs to sit down later."""

    client: Client
    channel_id: int
    guild_id: int | None
    avatar: str | None


class Waiting:
    """The waiting sockets of this process, by channel (the instance's, as Discord says)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.by_channel: dict[int, dict[Client, Waiter]] = {}

    def __len__(self) -> int:
        return sum(len(waiters) for waiters in self.by_channel.values())

    def add(
        self, client: Client, channel_id: int, guild_id: int | None, avatar: str | None
    ) -> None:
        """``client`` waits in ``channel_id``: told so once."""
        client.waiting = True
        self.by_channel.setdefault(channel_id, {})[client] = Waiter(
            client, channel_id, guild_id, avatar
        )
        offered = self.hub.games.daily.offered  # the page may offer today's daily meanwhile
        client.send(waiting_frame(refusal(client.lang, "no-game"), daily_offered=offered))

    def where(self, client: Client) -> tuple[int, int | None] | None:
        """The channel and guild ``client`` waits in; None if it does not wait."""
        for channel_id, waiters in self.by_channel.items():
            waiter = waiters.get(client)
            if waiter is not None:
                return channel_id, waiter.guild_id
        return None

    def discard(self, client: Client) -> None:
        """``client`` closed while waiting."""
        for channel_id, waiters in list(self.by_channel.items()):
            if waiters.pop(client, None) is not None and not waiters:
                del self.by_channel[channel_id]

    def game_opened(self, session: GameSession) -> None:
        """A game runs here now (``Sessions.opened``): the sockets waiting in its channels
        sit down at its table, in the background (the caller may hold no lock but its own)."""
        for channel_id in {session.channel_id, session.lobby_channel_id}:
            waiters = self.by_channel.get(channel_id)
            if not waiters:
                continue
            for waiter in list(waiters.values()):
                # The same checks as a hello's: the game of this channel, of the instance's
                # guild, run by this process.
                if self.hub.game_in(channel_id, waiter.guild_id) is session:
                    del waiters[waiter.client]
                    self.hub.background.run(self._seat(waiter, session), "activity-seat-waiter")
            if not waiters:
                del self.by_channel[channel_id]

    async def _seat(self, waiter: Waiter, session: GameSession) -> None:
        client = waiter.client
        log.info("activity: game %s opened; a waiting socket joins it", session.id)
        client.game_id = session.id
        client.waiting = False
        await self.hub.join(client, session, waiter.avatar)
        if client.closed:  # closed while it joined: its close found no room to leave
            self.hub.forget(client)

    def close(self) -> None:
        """Stopping: every waiting socket is closed (the pages reconnect to the next server)."""
        for waiters in self.by_channel.values():
            for client in waiters:
                client.stop()
        self.by_channel.clear()
