"""How long the bot takes to stop on SIGTERM (a script, not a test): Docker kills it 10 s after.

    .venv/bin/python bench/stopping.py [--runs 3]

``python -m bot`` against the Discord double, started and connected, then stopped with SIGTERM:
idle, and with a click in flight whose answer the double holds for 1.5 s (the stop waits for
it). Each figure is the wall time from the signal to the process's exit, and the bot's own
"stopped cleanly in" figure. tests/bot/test_stopping.py checks what a stop waits for; the
seconds are measured here, where a loaded machine cannot fail a test with them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fakecord import FakeDiscord  # noqa: E402
from testbed.games import HANG_GUARD, open_game, wait_for  # noqa: E402
from testbed.people import enabled_moves, open_hand, whose_turn  # noqa: E402

HELD = 1.5  # seconds the double holds the answer to the click in flight


async def stop_once(with_click: bool) -> tuple[float, float]:
    """One start and stop; (seconds from SIGTERM to exit, the bot's own stop figure)."""
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE"))},
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DATABASE_PATH": str(Path(tmp) / "nines.sqlite3"),
            "COMPUTER_WORKERS": "0",
            "CARD_EMOJIS": "off",
            "LOG_LEVEL": "INFO",
        }
        log = Path(tmp) / "bot.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(  # noqa: ASYNC220 (returns at once)
                [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=out, stderr=out
            )
        try:
            await asyncio.wait_for(fake.gateway.connected.wait(), HANG_GUARD)
            await wait_for(fake, lambda: fake.commands.find(fake.guild.id, "nines"))
            if with_click:
                alice, bob = fake.add_user("alice"), fake.add_user("bob")
                await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
                user = await wait_for(fake, lambda: whose_turn(fake, [alice, bob], fake.channel))
                hand = await open_hand(fake, user, fake.channel)
                held = fake.stall("POST", "/interactions/*/callback", seconds=HELD)
                await fake.click(user, hand, enabled_moves(hand)[0], wait=False)
                while not held.arrived:  # noqa: ASYNC110 (the double counts, announces none)
                    await asyncio.sleep(0.005)
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            await asyncio.to_thread(proc.wait, HANG_GUARD)
            took = time.monotonic() - started
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            await fake.stop()
        own = re.search(r"stopped cleanly in ([0-9.]+) s", log.read_text())
        return took, float(own[1]) if own else float("nan")


async def run(runs: int) -> None:
    for label, with_click in (("idle", False), (f"a click in flight, held {HELD} s", True)):
        figures = [await stop_once(with_click) for _ in range(runs)]
        walls = [w for w, _ in figures]
        owns = [o for _, o in figures]
        print(
            f"SIGTERM stop, {label}: median {statistics.median(walls):.2f} s to exit "
            f"(max {max(walls):.2f}); the bot's own figure {statistics.median(owns):.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.runs))


if __name__ == "__main__":
    main()
