"""The health check and the metrics endpoint, on aiohttp (already there through discord.py).

``GET /healthz`` on ``HEALTH_PORT`` (127.0.0.1: the container's own check) answers 200 only
while the gateway is connected and the database answers, else 503 with what is wrong.
``GET /metrics`` on ``METRICS_PORT`` (every interface, for Prometheus) is the metrics'
exposition. Neither is served unless its port is set.

``python -m bot.process.health`` is the Docker HEALTHCHECK: exit 0 if healthy, 1 otherwise.
"""

from __future__ import annotations

import asyncio
import os
import sys
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Final

from aiohttp import web
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from ..base import metrics

if TYPE_CHECKING:
    from ..app import NinesBot

#: The database must answer a read within this long.
DATABASE_WITHIN: Final = 2.0


async def health(bot: NinesBot) -> str | None:
    """None when healthy, else what is wrong (one line)."""
    if bot.is_closed() or not bot.gateway_open():
        return "not connected to Discord's gateway"
    try:
        await asyncio.wait_for(bot.storage.get_meta("health"), DATABASE_WITHIN)
    except Exception as exc:
        return f"the database does not answer ({type(exc).__name__})"
    return None


#: The setting behind each path, for messages.
PORT_NAMES: Final = {"healthz": "HEALTH_PORT", "metrics": "METRICS_PORT"}


class EndpointError(Exception):
    """A configured port cannot be listened on; the message says which and why."""


class Endpoints:
    """The HTTP servers for the configured ports; ``start`` and ``stop`` them once."""

    def __init__(self, bot: NinesBot, health_port: int | None, metrics_port: int | None) -> None:
        self.bot = bot
        self.health_port = health_port
        self.metrics_port = metrics_port
        self._runners: list[web.AppRunner] = []

    async def start(self) -> None:
        ports: dict[int, tuple[str, set[str]]] = {}
        if self.health_port is not None:
            ports[self.health_port] = ("127.0.0.1", {"healthz"})
        if self.metrics_port is not None:
            _, paths = ports.get(self.metrics_port, ("", set()))
            ports[self.metrics_port] = ("0.0.0.0", paths | {"metrics"})
        for port, (host, paths) in ports.items():
            app = web.Application()
            if "healthz" in paths:
                app.router.add_get("/healthz", self._healthz)
            if "metrics" in paths:
                app.router.add_get("/metrics", self._metrics)
            runner = web.AppRunner(app, access_log=None, handle_signals=False)
            await runner.setup()
            self._runners.append(runner)
            try:
                await web.TCPSite(runner, host, port).start()
            except OSError as error:
                await self.stop()
                names = " and ".join(sorted(PORT_NAMES[p] for p in paths))
                raise EndpointError(
                    f"cannot listen on {host}:{port} for {names} ({error.strerror or error}): "
                    "choose another port"
                ) from None

    async def stop(self) -> None:
        for runner in self._runners:
            await runner.cleanup()
        self._runners.clear()

    async def _healthz(self, _request: web.Request) -> web.Response:
        problem = await health(self.bot)
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=problem + "\n")

    async def _metrics(self, _request: web.Request) -> web.Response:
        active = metrics.active
        if active is None:
            return web.Response(status=404)
        active.live_games.set(len(getattr(self.bot, "sessions", ())))
        return web.Response(body=active.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})


def check(port: int, *, timeout: float = 5.0) -> tuple[bool, str]:
    """GET the health endpoint on this machine: (healthy, the answer's first line)."""
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return True, answer.read().decode().strip()
    except urllib.error.HTTPError as error:
        with error:  # the answer holds the connection: closed now, not whenever it is collected
            return False, error.read().decode().strip() or f"HTTP {error.code}"
    except OSError as error:
        return False, f"no answer on {url}: {error}"


def main() -> None:
    port_text = os.environ.get("HEALTH_PORT", "").strip()
    if not port_text.isdigit():
        print("unhealthy: HEALTH_PORT is not set", file=sys.stderr)
        raise SystemExit(1)
    healthy, said = check(int(port_text))
    print(("healthy: " if healthy else "unhealthy: ") + said)
    raise SystemExit(0 if healthy else 1)


if __name__ == "__main__":
    main()
