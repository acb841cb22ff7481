"""The relay's envelope (bot/activity/relay.py): every message between the bot's processes is
encrypted and authenticated with the key every process shares (``RELAY_KEY``), numbered and
timed. A role that can connect to the database but does not hold the key can LISTEN and read
nothing (hands travel in the frames), NOTIFY and forge nothing, record and replay nothing.

An envelope is ``n1.`` then the base64 of: the nonce (12 bytes: the sealer's random 8-byte id
and its 4-byte count of messages) and the AES-256-GCM box of the zlib-compressed JSON message,
which holds the time it was sealed (``at``), padded with zeros to a multiple of ``PAD_TO``
bytes (a box's length tells the length of what it holds: a hand's cards, a move's kind). GCM's
tag authenticates the nonce, the message and the channel it is sent on (the box's associated
data): a message moved to another process's channel does not open. The AES key is derived from
RELAY_KEY (HMAC-SHA256), never from anything the database knows.

Replays are caught twice: a sealer's count must rise (it sends on one connection, one
statement at a time, and PostgreSQL delivers notifications in commit order), and a message must
be sealed within ``STALE_AFTER`` of the reader's clock and, from a sealer not heard before, no
earlier than the reader began listening (it could not have heard it then). What is left: the
hosts' clocks must agree within ``STALE_AFTER`` (NTP does far better).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

Json = dict[str, Any]

PREFIX: Final = "n1."
#: A message sealed longer ago than this (or this far ahead of the reader's clock) is dropped.
STALE_AFTER: Final = 30.0
#: Boxes are this many bytes, or a multiple: a table frame is 1-2 KB compressed.
PAD_TO: Final = 256
#: A sealer's count is 4 bytes of the nonce: past it, the sealer takes a fresh id (a nonce is
#: never used twice with the key).
COUNT_LAST: Final = 2**32 - 1

#: Why a message was dropped (the label of the bot's counter, bot/base/metrics.py).
Reason = Literal["unsigned", "forged", "replayed"]


class Dropped(Exception):
    """A message that is not opened: unsigned (not an envelope), forged (it does not open with
    the key, on this channel) or replayed (seen before, or too old)."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason: Reason = reason


def relay_key(text: str) -> bytes:
    """The AES-256 key of ``RELAY_KEY``'s text (the same on every process)."""
    return hmac.new(text.encode(), b"nines activity relay: AES-256-GCM", hashlib.sha256).digest()


@dataclass(slots=True)
class Heard:
    """A sealer heard from: its highest count, and when it was heard last (the reader's clock)."""

    count: int
    at: float


class Seal:
    """Seals this process's messages and opens everyone's (its own included)."""

    def __init__(self, key_text: str, clock: Callable[[], float] = time.time) -> None:
        self._aead = AESGCM(relay_key(key_text))
        #: The wall clock (the hosts' clocks agree, their monotonic ones do not).
        self._clock = clock
        self._id = secrets.token_bytes(8)
        self._count = 0
        self._heard: dict[bytes, Heard] = {}
        #: Since when this process listens (the reader's clock; set on each connection).
        self.listening_since = clock()

    def seal(self, channel: str, message: Json) -> str:
        """``message`` for ``channel``. One caller at a time, in the order the messages are
        sent (a count sent after a higher one is taken for a replay)."""
        if self._count >= COUNT_LAST:
            self._id, self._count = secrets.token_bytes(8), 0
        self._count += 1
        nonce = self._id + self._count.to_bytes(4, "big")
        body = json.dumps({**message, "at": self._clock()}, separators=(",", ":")).encode()
        packed = zlib.compress(body, 6)
        packed += bytes(-len(packed) % PAD_TO)
        box = self._aead.encrypt(nonce, packed, channel.encode())
        return PREFIX + base64.b64encode(nonce + box).decode()

    def open(self, channel: str, payload: str) -> Json:
        """The message of an envelope heard on ``channel``; ``Dropped`` if it is not one of the
        processes', or already heard, or old."""
        if not payload.startswith(PREFIX):
            raise Dropped("unsigned")
        try:
            raw = base64.b64decode(payload[len(PREFIX) :], validate=True)
        except (binascii.Error, ValueError):
            raise Dropped("unsigned") from None
        nonce, box = raw[:12], raw[12:]
        if len(nonce) < 12:
            raise Dropped("unsigned")
        try:
            packed = self._aead.decrypt(nonce, box, channel.encode())
        except InvalidTag:
            raise Dropped("forged") from None
        body = zlib.decompressobj().decompress(packed)  # up to the stream's end: not the padding
        message: Json = json.loads(body)
        sealer, count = nonce[:8], int.from_bytes(nonce[8:], "big")
        now = self._clock()
        at = float(message.pop("at"))
        heard = self._heard.get(sealer)
        if abs(now - at) > STALE_AFTER:
            raise Dropped("replayed")
        if heard is None and at < self.listening_since:
            raise Dropped("replayed")  # sealed before this process could hear it
        if heard is not None and count <= heard.count:
            raise Dropped("replayed")
        self._heard[sealer] = Heard(count, now)
        self._forget(now)
        return message

    def _forget(self, now: float) -> None:
        """Forget the sealers silent for STALE_AFTER: whatever of theirs comes now is stale."""
        if len(self._heard) > 16:
            for sealer in [s for s, h in self._heard.items() if now - h.at > STALE_AFTER]:
                del self._heard[sealer]
