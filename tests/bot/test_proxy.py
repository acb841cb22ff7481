"""Issue 31: several bot processes share one budget through one REST proxy (@discordjs/proxy,
``proxy/server.mjs``).

The double enforces a global limit for the bot as a whole (its token), whichever process
sends. Two real bot processes (``python -m bot``, one shard each, one database) start and play
a game each at the same time, together sending more than that limit in a second:
- through the proxy, every request is served and the double answers no global 429;
- each straight to the double (the contrast, so the first assertion can fail), they meet
  global 429s, since each believes it has the whole budget.

The limit is lowered from Discord's 50 a second to GLOBAL_LIMIT so the test stays short: it is
the ratio of traffic to budget that brings 429s, not the figure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.storage import Storage
from fakecord import FakeDiscord
from fakecord.server import RequestRecord
from testbed.games import HANG_GUARD, open_game

from .test_failover import play, second_guild, until
from .test_restart import ROOT, BotProcess

GLOBAL_LIMIT = 5  # requests a second, the bot's whole budget in the double
# The proxy's. @discordjs/rest starts its second when it sends, the double (as Discord) when
# the first request arrives, and the double's delay varies (its loop is this test's): requests
# of the proxy's next second can land in the double's current one. At half the limit, one
# second of the double's holds two whole seconds of the proxy's: a 429 would need the delay to
# vary enough to fit a third's requests in too. Production keeps a smaller margin (45 of 50)
# and the rare 429 is waited out and sent again
# (test_a_request_refused_with_429_is_sent_again_whole); a full game each at 4 of 5 met one
# global 429 in 134 requests.
PROXY_LIMIT = GLOBAL_LIMIT // 2
# The contrast's. The two processes' traffic peaks at about 5 global-bound requests in a
# second (15 in all), its start-ups and first clicks together: at a limit of 5 they met no 429
# at all once other tests loaded both cores. At 2 a second, they meet the limit without a proxy
# to share it however slow the machine.
CONTRAST_LIMIT = 2

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="the REST proxy runs on Node.js: `node` is not installed"
)


@dataclass(frozen=True)
class Run:
    sent: int  # requests the double received, 429s included
    global_bound: int  # of which count against the global limit
    peak: int  # most global-bound requests the double received within one second
    global_429: int
    route_429: int
    failed: list[RequestRecord]  # answered other than 2xx (429s excepted)
    limit: int  # the double's global limit, requests a second

    def __str__(self) -> str:
        return (
            f"{self.sent} requests ({self.global_bound} global-bound, peak {self.peak} in any "
            f"one second, limit {self.limit}/s): 429s global {self.global_429}, "
            f"route {self.route_429}; other errors {len(self.failed)}"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ProxyProcess:
    """``node proxy/server.mjs`` forwarding to the double, with the double's global budget."""

    def __init__(self, fake: FakeDiscord, log: Path) -> None:
        self.port = free_port()
        self.log = log
        env = {
            **os.environ,
            "PORT": str(self.port),
            "DISCORD_API_BASE": fake.api_base,
            "GLOBAL_REQUESTS_PER_SECOND": str(PROXY_LIMIT),
        }
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                ["node", "server.mjs"], cwd=ROOT / "proxy", env=env, stdout=out, stderr=out
            )

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def ready(self) -> None:
        deadline = time.monotonic() + HANG_GUARD
        while "Listening" not in self.log.read_text():
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "the proxy did not start"
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def peak_per_second(times: list[float]) -> int:
    times = sorted(times)
    best, start = 0, 0
    for end, t in enumerate(times):
        while t - times[start] >= 1.0:
            start += 1
        best = max(best, end - start + 1)
    return best


