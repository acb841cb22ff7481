"""The web table's frames while its cards move (a script, not a test).

    PYTHONPATH=. python bench/activity_frames.py [--rounds 8] [--rates 1,4] [--window 0.7]

Issue 37: "60 fps card animations on a mid-range phone profile (Chromium's CPU throttling x4)
or no animation". The built client (web/ built with the SDK mock, testbed/web_build.py; the
production build in ``bot/activity/static/`` has none) is served by a small server of
this script's own (the page, ``/api/token`` and the socket, speaking the contract's frames; the
tables are built from the real table-model types and serialized by the Activity's own
``table_json``), opened with the SDK mocked (``?mock=``) in Debian's headless Chromium at a
phone's size (360x740, mobile emulation) with the CPU throttled by each of ``--rates``. The
person plays Nines at seat 1 against two others; each round of one trick gives five moments:

- ``raised``: the person's turn comes, the playable cards rise (others dimmed);
- ``mine``: a raised card tapped (the act, the ack and the next table: the card flies from the
  hand to the trick);
- ``other``: another player's card arrives on the trick (it flies in from their panel);
- ``done``: the trick's last card, the trick complete with its winner;
- ``gathered``: the next trick begins, the finished one goes to its winner's panel.

Each moment is watched for ``--window`` seconds from when it happens, two ways:

1. The page's frames: a ``requestAnimationFrame`` loop started just before (its timestamps are
   the frames' begin times: a frame the main thread was too busy to begin shows as a longer
   interval), the long animation frames the browser reports (``long-animation-frame``: frames
   whose work took > 50 ms; "render" is the part of them after their scripts: style, layout,
   paint), and how many animations were running 60 ms in. Printed: interval p50/p95/max, the
   share over one frame (> 18 ms: 16.7 ms plus the clock's 0.1 ms steps and the frame timer's
   jitter) and over two (> 33.4 ms), the frames dropped (round(interval / 16.7) - 1 each), per
   event too; then the same for the frames while cards moved only (from each Web Animation's
   start to its end, and a hand card's CSS transition's run to its end, for older builds).
2. The compositor's frames, as Chromium itself accounts them: a trace (DevTools protocol on
   the browser's debugging address) of its ``PipelineReporter`` events, one per frame the
   renderer's compositor began, each presented, dropped or with nothing to update, and whether
   a compositor animation ran in it. An animation on the compositor keeps its frames while the
   main thread is busy; these are the frames a person sees.

What it can and cannot say: headless Chromium begins frames from a 60 Hz timer (no display, no
vsync: ``--check`` shows an idle page's intervals), composites and rasterizes in software (no
GPU: a phone's compositor has one), and shares this 2-core machine with whatever else runs
(the load average is printed; figures swing with it). CPU throttling slows the page's main
thread only. The turn timer is off unless ``--timer``: its bar moves a fraction of a pixel a
frame, and headless Chromium reports every such frame dropped (nothing to draw), even on an
idle page unthrottled, which would drown the cards' frames.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiohttp import WSMsgType, web  # noqa: E402

from bot.activity.protocol import table_json  # noqa: E402
from bot.table import HandModel, PlayedCard, SeatModel, TableModel, TrickModel, TurnModel  # noqa: E402
from engine import (  # noqa: E402
    Card,
    Rules,
    game_type,
)
from engine.actions import parse_action  # noqa: E402
from engine.cards import Suit  # noqa: E402
from testbed.browser import wait_js  # noqa: E402
from testbed.web_build import build_with_mock  # noqa: E402

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
PERSON = 101
FRAME_MS = 1000 / 60
#: An interval over one frame: 16.7 ms, plus the timer's jitter and the clock's 0.1 ms steps.
OVER_ONE = 18.0
OVER_TWO = 2 * FRAME_MS
MOMENTS = ("raised", "mine", "other", "done", "gathered")

Json = dict[str, Any]


# -- the game the page is shown ----------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


#: Each seat's 13 cards, seat 0 (the person) in display order.
HANDS = (
    cards("AS KS 9S 4S QH JH 3H AC 8C 5C KD TD 2D"),
    cards("QS 8S 6S AH 9H 6H 4H KC 9C 6C AD 8D 5D"),
    cards("JS 7S 5S KH TH 5H 2H QC JC 3C QD 6D 4D"),
)


@dataclass
class Deal:
    """Nines, three players, the person at seat 0 leading every trick (the others follow, a
    card of theirs at a time): what each moment's table holds."""

    hands: list[list[Card]] = field(default_factory=lambda: [list(h) for h in HANDS])
    done: list[TrickModel] = field(default_factory=list)
    trick: list[PlayedCard] = field(default_factory=list)
    n: int = 0
    #: Whether turns have a timer (its bar runs down, see ``--timer``).
    timer: bool = False

    def deadline(self) -> float | None:
        return time.time() + 40 if self.timer else None

    def model(self, turn: int | None, *, mine: bool = False, gathered: bool = True) -> TableModel:
        """The person's table; ``mine``: it is their turn to lead (their cards raised), the
        led suit's cards only after the first trick, so that some stay dimmed; ``gathered``
        False: a trick just completed stays in the middle (the client shows it with its winner
        until the next trick opens)."""
        hand = self.hands[0]
        if mine:
            led = hand[0].suit if len(self.done) % 2 else None
            playable = frozenset(c for c in hand if led is None or c.suit is led)
        else:
            playable = frozenset()
        tricks_won = [sum(1 for t in self.done if t.winner == s) for s in range(3)]
        seats = tuple(
            SeatModel(seat=s, name=name, code=name[:3], user_id=PERSON if s == 0 else None,
                      computer=s != 0, level=None if s == 0 else "hard", away=False,
                      host=s == 0, team=s, cards_left=len(self.hands[s]),
                      tricks_won=tricks_won[s], quota_left=max(0, 4 - tricks_won[s]))
            for s, name in enumerate(("Alex", "Béatrice Tremblay-Gagnon", "Computer (hard)"))
        )  # fmt: skip
        number = len(self.done) + 1
        return TableModel(
            game_id=7,
            kind=game_type("nines"),
            rules=Rules.from_settings("classic"),
            status="playing",
            viewer=0,
            seats=seats,
            hand_number=1,
            phase="play",
            dealer=2,
            trump=Suit.HEARTS,
            spits=None,
            exchange_order=(0, 1, 2),
            exchange=((0, False), (1, True), (2, False)),
            turn=None if turn is None else TurnModel(turn, "play", self.deadline()),
            trick=TrickModel(number, tuple(self.trick)) if self.trick or gathered else None,
            tricks=tuple(self.done),
            scores=(9, 9, 9),
            start_scores=(9, 9, 9),
            sheet=(),
            last_result=None,
            tiebreak=None,
            winners=None,
            ranking=None,
            hand=HandModel(
                seat=0,
                cards=tuple(hand),
                legal=tuple(parse_action(str(c)) for c in hand if c in playable),
                playable=playable,
                put_down=None,
            ),
            n=self.n,
            notation="en",
            first_dealer=0,
            draw=(),
        )

    def play(self, seat: int, card: Card | None = None) -> None:
        hand = self.hands[seat]
        chosen = card if card is not None else hand[-1]
        hand.remove(chosen)
        self.trick.append(PlayedCard(seat, chosen))
        self.n += 1
        if len(self.trick) == 3:
            winner = len(self.done) % 3
            self.done.append(TrickModel(len(self.done) + 1, tuple(self.trick), winner,
                                        self.trick[winner].card))  # fmt: skip
            self.trick = []


