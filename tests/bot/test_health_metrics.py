"""Issue 17.3: the health endpoint (healthy only while the gateway is connected and the
database answers; ``python -m bot.process.health`` is the Docker HEALTHCHECK) and the Prometheus
metrics, scraped from the real bot. Both off unless their port is set."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.base import metrics
from bot.process.health import Endpoints, check
from fakecord import FakeDiscord
from testbed.games import HANG_GUARD, open_game, play_one

from .conftest import StartBot
from .test_network_faults import free_port
from .test_restart import ROOT, BotProcess


def health_cli(port: int) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", ""), "HEALTH_PORT": str(port)}
    return subprocess.run(
        [sys.executable, "-m", "bot.process.health"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    """Every sample of /metrics: (name, sorted labels) -> value."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as answer,
    ):
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = await answer.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **want: str
) -> float:
    return sum(
        value
        for (sample, labels), value in samples.items()
        if sample == name and all((k, v) in labels for k, v in want.items())
    )


async def health_of(port: int) -> tuple[bool, str]:
    """The health endpoint's answer, asked from a thread: the double runs on this loop and
    keeps serving the bot meanwhile (asked on the loop, each question stopped the double for
    as long as a starved bot took to answer)."""
    return await asyncio.to_thread(check, port)


async def until_health(bot: BotProcess, port: int, answer: tuple[bool, str]) -> None:
    """Ask the bot's health endpoint until it gives ``answer`` (healthy or not, its line). The
    bot flips on events of its own (READY and discord.py's wait for the guilds, its socket
    closed): only its endpoint shows them. No deadline but a hang guard: a loaded machine
    makes the bot slow (a question may even time out), and slowness is not what this test
    is about."""
    deadline = time.monotonic() + HANG_GUARD
    while (said := await health_of(port)) != answer:
        bot.assert_running()
        assert time.monotonic() < deadline, f"the bot is stuck: its health says {said}"
        await asyncio.sleep(0.05)


async def test_metrics_are_scraped_from_the_running_bot(fake_discord: FakeDiscord, tmp_path: Path):
    fake = fake_discord
    health_port, metrics_port = free_port(), free_port()
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    bot.env.update(
        HEALTH_PORT=str(health_port), METRICS_PORT=str(metrics_port), COMPUTER_WORKERS="1"
    )
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    try:
        await bot.start()
        await open_game(fake, alice, people=(bob,), computers=("hard",), start=3)
        # One 429 on the next channel delete (the hand's first table, replaced by a click's
        # follow-up; the table's edits then go through that token, off these counters):
        # discord.py waits and tries again.
        fake.ratelimits.inject(429, "DELETE", "/channels/{channel_id}/messages/{message_id}")
        rng = random.Random(3)
        for _ in range(4):
            assert await play_one(fake, [alice, bob], fake.channel, rng) is not None
        samples = await scrape(metrics_port)

        assert total(samples, "nines_live_games") == 1
        clicks = total(samples, "nines_clicks_total")
        assert clicks >= 8  # join, cpu, start, and a hand and a move a turn
        answered = total(samples, "nines_click_answer_seconds_count")
        assert 8 <= answered <= clicks
        assert total(samples, "nines_click_answer_seconds_bucket", le="3.0") == answered
        # From the commands' sync on (the login's own two requests come before the hook): the
        # sync reads the commands Discord has (an Activity's Entry Point command is kept,
        # discord_internals.sync_commands), then writes ours: two requests.
        synced = total(samples, "nines_discord_requests_total", route="/applications/{id}/commands")
        assert synced == 2
        posted = total(
            samples,
            "nines_discord_requests_total",
            method="POST",
            route="/channels/{id}/messages",
            status="200",
        )
        assert posted >= 1
        assert total(samples, "nines_discord_requests_total", status="429") == 1
        assert total(samples, "nines_discord_rate_limited_total") == 1
        assert total(samples, "nines_computer_decision_seconds_count") >= 1
        assert total(samples, "nines_database_write_seconds_count") >= 5
        # No interaction token or snowflake in any label.
        for (_name, labels), _value in samples.items():
            for key, value in labels:
                if key == "route":
                    assert not any(part.isdigit() or len(part) > 30 for part in value.split("/"))
        # The metrics port does not serve the health check's path to the world by accident.
        assert check(metrics_port)[0] is False
    finally:
        bot.stop()


async def test_health_follows_the_gateway(fake_discord: FakeDiscord, tmp_path: Path):
    fake = fake_discord
    health_port = free_port()
    bot = BotProcess(fake, tmp_path / "data" / "nines.sqlite3")
    bot.env.update(HEALTH_PORT=str(health_port))
    try:
        await bot.start()  # the double saw it identify
        await until_health(bot, health_port, (True, "ok"))
        done = await asyncio.to_thread(health_cli, health_port)
        assert done.returncode == 0 and done.stdout.strip() == "healthy: ok", done
        # Discord goes away: unhealthy (Docker restarts the container after a few of these).
        # stop() returns once the double has closed the bot's gateway socket.
        port = fake.port
        await fake.stop()
        await until_health(bot, health_port, (False, "not connected to Discord's gateway"))
        done = await asyncio.to_thread(health_cli, health_port)
        assert done.returncode == 1, done
        assert done.stdout.strip() == "unhealthy: not connected to Discord's gateway", done
        # Discord is back: healthy once the bot has resumed its session (the double's event),
        # after however long discord.py's backoff between refused reconnects has grown
        # during the outage (up to 2^n s after n refusals: the longer a loaded machine made
        # the outage, the longer; a fixed 30 s missed it now and then).
        assert not fake.gateway.connected.is_set()
        await fake.start(port)
        await asyncio.wait_for(fake.gateway.connected.wait(), HANG_GUARD)
        await until_health(bot, health_port, (True, "ok"))
        assert (await asyncio.to_thread(health_cli, health_port)).returncode == 0
    finally:
        bot.stop()
    # Nobody listens once the bot is gone.
    done = await asyncio.to_thread(health_cli, health_port)
    assert done.returncode == 1 and "no answer" in done.stdout, done


async def test_health_needs_the_database(fake_discord: FakeDiscord, start_bot: StartBot):
    nines = await start_bot()
    port = free_port()
    endpoints = Endpoints(nines, port, None)
    await endpoints.start()
    try:
        assert await asyncio.to_thread(check, port) == (True, "ok")

        async def broken(key: str) -> str | None:
            raise OSError("disk I/O error")

        nines.storage.get_meta = broken  # type: ignore[method-assign]
        healthy, said = await asyncio.to_thread(check, port)
        assert not healthy and said == "the database does not answer (OSError)"
    finally:
        await endpoints.stop()


async def test_both_are_off_unless_their_port_is_set(start_bot: StartBot) -> None:
    nines = await start_bot()
    session = nines.http._HTTPClient__session  # type: ignore[attr-defined]
    assert metrics.active is None and session._response_class is aiohttp.ClientResponse
    env = {"PATH": os.environ.get("PATH", "")}
    unset = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot.process.health"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert unset.returncode == 1 and "HEALTH_PORT is not set" in unset.stderr
