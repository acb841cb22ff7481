"""Issue 17.1: network faults at the start and later, against the Discord double, with the real
``python -m bot``: each gives one clear log line (what failed, what to check), never a
traceback, and the bot keeps trying, with growing delays, until it connects; a login that
hangs is given up after DISCORD_TIMEOUT; a refused token ends the bot with its one line.
Every run ends with SIGTERM, a clean stop."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from fakecord import FakeDiscord
from testbed.games import HANG_GUARD

ROOT = Path(__file__).resolve().parents[2]
#: The shortest wait a stop could wrongly sit out: aiohttp's shutdown timeout.
STOP_WAITED_OUT = 60.0
#: The log format off a terminal: "[2026-11-23 21:00:00] [WARNING ] bot.app: message".
LOG_LINE = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[(DEBUG|INFO|WARNING|ERROR) *\] \S+: ")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Bot:
    """``python -m bot`` pointed at 127.0.0.1:``port``, its stderr kept in a file."""

    def __init__(self, tmp_path: Path, port: int, token: str, **env: str) -> None:
        self.stderr = tmp_path / "stderr.log"
        self.env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(tmp_path),
            "LANG": "C.UTF-8",
            "DISCORD_TOKEN": token,
            "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
            "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/gateway",
            "DATABASE_PATH": str(tmp_path / "data" / "nines.sqlite3"),
            "COMPUTER_WORKERS": "0",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.stderr.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )

    def lines(self) -> list[str]:
        return self.stderr.read_text().splitlines()

    async def wait_for_lines(
        self, text: str, count: int = 1, within: float = HANG_GUARD, since: int = 0
    ) -> list[str]:
        """The lines holding ``text`` from line ``since`` on, once there are ``count``."""
        deadline = time.monotonic() + within
        while True:
            found = [line for line in self.lines()[since:] if text in line]
            if len(found) >= count:
                return found
            assert self.proc is not None and self.proc.poll() is None, self.lines()
            assert time.monotonic() < deadline, f"no {count} x {text!r} in {self.lines()}"
            await asyncio.sleep(0.05)

    async def exit_code(self, within: float = HANG_GUARD) -> int:
        assert self.proc is not None
        deadline = time.monotonic() + within
        while (code := self.proc.poll()) is None:
            assert time.monotonic() < deadline, "the bot did not exit"
            await asyncio.sleep(0.02)
        return code

    async def terminate(self) -> list[str]:
        """SIGTERM; the lines logged from the stop on (status 0, "stopped cleanly" last).

        No timeout was waited out on the way (aiohttp's 60 s shutdown, a backoff): the bot's
        own figure for its stop is under half of the shortest. A bound that only such a wait
        can reach, not a figure of speed: a starved stop took 2.5 s."""
        assert self.proc is not None and self.proc.poll() is None, self.lines()
        self.proc.send_signal(signal.SIGTERM)
        assert await self.exit_code() == 0, self.lines()
        lines = self.lines()
        stopping = [i for i, line in enumerate(lines) if "stopping: finishing" in line]
        assert stopping, lines
        took = re.search(r"stopped cleanly in ([0-9.]+) s$", lines[-1])
        assert took is not None and float(took[1]) < STOP_WAITED_OUT / 2, lines
        return lines[stopping[0] :]

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def assert_clean_log(bot: Bot) -> None:
    """Every line is one log record (no traceback, no voice warnings)."""
    lines = bot.lines()
    text = "\n".join(lines)
    assert "Traceback" not in text and "voice will NOT be supported" not in text, text
    assert all(LOG_LINE.match(line) for line in lines), text


async def connected(fake: FakeDiscord, within: float = HANG_GUARD) -> None:
    deadline = time.monotonic() + within
    while not (fake.gateway.connected.is_set() and fake.commands.find(fake.guild.id, "nines")):
        assert time.monotonic() < deadline, "the bot did not connect"
        await asyncio.sleep(0.05)


async def test_refused_at_start_then_connects_when_discord_is_back(tmp_path: Path):
    port = free_port()
    fake = FakeDiscord()  # not listening yet: every connection is refused
    bot = Bot(tmp_path, port, fake.token)
    try:
        bot.start()
        lines = await bot.wait_for_lines("Cannot log in to Discord", count=3)
        for line in lines:
            assert f"cannot connect to 127.0.0.1:{port} (connection refused)" in line, line
            assert "check the network" in line and "retrying in" in line, line
        delays = [float(re.findall(r"retrying in ([0-9.]+) s", line)[0]) for line in lines]
        assert delays[0] <= 1.0 and 1.0 <= delays[2] <= 4.0, delays  # doubling, jittered
        await fake.start(port)
        await connected(fake)
        assert_clean_log(bot)
        stop = await bot.terminate()
        assert len(stop) == 2, stop  # "stopping", then "stopped cleanly": nothing between
    finally:
        bot.kill()
        await fake.stop()


async def test_a_login_that_hangs_is_given_up_and_retried(tmp_path: Path):
    fake = FakeDiscord()
    await fake.start()
    stall = fake.stall("GET", "/users/@me", count=2)  # accepted, never answered
    bot = Bot(tmp_path, fake.port, fake.token, DISCORD_TIMEOUT="1")
    try:
        bot.start()
        lines = await bot.wait_for_lines("Cannot log in to Discord", count=2)
        assert all("Discord did not answer within 1 s" in line for line in lines), lines
        await connected(fake)
        # Both stalled logins given up (the double never answers them), the third logged in.
        # A login left to aiohttp's own timeout (5 min) would have failed connected()'s guard.
        assert stall.arrived == 2
        assert_clean_log(bot)
        await bot.terminate()
    finally:
        bot.kill()
        await fake.stop()


async def test_discord_server_errors_at_start_are_retried(tmp_path: Path):
    fake = FakeDiscord()
    await fake.start()
    fake.ratelimits.inject(503, "GET", "/users/@me", count=2)
    bot = Bot(tmp_path, fake.port, fake.token)
    try:
        bot.start()
        lines = await bot.wait_for_lines("Cannot log in to Discord", count=2)
        for line in lines:
            assert "Discord answered 503 Service Unavailable" in line, line
            assert "discordstatus.com" in line, line
        await connected(fake)
        assert fake.ratelimits.sent_faults == 2
        assert_clean_log(bot)
        await bot.terminate()
    finally:
        bot.kill()
        await fake.stop()


async def test_a_refused_token_ends_the_bot_with_its_one_line(tmp_path: Path):
    fake = FakeDiscord()
    await fake.start()
    bot_part, stamp, _ = fake.token.split(".")
    wrong = f"{bot_part}.{stamp}.{'A' * 38}"  # well formed, but not the bot's
    bot = Bot(tmp_path, fake.port, wrong)
    try:
        bot.start()
        assert await bot.exit_code() == 2
        lines = bot.lines()
        assert lines[-1] == (
            "nines-bot: Discord refused DISCORD_TOKEN: reset it in the developer portal and "
            "put the new one in .env."
        ), lines
        text = "\n".join(lines)
        assert "Traceback" not in text and "retrying" not in text, text
        assert all(LOG_LINE.match(line) for line in lines[:-1]), text
        assert [r.status for r in fake.requests] == [401]  # asked once, not again
    finally:
        bot.kill()
        await fake.stop()


async def test_an_outage_later_is_one_line_and_the_bot_comes_back(tmp_path: Path):
    fake = FakeDiscord()
    await fake.start()
    port = fake.port
    bot = Bot(tmp_path, port, fake.token)
    try:
        bot.start()
        await connected(fake)
        sessions = fake.gateway.identifies + fake.gateway.resumes
        await fake.stop()  # Discord unreachable: the gateway drops, reconnects are refused
        lines = await bot.wait_for_lines("Lost the connection to Discord's gateway", count=2)
        assert any(f"cannot connect to 127.0.0.1:{port} (connection refused)" in x for x in lines)
        assert all("reconnecting in" in line for line in lines), lines
        await fake.start(port)
        deadline = time.monotonic() + HANG_GUARD
        while fake.gateway.identifies + fake.gateway.resumes == sessions:
            assert time.monotonic() < deadline, bot.lines()
            await asyncio.sleep(0.05)
        await connected(fake)
        assert_clean_log(bot)
        await bot.terminate()
    finally:
        bot.kill()
        await fake.stop()


async def test_no_dns_is_one_line_and_sigterm_stops_the_retries(tmp_path: Path):
    fake = FakeDiscord()  # only for a well-formed token; never started
    bot = Bot(tmp_path, 1, fake.token)
    bot.env["DISCORD_API_BASE"] = "https://discord.invalid/api/v10"
    try:
        bot.start()
        lines = await bot.wait_for_lines("Cannot log in to Discord", count=2)
        for line in lines:
            assert "cannot resolve discord.invalid: check the network connection and its DNS" in (
                line
            ), line
        assert_clean_log(bot)
        # SIGTERM while waiting to try again: the wait ends there, no other attempt is made
        # (no "Cannot log in" after the stop), and the bot stops cleanly.
        stop = await bot.terminate()
        assert len(stop) == 2 and not any("Cannot log in" in line for line in stop), stop
    finally:
        bot.kill()


async def test_an_answer_that_hangs_later_is_given_up_in_one_line(tmp_path: Path):
    fake = FakeDiscord()
    await fake.start()
    bot = Bot(tmp_path, fake.port, fake.token, DISCORD_TIMEOUT="1")
    alice = fake.add_user("alice")
    try:
        bot.start()
        await connected(fake)
        await fake.settle()
        lobby = await fake.slash(alice, fake.channel, "nines start")
        assert lobby.message is not None
        # Only what the bot logs from the stall on: with a 1 s timeout, a starved machine can
        # give up a login and log in again (one clean line, as above) before it gets here.
        since = len(bot.lines())
        # Discord takes the answer to her next click and never replies.
        fake.stall("POST", "/interactions/*/callback", count=1)
        await fake.click(alice, lobby.message, "Leave", wait=False)
        (line,) = await bot.wait_for_lines("Discord did not answer", since=since)
        assert "button nines:1:lobby:" in line, line
        assert_clean_log(bot)
        # The bot goes on: the next click is answered.
        again = await fake.click(alice, lobby.message, "Leave")
        assert again.acknowledged and not again.errors
        await bot.terminate()
    finally:
        bot.kill()
        await fake.stop()
