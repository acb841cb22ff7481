"""The Activity server's bounds: how many sockets may be open (in all, per address, per
person), how fast one socket may send, and what a client's JSON may look like before it is
parsed (size and nesting), so no client holds the server's memory, its games' locks or its
log.

``Limits`` holds the caps (from bot/base/settings.py), ``Openings`` counts the open sockets,
``Bucket`` is one socket's token bucket, ``decode`` reads a client's JSON text within the
bounds (``TooMuch`` beyond them, ``Unreadable`` if not JSON), and ``address_of`` says where a
request comes from.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from aiohttp import web

if TYPE_CHECKING:
    from ..base import Settings

#: Longest client text read as JSON (a frame or the token route's body): a hello is about
#: 400 characters, an act under 100.
TEXT_LONGEST: Final = 4096
#: Deepest nesting of arrays and objects read: every frame of the protocol is one flat object.
DEPTH_MOST: Final = 8
#: A socket's hello comes at once (the client sends it as the socket opens): this long after
#: the upgrade, a socket that has not said it is closed.
HELLO_SECONDS: Final = 10.0
#: A socket none of whose frames (our JSON: a ping every 10 s) came for this long is closed: a
#: phone that went to sleep sends no close (iOS gives a page no unload event).
SILENT_SECONDS: Final = 30.0
#: A socket's frames: this many at once, then this many a second (a person taps far slower;
#: the client pings every 10 s). Beyond, each frame is refused (``busy``); this many refused
#: in a row and the socket is closed.
BURST: Final = 20
PER_SECOND: Final = 5.0
REFUSED_MOST: Final = 20


class Unreadable(ValueError):
    """A client's text that is not JSON (or not UTF-8); the message says what is wrong."""


class TooMuch(Unreadable):
    """A client's JSON text over the bounds: too long or nested too deep."""


def decode(text: str | bytes) -> Any:
    """The JSON value of a client's text, within ``TEXT_LONGEST`` and ``DEPTH_MOST``: checked
    before ``json.loads``, whose C scanner recurses once per level (2,000 nested brackets
    raised RecursionError)."""
    if len(text) > TEXT_LONGEST:
        raise TooMuch(f"longer than {TEXT_LONGEST} characters")
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            raise Unreadable("not UTF-8 text") from None
    if text.count("[") + text.count("{") > DEPTH_MOST and _depth(text) > DEPTH_MOST:
        raise TooMuch(f"nested deeper than {DEPTH_MOST} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise Unreadable("not JSON") from None


def _depth(text: str) -> int:
    """The deepest nesting of brackets and braces outside strings (a cheap scan, no parse)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps on open sockets (0: none), and where a request's address comes from."""

    total: int = 2000
    per_address: int = 200
    per_person: int = 8
    #: Reverse proxies of the operator's in front, each appending its caller to
    #: X-Forwarded-For (0: a request comes from its peer; ``address_of``).
    trusted_proxies: int = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            total=settings.activity_sockets,
            per_address=settings.activity_sockets_per_address,
            per_person=settings.activity_sockets_per_person,
            trusted_proxies=settings.activity_trusted_proxies,
        )


def address_of(request: web.Request, trusted_proxies: int) -> str:
    """Where the request comes from. Discord's proxy hides people's addresses ("This is done to
    hide the users' IP addresses", https://discord.com/developers/docs/activities/development-guides/local-development#url-mapping)
    and documents no header carrying them: through it, the address is the proxy's. A header is
    believed only behind reverse proxies of the operator's (``ACTIVITY_TRUSTED_PROXIES``: how
    many), each of which appends the address it was called from to X-Forwarded-For: the entry
    the outermost of them wrote, counted from the end (those before it are whatever the client
    sent)."""
    if trusted_proxies > 0:
        forwarded = ",".join(request.headers.getall("X-Forwarded-For", []))
        hops = [h.strip() for h in forwarded.split(",")]
        if len(hops) >= trusted_proxies and hops[-trusted_proxies]:
            return hops[-trusted_proxies]
    return request.remote or "unknown"


@dataclass(slots=True)
class Openings:
    """The sockets open now: in all, by address (from the upgrade) and by person (from a
    welcomed hello)."""

    total: int = 0
    addresses: Counter[str] = field(default_factory=Counter)
    people: Counter[int] = field(default_factory=Counter)

    def open(self, limits: Limits, address: str) -> bool:
        """Count a new socket from ``address``; False (not counted) when a cap is reached."""
        if 0 < limits.total <= self.total:
            return False
        if 0 < limits.per_address <= self.addresses[address]:
            return False
        self.total += 1
        self.addresses[address] += 1
        return True

    def close(self, address: str) -> None:
        self.total -= 1
        self.addresses[address] -= 1
        if self.addresses[address] <= 0:
            del self.addresses[address]

    def seat(self, limits: Limits, user_id: int) -> bool:
        """Count a welcomed socket of ``user_id``; False (not counted) at the person's cap."""
        if 0 < limits.per_person <= self.people[user_id]:
            return False
        self.people[user_id] += 1
        return True

    def unseat(self, user_id: int) -> None:
        self.people[user_id] -= 1
        if self.people[user_id] <= 0:
            del self.people[user_id]


@dataclass(slots=True)
class Bucket:
    """One socket's token bucket: ``BURST`` frames at once, ``PER_SECOND`` after."""

    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)
    #: Frames refused since the last one taken.
    refused: int = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * PER_SECOND)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = 0
            return True
        self.refused += 1
        return False

    @property
    def gone_on(self) -> bool:
        """Refused so often in a row that the socket is closed."""
        return self.refused >= REFUSED_MOST
