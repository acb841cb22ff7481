"""The gateway: HELLO/IDENTIFY/READY, heartbeats, dispatches, RESUME with replay, and drops."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
# Privileged intents.
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


@dataclass
class Session:
    id: str
    seq: int = 0
    # Every dispatch of the session, so a RESUME can replay what the bot missed.
    log: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None


class Gateway:
    def __init__(
        self,
        *,
        token: str,
        ready_payload: Callable[[Session], dict[str, Any]],
        guild_payloads: Callable[[], list[dict[str, Any]]],
        members_of: Callable[[int, str, list[int] | None, int], list[dict[str, Any]]],
        resume_url: Callable[[], str],
        on_activity: Callable[[], None],
    ) -> None:
        self._token = token
        self._ready_payload = ready_payload
        self._guild_payloads = guild_payloads
        self._members_of = members_of
        # Privileged intents "enabled in the developer portal"; asking for others closes 4014.
        self.allowed_privileged = PRIVILEGED
        self._resume_url = resume_url
        self._on_activity = on_activity
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.identifies = 0
        self.intents = 0  # what the bot asked for in IDENTIFY
        self.resumes = 0
        self.connected = asyncio.Event()
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def reconnecting(self) -> bool:
        """A session exists but no socket carries it (the bot is on its way back)."""
        return self.current is not None and not self.connected.is_set()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the bot, or keep it for the RESUME if the bot is away."""
        session = self.current
        if session is None:
            return
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.log.append(frame)
        self._on_activity()
        if session.ws is not None and not session.ws.closed:
            await session.ws.send_str(json.dumps(frame))

    # faults --------------------------------------------------------------------------------
    async def request_reconnect(self) -> None:
        """Op 7: Discord asks the bot to reconnect and resume."""
        ws = self._live_ws()
        self.connected.clear()
        await ws.send_str(json.dumps({"op": RECONNECT, "d": None}))

    async def drop(self, code: int = 4000) -> None:
        """Close the socket with a code that allows resuming (4000 Unknown error, ...)."""
        ws = self._live_ws()
        self.connected.clear()
        if self.current is not None:
            self.current.ws = None
        await ws.close(code=code, message=b"fake drop")

    def _live_ws(self) -> web.WebSocketResponse:
        if self.current is None or self.current.ws is None:
            raise RuntimeError("the bot is not connected to the gateway")
        return self.current.ws

    async def close_all(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"fake discord stopping")

    # the socket ----------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
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
                self.connected.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        if d.get("token") != self._token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        intents = int(d.get("intents") or 0)
        if intents & PRIVILEGED & ~self.allowed_privileged:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        self.identifies += 1
        self.intents = intents
        session = Session(secrets.token_hex(16), ws=ws)
        self.sessions[session.id] = session
        self.current = session
        self.connected.set()
        await self.dispatch("READY", self._ready_payload(session))
        for guild in self._guild_payloads():
            await self.dispatch("GUILD_CREATE", guild)
        return session

    async def _chunk(self, d: dict[str, Any]) -> None:
        """Op 8: the member list in one GUILD_MEMBERS_CHUNK (needs the GUILD_MEMBERS intent)."""
        guild_id = int(d["guild_id"])
        user_ids = [int(u) for u in d.get("user_ids") or []] or None
        if not self.intents & GUILD_MEMBERS and not user_ids:
            return
        members = self._members_of(guild_id, d.get("query") or "", user_ids, d.get("limit") or 0)
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
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or d.get("token") != self._token:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        self.resumes += 1
        session.ws = ws
        self.current = session
        seen = int(d.get("seq") or 0)
        for frame in session.log:
            if frame["s"] > seen:
                await ws.send_str(json.dumps(frame))
        self.connected.set()
        await self.dispatch("RESUMED", {})
        return session
