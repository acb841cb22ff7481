"""bot/activity/seal.py: the relay's envelope opens only with the key, on its channel, once, and
while fresh; what travels cannot be read without the key. And without RELAY_KEY there is no
relay (bot/activity/__init__.py), said once."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import zlib
from types import SimpleNamespace
from typing import Any

import pytest

from bot.activity import ActivityServer
from bot.activity import seal as seal_module
from bot.activity.seal import PREFIX, STALE_AFTER, Dropped, Seal
from bot.base import Settings

from .test_settings import TOKEN

KEY = "k7W1vQ3y9Zp2RrC8tHnXa4LmE6sJdB0uGfKcYoTiV5w"
CHANNEL = "nines_activity_0123456789abcdef"
HAND = '{"op":"table","table":{"hand":{"cards":["9H","AS","KD"]}}}'


def message(n: int = 1) -> dict[str, object]:
    return {"t": "frame", "from": "0123456789abcdef", "game": 7, "user": 42 + n, "frame": HAND}


def readable(raw: bytes) -> bytes:
    """Whatever zlib makes of ``raw`` from any of its first bytes, as a stream or raw deflate:
    what someone without the key could read of a payload that was only compressed."""
    found = b""
    for start in range(min(len(raw), 48)):
        for wbits in (15, -15):
            with contextlib.suppress(zlib.error):
                found += zlib.decompressobj(wbits).decompress(raw[start:])
    return found


def reason(reader: Seal, payload: str, channel: str = CHANNEL) -> str:
    with pytest.raises(Dropped) as dropped:
        reader.open(channel, payload)
    return dropped.value.reason


def test_a_sealed_message_opens_with_the_key_and_hides_the_hand() -> None:
    sender, reader = Seal(KEY), Seal(KEY)
    payload = sender.seal(CHANNEL, message())
    assert payload.startswith(PREFIX)
    assert reader.open(CHANNEL, payload) == message()
    raw = base64.b64decode(payload[len(PREFIX) :])
    assert b"hand" in readable(zlib.compress(HAND.encode()))  # what a compressed one shows
    for word in (b"hand", b"cards", b"frame"):
        assert word not in raw + readable(raw)  # encrypted, not merely compressed
    # Padded: a shorter hand seals to as long a payload.
    shorter = {**message(), "frame": HAND.replace(',"KD"', "")}
    assert reader.open(CHANNEL, again := sender.seal(CHANNEL, shorter)) == shorter
    assert len(again) == len(payload) and (len(raw) - 12 - 16) % seal_module.PAD_TO == 0


def test_unsigned_garbled_and_plain_json_are_dropped() -> None:
    reader = Seal(KEY)
    plain = json.dumps({"t": "act", "from": "x", "game": 7, "user": 1, "key": "k", "action": "9H"})
    assert reason(reader, plain) == "unsigned"
    assert reason(reader, PREFIX + "not base64!") == "unsigned"
    assert reason(reader, PREFIX + base64.b64encode(b"short").decode()) == "unsigned"


def test_another_key_a_changed_byte_or_another_channel_is_forged() -> None:
    sender, reader = Seal(KEY), Seal(KEY)
    assert reason(reader, Seal(KEY[::-1]).seal(CHANNEL, message())) == "forged"
    payload = sender.seal(CHANNEL, message(2))
    raw = bytearray(base64.b64decode(payload[len(PREFIX) :]))
    raw[20] ^= 1
    assert reason(reader, PREFIX + base64.b64encode(bytes(raw)).decode()) == "forged"
    # Moved to another process's channel: its box does not open there.
    assert reason(reader, payload, "nines_activity") == "forged"
    assert reader.open(CHANNEL, payload) == message(2)  # untouched, it opens


def test_a_message_heard_twice_or_out_of_order_is_a_replay() -> None:
    sender, reader = Seal(KEY), Seal(KEY)
    first, second = sender.seal(CHANNEL, message(1)), sender.seal(CHANNEL, message(2))
    assert reader.open(CHANNEL, first) == message(1)
    assert reader.open(CHANNEL, second) == message(2)
    assert reason(reader, second) == "replayed"
    assert reason(reader, first) == "replayed"
    assert reader.open(CHANNEL, sender.seal(CHANNEL, message(3))) == message(3)


def test_an_old_message_or_one_sealed_before_listening_is_a_replay() -> None:
    now = [1_000_000.0]

    def clock() -> float:
        return now[0]

    sender = Seal(KEY, clock=clock)
    recorded = sender.seal(CHANNEL, message())
    now[0] += 1
    # A process that began listening after it was sealed could not have heard it.
    assert reason(Seal(KEY, clock=clock), recorded) == "replayed"
    # One listening since before that did not hear it: stale once STALE_AFTER has passed.
    early = Seal(KEY, clock=clock)
    early.listening_since = 0.0
    now[0] += STALE_AFTER
    assert reason(early, recorded) == "replayed"
    assert early.open(CHANNEL, sender.seal(CHANNEL, message(2))) == message(2)  # fresh: heard


def test_a_sealer_takes_a_fresh_id_before_its_count_wraps() -> None:
    sender, reader = Seal(KEY), Seal(KEY)
    assert reader.open(CHANNEL, sender.seal(CHANNEL, message(1))) == message(1)
    sender._count = seal_module.COUNT_LAST  # as after 2**32 messages
    payload = sender.seal(CHANNEL, message(2))
    nonce = base64.b64decode(payload[len(PREFIX) :])[:12]
    assert int.from_bytes(nonce[8:], "big") == 1  # a new sealer, counting from one
    assert reader.open(CHANNEL, payload) == message(2)


def test_without_a_relay_key_nothing_is_relayed_and_it_is_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = {
        "DISCORD_TOKEN": TOKEN,
        "ACTIVITY_PORT": "8081",
        "DISCORD_CLIENT_SECRET": "secret",
        "DATABASE_URL": "postgresql://nines@localhost/nines",
    }
    # Making the server touches nothing of the bot but its storage's handle (the sign-in cache,
    # the hub) and which guilds it serves (the hub).
    bot: Any = SimpleNamespace(storage=None, serves=None)
    with caplog.at_level(logging.WARNING):
        server = ActivityServer(bot, Settings.from_mapping(env))
    assert server.hub.relay is None  # never a relay anyone on the database could read or forge
    said = [r for r in caplog.records if "RELAY_KEY" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    keyed = ActivityServer(bot, Settings.from_mapping({**env, "RELAY_KEY": KEY}))
    assert keyed.hub.relay is not None