async def two_processes_play(
    tmp_path: Path, *, through_proxy: bool, limit: int = GLOBAL_LIMIT
) -> Run:
    if not (ROOT / "proxy" / "node_modules" / "@discordjs" / "proxy").is_dir():
        pytest.fail("the proxy's packages are not installed: run `npm ci` in proxy/")
    fake = FakeDiscord(shards=2)
    fake.gateway.max_concurrency = 2  # both shards identify at once: no 5 s wait
    fake.ratelimits.limit_global(limit, 1.0)
    await fake.start()
    database = tmp_path / "data" / "nines.sqlite3"
    proxy = ProxyProcess(fake, tmp_path / "proxy.log") if through_proxy else None
    bots = [BotProcess(fake, database) for _ in range(2)]
    guild1, channel1 = second_guild(fake)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    carol, dave = fake.add_user("carol", guild=guild1), fake.add_user("dave", guild=guild1)
    try:
        # The tables first: two processes migrating one new SQLite file at once race.
        database.parent.mkdir(parents=True, exist_ok=True)
        await (await Storage.open(database)).close()
        if proxy is not None:
            await proxy.ready()
        for shard, bot in enumerate(bots):
            bot.env.update(SHARD_COUNT="2", SHARD_IDS=str(shard))
            if proxy is not None:
                bot.env["DISCORD_API_BASE"] = proxy.api_base
            bot.log = tmp_path / f"bot{shard}.log"
        # Both at once: each process's start-up requests in the same second.
        await asyncio.gather(*(bot.start() for bot in bots))
        await until(lambda: set(fake.gateway.by_shard) == {0, 1}, HANG_GUARD, "both shards")
        await fake.settle()
        games = await asyncio.gather(
            open_game(fake, alice, people=(bob,), computers=("easy",), start=3),
            open_game(fake, carol, people=(dave,), computers=("easy",), start=3, channel=channel1),
        )
        assert len(set(games)) == 2
        await asyncio.gather(
            play(fake, [alice, bob], fake.channel, 2), play(fake, [carol, dave], channel1, 2)
        )
    finally:
        for bot in bots:
            bot.stop()
        if proxy is not None:
            proxy.stop()
        await fake.stop()

    records = list(fake.requests)
    bound = [r for r in records if r.under_global_limit]
    too_many = [r for r in records if r.status == 429]
    run = Run(
        sent=len(records),
        global_bound=len(bound),
        peak=peak_per_second([r.time for r in bound]),
        # No route is limited here (the double's default is 10 000 a second): every 429 it
        # sends on a global-bound route is the global limit's.
        global_429=sum(r.under_global_limit for r in too_many),
        route_429=sum(not r.under_global_limit for r in too_many),
        failed=[r for r in records if r.status >= 400 and r.status != 429],
        limit=limit,
    )
    print(f"\n{'through the proxy' if through_proxy else 'each straight to Discord'}: {run}")
    assert run.global_429 + run.route_429 == fake.ratelimits.sent_429
    assert not fake.violations, fake.violations
    return run


async def test_two_processes_through_the_proxy_meet_no_global_429(tmp_path: Path) -> None:
    run = await two_processes_play(tmp_path, through_proxy=True)
    assert run.global_429 == 0 and run.route_429 == 0, run
    assert not run.failed, run.failed  # every request served
    # The traffic was more than the budget: the proxy held requests back for the global limit.
    assert "rate limited globally" in (tmp_path / "proxy.log").read_text(), run


async def test_a_request_refused_with_429_is_sent_again_whole(tmp_path: Path) -> None:
    """Discord may answer 429 all the same (the proxy's second out of step with Discord's):
    the proxy waits and sends the request again, its body with it."""
    fake = FakeDiscord()
    await fake.start()
    proxy = ProxyProcess(fake, tmp_path / "proxy.log")
    fake.ratelimits.inject(
        429, "POST", "/channels/{channel_id}/messages", retry_after=0.2, is_global=True
    )
    try:
        await proxy.ready()
        async with aiohttp.ClientSession() as http:
            response = await http.post(
                f"{proxy.api_base}/channels/{fake.channel.id}/messages",
                json={"content": "your turn"},
                headers={"Authorization": f"Bot {fake.token}"},
            )
            assert response.status == 200, await response.text()
            assert (await response.json())["content"] == "your turn"
    finally:
        proxy.stop()
        await fake.stop()
    sent = [(r.status, r.body) for r in fake.requests]
    assert sent == [(429, {"content": "your turn"}), (200, {"content": "your turn"})]
    assert [m.content for m in fake.store.messages[fake.channel.id]] == ["your turn"]


async def test_two_processes_without_the_proxy_meet_global_429s(tmp_path: Path) -> None:
    run = await two_processes_play(tmp_path, through_proxy=False, limit=CONTRAST_LIMIT)
    assert run.global_429 > 0, run
