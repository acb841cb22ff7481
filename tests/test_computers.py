"""The bot's computers (``bot/game/computer.py``, ``bot/computer_pool.py``): the search decides in
worker processes off the event loop, a decision late, failed or not legal becomes the
rule-based move, and the workers end with the bot's process."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.game import Computers
from engine import Game, Rules, SeatView, seat_view
from engine.actions import Action, Exchange
from engine.players.exact import choose_exact
from engine.players.rules_player import rule_action
from testbed.games import HANG_GUARD

ROOT = Path(__file__).resolve().parents[1]
#: The bot's budget in these tests: only a stuck worker misses it. A worker starved of CPU (or
#: a new pool's process starting on a loaded machine) once took the 2 s or 5 s given, and the
#: rule-based move came instead. Decisions are compared in the clock-free mode (``exact``):
#: the level's own time cap (0.25 s for hard) judges fewer worlds on a starved machine.
BUDGET = 60.0


async def test_the_workers_decide_as_the_engine_and_late_is_the_rule(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = Game(Rules.from_settings("classic"), 11)
    computers = Computers(workers=1, budget=BUDGET)
    try:
        await computers.start()
        for _ in range(8):
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            # The clock-free decision compares exactly: a time-capped search judges fewer
            # worlds on a starved worker than in this process, and may answer otherwise.
            action = await computers.decide(view, "hard", 5, exact=True)
            assert action == choose_exact(view, "hard", 5)
            assert await computers.decide(view, "hard", 5) in view.legal
            game.apply(seat, action)
        # A budget nobody can meet: the rule-based move, at once.
        view = seat_view(game, game.turn or 0)
        computers.budget = 0.0
        with caplog.at_level(logging.WARNING, logger="bot.game.computer"):
            assert await computers.decide(view, "hard", 5) == rule_action(view)
        assert "computer hard ran out of time" in caplog.text
        assert await computers.decide(view, "easy", 5) in view.legal  # on the loop
    finally:
        await computers.close()
    assert multiprocessing.active_children() == []


async def test_the_workers_keep_the_loop_responsive() -> None:
    game = Game(Rules.from_settings("classic"), 12)
    while game.phase == "exchange":
        game.apply(game.turn or 0, Exchange(False))
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    computers = Computers(workers=1, budget=1.0)
    try:
        await computers.start()
        task = asyncio.create_task(ticker())
        for _ in range(6):
            seat = game.turn or 0
            game.apply(seat, await computers.decide(seat_view(game, seat), "hard", 0))
        task.cancel()
    finally:
        await computers.close()
    assert ticks >= 1
    assert multiprocessing.active_children() == []


def _fails(view: SeatView, difficulty: str, seed: int, budget: float) -> Action:
    raise RuntimeError("the search broke")


def _illegal(view: SeatView, difficulty: str, seed: int, budget: float) -> Action:
    return next(a for a in (Exchange(True), Exchange(False)) if a not in view.legal)


async def test_a_failed_or_illegal_decision_is_the_rule(caplog: pytest.LogCaptureFixture) -> None:
    game = Game(Rules.from_settings("classic"), 13)
    while game.phase == "exchange":
        game.apply(game.turn or 0, Exchange(False))
    view = seat_view(game, game.turn or 0)
    computers = Computers(workers=0, budget=5.0)
    with caplog.at_level(logging.WARNING, logger="bot.game.computer"):
        computers.choose = _fails
        assert await computers.decide(view, "hard", 1) == rule_action(view)
        computers.choose = _illegal
        assert await computers.decide(view, "hard", 1) == rule_action(view)
    logged = [r.getMessage() for r in caplog.records]
    assert "computer hard failed; playing the rule-based move" in logged
    assert any(m.endswith("not legal; playing the rule-based move") for m in logged)
    await computers.close()


@pytest.mark.skipif(sys.platform != "linux", reason="a worker killed by its pid")
async def test_a_killed_worker_is_the_rule_then_a_new_pool(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = Game(Rules.from_settings("classic"), 14)
    while game.phase == "exchange":
        game.apply(game.turn or 0, Exchange(False))
    view = seat_view(game, game.turn or 0)
    computers = Computers(workers=1, budget=BUDGET)
    try:
        await computers.start()
        (worker,) = multiprocessing.active_children()
        os.kill(worker.pid or 0, signal.SIGKILL)
        worker.join(10)
        with caplog.at_level(logging.WARNING, logger="bot.game.computer"):
            assert await computers.decide(view, "hard", 2) == rule_action(view)
        assert [r.getMessage() for r in caplog.records] == [
            "computer hard failed; playing the rule-based move"
        ]
        assert await computers.decide(view, "hard", 2, exact=True) == choose_exact(view, "hard", 2)
    finally:
        await computers.close()
    assert multiprocessing.active_children() == []


BOT_LIKE = """
import asyncio, multiprocessing, time
from bot.computer_pool import ComputerPool

async def main() -> None:
    seats = ComputerPool(workers=2)
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
def test_the_workers_end_when_the_bot_is_killed() -> None:
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
    deadline = time.monotonic() + HANG_GUARD
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:  # not left behind by a failing run either
        os.kill(pid, signal.SIGKILL)
    assert not left, "a worker outlived the killed bot"