# -- the server --------------------------------------------------------------------------------


class TableServer:
    """The built client and the socket of one person's table, in a thread of its own (Selenium's
    calls block): ``push`` sends a table; an act is acknowledged and answered by ``on_act``."""

    def __init__(self, static: Path, on_act: Callable[[str], Json]) -> None:
        self.static = static
        self.on_act = on_act
        self.table: Json = {}
        self.seq = 1
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.sockets: set[web.WebSocketResponse] = set()
        self.acts = 0
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        if not ready.wait(10):
            raise RuntimeError("the table server did not start")

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?mock={PERSON}&channel=1&instance=i&locale=en-US"

    def push(self, table: Json) -> None:
        asyncio.run_coroutine_threadsafe(self._push(table), self.loop).result(10)

    async def _push(self, table: Json) -> None:
        self.table = table
        self.seq += 1
        for ws in list(self.sockets):
            await ws.send_json({"op": "table", "seq": self.seq, "table": table})

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_static("/assets/", self.static / "assets")
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/api/ws", self._ws)
        runner = web.AppRunner(app, access_log=None)
        self.loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        assert site._server is not None
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        ready.set()
        self.loop.run_forever()

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(self.static / "index.html")

    async def _token(self, request: web.Request) -> web.Response:
        code = str((await request.json()).get("code", ""))
        return web.json_response({"access_token": "tok-" + code.removeprefix("mock-")})

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.sockets.add(ws)
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            if frame.get("op") == "hello":
                you = {"user_id": str(PERSON), "name": "Alex", "seat": 0}
                ready = {"op": "ready", "seq": self.seq, "you": you, "lang": "en"}
                await ws.send_json(
                    {**ready, "table": self.table, "daily": None, "daily_offered": False}
                )
            elif frame.get("op") == "ping":
                await ws.send_json({"op": "pong"})
            elif frame.get("op") == "act":
                self.acts += 1
                await ws.send_json({"op": "ack", "key": frame["key"]})
                await self._push(self.on_act(str(frame["action"])))
        self.sockets.discard(ws)
        return ws


