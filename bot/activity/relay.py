"""Several processes on one PostgreSQL (README, "Several processes"): an Activity socket may
reach a process that does not run its game. PostgreSQL's LISTEN/NOTIFY carries the socket's
hello, its actions and the game's frames between that process (the *edge*) and the one that
holds the game's shard (the *holder*), so the person plays as if the game were local.

- Each process LISTENs on ``nines_activity`` (everyone) and ``nines_activity_<its id>``.
- The edge, finding no local game for an authenticated person, looks the channel's game up in
  the database and broadcasts ``join``; the process running that game adds a ``RemoteClient``
  to its room and answers with the ``ready`` frame, then every frame of that person (tables,
  acks, errors) on the edge's channel. ``act`` and ``leave`` go to the holder's channel.
- Every JOIN_EVERY seconds the edge broadcasts its people again (``refresh``): after a
  shard's takeover the new holder learns who watches its games from them. A process that
  ran a game and lost it (a handback, a takeover) closes the sockets it served it to
  (``Hub.release_lost``): they reconnect and reach the game where it runs now.

Frames travel zlib-compressed and base64-encoded (a NOTIFY payload is under 8000 bytes:
https://www.postgresql.org/docs/current/sql-notify.html). Nothing is stored: a frame lost in a
failover is made up by the next, each table being whole.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import secrets
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import asyncpg

from .protocol import Act, Json

if TYPE_CHECKING:
    from .hub import Client, Hub

log = logging.getLogger(__name__)

CHANNEL: Final = "nines_activity"
#: PostgreSQL's limit on a NOTIFY payload is 8000 bytes by default.
PAYLOAD_LONGEST: Final = 7900
#: How often an edge tells the holders again who watches their games (a takeover's new
#: holder knows nobody until then).
JOIN_EVERY: Final = 5.0
#: How long an edge waits for a holder's ready before telling the person there is no game.
READY_WITHIN: Final = 10.0


def pack(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode(), 6)).decode()


def unpack(data: str) -> str:
    return zlib.decompress(base64.b64decode(data)).decode()


@dataclass(eq=False, slots=True)
class RemoteClient:
    """On the holder: a socket open on another process, as the hub sees a client."""

    relay: Relay
    edge: str
    user_id: int
    name: str
    lang: str
    game_id: int

    def send(self, frame: Json | str) -> None:
        text = frame if isinstance(frame, str) else json.dumps(frame)
        self.relay.to_edge(self.edge, self.game_id, self.user_id, text)

    def stop(self) -> None:
        """Nothing to close here: the socket is the edge's."""


