"""A small stand-in for the bot's Activity server (docs/activity-protocol.md), for the web
table's browser tests: it serves the built client (the tests' build, with the SDK mock:
testbed/web_build.py; at ``/`` and under Discord's ``/.proxy/`` prefix), answers
``POST /api/token`` and speaks the websocket protocol with the table models the test gives it,
serialized by the bot's own ``table_json``. Every frame it sends and receives is checked
against the contract's schema; what breaks it is kept in ``invalid``, which the ``fake``
fixture finds empty after each test.

It runs its own event loop in a thread, since Selenium's calls block. Everything the clients
send is kept in ``frames`` for the test to check.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.activity.protocol import table_json
from bot.table import TableModel
from fakecord.server import ACCEPT_TURNS
from testbed.browser import PAGE_GUARD
from testbed.contract import check_client_frame, check_server_frame
from testbed.games import HANG_GUARD

Json = dict[str, Any]

STATIC = Path(__file__).resolve().parents[2] / "bot" / "activity" / "static"


@dataclass
class Received:
    """One frame a client sent, with the number of the socket it came on (1, 2, ...)."""

    socket: int
    frame: Json
    #: When it arrived (``time.monotonic``).
    at: float = field(default_factory=time.monotonic)


@dataclass
class FakeActivityServer:
    #: The table each user sees, by user id; a function so that deadlines are fresh.
    views: dict[int, Callable[[], TableModel]] = field(default_factory=dict)
    frames: list[Received] = field(default_factory=list)
    #: What broke the contract's schema, sent or received (the frame and what was wrong), and
    #: acts ``on_act`` failed on.
    invalid: list[str] = field(default_factory=list)
    #: Close the socket on the next act without answering it (a drop mid-action).
    drop_next_act: bool = False
    #: Answer acts with ack + table (True) or leave them unanswered (False).
    answer_acts: bool = True
    #: Acks an act and sends no table after it (the server's table still on its way).
    ack_only: bool = False
    #: Refuse acts with an error frame in these words (code "not-your-turn").
    refuse_acts: str | None = None
    #: Called with the user and each new act frame before it is answered (a test's game
    #: plays it), on the server's thread.
    on_act: Callable[[int, Json], None] | None = None
    #: Answer pings (False: a server gone silent, as a half-dead mobile connection looks).
    answer_pings: bool = True
    #: Fields added to every TABLE sent (what a newer server sends, say).
    table_extra: dict[str, Any] = field(default_factory=dict)
    #: What the next hellos are answered with, one each, before ``ready`` again: an error
    #: frame (the socket is then closed, as the bot's hub does) or a ``waiting`` frame (the
    #: socket kept, ``ready`` sent by ``seat_waiting``).
    hello_answers: list[Json] = field(default_factory=list)
    #: What the next ``POST /api/token`` are answered with, one each: (status, headers).
    token_answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    #: Token exchanges asked for.
    token_asks: int = 0
    #: Whether the daily deal is offered (``ready``'s ``daily_offered``).
    daily_offered: bool = False
    #: What a hello with ``daily`` is answered with instead of the daily's ``ready``: its
    #: ``daily-result`` (played already) or an error frame (the socket then closed).
    daily_answer: Json | None = None
    #: The day a daily's ``ready`` says.
    daily_day: str = "2026-12-03"
    seq: int = 40
    answers: dict[str, Json] = field(default_factory=dict)
    port: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None
    _sockets: int = 0
    _open: set[web.WebSocketResponse] = field(default_factory=set)
    #: The sockets answered ``waiting``, with their user and language.
    _waiting: list[tuple[web.WebSocketResponse, int, str]] = field(default_factory=list)
    _thread: threading.Thread = field(default_factory=threading.Thread)
    #: The built client served: the tests' build, with Discord's SDK mock (``?mock=``).
    static: Path = STATIC

    # The test's side (another thread) --------------------------------------------------

    def start(self) -> None:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the fake Activity server did not start")

    def stop(self) -> None:
        if self._loop is not None and self._runner is not None:
            # HANG_GUARD: closing waits on each socket's close handshake, slow on a busy machine.
            asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(HANG_GUARD)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(HANG_GUARD)

    async def _close(self) -> None:
        assert self._runner is not None
        # Listen no more, then let every connection accepted before reach aiohttp (asyncio
        # hands one over in ACCEPT_TURNS loop turns), so that its cleanup closes them all: one
        # left open outlives the loop and warns in whichever later test collects it.
        for site in list(self._runner.sites):
            await site.stop()
        for _ in range(ACCEPT_TURNS):
            await asyncio.sleep(0)
        for ws in list(self._open):
            await ws.close()
        await self._runner.cleanup()

    def url(self, query: str, prefix: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{prefix}?{query}"

    def reset(self) -> None:
        self.frames.clear()
        self.invalid.clear()
        self.drop_next_act = False
        self.answer_acts = True
        self.ack_only = False
        self.refuse_acts = None
        self.on_act = None
        self.answer_pings = True
        self.answers.clear()
        self.table_extra.clear()
        self.hello_answers.clear()
        self.token_answers.clear()
        self.token_asks = 0
        self.daily_offered = False
        self.daily_answer = None
        self._waiting.clear()

    def close_sockets(self) -> None:
        """The server goes away (a restart): every open socket is closed."""
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(self._close_sockets(), self._loop).result(10)

    async def _close_sockets(self) -> None:
        for ws in list(self._open):
            await ws.close()

    def seat_waiting(self) -> None:
        """A game opened: every waiting socket gets its ``ready``."""
        assert self._loop is not None
        asyncio.run_coroutine_threadsafe(self._seat_waiting(), self._loop).result(10)

    async def _seat_waiting(self) -> None:
        waiting, self._waiting = self._waiting, []
        for ws, user, lang in waiting:
            await self._ready(ws, user, lang)

    async def _send(self, ws: web.WebSocketResponse, frame: Json) -> None:
        """Sends ``frame``, kept in ``invalid`` if it is not the contract's."""
        try:
            check_server_frame(frame)
        except AssertionError as error:
            self.invalid.append(f"sent {frame!r}: {error}")
        await ws.send_json(frame)

    def _table(self, user: int) -> Json:
        return {**table_json(self.views[user]()), **self.table_extra}

    async def _ready(
        self, ws: web.WebSocketResponse, user: int, lang: str, daily: str | None = None
    ) -> None:
        table = self._table(user)
        you = {"user_id": str(user), "name": "", "seat": table["viewer"]}
        at = None if daily is None else {"game": daily, "day": self.daily_day}
        frame = {"op": "ready", "seq": self.seq, "you": you, "lang": lang, "table": table}
        await self._send(ws, {**frame, "daily": at, "daily_offered": self.daily_offered})

    def sent(self, op: str) -> list[Received]:
        return [r for r in list(self.frames) if r.frame.get("op") == op]

    def wait_for(self, what: Callable[[], Any], timeout: float = PAGE_GUARD) -> Any:
        """``what()`` once truthy; ``timeout`` is a guard for a stuck page only."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = what()
            if value:
                return value
            time.sleep(0.02)
        raise AssertionError(f"timed out after {timeout} s waiting; frames: {self.frames!r}")

    # The server's side ---------------------------------------------------------------

    def _run(self, ready: threading.Event) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        app = web.Application()
        for prefix in ("", "/.proxy"):
            app.router.add_get(prefix + "/", self._index)
            app.router.add_static(prefix + "/assets/", self.static / "assets")
            app.router.add_post(prefix + "/api/token", self._token)
            app.router.add_get(prefix + "/api/ws", self._ws)
        self._runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        ready.set()
        loop.run_forever()
        loop.close()

    async def _index(self, request: web.Request) -> web.FileResponse:
        # A strict Content Security Policy, as strict as Discord's frame may be: the client
        # needs no inline script or style, no eval, nothing from another origin but avatars.
        csp = (
            "default-src 'self'; script-src 'self'; style-src 'self'; "
            "img-src 'self' data: https://cdn.discordapp.com; connect-src 'self'"
        )
        page = self.static / "index.html"
        return web.FileResponse(page, headers={"Content-Security-Policy": csp})

    async def _token(self, request: web.Request) -> web.Response:
        self.token_asks += 1
        if self.token_answers:
            status, headers = self.token_answers.pop(0)
            words = {"error": f"answered {status} for the test"}
            return web.json_response(words, status=status, headers=headers)
        body = await request.json()
        code = str(body.get("code", ""))
        if not code.startswith("mock-"):
            return web.json_response({"error": "That sign-in code is not valid."}, status=400)
        return web.json_response({"access_token": "tok-" + code.removeprefix("mock-")})

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets += 1
        number = self._sockets
        self._open.add(ws)
        user: int | None = None
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            self.frames.append(Received(number, frame))
            try:
                check_client_frame(frame)
            except AssertionError as error:
                self.invalid.append(f"received {frame!r}: {error}")
            op = frame.get("op")
            if op == "hello":
                user = int(str(frame["access_token"]).removeprefix("tok-"))
                lang = "fr" if str(frame.get("locale", "")).startswith("fr") else "en"
                daily = frame.get("daily")
                if daily is not None and self.daily_answer is not None:
                    await self._send(ws, self.daily_answer)
                    if self.daily_answer["op"] == "error":
                        await ws.close()
                        break
                    continue
                if daily is not None:
                    await self._ready(ws, user, lang, str(daily))
                    continue
                if self.hello_answers:
                    answer = self.hello_answers.pop(0)
                    await self._send(ws, answer)
                    if answer["op"] == "waiting":
                        self._waiting.append((ws, user, lang))
                        continue
                    await ws.close()
                    break
                await self._ready(ws, user, lang)
            elif op == "ping":
                if self.answer_pings:
                    await self._send(ws, {"op": "pong"})
            elif op == "act" and user is not None:
                key = str(frame["key"])
                if self.drop_next_act:
                    self.drop_next_act = False
                    await ws.close()
                    break
                if not self.answer_acts:
                    continue
                if self.refuse_acts is not None:
                    refusal = {"op": "error", "key": key, "code": "not-your-turn",
                               "message": self.refuse_acts}  # fmt: skip
                    await self._send(ws, refusal)
                    continue
                if key in self.answers:  # a resend: the first answer again, applied once
                    await self._send(ws, self.answers[key])
                    continue
                if self.on_act is not None:
                    try:
                        self.on_act(user, frame)
                    except Exception as error:  # the test's game refused it: the test fails
                        self.invalid.append(f"the act {frame!r} failed: {error!r}")
                self.answers[key] = {"op": "ack", "key": key}
                self.seq += 1
                await self._send(ws, self.answers[key])
                if self.ack_only:
                    continue
                await self._send(ws, {"op": "table", "seq": self.seq, "table": self._table(user)})
        self._open.discard(ws)
        return ws


def main() -> None:
    """Serves the built client with the test positions, for a look in a browser:
    ``python -m tests.activity.fake_server`` prints a link per position."""
    import tempfile

    from testbed.web_build import build_with_mock
    from tests.activity import tables

    fake = FakeActivityServer(static=build_with_mock(Path(tempfile.mkdtemp())))
    fake.views = {
        tables.ALEX: lambda: tables.nines_play(0),
        tables.BEA: lambda: tables.nein_nine_play(1),
        tables.CAM: lambda: tables.partnership_play(None),
        tables.DOM: tables.nines_over,
    }
    fake.start()
    shown = {
        tables.ALEX: "Nines, Alex's turn",
        tables.BEA: "Nein Nine, in French",
        tables.CAM: "partnership, watched",
        tables.DOM: "a game's end",
    }
    for user, what in shown.items():
        locale = "fr" if user == tables.BEA else "en"
        print(f"{what}: {fake.url(f'mock={user}&channel=1&instance=i&locale={locale}')}")
    threading.Event().wait()


if __name__ == "__main__":
    main()