# -- the browser -------------------------------------------------------------------------------

#: Starts recording frames: each rAF's timestamp, the animations running at it, and the long
#: animation frames the browser reports (Chromium's LoAF API), until STOP.
START = """
const rec = window.__rec = {ts: [], anims: 0, loaf: [], on: true, moving: [], running: 0};
// When cards move: each Web Animation from its start to its end, and the hand's transitions
// (transitionrun to transitionend or cancel, counted, so overlapping ones make one span).
if (!window.__animate) {
  window.__animate = Element.prototype.animate;
  window.__started = 0;
  Element.prototype.animate = function (...args) {
    const a = window.__animate.apply(this, args);
    window.__started++;
    const r = window.__rec;
    a.ready.then(() => {
      const t = a.effect.getComputedTiming();
      if (r.on) r.moving.push([a.startTime, a.startTime + t.endTime]);
    });
    return a;
  };
  // A hand card's transitions only: the turn timer's bar moves all the time.
  const up = (e) => {
    const r = window.__rec;
    if (e.target.classList.contains('card') && r.running++ === 0) r.since = e.timeStamp;
  };
  const down = (e) => {
    const r = window.__rec;
    if (!e.target.classList.contains('card')) return;
    if (r.running > 0 && --r.running === 0 && r.on) r.moving.push([r.since, e.timeStamp]);
  };
  document.addEventListener('transitionrun', up);
  document.addEventListener('transitionend', down);
  document.addEventListener('transitioncancel', down);
}
try {
  rec.obs = new PerformanceObserver((list) => {
    // Each long frame: its length, and the part of it after its scripts (style, layout, paint).
    for (const e of list.getEntries()) {
      rec.loaf.push([e.duration, e.renderStart ? e.startTime + e.duration - e.renderStart : 0]);
    }
  });
  rec.obs.observe({type: 'long-animation-frame', buffered: false});
} catch (e) { rec.loaf = null; }
const step = (t) => {
  if (!rec.on) return;
  rec.ts.push(t);
  requestAnimationFrame(step);
};
requestAnimationFrame(step);
// The animations running, counted once, 60 ms in (getAnimations() brings style up to date: per
// frame, it would add work of its own to the frames measured).
setTimeout(() => { rec.anims = document.getAnimations().length; }, 60);
"""
STOP = """
const rec = window.__rec; rec.on = false; if (rec.obs) rec.obs.disconnect();
if (rec.running > 0) rec.moving.push([rec.since, performance.now()]);
return {ts: rec.ts, anims: rec.anims, loaf: rec.loaf, moving: rec.moving};
"""
#: Taps the first raised card as a person would (a click on it).
TAP = """
const card = document.querySelector('.card.playable');
if (card === null) return null;
card.click();
return card.dataset.card;
"""


