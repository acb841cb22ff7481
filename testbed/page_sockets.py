"""The web table's page without a browser, for restarts and soaks: one socket per person that
follows the page's own rules (web/src/connection.ts), not a test's shortcuts.

- the access token is exchanged once (``POST /api/token``) and kept: every hello after a drop
  reuses it, as the page does;
- a dropped socket (or one that never opened: the process is down) is opened again after
  ``backoff``: 0.5 s plus up to 5 s doubled per attempt, at most 15 s, spread uniformly (full
  jitter); ``retry`` and ``busy`` are tried again so, never sooner than their ``retry_after``;
  any other refusal is final (the page stops and says why);
- a ping every 10 s;
- with ``play``, whoever's turn it is sends one of the legal actions after a pause, with a
  fresh key and the table's ``n``; an action unanswered when the socket drops is resent, the
  same key, on the next socket (its first answer comes back if it was stored).

What it keeps for the checks: each ``ready`` (when), each refusal by code, and every action with
the answers its key got.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import aiohttp

Json = dict[str, Any]

#: web/src/connection.ts: LEAST_RETRY_MS, FIRST_SPREAD_MS, MAX_RETRY_MS (seconds here).
LEAST_RETRY: Final = 0.5
FIRST_SPREAD: Final = 5.0
MAX_RETRY: Final = 15.0
#: The page's heartbeat (ACTIVITY.md: a ping every 10 s).
PING_EVERY: Final = 10.0
#: How long a hello may wait for its answer before the socket is dropped and tried again.
HELLO_WAIT: Final = 30.0
#: The refusals the page tries again (the others are final).
TRIED_AGAIN: Final = frozenset({"retry", "busy"})


def backoff(attempt: int, floor: float, rng: random.Random) -> float:
    """The wait before try number ``attempt`` (0 the first after a drop), as the page's."""
    ceiling = min(MAX_RETRY, FIRST_SPREAD * 2.0**attempt)
    return max(0.0, floor) + LEAST_RETRY + rng.random() * (ceiling - LEAST_RETRY)


@dataclass
class PageAct:
    """One action sent from a page, and every answer its key got."""

    key: str
    action: str
    n: int
    answers: list[str] = field(default_factory=list)  # "ack", or "error:<code>"
    sends: int = 0

    @property
    def acked(self) -> bool:
        return "ack" in self.answers


@dataclass
class Seat:
    """Where a person's page is: what Discord's client hands the page."""

    user_id: int
    instance: str
    channel: str
    guild: str
    game: int


