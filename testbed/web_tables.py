"""A person at the Activity's web table, browser-less, for the chaos harness (testbed/chaos.py):
the socket a browser opens (``/api/token``, then a hello: the contract), on whichever bot
process is up, opened again on another when its process dies, and each action sent with an
idempotency key that is resent, unchanged, until an answer comes (the web client's own rule).

What it keeps for the checks: every action sent (``SocketAct``), with every answer its key got,
from whichever process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import aiohttp

from fakecord import FakeDiscord
from fakecord.models import Channel, Guild, User

Json = dict[str, Any]

#: How long an action waits for its answer on one socket before the socket is given up and the
#: key resent on another (a process killed mid-answer says nothing).
ANSWER_WAIT = 6.0
#: How long a resent key keeps being tried, across processes, before the action is given up.
GIVE_UP_AFTER = 60.0
#: The Activity's sign-in limits for a harness whose people all sign in from 127.0.0.1 at
#: once (bot/base/settings.py: one address, one budget of Discord calls, meant for real people
#: behind their own addresses): roomy enough that none waits.
CROWD_SIGN_INS: Final = {
    "ACTIVITY_ADDRESS_BURST": "100000",
    "ACTIVITY_ADDRESS_PER_MINUTE": "100000",
    "ACTIVITY_DISCORD_BURST": "1000",
    "ACTIVITY_DISCORD_PER_MINUTE": "1200",
}
#: The client's heartbeat (the contract: a ping every 10 s; the server drops a socket silent
#: for 30 s).
PING_EVERY = 10.0


@dataclass
class SocketAct:
    """One action sent from a web table, and every answer its key got."""

    game: int
    user: User
    key: str
    action: str
    #: The move count of the table it was made on, sent with it: stored, the move is stored
    #: at this index (made on an older table, it is refused as out of date).
    n: int
    answers: list[str] = field(default_factory=list)  # "ack", or "error:<code>"
    sends: int = 0

    def frame(self) -> Json:
        """Its ``act`` frame, the same at every send."""
        return {"op": "act", "key": self.key, "action": self.action, "n": self.n}

    @property
    def acked(self) -> bool:
        return "ack" in self.answers


class WebTable:
    """One person's web table in one channel."""

    def __init__(
        self,
        fake: FakeDiscord,
        user: User,
        guild: Guild,
        channel: Channel,
        ports: Callable[[], list[int]],
        rng: random.Random,
    ) -> None:
        self.fake, self.user, self.guild, self.channel = fake, user, guild, channel
        #: The Activity's ports of the processes up now.
        self.ports = ports
        self.rng = rng
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.table: Json | None = None
        self.seq: int | None = None
        self.acts: list[SocketAct] = []
        #: Every table this web table was sent (``ready`` and ``table`` frames), in order.
        self.tables: list[Json] = []
        self.pinged = 0.0
        self.instance = fake.activity_instance(channel, [user.id])

    async def close(self) -> None:
        await self._drop()
        if self.http is not None:
            await self.http.close()
            self.http = None

    def state(self) -> str:
        """What the web table shows now, in short (for a stuck game's report)."""
        t = self.table
        if t is None:
            return f"no table (socket {'open' if self.ws is not None else 'closed'})"
        hand = t["hand"]
        return (
            f"game {t['game_id']} seq {self.seq} n {t['n']} status {t['status']} phase "
            f"{t['phase']} turn {t['turn']} legal {None if hand is None else hand['legal']}, "
            f"socket {'open' if self.ws is not None and not self.ws.closed else 'closed'}, "
            f"last answers {[a.answers for a in self.acts[-3:]]}"
        )

    async def reopen(self) -> None:
        """Close the socket: the next look opens another, whose hello finds the channel's
        game now (a socket stays at the game it opened on)."""
        await self._drop()
        self.table = self.seq = None

    async def _drop(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None

    async def connect(self) -> bool:
        """Open the socket on a process that is up and read its ``ready``; False if none
        answered (the caller tries again later)."""
        await self._drop()
        ports = self.ports()
        if not ports:
            return False
        if self.http is None:
            self.http = aiohttp.ClientSession()
        base = f"http://127.0.0.1:{self.rng.choice(ports)}"
        try:
            code = self.fake.authorize(self.user)
            async with self.http.post(base + "/api/token", json={"code": code}) as answer:
                if answer.status != 200:
                    return False
                token = (await answer.json())["access_token"]
            self.ws = await self.http.ws_connect(base + "/api/ws", heartbeat=None)
            await self.ws.send_json(
                {
                    "op": "hello",
                    "access_token": token,
                    "instance_id": self.instance,
                    "channel_id": str(self.channel.id),
                    "guild_id": str(self.guild.id),
                    "last_seq": self.seq,
                    "locale": "en-US",
                }
            )
            frame = await self._frame(ANSWER_WAIT)
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
            await self._drop()
            return False
        if frame is None or frame["op"] != "ready":
            await self._drop()
            return False
        return True

    async def _frame(self, within: float) -> Json | None:
        """The next frame (a table kept as the latest), None when the socket closed."""
        assert self.ws is not None
        message = await self.ws.receive(timeout=within)
        if message.type is not aiohttp.WSMsgType.TEXT:
            return None
        frame: Json = json.loads(message.data)
        if frame["op"] in ("ready", "table"):
            self.table, self.seq = frame["table"], frame["seq"]
            self.tables.append(frame["table"])
        return frame

    async def latest(self) -> Json | None:
        """The newest table, the frames waiting read; reconnects when the socket is gone."""
        if (self.ws is None or self.ws.closed) and not await self.connect():
            return None
        if time.monotonic() - self.pinged > PING_EVERY:
            assert self.ws is not None
            with contextlib.suppress(aiohttp.ClientError, OSError, ConnectionResetError):
                await self.ws.send_json({"op": "ping"})
            self.pinged = time.monotonic()
        while True:
            try:
                frame = await self._frame(0.05)
            except TimeoutError:
                return self.table
            except (aiohttp.ClientError, OSError):
                frame = None
            if frame is None:
                await self._drop()
                return None

    async def act(self, game: int, table: Json) -> SocketAct:
        """One of the legal actions, sent and resent under one key until answered."""
        legal = table["hand"]["legal"]
        act = SocketAct(game, self.user, uuid.uuid4().hex, self.rng.choice(legal), table["n"])
        self.acts.append(act)
        deadline = time.monotonic() + GIVE_UP_AFTER
        while not act.answers and time.monotonic() < deadline:
            if (self.ws is None or self.ws.closed) and not await self.connect():
                await asyncio.sleep(0.5)
                continue
            assert self.ws is not None
            try:
                await self.ws.send_json(act.frame())
                act.sends += 1
                until = time.monotonic() + ANSWER_WAIT
                while not act.answers:
                    frame = await self._frame(max(0.01, until - time.monotonic()))
                    if frame is None:
                        break  # closed: resent on the next socket
                    if frame.get("key") == act.key and frame["op"] in ("ack", "error"):
                        act.answers.append(
                            "ack" if frame["op"] == "ack" else f"error:{frame['code']}"
                        )
            except (aiohttp.ClientError, OSError, TimeoutError, ConnectionResetError):
                pass
            if not act.answers:
                await self._drop()
        if act.acked and act.sends == 1 and self.rng.random() < 0.25:
            # A client that lost the answer on its way resends: the first answer again.
            await self.resend(act)
        elif act.answers and not act.acked:
            # Refused: as a person would, the table is opened again (a fresh hello, the table
            # whole) rather than the same choice tried on the same table.
            await self.reopen()
        return act

    async def resend(self, act: SocketAct) -> None:
        """The same key again (as after a reconnection that lost the answer)."""
        if self.ws is None or self.ws.closed:
            return
        try:
            await self.ws.send_json(act.frame())
            act.sends += 1
            until = time.monotonic() + ANSWER_WAIT
            while True:
                frame = await self._frame(max(0.01, until - time.monotonic()))
                if frame is None:
                    return
                if frame.get("key") == act.key and frame["op"] in ("ack", "error"):
                    act.answers.append("ack" if frame["op"] == "ack" else f"error:{frame['code']}")
                    return
        except (aiohttp.ClientError, OSError, TimeoutError):
            return
