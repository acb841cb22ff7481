"""Running the process: the bot and what serves beside it (the web table, the health and
metrics endpoints) built once from the settings, logged in with retries, stopped gracefully."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Iterator

from ..app import NinesBot
from ..base import RETRYABLE, Backoff, Settings, describe, discord_internals, metrics, sleep_or_stop
from ..game import Computers
from ..storage import Storage
from .health import Endpoints

log = logging.getLogger(__name__)


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST and gateway URLs (a proxy, or a test double).

    discord.py reads both from class attributes, so this is process-wide.
    """
    discord_internals.point_at(settings.api_base, settings.gateway_url)


async def build_bot(settings: Settings) -> NinesBot:
    """The whole bot from its settings: endpoints applied, database open, players ready, and
    the web table's server beside it when configured."""
    apply_endpoints(settings)
    storage = await Storage.open(
        settings.database_url or settings.database, pool_size=settings.database_pool_size
    )
    if settings.metrics_port is not None:
        metrics.enable().time_writes(storage)
    computers = Computers(settings.computer_workers)
    bot: NinesBot
    if settings.shard_count is not None:
        from .shards import ShardedNinesBot  # only a sharded bot loads it

        bot = ShardedNinesBot(settings, storage, computers)
    else:
        bot = NinesBot(settings, storage, computers)
    if settings.activity_on:
        # The web table's server, only when configured: its modules are not even imported
        # otherwise. The bot knows it only as a ``WebTable``.
        from ..activity import ActivityServer

        bot.activity_server = ActivityServer(bot, settings)
    return bot


async def log_in(bot: NinesBot, settings: Settings, stop: asyncio.Event) -> bool:
    """Log in (and set up: games restored, commands synced), retrying network faults and
    Discord's server errors with backoff and jitter, one line each. A refused token raises
    ``discord.LoginFailure``. False if ``stop`` was set first."""
    backoff = Backoff()
    while not stop.is_set():
        try:
            await asyncio.wait_for(bot.login(settings.token), settings.connect_timeout)
            return True
        except RETRYABLE as exc:
            delay = backoff.next()
            log.warning(
                "Cannot log in to Discord: %s; retrying in %.1f s",
                describe(exc, timeout=settings.connect_timeout),
                delay,
            )
        # A fresh HTTP session (and its connector) for the next attempt.
        await discord_internals.renew_http_session(bot)
        if await sleep_or_stop(delay, stop):
            break
    return False


async def serve(bot: NinesBot, settings: Settings, stop: asyncio.Event) -> None:
    """Log in, then stay connected to the gateway (discord.py reconnects by itself)."""
    if await log_in(bot, settings, stop):
        await bot.connect(reconnect=True)


@contextlib.contextmanager
def stop_signals(stop: asyncio.Event) -> Iterator[None]:
    """SIGTERM (docker stop) and SIGINT (Ctrl+C) set ``stop`` instead of killing the bot."""
    loop = asyncio.get_running_loop()
    signals = (signal.SIGTERM, signal.SIGINT)
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    try:
        yield
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


async def run(settings: Settings) -> None:
    """Run until stopped by SIGTERM or SIGINT (a graceful stop) or a fault retrying cannot
    mend (a refused token: ``discord.LoginFailure``)."""
    bot = await build_bot(settings)
    endpoints = Endpoints(bot, settings.health_port, settings.metrics_port)
    stop = asyncio.Event()
    with stop_signals(stop):
        async with bot:
            await endpoints.start()
            try:
                connection = asyncio.create_task(serve(bot, settings, stop), name="connection")
                stopped = asyncio.create_task(stop.wait(), name="stop-signal")
                await asyncio.wait({connection, stopped}, return_when=asyncio.FIRST_COMPLETED)
                stopped.cancel()
                if not stop.is_set():
                    connection.result()  # what ended it, if anything did
                else:
                    started = time.monotonic()
                    log.info("stopping: finishing the clicks in progress")
                    await bot.shutdown(connection)
                    log.info("stopped cleanly in %.2f s", time.monotonic() - started)
            finally:
                await endpoints.stop()
