"""Network faults on the way to Discord: one line that says what failed and what to check, and
the delays between attempts (exponential, with jitter, capped)."""

from __future__ import annotations

import asyncio
import os
import random
from http import HTTPStatus
from typing import Final

import aiohttp
import discord
from discord.errors import ConnectionClosed

#: The first retry waits about this long; each later one twice as long, up to the cap.
FIRST_DELAY: Final = 1.0
MAX_DELAY: Final = 60.0

#: Faults worth retrying: the network, Discord's servers, a hung answer. A refused token or
#: a disallowed intent is not among them (retrying cannot help).
RETRYABLE: Final = (
    OSError,
    aiohttp.ClientError,
    TimeoutError,
    discord.GatewayNotFound,
    discord.DiscordServerError,
    ConnectionClosed,
)

_CHECK_NETWORK: Final = "check the network, the firewall or proxy, and DISCORD_API_BASE"


class Backoff:
    """Delays between attempts: FIRST_DELAY doubling to MAX_DELAY, each drawn between half
    and all of it (so many bots cut off together do not come back in step)."""

    def __init__(
        self, first: float = FIRST_DELAY, cap: float = MAX_DELAY, rng: random.Random | None = None
    ) -> None:
        self.first = first
        self.cap = cap
        self.attempts = 0
        self._rng = rng or random.Random()

    def next(self) -> float:
        ceiling = min(self.cap, self.first * 2.0 ** min(self.attempts, 30))
        self.attempts += 1
        return ceiling / 2 + self._rng.uniform(0, ceiling / 2)

    def reset(self) -> None:
        self.attempts = 0


def describe(exc: BaseException, *, timeout: float | None = None) -> str:
    """One line: what failed and what to check (never a traceback)."""
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return f"cannot resolve {exc.host}: check the network connection and its DNS"
    if isinstance(exc, aiohttp.ClientConnectorCertificateError):
        return (
            f"the TLS certificate of {exc.host} was not accepted: check the system clock, "
            "the CA certificates, and any proxy that intercepts TLS"
        )
    if isinstance(exc, aiohttp.ClientConnectorError):
        error = exc.os_error
        reason = os.strerror(error.errno) if error.errno else str(error) or type(error).__name__
        return f"cannot connect to {exc.host}:{exc.port} ({reason.lower()}): {_CHECK_NETWORK}"
    if isinstance(exc, TimeoutError):
        within = f" within {timeout:g} s" if timeout else ""
        return f"Discord did not answer{within}: {_CHECK_NETWORK}"
    if isinstance(exc, discord.HTTPException):
        return _http(exc)
    if isinstance(exc, discord.GatewayNotFound):
        return "Discord's gateway was not found: check DISCORD_GATEWAY_URL, or Discord's status"
    if isinstance(exc, ConnectionClosed):
        return f"Discord's gateway closed the connection (code {exc.code}): reconnecting"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return f"Discord closed the connection before answering: {_CHECK_NETWORK}"
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}: {_CHECK_NETWORK}"


def _http(exc: discord.HTTPException) -> str:
    try:
        phrase = HTTPStatus(exc.status).phrase
    except ValueError:
        phrase = ""
    answer = f"Discord answered {exc.status} {phrase}".rstrip()
    if exc.status >= 500:
        return f"{answer}: a problem on Discord's side (see https://discordstatus.com)"
    detail = " ".join(exc.text.split())[:200]
    return f"{answer}: {detail}" if detail else answer


async def sleep_or_stop(delay: float, stop: asyncio.Event) -> bool:
    """Wait ``delay`` seconds; True if ``stop`` was set meanwhile."""
    try:
        await asyncio.wait_for(stop.wait(), timeout=delay)
    except TimeoutError:
        return False
    return True
