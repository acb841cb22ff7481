"""The Activity: the web table Discord opens in a channel, served by the bot itself.

Off unless ``ACTIVITY_PORT`` and ``DISCORD_CLIENT_SECRET`` are set (bot/base/settings.py): then
``bot/process/run.py`` makes one ``ActivityServer`` beside the bot, which starts and stops it. It
serves, on that port (every interface; Discord's proxy reaches it through the public HTTPS
address the Developer Portal's URL mapping names, and strips its ``/.proxy`` prefix:
https://discord.com/developers/docs/activities/development-guides/networking):

- ``GET /`` the built client (``static/index.html``) and ``GET /assets/<name>`` its hashed
  files, cached for good (their names change with their content; Discord's proxy strips the
  cache headers of HTML, so the page itself is asked again each time);
- ``POST /api/token`` the exchange of the client's authorization code for an access token;
- ``GET /api/ws`` the websocket of the table (bot/activity/socket_life.py, hub.py; Discord's
  proxy carries websockets,
  https://discord.com/developers/docs/activities/development-guides/networking).
  With several processes on PostgreSQL, a socket whose game another process runs is relayed
  to it (bot/activity/relay.py).

Both sign-in routes are limited per address (a token bucket; past it ``429`` with
``Retry-After`` and the reason in words), and what they ask of Discord is cached and budgeted
(bot/activity/gate.py, bot/activity/discord_api.py).

The wire protocol is docs/activity-protocol.md's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final

from aiohttp import web

from ..base import discord_internals
from ..game import ChatPresenter, Daily, GameSession, Moves, Sessions
from .budget import PerAddress
from .discord_api import ActivityApi, CallBudget, CodeRefused, DiscordUnavailable, SecretRefused
from .fanout import FanOut
from .gate import Gate
from .hub import Hub
from .limits import TEXT_LONGEST, Limits, Unreadable, address_of, decode
from .socket_life import serve

if TYPE_CHECKING:
    from ..app import LobbyMove, LobbyOpening, NinesBot
    from ..base import Settings

log = logging.getLogger(__name__)

#: The built client, committed (the bot needs no Node to serve it).
STATIC: Final = Path(__file__).resolve().parent / "static"
#: A hashed asset's name: nothing that could leave the assets folder.
ASSET: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,120}")
#: The build's precompressed copies beside each asset (web/build.mjs), best first.
ENCODED: Final = {"br": ".br", "gzip": ".gz"}


def accepted(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (RFC 9110, 12.5.3): those named
    without ``q=0``; ``*`` stands for any not named."""
    named: dict[str, bool] = {}
    for part in header.lower().split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        if not coding:
            continue
        q = 1.0
        for param in params:
            if param.startswith("q="):
                try:
                    q = float(param[2:])
                except ValueError:
                    q = 0.0
        named[coding] = q > 0
    ok = {coding for coding, yes in named.items() if yes}
    if named.get("*"):
        ok |= {coding for coding in ENCODED if coding not in named}
    return ok


def precompressed(path: Path, accept_encoding: str) -> str | None:
    """The coding of the precompressed copy of ``path`` to send (brotli, else gzip), if the
    client accepts one and the build wrote it; None: the file as it is."""
    ok = accepted(accept_encoding)
    for coding, suffix in ENCODED.items():
        if coding in ok and path.with_name(path.name + suffix).is_file():
            return coding
    return None


CONTENT_TYPES: Final = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".woff2": "font/woff2",
    ".json": "application/json",
    ".map": "application/json",
}
#: An authorization code is a few dozen characters; anything much longer is not one.
CODE_LONGEST: Final = 200
#: How long a connection may take to send a whole request (the websocket's upgrade included),
#: and stay idle between two.
KEEPALIVE_SECONDS: Final = 15.0
SHUTDOWN_SECONDS: Final = 5.0
#: Event-loop turns asyncio takes to hand an accepted socket to its protocol, and one more.
ACCEPT_TURNS: Final = 3
#: Sent with every answer. The page is framed by Discord only: its clients' origins are the ones
#: the Embedded App SDK takes messages from (getAllowedOrigins in @discord/embedded-app-sdk
#: 2.5.0: discord.com, discordapp.com, their ptb., canary. and pax. hosts, staging.discord.co),
#: and an Activity is served from <application id>.discordsays.com
#: (https://discord.com/developers/docs/activities/development-guides/multiplayer-experience).
#: Nothing inline is needed (web/build.mjs writes no inline script or style; the page sets
#: styles through the CSSOM, which style-src does not govern); images: the page's own, data:
#: URLs, and avatars from Discord's CDN, which Discord's own CSP lets an Activity reach
#: (https://discord.com/developers/docs/activities/development-guides/local-development#exceptions).
#: Discord's proxy may put its own policy in front; this one holds wherever the page is served.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data: https://cdn.discordapp.com https://media.discordapp.net",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'self' https://discord.com https://*.discord.com "
            "https://discordapp.com https://*.discordapp.com https://staging.discord.co "
            "https://*.discordsays.com",
        )
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class ActivityError(Exception):
    """The Activity's port cannot be listened on; the message says why."""


