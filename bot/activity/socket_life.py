"""One socket's life at the web table (``GET /api/ws``): counted against the caps, its hello
within its bound, welcomed by the hub (who, where, which game), then its frames read within
their bounds (reader.py) and written in order by its writer, until it closes or a bound
closes it; counted out however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiohttp import web

from ..words import tr
from .hub import Client, Hub
from .limits import address_of
from .protocol import Act, Hello, LobbyAct, Ping, error_frame
from .reader import LATE, SILENT, WIRE_LONGEST, Reader
from .words import refusal

log = logging.getLogger(__name__)


async def serve(hub: Hub, request: web.Request) -> web.WebSocketResponse:
    """``GET /api/ws``: hello, then actions and pings until the socket closes or a bound
    closes it (bot/activity/limits.py, reader.py)."""
    # Uncompressed (no permessage-deflate, which browsers offer): deflating each frame cost
    # ~75 us a socket (a 2.4 KB table frame to 0.8 KB), per socket since the compressor keeps
    # its context; the contract (docs/activity-protocol.md) leaves it to the server.
    ws = web.WebSocketResponse(max_msg_size=WIRE_LONGEST, compress=False)
    await ws.prepare(request)
    address = address_of(request, hub.limits.trusted_proxies)
    if not hub.openings.open(hub.limits, address):
        log.info("activity: socket refused, %d open (%s)", hub.openings.total, address)
        await hub._refuse(ws, "busy", refusal("en", "busy"))
        await ws.close()
        return ws
    reader = Reader(ws)
    client: Client | None = None
    seated = False
    writer: asyncio.Task[None] | None = None
    hub.unwelcomed.add(ws)
    try:
        hello = await reader.next(hub.hello_seconds, hello=True)
        if not isinstance(hello, Hello):
            if hello is not None:  # (an act before the hello: refused so by the reader)
                await hub._refuse(ws, "bad-request", tr("en", "activity.error.hello_first"))
            elif reader.ended == LATE:
                await hub._refuse(ws, "bad-request", tr("en", "activity.error.hello_late"))
            return ws
        client = await hub._welcome(ws, hello)
        hub.unwelcomed.discard(ws)  # from now on, its client closes it (``Client.stop``)
        if client is None:
            return ws
        seated = hub.openings.seat(hub.limits, client.user_id)
        if not seated:
            log.info("activity: %s has too many sockets open", client.user_id)
            words = tr(client.lang, "activity.error.too_many_tables")
            await hub._refuse(ws, "busy", words)
            return ws
        reader.say, reader.lang = client.send, client.lang
        writer = asyncio.create_task(write(client), name="activity-writer")
        while not ws.closed:
            frame = await reader.next(hub.silent_seconds)
            if frame is None:
                if reader.ended == SILENT:
                    log.info("activity socket silent %.0f s; closing it", hub.silent_seconds)
                break
            if isinstance(frame, Ping):
                client.send({"op": "pong"})
            elif isinstance(frame, Act):
                if client.waiting:
                    words = refusal(client.lang, "no-game")
                    client.send(error_frame(frame.key, "no-game", words))
                elif client.remote and hub.relay is not None:
                    hub.relay.act(client, frame)  # its game's process answers
                else:
                    await hub.act(client, frame)
            elif isinstance(frame, LobbyAct):
                await hub.lobby(client, frame)
            else:  # a second hello
                words = refusal(client.lang, "bad-request")
                client.send(error_frame(None, "bad-request", words))
    finally:
        if client is not None:
            if client.waiting:
                hub.waiting.discard(client)
            elif client.remote and hub.relay is not None:
                hub.relay.leave(client)
            else:
                hub.forget(client)
            client.stop()
            if seated:
                hub.openings.unseat(client.user_id)
        hub.openings.close(address)
        hub.unwelcomed.discard(ws)
        if writer is not None:
            with contextlib.suppress(Exception):
                await writer
        await ws.close()
    return ws


async def write(client: Client) -> None:
    """Send the socket's queued frames in order, until told to stop (None)."""
    while True:
        text = await client.queue.get()
        if text is None or client.ws.closed:
            break
        try:
            await client.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            break
    await client.ws.close()