class Tracer:
    """Chromium's own account of its compositor frames, through the DevTools protocol on the
    browser's debugging address (Selenium's CDP calls cannot receive the trace's events):
    ``PipelineReporter`` events, one per frame the renderer's compositor began, each with its
    fate (presented, dropped, nothing to update) and whether a compositor animation ran in it,
    as Chromium's own dropped-frames metric counts them. The page marks each moment
    (``performance.mark``, in the trace's clock)."""

    CATEGORIES = ("disabled-by-default-devtools.timeline.frame", "blink.user_timing", "__metadata")

    def __init__(self, address: str) -> None:
        self.address = address
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.events: list[Json] = []
        self.done: asyncio.Future[None] | None = None

    def start(self) -> None:
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(20)

    def stop(self) -> list[Json]:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(120)
        return self.events

    async def _start(self) -> None:
        import aiohttp

        self.http = aiohttp.ClientSession()
        version = await (await self.http.get(f"http://{self.address}/json/version")).json()
        self.ws = await self.http.ws_connect(version["webSocketDebuggerUrl"], max_msg_size=0)
        config = {"includedCategories": list(self.CATEGORIES), "excludedCategories": ["*"]}
        params = {"traceConfig": config, "transferMode": "ReportEvents"}
        await self.ws.send_json({"id": 1, "method": "Tracing.start", "params": params})
        self.done = self.loop.create_future()
        self.reader = self.loop.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if data.get("method") == "Tracing.dataCollected":
                self.events += data["params"]["value"]
            elif data.get("method") == "Tracing.tracingComplete":
                break

    async def _stop(self) -> None:
        await self.ws.send_json({"id": 2, "method": "Tracing.end"})
        await self.reader
        await self.ws.close()
        await self.http.close()


@dataclass
class Compositor:
    """One moment's compositor frames (the renderer's), over its repetitions: by fate, and
    those that had a compositor animation in them."""

    states: dict[str, int] = field(default_factory=dict)
    animated: int = 0
    animated_dropped: int = 0

    def line(self, name: str) -> str:
        shown = self.states.get("PRESENTED_ALL", 0) + self.states.get("PRESENTED_PARTIAL", 0)
        dropped = self.states.get("DROPPED", 0)
        share = dropped / (shown + dropped) if shown + dropped else 0.0
        idle = self.states.get("NO_UPDATE_DESIRED", 0)
        return (
            f"{name:9} {shown:9} {dropped:8} {share:8.1%} {idle:9}"
            f" {self.animated:9} {self.animated_dropped:9}"
        )


COMPOSITOR_HEAD = (
    f"{'moment':9} {'presented':>9} {'dropped':>8} {'dropped%':>8} {'no update':>9} "
    f"{'animated':>9} {'anim drop':>9}"
)


def compositor_frames(events: list[Json], window: float) -> dict[str, Compositor]:
    """The renderer's compositor frames begun in each moment's window, by the moments' marks."""
    renderers = {
        e["pid"]
        for e in events
        if e.get("ph") == "M" and e["name"] == "process_name" and e["args"]["name"] == "Renderer"
    }
    marks = sorted(
        (e["ts"], e["name"].removeprefix("moment:"))
        for e in events
        if e.get("cat") == "blink.user_timing" and e["name"].startswith("moment:")
        and e.get("ph") in ("R", "I", "n", "b")
    )  # fmt: skip
    out = {m: Compositor() for m in MOMENTS}
    for e in events:
        if e["name"] != "PipelineReporter" or e.get("ph") != "b" or e["pid"] not in renderers:
            continue
        report = e["args"].get("frame_reporter") or e["args"].get("chrome_frame_reporter") or {}
        state = str(report.get("state", "?")).removeprefix("STATE_")
        moment = next((m for ts, m in reversed(marks) if ts <= e["ts"] < ts + window * 1e6), None)
        if moment is None or moment not in out:
            continue
        c = out[moment]
        c.states[state] = c.states.get(state, 0) + 1
        if report.get("has_compositor_animation"):
            c.animated += 1
            c.animated_dropped += state == "DROPPED"
    return out


