"""A bot killed outright (SIGKILL, the out-of-memory killer) takes its computer workers with it:
they used to wait on their queue for ever, and a bot restarted in a loop piled them up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BOT_LIKE = """
import asyncio, multiprocessing, time
from engine.players.agent import ComputerSeat

async def main() -> None:
    seats = ComputerSeat(workers=2)
    await seats.start()
    print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
    time.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended; only its parent may reap it


@pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's")
def test_workers_end_when_the_bot_is_killed() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", BOT_LIKE],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # the killed bot's resource tracker warns of its semaphores
        text=True,
    ) as bot:
        try:
            assert bot.stdout is not None
            workers = [int(pid) for pid in bot.stdout.readline().split()]
            assert len(workers) == 2 and all(_alive(pid) for pid in workers)
        finally:
            os.kill(bot.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:  # not left behind by a failing run either
        os.kill(pid, signal.SIGKILL)
    assert not left, "a worker outlived the killed bot"