class PageSocket:
    """One person's page: opened, kept open, and opened again by the page's rule."""

    def __init__(
        self,
        seat: Seat,
        token: str,
        base: Callable[[], str],
        rng: random.Random,
        *,
        pause: tuple[float, float] | None = None,
    ) -> None:
        self.seat, self.token, self.base, self.rng = seat, token, base, rng
        #: None: the page only watches; else the pause (seconds, uniform) before each action.
        self.pause = pause
        self.readies: list[float] = []
        self.refusals: Counter[str] = Counter()
        self.acts: list[PageAct] = []
        self.final: str | None = None  # a final refusal's code: the page stopped
        self.table: Json | None = None
        self.seq: int | None = None
        self.drops = 0
        self._pending: PageAct | None = None
        self._due: float | None = None

    @property
    def open(self) -> bool:
        """Whether the last socket got its ``ready`` and is open still."""
        return self._open

    _open = False

    async def run(self, http: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        """Until ``stop`` (or a final refusal): a socket open, or waiting to open one."""
        attempt = 0
        while not stop.is_set() and self.final is None:
            floor, ready = await self._one_socket(http, stop)
            if ready:
                attempt = 0
            if stop.is_set() or self.final is not None:
                return
            self.drops += 1
            wait = backoff(attempt, floor, self.rng)
            attempt += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)

    async def _one_socket(
        self, http: aiohttp.ClientSession, stop: asyncio.Event
    ) -> tuple[float, bool]:
        """One socket's life: its hello, then its frames until it drops. The wait the server
        asked for (``retry_after``, else 0) and whether it got its ``ready``."""
        ready = False
        try:
            async with http.ws_connect(self.base() + "/api/ws", heartbeat=None) as ws:
                await ws.send_json(
                    {
                        "op": "hello",
                        "access_token": self.token,
                        "instance_id": self.seat.instance,
                        "channel_id": self.seat.channel,
                        "guild_id": self.seat.guild,
                        "last_seq": self.seq,
                        "locale": "en-US",
                    }
                )
                first = await self._frame(ws, HELLO_WAIT)
                if first is None:
                    return 0.0, False
                if first["op"] == "error":
                    return self._refused(first), False
                if first["op"] != "ready":
                    return 0.0, False
                ready = self._open = True
                self.readies.append(time.monotonic())
                self._resend_or_plan()
                await self._play(ws, stop)
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError):
            pass
        finally:
            self._open = False
        return 0.0, ready

    def _refused(self, frame: Json) -> float:
        code = str(frame.get("code"))
        self.refusals[code] += 1
        if code not in TRIED_AGAIN:
            self.final = code
        return float(frame.get("retry_after") or 0.0)

    async def _frame(self, ws: aiohttp.ClientWebSocketResponse, within: float) -> Json | None:
        message = await ws.receive(timeout=within)
        if message.type is not aiohttp.WSMsgType.TEXT:
            return None
        frame: Json = json.loads(message.data)
        if frame["op"] in ("ready", "table"):
            self.table, self.seq = frame["table"], frame["seq"]
            if frame["op"] == "table":
                self._plan()
        return frame

    async def _play(self, ws: aiohttp.ClientWebSocketResponse, stop: asyncio.Event) -> None:
        pinged = time.monotonic()
        while not stop.is_set():
            now = time.monotonic()
            if now - pinged >= PING_EVERY:
                await ws.send_json({"op": "ping"})
                pinged = now
            if self._due is not None and now >= self._due:
                self._due = None
                await self._send(ws)
            until = pinged + PING_EVERY
            if self._due is not None:
                until = min(until, self._due)
            try:
                frame = await self._frame(ws, max(0.01, min(until - now, 1.0)))
            except TimeoutError:
                continue
            if frame is None:
                return
            act = self._pending
            if act is not None and frame.get("key") == act.key and frame["op"] in ("ack", "error"):
                act.answers.append("ack" if frame["op"] == "ack" else f"error:{frame['code']}")
                self._pending = None
                self._plan()
            elif frame["op"] == "error" and frame.get("key") is None:
                self._refused(frame)  # a refusal of the socket itself: it closes next

    def _plan(self) -> None:
        """An action due after a pause when it is this person's turn (one at a time)."""
        if self.pause is None or self._pending is not None or self._due is not None:
            return
        table = self.table
        hand = None if table is None else table.get("hand")
        if table is None or table.get("status") != "playing" or not hand or not hand.get("legal"):
            return
        self._due = time.monotonic() + self.rng.uniform(*self.pause)

    def _resend_or_plan(self) -> None:
        """After a ``ready``: an action left unanswered goes again at once, else the next."""
        if self._pending is not None:
            self._due = time.monotonic()
        else:
            self._due = None
            self._plan()

    async def _send(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        act = self._pending
        if act is None:
            table = self.table
            hand = None if table is None else table.get("hand")
            if table is None or not hand or not hand.get("legal"):
                return
            act = PageAct(uuid.uuid4().hex, self.rng.choice(hand["legal"]), int(table["n"]))
            self.acts.append(act)
            self._pending = act
        act.sends += 1
        await ws.send_json({"op": "act", "key": act.key, "action": act.action, "n": act.n})


async def exchange(http: aiohttp.ClientSession, base: str, code: str) -> str:
    """The page's ``POST /api/token``: the access token for Discord's code."""
    async with http.post(base + "/api/token", json={"code": code}) as answer:
        body = await answer.json()
        if answer.status != 200:
            raise RuntimeError(f"/api/token answered {answer.status}: {body}")
        return str(body["access_token"])