def chrome(flags: list[str]) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *flags):
        options.add_argument(arg)
    os.environ.setdefault("SE_AVOID_STATS", "true")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(30)
    # A phone: Discord's mobile client gives an Activity the screen's width, 360 CSS px on a
    # mid-range Android phone; touch and the mobile viewport as such a phone has them.
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    return driver


def figures(intervals: list[float], events: int) -> str:
    """Frame intervals as printed: how many, p50 / p95 / max, the share over one frame and
    over two, the frames dropped, and those per event."""
    if not intervals:
        return f"{0:5} {'-':>6} {'-':>6} {'-':>6} {'-':>7} {'-':>7} {0:5} {0:7.2f}"
    iv = sorted(intervals)
    q = statistics.quantiles(iv, n=20, method="inclusive") if len(iv) > 1 else iv * 19
    dropped = sum(max(0, round(i / FRAME_MS) - 1) for i in iv)
    over1 = sum(i > OVER_ONE for i in iv) / len(iv)
    over2 = sum(i > OVER_TWO for i in iv) / len(iv)
    return (
        f"{len(iv):5} {statistics.median(iv):6.1f} {q[18]:6.1f} {iv[-1]:6.1f} {over1:7.1%} "
        f"{over2:7.1%} {dropped:5} {dropped / max(1, events):7.2f}"
    )


COLUMNS = (
    f"{'ivals':>5} {'p50':>6} {'p95':>6} {'max':>6} {'>18ms':>7} {'>33ms':>7} {'drop':>5} "
    f"{'drop/ev':>7}"
)
HEAD = f"{'moment':9} {COLUMNS} {'LoAF':>5} {'LoAFmx':>6} {'render':>6} {'anims':>5} | {COLUMNS}"


@dataclass
class Frames:
    """One moment's frames over its repetitions."""

    intervals: list[float] = field(default_factory=list)
    #: The intervals of the frames shown while cards moved (an animation or transition ran).
    moving: list[float] = field(default_factory=list)
    #: The long animation frames: (length, the part after their scripts), ms.
    long_frames: list[tuple[float, float]] = field(default_factory=list)
    animations: int = 0
    events: int = 0

    def add(self, record: Json) -> None:
        pairs = list(itertools.pairwise(record["ts"]))
        self.intervals += [b - a for a, b in pairs]
        # A frame that ends inside a span when cards moved (its start before the span's end).
        self.moving += [
            b - a for a, b in pairs if any(s < b and a < e for s, e in record["moving"])
        ]
        self.long_frames += [(a, b) for a, b in record["loaf"] or []]
        self.animations = max(self.animations, record["anims"])
        self.events += 1

    def line(self, name: str) -> str:
        longest = max((a for a, _ in self.long_frames), default=0.0)
        spent = sum(a for a, _ in self.long_frames)
        rendering = sum(b for _, b in self.long_frames) / spent if spent else 0.0
        return (
            f"{name:9} {figures(self.intervals, self.events)} {len(self.long_frames):5} "
            f"{longest:6.0f} {rendering:6.0%} {self.animations:5} | "
            f"{figures(self.moving, self.events)}"
        )


