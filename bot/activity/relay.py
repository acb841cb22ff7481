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

Anyone who can connect to the database can LISTEN and NOTIFY on these channels, so every
message is sealed (bot/activity/seal.py: encrypted and authenticated with ``RELAY_KEY``,
numbered and timed); one that does not open (unsigned, forged, replayed) is dropped, counted
(``nines_activity_relay_dropped_total``) and said in a WARNING at most once a minute.

The listening connection is re-opened after a drop (growing delays, 0.5 s to 30 s). What was
sent to this process meanwhile is lost (PostgreSQL delivers a notification only to the
sessions listening when it is committed), and what it sent meanwhile is dropped: once
listening again, it closes the sockets it relays and tells the other processes to close
theirs that it served (``resync``). Each page reconnects, resends its unanswered actions (their
keys make them apply once) and gets its table whole.

A sealed message is zlib-compressed; a NOTIFY payload must be under 8000 bytes
(https://www.postgresql.org/docs/current/sql-notify.html): a longer one is not sent (logged).
Nothing is stored: a frame lost in a failover is made up by the next, each table being whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import asyncpg

from ..base import metrics
from .protocol import Act, Json
from .seal import STALE_AFTER, Dropped, Reason, Seal

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
#: How often the listening connection is checked when nothing tells it was lost (a dead
#: network sends no close), and how long its check may take.
CHECK_EVERY: Final = 5.0
#: Delays between attempts to re-open the listening connection: the first, doubled to the last.
REOPEN_FIRST: Final = 0.5
REOPEN_LAST: Final = 30.0
#: Dropped messages are said at most this often (they are all counted).
WARN_EVERY: Final = 60.0
#: The listening connection's name in pg_stat_activity (with the process's id).
APPLICATION_NAME: Final = "nines-activity-relay"


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
    def __init__(self, url: str, hub: Hub, key: str) -> None:
        self.url = url
        self.hub = hub
        self.me = secrets.token_hex(8)
        self.seal = Seal(key)
        self._conn: asyncpg.Connection[Any] | None = None
        self._sending = asyncio.Lock()
        #: Set when the listening connection is lost (by asyncpg, a failed check or send); one
        #: for each connection.
        self._lost = asyncio.Event()
        #: On the edge: the local sockets of games run elsewhere, by (game, user).
        self.edge_clients: dict[tuple[int, int], set[Client]] = {}
        #: On the edge: the holder each (game, user) was last answered by.
        self.holders: dict[tuple[int, int], str] = {}
        #: On the holder: the people watching its games from other processes.
        self.remote: dict[tuple[str, int, int], RemoteClient] = {}
        self._refresher: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        #: Dropped messages not said yet, by reason, and when they were said last.
        self._dropped: Counter[str] = Counter()
        self._warned_at = -WARN_EVERY

    @property
    def own_channel(self) -> str:
        return f"{CHANNEL}_{self.me}"

    async def start(self) -> None:
        conn = await self._open()
        self._keeper = asyncio.create_task(self._keep(conn), name="activity-relay-keeper")
        self._refresher = asyncio.create_task(self._refresh(), name="activity-relay-refresh")

    async def stop(self) -> None:
        for task in (self._refresher, self._keeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    # -- the listening connection --------------------------------------------------------------

    async def _open(self) -> asyncpg.Connection[Any]:
        """A connection listening on both channels (and sending)."""
        name = f"{APPLICATION_NAME}-{self.me}"
        conn: asyncpg.Connection[Any] = await asyncpg.connect(
            self.url, server_settings={"application_name": name}
        )
        try:
            lost = self._lost = asyncio.Event()
            conn.add_termination_listener(lambda _conn: lost.set())
            # What was sealed before now could not be heard: from a sealer not heard yet, it
            # is a replay (bot/activity/seal.py).
            self.seal.listening_since = time.time()
            await conn.add_listener(CHANNEL, self._heard)
            await conn.add_listener(self.own_channel, self._heard)
        except BaseException:
            conn.terminate()
            raise
        self._conn = conn
        log.info("activity relay: listening on %s and %s", CHANNEL, self.own_channel)
        return conn

    async def _keep(self, conn: asyncpg.Connection[Any]) -> None:
        """Watch the listening connection; after a drop, open another (with growing delays)
        and resync the sockets the relay serves."""
        while True:
            await self._watch(conn)
            self._conn = None
            conn.terminate()
            log.warning("activity relay: lost its connection to PostgreSQL; re-opening it")
            delay = REOPEN_FIRST
            while True:
                try:
                    conn = await self._open()
                    break
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                    wait = delay * random.uniform(0.5, 1.0)
                    log.warning(
                        "activity relay: cannot reach PostgreSQL (%s); trying again in %.1f s",
                        error,
                        wait,
                    )
                    await asyncio.sleep(wait)
                    delay = min(delay * 2, REOPEN_LAST)
            self._resync()

    async def _watch(self, conn: asyncpg.Connection[Any]) -> None:
        """Until the connection is lost: told by asyncpg, or found by a check now and then."""
        while not conn.is_closed():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), CHECK_EVERY)
                return
            try:
                async with self._sending:
                    await conn.execute("SELECT 1", timeout=CHECK_EVERY)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                return

    def _resync(self) -> None:
        """Listening again, after messages were lost both ways: this process's relayed sockets
        close, and it tells the others to close those it served (each page reconnects, resends
        its unanswered actions and gets its table whole)."""
        self._close_relayed(lambda holder: True)
        if self.remote:
            self._send(CHANNEL, {"t": "resync", "from": self.me})

    def _close_relayed(self, served_by: Callable[[str | None], bool]) -> None:
        closed = 0
        for key, clients in list(self.edge_clients.items()):
            if served_by(self.holders.get(key)):
                for client in list(clients):
                    client.stop()
                    closed += 1
        if closed:
            log.info("activity relay: closed %d relayed sockets to resync them", closed)

    # -- sending --------------------------------------------------------------------------------

    def _send(self, channel: str, message: Json) -> None:
        self.hub.background.run(self._notify(channel, message), "activity-relay-send")

    async def _notify(self, channel: str, message: Json) -> None:
        async with self._sending:  # one statement at a time on the connection, sealed in order
            conn, lost = self._conn, self._lost  # the connection and its own event
            if conn is None or conn.is_closed():
                return  # lost: the resync once listening again makes up for it
            payload = self.seal.seal(channel, message)
            if len(payload) > PAYLOAD_LONGEST:
                kind, size = message["t"], len(payload)
                log.error("activity relay: a %s message of %d bytes is too long", kind, size)
                return
            try:
                await conn.execute(
                    "SELECT pg_notify($1, $2)", channel, payload, timeout=CHECK_EVERY
                )
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.info("activity relay: a %s message was not sent (%s)", message["t"], error)
                lost.set()

    def to_edge(self, edge: str, game_id: int, user_id: int, text: str) -> None:
        message = {"t": "frame", "from": self.me, "game": game_id, "user": user_id, "frame": text}
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

    def _heard(self, _conn: Any, _pid: int, channel: str, payload: object) -> None:
        try:
            message = self.seal.open(channel, str(payload))
        except Dropped as dropped:
            self._drop(dropped.reason)
            return
        except Exception:
            log.exception("activity relay: a message that does not open")
            self._drop("forged")
            return
        try:
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
            elif kind == "resync":
                # Its listener dropped: what it served here may have lost frames or actions.
                holder = str(message["from"])
                self._close_relayed(lambda served_by: served_by == holder)
        except Exception:
            log.exception("activity relay: a message it cannot read")

    def _drop(self, reason: Reason) -> None:
        """A message that did not open: counted, and said at most once a minute."""
        metrics.relay_dropped(reason)
        self._dropped[reason] += 1
        now = time.monotonic()
        if now - self._warned_at < WARN_EVERY:
            return
        self._warned_at = now
        counts = ", ".join(f"{n} {why}" for why, n in sorted(self._dropped.items()))
        self._dropped.clear()
        log.warning(
            "activity relay: dropped messages that do not open with RELAY_KEY since its last "
            "warning (%s): a process with another RELAY_KEY or someone else on the database "
            "sends on its channels, or (replayed) the hosts' clocks are over %.0f s apart",
            counts,
            STALE_AFTER,
        )

    def _frame(self, message: Json) -> None:
        key = (int(message["game"]), int(message["user"]))
        self.holders[key] = str(message["from"])
        text = str(message["frame"])
        for client in list(self.edge_clients.get(key, ())):
            client.send(text)

    async def _join(self, message: Json) -> None:
        """On every process: if this one runs the game, the person joins its room."""
        game_id, user_id, edge = int(message["game"]), int(message["user"]), str(message["from"])
        session = self.hub.games.sessions.get(game_id)
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
