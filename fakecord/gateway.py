"""The gateway: HELLO/IDENTIFY/READY, heartbeats, dispatches, RESUME with replay, and drops.

Sharded as Discord does: a session IDENTIFYs for ``shard: [id, count]`` (none: ``[0, 1]``), and
each guild's events and interactions go to the session of shard ``(guild_id >> 22) % count``;
events without a guild go to shard 0."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .world import World

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
# Close codes for a shard Discord will not serve.
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
# Events whose guild is the payload's own id rather than its guild_id.
GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
# Privileged intents.
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that serves a guild, by Discord's formula."""
    return (guild_id >> 22) % shard_count


@dataclass
class Session:
    id: str
    shard: int = 0
    seq: int = 0
    # Every dispatch of the session, so a RESUME can replay what the bot missed.
    log: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None


class Gateway:
    def __init__(self, world: World) -> None:
        #: The Discord it serves: the bot's token, READY's and GUILD_CREATE's payloads, members.
        self._world = world
        # Privileged intents "enabled in the developer portal"; asking for others closes 4014.
        self.allowed_privileged = PRIVILEGED
        self.sessions: dict[str, Session] = {}
        #: The session each shard's events go to (its latest IDENTIFY or RESUME).
        self.by_shard: dict[int, Session] = {}
        #: How many shards the double serves (what GET /gateway/bot recommends); a bot must
        #: IDENTIFY with this count.
        self.shard_count = 1
        #: IDENTIFYs allowed at once (one per bucket ``shard_id % max_concurrency``), each
        #: bucket once every IDENTIFY_SPACING seconds (see spacing_violations()).
        self.max_concurrency = 1
        #: Every IDENTIFY accepted: (time.monotonic(), shard id), in order.
        self.identified: list[tuple[float, int]] = []
        #: Shards identified again while another session of theirs was still connected (two
        #: processes serving one shard: Discord allows it, the bot must not do it).
        self.doubled: list[int] = []
        self.identifies = 0
        self.intents = 0  # what the bot asked for in IDENTIFY
        self.resumes = 0
        self.connected = asyncio.Event()
        self._stopping = False
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def current(self) -> Session | None:
        """Shard 0's session (the only one of an unsharded bot)."""
        return self.by_shard.get(0)

    @property
    def reconnecting(self) -> bool:
        """A session exists but no socket carries it (the bot is on its way back)."""
        return bool(self.by_shard) and not self.connected.is_set()

    def shard_of(self, guild_id: int) -> int:
        return shard_of(guild_id, self.shard_count)

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that gets a guild's events (shard 0's for no guild)."""
        return self.by_shard.get(0 if guild_id is None else self.shard_of(guild_id))

    def spacing_violations(self, spacing: float = 5.0) -> list[tuple[int, int, float]]:
        """IDENTIFYs closer than ``spacing`` seconds to the previous one of their bucket
        (``shard_id % max_concurrency``): (shard, previous shard, seconds between)."""
        last: dict[int, tuple[float, int]] = {}
        found = []
        for at, shard in self.identified:
            bucket = shard % self.max_concurrency
            if bucket in last and at - last[bucket][0] < spacing:
                found.append((shard, last[bucket][1], at - last[bucket][0]))
            last[bucket] = (at, shard)
        return found

    def _update_connected(self) -> None:
        live = all(s.ws is not None and not s.ws.closed for s in self.by_shard.values())
        if self.by_shard and live:
            self.connected.set()
        else:
            self.connected.clear()

    @staticmethod
    def _guild_of(event: str, data: dict[str, Any]) -> int | None:
        if event in GUILD_EVENTS:
            return int(data["id"])
        guild_id = data.get("guild_id")
        return int(guild_id) if guild_id else None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session of its guild's shard (kept for its RESUME if that
        session is away), and to every other session still connected on that shard.

        Discord lets several sessions identify on one shard (sharding:
        https://discord.com/developers/docs/events/gateway#sharding) and sends the shard's
        events to each of them, as seen in issue 32 (two processes both got a click, the
        second callback failed 40060); the double does the same, so a bot that leaves a
        session on a shard it no longer holds is caught answering for another."""
        guild_id = self._guild_of(event, data)
        shard = 0 if guild_id is None else self.shard_of(guild_id)
        latest = self.by_shard.get(shard)
        others = [
            s
            for s in self.sessions.values()
            if s.shard == shard and s is not latest and s.ws is not None and not s.ws.closed
        ]
        for session in [*([latest] if latest is not None else []), *others]:
            await self._send(session, event, data)

    async def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        self._world.touch()
        if session.ws is not None and not session.ws.closed:
            # A socket whose process just died is closing before the double sees it closed:
            # the frame stays in the log for a RESUME, and the event's sender (a person's
            # click) is not failed for it.
            with contextlib.suppress(ConnectionResetError):
                await session.ws.send_str(json.dumps(frame))

    # faults --------------------------------------------------------------------------------
    async def request_reconnect(self, shard: int = 0) -> None:
        """Op 7: Discord asks the bot (that shard's session) to reconnect and resume."""
        ws = self._live_ws(shard)
        self.connected.clear()
        await ws.send_str(json.dumps({"op": RECONNECT, "d": None}))

    async def drop(self, code: int = 4000, shard: int = 0) -> None:
        """Close the socket with a code that allows resuming (4000 Unknown error, ...)."""
        ws = self._live_ws(shard)
        self.connected.clear()
        self.by_shard[shard].ws = None
        await ws.close(code=code, message=b"fake drop")

    def _live_ws(self, shard: int) -> web.WebSocketResponse:
        session = self.by_shard.get(shard)
        if session is None or session.ws is None:
            raise RuntimeError(f"the bot is not connected to the gateway (shard {shard})")
        return session.ws

    def _end(self, session: Session) -> None:
        self.sessions.pop(session.id, None)
        if self.by_shard.get(session.shard) is session:
            del self.by_shard[session.shard]

    async def close_all(self) -> None:
        self._stopping = True  # an outage: the sessions survive for RESUME
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"fake discord stopping")

    def reopen(self) -> None:
        """The outage is over (the double listens again)."""
        self._stopping = False

    def stopping(self) -> bool:
        """In an outage (``close_all`` until ``reopen``). A method, not the attribute: asked
        again after an await, where the outage may have begun meanwhile."""
        return self._stopping

    # the socket ----------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        if self.stopping():  # a connection that raced the outage is refused like the others
            raise web.HTTPServiceUnavailable()
        await ws.prepare(request)
        if self.stopping():  # ... or closed, if the outage began during its handshake
            await ws.close(code=1001, message=b"fake discord stopping")
            return ws
        self._sockets.add(ws)
        session: Session | None = None
        try:
            await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": 41250}}))
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
                elif op == IDENTIFY:
                    session = await self._identify(ws, d)
                elif op == RESUME:
                    session = await self._resume(ws, d)
                elif op == REQUEST_MEMBERS:
                    await self._chunk(d)
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if ws.close_code in (1000, 1001) and not self._stopping:
                    self._end(session)  # the bot closed it: Discord ends such a session
                self._update_connected()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        if d.get("token") != self._world.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = int(d.get("intents") or 0)
        if intents & PRIVILEGED & ~self.allowed_privileged:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        shard, count = d.get("shard") or (0, 1)
        if count != self.shard_count or not 0 <= shard < count:
            code = SHARDING_REQUIRED if count < self.shard_count else INVALID_SHARD
            await ws.close(code=code, message=f"Invalid shard [{shard}, {count}].".encode())
            return None
        self.identifies += 1
        self.identified.append((time.monotonic(), shard))
        self.intents = intents
        before = self.by_shard.get(shard)
        if before is not None and before.ws is not None and not before.ws.closed:
            self.doubled.append(shard)
        session = Session(secrets.token_hex(16), shard, ws=ws)
        self.sessions[session.id] = session
        self.by_shard[shard] = session
        self._update_connected()
        ready = self._world.ready_payload(session)
        ready["guilds"] = [g for g in ready["guilds"] if self.shard_of(int(g["id"])) == shard]
        if "shard" in d:
            ready["shard"] = [shard, count]
        await self._send(session, "READY", ready)
        store = self._world.store
        for guild in store.guilds.values():
            if self.shard_of(guild.id) == shard:
                await self._send(session, "GUILD_CREATE", store.guild_json(guild))
        return session

    async def _chunk(self, d: dict[str, Any]) -> None:
        """Op 8: the member list in one GUILD_MEMBERS_CHUNK (needs the GUILD_MEMBERS intent)."""
        guild_id = int(d["guild_id"])
        user_ids = [int(u) for u in d.get("user_ids") or []] or None
        if not self.intents & GUILD_MEMBERS and not user_ids:
            return
        members = self._world.members_of(
            guild_id, d.get("query") or "", user_ids, d.get("limit") or 0
        )
        chunk: dict[str, Any] = {
            "guild_id": str(guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if "nonce" in d:
            chunk["nonce"] = d["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        """Op 6 as Discord answers it (https://discord.com/developers/docs/events/gateway#resuming):
        the session named by its id (READY's ``session_id``, reached at READY's
        ``resume_gateway_url``) gets every dispatch after the ``seq`` the bot last saw, then
        RESUMED; a session Discord no longer has (ended by a close with 1000/1001 from the
        bot, or never known) gets Invalid Session with ``d: false``, "not resumable", and the
        bot must IDENTIFY anew (https://discord.com/developers/docs/events/gateway-events#invalid-session).
        """
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or d.get("token") != self._world.token:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        self.resumes += 1
        if any(
            s.shard == session.shard and s is not session and s.ws is not None and not s.ws.closed
            for s in self.sessions.values()
        ):
            self.doubled.append(session.shard)  # resumed beside another process's session
        session.ws = ws
        self.by_shard[session.shard] = session
        seen = int(d.get("seq") or 0)
        for frame in session.log:
            if frame["s"] > seen:
                await ws.send_str(json.dumps(frame))
        self._update_connected()
        await self._send(session, "RESUMED", {})
        return session