def run(
    static: Path, rate: float, rounds: int, window: float, flags: list[str], timer: bool
) -> tuple[dict[str, Frames], dict[str, Compositor]]:
    deal = Deal(timer=timer)
    tapped: list[str] = []

    def on_act(action: str) -> Json:
        tapped.append(action)
        deal.play(0, Card.parse(action))
        return table_json(deal.model(1))

    server = TableServer(static, on_act)
    server.table = table_json(deal.model(None))
    driver = chrome(flags)
    tracer = Tracer(driver.capabilities["goog:chromeOptions"]["debuggerAddress"])
    out = {m: Frames() for m in MOMENTS}
    started: list[int] = []
    try:
        driver.get(server.url())
        wait_js(driver, "return document.querySelectorAll('.card').length === 13", timeout=20)
        driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})
        time.sleep(1.0)  # the first layout and the fonts, settled
        tracer.start()
        time.sleep(0.5)  # the frames just after tracing starts are reported dropped

        def play(seat: int, after: Callable[[], TableModel]) -> None:
            deal.play(seat)
            server.push(table_json(after()))

        def moment(name: str, act: Callable[[], None]) -> None:
            driver.execute_script(START + f"performance.mark('moment:{name}');")
            act()
            time.sleep(window)
            out[name].add(driver.execute_script(STOP))

        for _ in range(rounds):
            moment("raised", lambda: server.push(table_json(deal.model(0, mine=True))))
            before = server.acts
            moment("mine", lambda: driver.execute_script(TAP))
            if server.acts == before:
                raise RuntimeError("the tap sent no action")
            moment("other", lambda: play(1, lambda: deal.model(2)))
            moment("done", lambda: play(2, lambda: deal.model(None, gathered=False)))
            # The next trick opens: the finished one leaves the middle for the last-trick line.
            moment("gathered", lambda: server.push(table_json(deal.model(None))))
            started.append(driver.execute_script("return window.__started"))
        frames = compositor_frames(tracer.stop(), window)
    finally:
        driver.quit()
    # Whether the client kept animating: the Web Animations it had started after each trick
    # (six a trick: three cards flying in, three taken to the winner; it stops when it finds
    # the device too slow, web/src/motion.ts).
    print("animations started, trick by trick:", " ".join(map(str, started)))
    return out, frames


def idle_check(flags: list[str]) -> None:
    """Whether this headless Chromium begins frames at 60 Hz at all: an idle page's rAF."""
    driver = chrome(flags)
    try:
        driver.get("data:text/html,<p>idle</p>")
        for rate in (1, 4):
            driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})
            driver.execute_script(START)
            time.sleep(2.0)
            frames = Frames()
            frames.add(driver.execute_script(STOP))
            print(frames.line(f"idle x{rate}"))
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="tricks played per rate")
    parser.add_argument("--rates", default="1,4", help="CPU throttling rates, comma-separated")
    parser.add_argument("--window", type=float, default=0.7, help="seconds recorded per moment")
    parser.add_argument("--flag", action="append", default=[], help="another Chromium flag")
    parser.add_argument("--check", action="store_true", help="an idle page's frames first")
    parser.add_argument(
        "--timer",
        action="store_true",
        help="turns with a timer (its bar moves by a fraction of a pixel a frame, which the "
        "compositor's trace counts as dropped frames: headless Chromium presents no frame "
        "that changes no pixel)",
    )
    parser.add_argument("--static", type=Path, default=None,
                        help="the built client to serve, built with `node build.mjs --mock` "
                        "(default: web/ built so into a temporary folder)")  # fmt: skip
    args = parser.parse_args()
    if args.static is None:
        # The page opens with the SDK mocked (``?mock=``): only the tests' build has the mock.
        args.static = build_with_mock(Path(tempfile.mkdtemp()))
    if args.rounds > 12:
        parser.error("--rounds: at most 12 (a hand has 13 cards)")
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, {os.cpu_count()} cores")
    if args.check:
        print(HEAD)
        idle_check(args.flag)
    for rate in (float(r) for r in args.rates.split(",")):
        print(f"\nCPU throttling x{rate:g}, 360x740 mobile, {args.rounds} tricks, "
              f"{args.window:g} s per moment")  # fmt: skip
        main_thread, compositor = run(
            args.static, rate, args.rounds, args.window, args.flag, args.timer
        )
        print("the page's frames (requestAnimationFrame) | those while cards moved")
        print(HEAD)
        for name, frames in main_thread.items():
            print(frames.line(name))
        print("the compositor's frames (Chromium's trace: PipelineReporter)")
        print(COMPOSITOR_HEAD)
        for name, counted in compositor.items():
            print(counted.line(name))
    print(f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
