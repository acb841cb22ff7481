"""Prometheus metrics (``prometheus_client``), served only when ``METRICS_PORT`` is set.

Off (the default), every hook is one ``is None`` test. On, a hook is a counter or histogram
update (a lock and a few additions): nothing is built per click or request but its labels.
Live games are counted when scraped, not kept.

A harness that wants the timings themselves, not Prometheus's buckets (``bench/load.py``'s
exact percentiles), listens to them (``Metrics.listen``): the bot measures once, in one place,
and nothing outside it is patched to time the bot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import generate_latest

if TYPE_CHECKING:
    from ..storage import Storage


#: A path segment this long is a token (interaction or webhook), never a route's own word.
TOKEN_LENGTH: Final = 40

#: The timed metrics, by name (what a listener hears).
ANSWER: Final = "nines_click_answer_seconds"
DECISION: Final = "nines_computer_decision_seconds"
WRITE: Final = "nines_database_write_seconds"

#: Each timed metric's help and histogram buckets (seconds).
TIMINGS: Final[dict[str, tuple[str, tuple[float, ...]]]] = {
    # Discord gives an interaction 3 s for its first answer.
    ANSWER: (
        "From a click reaching the bot to Discord accepting its first answer",
        (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0),
    ),
    DECISION: (
        "Time a computer player took to decide",
        (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0),
    ),
    WRITE: (
        "Database write transactions, waiting for the connection included",
        (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
    ),
}

#: Hears each timing as it is measured: the metric's name, the seconds, and the interaction it
#: timed (a click's answer) or None.
Listener = Callable[[str, float, int | None], None]


class Metrics:
    """The bot's metrics, in a registry of their own (one per process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.live_games = Gauge("nines_live_games", "Open games (lobbies and games)", registry=r)
        self.clicks = Counter("nines_clicks", "Clicks on the bot's buttons", registry=r)
        self.requests = Counter(
            "nines_discord_requests",
            "Requests to Discord's API, by route and status",
            ["method", "route", "status"],
            registry=r,
        )
        self.rate_limited = Counter(
            "nines_discord_rate_limited",
            "429 answers from Discord, by route and scope",
            ["route", "scope"],
            registry=r,
        )
        self.relay_dropped = Counter(
            "nines_activity_relay_dropped",
            "Messages between processes (the web table's relay) dropped: unsigned, forged or "
            "replayed, by reason",
            ["reason"],
            registry=r,
        )
        #: Clicks waiting for their first answer: interaction id -> when it reached the bot.
        self._clicked: dict[int, float] = {}
        self._listeners: list[Listener] = []
        self._histograms = {
            name: Histogram(name, text, buckets=buckets, registry=r)
            for name, (text, buckets) in TIMINGS.items()
        }

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def listen(self, listener: Listener) -> None:
        """Hear every timing from now on, as it is measured (the bot itself has no listener)."""
        self._listeners.append(listener)

    def observe(self, name: str, seconds: float, interaction_id: int | None = None) -> None:
        """One timing: into its histogram, and to each listener."""
        self._histograms[name].observe(seconds)
        for listener in self._listeners:
            listener(name, seconds, interaction_id)

    # -- clicks ----------------------------------------------------------------------------------

    def click(self, interaction_id: int) -> None:
        self.clicks.inc()
        self._clicked[interaction_id] = time.perf_counter()

    def click_done(self, interaction_id: int) -> None:
        """The click's handler ended (answered, or failed to): stop waiting for its answer."""
        self._clicked.pop(interaction_id, None)

    # -- requests to Discord -------------------------------------------------------------------

    def response_class(self) -> type[aiohttp.ClientResponse]:
        """aiohttp's response class, noting each answer's route and status as it arrives: one
        call a request (aiohttp's tracing, tried first, cost ~13 us a request in signals and
        their parameter objects)."""
        seen = self._response

        class MeasuredResponse(aiohttp.ClientResponse):
            async def start(self, connection: Any) -> MeasuredResponse:
                await super().start(connection)
                seen(self.method, self.url.path, self.status, self.headers)
                return self

        return MeasuredResponse

    def _response(self, method: str, url_path: str, status: int, headers: Any) -> None:
        path = api_path(url_path)
        route = route_of(path)
        self.requests.labels(method, route, str(status)).inc()
        if status == 429:
            scope = headers.get("X-RateLimit-Scope", "unknown")
            self.rate_limited.labels(route, scope).inc()
        elif status < 400 and route == "/interactions/{id}/{token}/callback":
            interaction_id = int(path.split("/", 3)[2])
            started = self._clicked.pop(interaction_id, None)
            if started is not None:
                self.observe(ANSWER, time.perf_counter() - started, interaction_id)

    # -- storage -------------------------------------------------------------------------------

    def time_writes(self, storage: Storage) -> None:
        """Time every write transaction of ``storage``."""
        storage.observe_writes(lambda seconds: self.observe(WRITE, seconds))


def api_path(path: str) -> str:
    """The path below the API's base (``/api/v10``), wherever the base is mounted."""
    base = path.find("/api/v")
    if base < 0:
        return path
    below = path.find("/", base + 6)
    return path[below:] if below >= 0 else "/"


def route_of(path: str) -> str:
    """The route of an API path: ids and tokens replaced, so the label has few values."""
    parts = path.split("/")
    for i, part in enumerate(parts):
        if part.isdigit():
            parts[i] = "{id}"
        elif len(part) >= TOKEN_LENGTH:
            parts[i] = "{token}"
    return "/".join(parts)


#: The process's metrics once enabled; None (the default) makes every hook a no-op.
active: Metrics | None = None


def enable() -> Metrics:
    global active
    if active is None:
        active = Metrics()
    return active


def decision_time(seconds: float) -> None:
    if active is not None:
        active.observe(DECISION, seconds)


def relay_dropped(reason: str) -> None:
    """A relay message that did not open (bot/activity/relay.py)."""
    if active is not None:
        active.relay_dropped.labels(reason).inc()