class Relay:
    def __init__(self, url: str, hub: Hub) -> None:
        self.url = url
        self.hub = hub
        self.me = secrets.token_hex(8)
        self._conn: asyncpg.Connection[Any] | None = None
        self._sending = asyncio.Lock()
        #: On the edge: the local sockets of games run elsewhere, by (game, user).
        self.edge_clients: dict[tuple[int, int], set[Client]] = {}
        #: On the edge: the holder each (game, user) was last answered by.
        self.holders: dict[tuple[int, int], str] = {}
        #: On the holder: the people watching its games from other processes.
        self.remote: dict[tuple[str, int, int], RemoteClient] = {}
        self._refresher: asyncio.Task[None] | None = None

    @property
    def own_channel(self) -> str:
        return f"{CHANNEL}_{self.me}"

    async def start(self) -> None:
        conn: asyncpg.Connection[Any] = await asyncpg.connect(self.url)
        await conn.add_listener(CHANNEL, self._heard)
        await conn.add_listener(self.own_channel, self._heard)
        self._conn = conn
        self._refresher = asyncio.create_task(self._refresh(), name="activity-relay-refresh")

    async def stop(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(BaseException):
                await self._refresher
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    # -- sending --------------------------------------------------------------------------------

    def _send(self, channel: str, message: Json) -> None:
        payload = json.dumps(message, separators=(",", ":"))
        if len(payload) > PAYLOAD_LONGEST:
            kind, size = message["t"], len(payload)
            log.error("activity relay: a %s message of %d bytes is too long", kind, size)
            return
        self.hub.background.run(self._notify(channel, payload), "activity-relay-send")

    async def _notify(self, channel: str, payload: str) -> None:
        conn = self._conn
        if conn is None:
            return
        async with self._sending:  # one statement at a time on the connection
            await conn.execute("SELECT pg_notify($1, $2)", channel, payload)

    def to_edge(self, edge: str, game_id: int, user_id: int, text: str) -> None:
        message = {"t": "frame", "from": self.me, "game": game_id, "user": user_id, "z": pack(text)}
        self._send(f"{CHANNEL}_{edge}", message)

    # -- the edge's side ------------------------------------------------------------------------

    def join(self, client: Client, avatar: str | None, *, refresh: bool = False) -> None:
        """Ask whichever process runs ``client``'s game for its table (and its frames after)."""
        key = (client.game_id, client.user_id)
        if not refresh:
            self.edge_clients.setdefault(key, set()).add(client)
        message = {
            "t": "join",
            "from": self.me,
            "game": client.game_id,
            "user": client.user_id,
            "name": client.name,
            "lang": client.lang,
            "avatar": avatar,
            "refresh": refresh,
        }
        self._send(CHANNEL, message)

    def act(self, client: Client, act: Act) -> None:
        key = (client.game_id, client.user_id)
        message = {
            "t": "act",
            "from": self.me,
            "game": client.game_id,
            "user": client.user_id,
            "key": act.key,
            "action": act.action,
            "n": act.n,
        }
        # To the holder that answered, else to everyone (only the holder acts on it).
        holder = self.holders.get(key)
        self._send(f"{CHANNEL}_{holder}" if holder else CHANNEL, message)

    def leave(self, client: Client) -> None:
        key = (client.game_id, client.user_id)
        local = self.edge_clients.get(key)
        if local is not None:
            local.discard(client)
            if local:
                return  # another socket of theirs is still open here
            del self.edge_clients[key]
        holder = self.holders.pop(key, None)
        message = {"t": "leave", "from": self.me, "game": key[0], "user": key[1]}
        self._send(f"{CHANNEL}_{holder}" if holder else CHANNEL, message)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(JOIN_EVERY)
            self.hub.release_lost()
            for clients in list(self.edge_clients.values()):
                first = next(iter(clients), None)
                if first is not None:
                    self.join(first, None, refresh=True)

    # -- receiving ------------------------------------------------------------------------------

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: object) -> None:
        try:
            message: Json = json.loads(str(payload))
            kind = message["t"]
            # Our own messages too: after a takeover, the process a socket reached may be the
            # one running its game, and still relays to itself (its socket joined as remote).
            if kind == "frame":
                self._frame(message)
            elif kind == "join":
                self.hub.background.run(self._join(message), "activity-relay-join")
            elif kind == "act":
                self._act(message)
            elif kind == "leave":
                self._left(message)
        except Exception:
            log.exception("activity relay: a message it cannot read")

    def _frame(self, message: Json) -> None:
        key = (int(message["game"]), int(message["user"]))
        self.holders[key] = str(message["from"])
        text = unpack(str(message["z"]))
        for client in list(self.edge_clients.get(key, ())):
            client.send(text)

    async def _join(self, message: Json) -> None:
        """On every process: if this one runs the game, the person joins its room."""
        game_id, user_id, edge = int(message["game"]), int(message["user"]), str(message["from"])
        session = self.hub.bot.sessions.get(game_id)
        if session is None:
            return  # not ours (or over): its holder answers
        key = (edge, game_id, user_id)
        known = self.remote.get(key)
        if known is not None and message.get("refresh"):
            return  # already watching
        if known is None:
            known = RemoteClient(
                self, edge, user_id, str(message["name"]), str(message["lang"]), game_id
            )
            self.remote[key] = known
        avatar = message.get("avatar")
        await self.hub.join(known, session, avatar if isinstance(avatar, str) else None)

    def _act(self, message: Json) -> None:
        key = (str(message["from"]), int(message["game"]), int(message["user"]))
        client = self.remote.get(key)
        if client is None:
            return  # not watching here: another holder (or none) answers
        act = Act(str(message["key"]), str(message["action"]), int(message["n"]))
        self.hub.background.run(self.hub.act(client, act), "activity-relay-act")

    def forget_games(self, games: set[int]) -> None:
        """On the holder: the games ended; nobody watches them through here any more."""
        for key in [k for k in self.remote if k[1] in games]:
            del self.remote[key]

    def _left(self, message: Json) -> None:
        key = (str(message["from"]), int(message["game"]), int(message["user"]))
        client = self.remote.pop(key, None)
        if client is not None:
            self.hub.forget(client)
