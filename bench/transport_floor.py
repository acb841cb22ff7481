"""What discord.py and aiohttp cost for a person move's Discord traffic, with no game at all:
`python -m bench.transport_floor [--tables 200] [--seconds 60] [--requests 2.9]`.

The floor under `bench/load.py`'s "bot CPU a person move": a bare discord.py client (the bot's
intents, its own calls of `bot/base/discord_internals.py`, none of its game, storage, models or
rendering) in a process of its own, against the Discord double, people clicking its buttons at
the load run's human pace (a card every 3-7 s a table). For each click it sends what a card
costs the bot in chat (`--requests`, the load run's figure a person move): the click's answer
(callback type 7 with a hand's buttons), an edit of the table through a click's token, and,
for what is left of the figure, a follow-up posted and the last one deleted. Printed: the
client's CPU a click over the play after a warm-up, and the requests it sent a click.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WARM = 10.0  # seconds of clicks before the CPU is counted (every table under way)


def hand_rows(table: int) -> list[list[dict[str, Any]]]:
    """A hand's buttons as the bot sends them: three rows of cards, Refresh on its own."""
    cards = [
        {
            "type": 2,
            "custom_id": f"floor:{table}:{n}",
            "label": f"{n + 2}♠",
            "style": 2,
        }
        for n in range(12)
    ]
    refresh = {"type": 2, "custom_id": f"floor:{table}:refresh", "label": "Refresh", "style": 2}
    return [cards[0:4], cards[4:8], cards[8:12], [refresh]]


async def client_process() -> None:
    """The bare client: answers every click as a card's traffic, counts what it sent."""
    import discord

    from bot.base import discord_internals
    from bot.base.discord_internals import PrebuiltView

    # The bot's own way to its Discord (DISCORD_API_BASE, DISCORD_GATEWAY_URL).
    discord_internals.point_at(os.environ["FLOOR_API"], os.environ["FLOOR_GATEWAY"])
    extra = float(os.environ["FLOOR_REQUESTS"]) - 2.0  # beyond the answer and the table edit
    rng = random.Random(7)
    client = discord.Client(intents=discord.Intents(guilds=True))
    client._connection.guild_ready_timeout = 0.05
    tables: dict[int, tuple[str, int]] = {}  # channel -> (token, table message id)
    pings: dict[int, tuple[str, int]] = {}  # channel -> the last follow-up
    embed = discord.Embed(title="Nines — hand 3", description="p1a **9♥** · p1b **K♥**\n" * 8)
    embed.add_field(name="Scores", value="p1a 12 · p1b 9 · p1c 14")
    sent = 0

    @client.event
    async def on_ready() -> None:
        for guild in client.guilds:
            for channel in guild.text_channels:
                await channel.send(
                    "Your hand",
                    view=PrebuiltView(*hand_rows(channel.id)),  # type: ignore[arg-type]
                )
        print("ready", flush=True)

    @client.event
    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        nonlocal sent
        channel = interaction.channel_id or 0
        await discord_internals.update_clicked(
            interaction, content="Your hand: 9♥ K♥ 4♣", view=PrebuiltView(*hand_rows(channel))
        )
        sent += 1
        if channel not in tables:
            message = await discord_internals.send_webhook_message(
                client, interaction.token, embed=embed
            )
            tables[channel] = (interaction.token, message)
        else:
            token, message = tables[channel]
            await discord_internals.edit_webhook_message(client, token, message, embed=embed)
        sent += 1
        if rng.random() < extra / 2:  # a follow-up posted, the last one deleted
            ping = await discord_internals.send_webhook_message(
                client, interaction.token, f"<@{interaction.user.id}>, your turn"
            )
            sent += 1
            if channel in pings:
                token, last = pings[channel]
                with contextlib.suppress(discord.HTTPException):
                    await discord_internals.interaction_webhook(client, token).delete_message(last)
                sent += 1
            pings[channel] = (interaction.token, ping)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def report() -> None:
        usage = os.times()
        print(f"cpu {usage.user + usage.system:.6f} sent {sent}", flush=True)

    loop.add_signal_handler(signal.SIGUSR1, report)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    async with client:
        await client.login(os.environ["FLOOR_TOKEN"])
        runner = asyncio.create_task(client.connect())
        await stop.wait()
        runner.cancel()


async def main(args: argparse.Namespace) -> None:
    from fakecord.server import FakeDiscord

    async with FakeDiscord(check_bodies_every=50) as fake:
        fake.ratelimits.use_discord_route_limits()
        channels = [fake.add_channel(name=f"table-{i}") for i in range(args.tables)]
        people = [fake.add_user(f"p{i}") for i in range(args.tables)]
        env = dict(
            os.environ,
            FLOOR_API=fake.api_base,
            FLOOR_GATEWAY=fake.gateway_url,
            FLOOR_TOKEN=fake.token,
            FLOOR_REQUESTS=str(args.requests),
        )
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.transport_floor",
            "--child",
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
        )
        assert child.stdout is not None
        out = child.stdout
        # "ready" once the client has posted every table's hand.
        while not (await out.readline()).startswith(b"ready"):
            pass
        rng = random.Random(1)
        clicks = 0
        stop_at = time.monotonic() + args.seconds

        async def person(i: int) -> None:
            nonlocal clicks
            channel, user = channels[i], people[i]
            await asyncio.sleep(rng.uniform(0, 5))
            while time.monotonic() < stop_at:
                message = fake.store.messages[channel.id][0]
                inter = await fake.click(user, message, f"floor:{channel.id}:{rng.randrange(12)}")
                assert inter.ack_type == 7, inter.errors
                clicks += 1
                await asyncio.sleep(rng.uniform(3.0, 7.0))

        async def sample() -> tuple[float, int, int]:
            child.send_signal(signal.SIGUSR1)
            _, cpu, _, sent = (await out.readline()).decode().split()
            return float(cpu), int(sent), clicks

        tasks = [asyncio.create_task(person(i)) for i in range(args.tables)]
        await asyncio.sleep(WARM)
        cpu0, sent0, clicks0 = await sample()
        await asyncio.sleep(max(stop_at - time.monotonic(), 0))
        cpu1, sent1, clicks1 = await sample()
        await asyncio.gather(*tasks)
        child.terminate()
        await asyncio.wait_for(child.wait(), 10)
        n = clicks1 - clicks0
        print(
            f"{args.tables} tables, {n} clicks in {args.seconds - WARM:.0f} s after a "
            f"{WARM:.0f} s warm-up; load average {os.getloadavg()[0]:.1f}"
        )
        print(f"requests a click: {(sent1 - sent0) / max(n, 1):.2f} (asked: {args.requests})")
        print(
            f"bare client's CPU a click (discord.py and aiohttp, no game): "
            f"{1000 * (cpu1 - cpu0) / max(n, 1):.2f} ms"
        )


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--requests", type=float, default=2.9)
    return parser.parse_args()


if __name__ == "__main__":
    if "--child" in sys.argv:
        asyncio.run(client_process())
    else:
        asyncio.run(main(options()))
