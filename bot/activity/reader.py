"""One socket's incoming frames, within bounds: a deadline for life, a token bucket, and the
size and nesting of each frame checked before it is parsed (bot/activity/limits.py).

Only our JSON frames are life. aiohttp's own ``receive(timeout=...)`` cannot say so: its loop
answers a websocket ping (with ``autoping``, the default) and reads on under a fresh timeout
(aiohttp 3.14's ``WebSocketResponse.receive``: ``if msg.type is WSMsgType.PING and
self._autoping: await self.pong(msg.data); continue``, each pass in its own
``async_timeout.timeout(receive_timeout)``), so a control frame every 29 s kept a 30 s
timeout from ever firing. Here the deadline is set once per frame of ours and the whole wait,
control frames and refused frames included, runs under it (``asyncio.timeout_at``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from aiohttp import WSMsgType, web

from ..words import tr
from .limits import Bucket, TooMuch, Unreadable, decode
from .protocol import KEY_LONGEST, BadFrame, Frame, Json, error_frame, parse_frame
from .words import refusal

log = logging.getLogger(__name__)

#: The largest websocket message aiohttp reads at all (beyond, it closes the socket with 1009,
#: "message too big"); up to it, a frame over limits.TEXT_LONGEST is refused in words.
WIRE_LONGEST: Final = 64 * 1024

#: Why a socket's reading ended (None: it is still read, or it closed). EARLY: an action
#: before the hello, whatever its fields (refused in words, and the socket closed).
LATE, SILENT, FLOOD, BINARY, EARLY = "late", "silent", "flood", "binary", "early"


@dataclass(slots=True)
class Reader:
    ws: web.WebSocketResponse
    #: Where refusals go: the socket's queue once it has a writer; None: sent at once.
    say: Callable[[Json], None] | None = None
    lang: str = "en"
    bucket: Bucket = field(default_factory=Bucket)
    #: Why the reading ended, if a bound ended it (LATE, SILENT, FLOOD, BINARY, EARLY).
    ended: str | None = None

    async def _say(self, frame: Json) -> None:
        if self.say is not None:
            self.say(frame)
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.send_json(frame)

    async def _refuse(self, raw: str | bytes | None, code: str, words: str) -> None:
        """A refusal carrying the refused frame's key, if it has one."""
        key = None
        if raw is not None:
            with contextlib.suppress(Unreadable):
                key = _key(decode(raw))
        await self._say(error_frame(key, code, words))

    async def next(self, seconds: float, *, hello: bool = False) -> Frame | None:
        """The next frame of the protocol, if one comes within ``seconds`` (a deadline that no
        control frame, refused frame or malformed frame moves); None when the socket closed
        or a bound closed it (``ended`` says which). Malformed frames are refused (bad-request)
        and skipped; frames beyond the socket's rate are refused (busy), and the socket closed
        if they go on."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await self.ws.receive()
            except TimeoutError:
                self.ended = LATE if hello else SILENT
                return None
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return None
            if message.type is WSMsgType.ERROR:
                return None
            raw = message.data if message.type in (WSMsgType.TEXT, WSMsgType.BINARY) else None
            if not self.bucket.take():
                if self.bucket.gone_on:
                    log.info("activity: a socket went on sending too fast; closing it")
                    self.ended = FLOOD
                    await self._refuse(raw, "busy", tr(self.lang, "activity.error.too_fast"))
                    return None
                await self._refuse(raw, "busy", tr(self.lang, "activity.error.too_fast"))
                continue
            if message.type is WSMsgType.BINARY:
                log.info("activity: a binary frame; closing its socket")
                self.ended = BINARY
                words = tr(self.lang, "activity.error.binary")
                await self._say(error_frame(None, "bad-request", words))
                return None
            if message.type is not WSMsgType.TEXT:
                continue
            # Each refusal of a frame is logged at DEBUG: a flood of them would flood the log;
            # the socket's closing is said at INFO.
            try:
                data = decode(message.data)
            except TooMuch as bad:
                log.debug("activity: a frame refused (%s)", bad)
                words = tr(self.lang, "activity.error.too_big")
                await self._say(error_frame(None, "bad-request", words))
                continue
            except Unreadable as bad:
                log.debug("activity: a frame refused (%s)", bad)
                await self._say(error_frame(None, "bad-request", refusal(self.lang, "bad-request")))
                continue
            try:
                return parse_frame(data)
            except BadFrame as bad:
                log.debug("activity: bad frame (%s)", bad)
                if hello and isinstance(data, dict) and data.get("op") == "act":
                    self.ended = EARLY
                    words = tr(self.lang, "activity.error.hello_first")
                    await self._say(error_frame(_key(data), "bad-request", words))
                    return None
                words = refusal(self.lang, "bad-request")
                await self._say(error_frame(_key(data), "bad-request", words))


def _key(data: object) -> str | None:
    """A refused frame's key, if it has one of the protocol's length."""
    key = data.get("key") if isinstance(data, dict) else None
    return key if isinstance(key, str) and len(key) <= KEY_LONGEST else None