class ActivityServer:
    def __init__(self, bot: NinesBot, settings: Settings) -> None:
        assert settings.activity_port is not None and settings.client_secret is not None
        self.bot = bot
        self.port = settings.activity_port
        #: The built client served (the tests serve their build, with Discord's SDK mock).
        self.static = STATIC
        self.client_id = settings.client_id
        budget = CallBudget(
            settings.activity_discord_burst,
            settings.activity_discord_per_minute,
            settings.activity_invalid_limit,
        )
        instance = partial(discord_internals.activity_instance, bot)
        self.api = ActivityApi(settings.api_base, settings.client_secret, instance, budget)
        self.gate = Gate(
            self.api, self.application_id, settings.activity_recheck_seconds, bot.storage
        )
        self.host = settings.activity_host
        self.hub = Hub(bot.storage, bot.serves, self.gate, Limits.from_settings(settings))
        self.per_address = PerAddress(
            settings.activity_address_burst, settings.activity_address_per_minute
        )
        self.trusted_proxies = settings.activity_trusted_proxies
        self._rechecks: asyncio.Task[None] | None = None
        if settings.database_url is not None and settings.relay_key is None:
            # No key, no relay: anyone on the database could read and forge its messages, and
            # nothing the database knows may stand in for the key (bot/activity/seal.py).
            log.warning(
                "RELAY_KEY is not set: a web table's socket reaching a process that does not "
                "run its game is told there is none. With several processes, set the same "
                "RELAY_KEY on each (.env.example)"
            )
        elif settings.database_url is not None and settings.relay_key is not None:
            # Several processes may share the database: a socket may reach one that does not
            # run its game (bot/activity/relay.py).
            from .relay import Relay

            self.hub.relay = Relay(settings.database_url, self.hub, settings.relay_key)
        self._runner: web.AppRunner | None = None

    def application_id(self) -> int | None:
        """The application's id: the configured client id, else the bot's own (known once
        logged in); they are the same number for a bot made in the Developer Portal."""
        return self.client_id or self.bot.application_id

    def fan_out(self, chat: ChatPresenter) -> FanOut:
        return FanOut(chat, self.hub)

    def plays(self, sessions: Sessions, moves: Moves, daily: Daily) -> None:
        """The sessions, the move use case and the daily deals, once ``NinesBot.plug_in``
        has made them around the fan-out presenter (the hub seats people at them)."""
        self.hub.plays(sessions, moves, daily)

    def lobby_moves(self, seat: LobbyMove, open_lobby: LobbyOpening) -> None:
        """The extension's lobby moves (bot/ cannot import it): a seat's, and a lobby opened
        from a waiting page."""
        self.hub.lobby_seat = seat
        self.hub.lobby_open = open_lobby

    def game_opened(self, session: GameSession) -> None:
        """A game opened in a channel: a page waiting there sits down (bot/activity/waiting.py)."""
        self.hub.waiting.game_opened(session)

    def at_table(self, game_id: int) -> frozenset[int]:
        """The people (user ids) with the game's web table open now, signed in."""
        return self.hub.at_table(game_id)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024)
        app.on_response_prepare.append(_secure)
        app.router.add_get("/", self._index)
        app.router.add_get("/index.html", self._index)
        app.router.add_get("/assets/{name}", self._asset)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/api/ws", self._socket)
        return app

    async def start(self) -> None:
        if self._runner is not None:
            return  # started by an earlier login attempt
        runner = web.AppRunner(
            self.app(),
            access_log=None,
            handle_signals=False,
            # aiohttp 3.14's RequestHandler has no timeout of its own for reading a request's
            # line and headers: its keep-alive timer runs from the connection's start ("as
            # there's no other protection against a dead connection that doesn't send a
            # request at all", web_protocol.connection_made) and closes a connection still
            # waiting for a whole request when it fires. Its default is 3,630 s (an hour of
            # idling before an upgrade); KEEPALIVE_SECONDS bounds the upgrade's request and the
            # wait between requests alike.
            keepalive_timeout=KEEPALIVE_SECONDS,
            # On stopping, handlers still running get this long (the sockets are closed first,
            # by Hub.close).
            shutdown_timeout=SHUTDOWN_SECONDS,
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as error:
            await runner.cleanup()
            raise ActivityError(
                f"cannot listen on {self.host} port {self.port} for ACTIVITY_HOST and "
                f"ACTIVITY_PORT ({error.strerror or error}): choose another port or address"
            ) from None
        self._runner = runner
        if self.hub.relay is not None:
            await self.hub.relay.start()
        self._rechecks = asyncio.create_task(self.gate.recheck_every(), name="activity-recheck")
        log.info("the Activity is served on %s port %d", self.host, self.port)

    async def stop(self) -> None:
        if self._rechecks is not None:
            self._rechecks.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._rechecks
            self._rechecks = None
        if self.hub.relay is not None:
            await self.hub.relay.stop()
        if self._runner is not None:
            # Listen no more before the sockets close (a page connects again at once), and let
            # every connection accepted before reach aiohttp (asyncio hands one over in two
            # loop turns, its cleanup waits one), so that the cleanup closes it too.
            for site in list(self._runner.sites):
                await site.stop()
            for _ in range(ACCEPT_TURNS):
                await asyncio.sleep(0)
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.api.close()

    # -- HTTP ---------------------------------------------------------------------------------

    async def _index(self, _request: web.Request) -> web.StreamResponse:
        page = self.static / "index.html"
        if not page.is_file():
            return web.Response(status=404, text="The table's page is not built.\n")
        return web.FileResponse(
            page,
            headers={"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache"},
        )

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = self.static / "assets" / name
        if not ASSET.fullmatch(name) or ".." in name or not path.is_file():
            return web.Response(status=404, text="Not found.\n")
        headers = {
            "Cache-Control": "public, max-age=31536000, immutable",
            # The same URL answers differently by what the client accepts: caches must know.
            "Vary": "Accept-Encoding",
        }
        content_type = CONTENT_TYPES.get(path.suffix)
        if content_type is not None:
            headers["Content-Type"] = content_type
        encoding = precompressed(path, request.headers.get("Accept-Encoding", ""))
        if encoding is not None:
            headers["Content-Encoding"] = encoding
            path = path.with_name(path.name + ENCODED[encoding])
        return web.FileResponse(path, headers=headers)

    def _too_many(self, request: web.Request) -> web.Response | None:
        """``429`` if this address signed in too often of late, else None (one more spent)."""
        wait = self.per_address.take(address_of(request, self.trusted_proxies), time.monotonic())
        if wait <= 0:
            return None
        seconds = max(1, math.ceil(wait))
        words = f"too many sign-ins from this address: try again in {seconds} s"
        response = _error(429, words, retry_after=seconds)
        response.headers["Retry-After"] = str(seconds)
        return response

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        """``GET /api/ws``: one hello a socket, so the upgrade is a sign-in (limited)."""
        refused = self._too_many(request)
        if refused is not None:
            return refused
        return await serve(self.hub, request)

    async def _token(self, request: web.Request) -> web.Response:
        """The client's authorization code for an access token (exchanged with the secret,
        which never leaves the server)."""
        refused = self._too_many(request)
        if refused is not None:
            return refused
        # Read within limits.TEXT_LONGEST and decoded within its depth (a body of 2,000 nested
        # brackets raised RecursionError in request.json(): a 500 and a traceback).
        text = b""
        while len(text) <= TEXT_LONGEST:
            chunk = await request.content.read(TEXT_LONGEST + 1 - len(text))
            if not chunk:
                break
            text += chunk
        try:
            body = decode(text)
        except Unreadable:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not 1 <= len(code) <= CODE_LONGEST:
            return _error(400, 'the body must be JSON with the authorization code: {"code": ...}')
        client_id = self.application_id()
        if client_id is None:
            return _error(503, "the bot is not logged in to Discord yet: try again in a moment")
        try:
            token = await self.api.exchange(client_id, code)
        except CodeRefused:
            return _error(400, "Discord refused this authorization code: open the table again")
        except SecretRefused:
            # Said once in the log, for the owner (discord_api.exchange); people get no detail.
            return _error(503, "the table cannot sign anyone in just now: try again later")
        except DiscordUnavailable as error:
            log.warning("activity token exchange: %s", error)
            seconds = max(1, math.ceil(error.retry_after))
            response = _error(
                503, f"Discord did not answer: try again in {seconds} s", retry_after=seconds
            )
            response.headers["Retry-After"] = str(seconds)
            return response
        return web.json_response({"access_token": token}, headers={"Cache-Control": "no-store"})


async def _secure(_request: web.Request, response: web.StreamResponse) -> None:
    """Every answer's security headers (the page, its assets, the API, errors, the upgrade)."""
    response.headers.update(SECURITY_HEADERS)


def _error(status: int, words: str, *, retry_after: int | None = None) -> web.Response:
    body: dict[str, object] = {"error": words}
    if retry_after is not None:
        body["retry_after"] = retry_after
    return web.Response(
        status=status,
        text=json.dumps(body),
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


__all__ = ["ActivityError", "ActivityServer", "ChatPresenter", "FanOut", "Hub"]
