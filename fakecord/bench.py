"""How many interactions a second the double serves: `python -m fakecord.bench [N]`.

A trivial bot answers `/ping` with a message. Two figures: one person at a time (each
interaction waits for its answer) and many people at once (all in flight together).
"""

from __future__ import annotations

import asyncio
import sys
import time
import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    import discord
    from discord import app_commands

from .interactions import Interaction
from .server import FakeDiscord
from .wiring import discord_pointed_at, run_client, stop_client


class PingBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="ping", description="pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

    async def setup_hook(self) -> None:
        await self.tree.sync()


async def _answered(inters: list[Interaction]) -> None:
    async with asyncio.timeout(10):
        for inter in inters:
            await inter.answered.wait()


async def bench(n: int, concurrency: int) -> None:
    async with FakeDiscord() as fake:
        with discord_pointed_at(fake):
            client = PingBot()
            task = await run_client(client, fake)
            await fake.settle()
            people = [fake.add_user(f"p{i}") for i in range(concurrency)]

            started = time.perf_counter()
            for i in range(n):
                inter = await fake.slash(people[i % concurrency], fake.channel, "ping", wait=False)
                await _answered([inter])
            sequential = n / (time.perf_counter() - started)

            started = time.perf_counter()
            inters: list[Interaction] = []
            for i in range(n):
                inters.append(
                    await fake.slash(people[i % concurrency], fake.channel, "ping", wait=False)
                )
                if len(inters) % concurrency == 0:
                    await _answered(inters[-concurrency:])
            await _answered(inters)
            concurrent = n / (time.perf_counter() - started)

            failed = sum(1 for i in fake.interactions.values() if i.errors or i.failed)
            await stop_client(client, task)
    print(f"{n} slash commands answered, one at a time: {sequential:.0f} interactions/s")
    print(f"{n} slash commands answered, {concurrency} in flight: {concurrent:.0f} interactions/s")
    print(f"failed or errored: {failed}; Discord requests made: {len(fake.requests)}")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    asyncio.run(bench(n, concurrency=50))


if __name__ == "__main__":
    main()
