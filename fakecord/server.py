"""FakeDiscord: the double served on loopback. Its lifecycle, stalls, and the pipeline a request
goes through: authentication, rate limits, the spec's check of the body, the route, the record.
Its state and the calls that set up a test's world are fakecord/world.py's; what people do,
fakecord/people.py's."""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import json
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import web

from . import app_emojis, spec
from .clock import FakeClock
from .errors import DiscordError
from .interactions import ErrorRecord
from .messages import Upload
from .models import Message
from .people import People
from .ratelimit import FOLLOWUP, under_global_limit
from .rest import BEARER_ROUTES, NO_AUTH_ROUTES, Call
from .routes import ROUTES
from .world import API_PREFIX
from .world import BOT_DEFAULT as BOT_DEFAULT  # tests and testbed/chaos.py import it from here

JSON_HEADERS = {"Content-Type": "application/json", "Via": "1.1 google"}


@dataclass(frozen=True)
class RequestRecord:
    method: str
    route: str  # the spec's template, e.g. /channels/{channel_id}/messages
    path: str
    body: Any
    status: int
    time: float  # the fake clock's time when the request arrived
    files: tuple[str, ...] = ()

    @property
    def under_global_limit(self) -> bool:
        """Whether this request counted against the bot's global limit (not an interaction's
        token route)."""
        return under_global_limit(self.route)


@dataclass
class Stall:
    """Requests that get no answer for a while, or until the double stops (``seconds`` None):
    a server that accepts the connection, then hangs."""

    method: str
    pattern: str
    seconds: float | None
    remaining: int
    arrived: int = 0  # how many matching requests came (and were held)

    def matches(self, method: str, path: str, template: str) -> bool:
        if self.method not in ("*", method):
            return False
        return template == self.pattern or fnmatch.fnmatchcase(path, self.pattern)


@dataclass(frozen=True)
class Violation:
    """A request real Discord would have refused (or the double doesn't know)."""

    method: str
    path: str
    code: int
    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}: {self.code} at {self.where}: {self.reason}"


#: Event-loop turns asyncio takes to hand a socket it accepted to its protocol (the transport
#: made in the accepting task's first step, connection_made called soon after), and one more.
ACCEPT_TURNS: Final = 3


class FakeDiscord(People):
    """One Discord for one test: REST at `api_base`, gateway at `gateway_url`, bot `token`."""

    def __init__(
        self,
        *,
        clock: FakeClock | None = None,
        bot_name: str = "Nines",
        shards: int = 1,
        check_bodies_every: int = 1,
    ) -> None:
        super().__init__(clock=clock, bot_name=bot_name, shards=shards)
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.violations_expected = False
        #: Check one request body in this many against Discord's OpenAPI spec (1: every one,
        #: as the tests do; 0: none). jsonschema takes 20-60 ms a message with components,
        #: which caps the double near 40 requests a second: a load run checks a sample.
        self.check_bodies_every = check_bodies_every
        self._bodies_seen = 0
        self._stalls: list[Stall] = []
        self._stopping = asyncio.Event()
        self._runner: web.AppRunner | None = None

    def _check_this_body(self) -> bool:
        self._bodies_seen += 1
        every = self.check_bodies_every
        return every > 0 and self._bodies_seen % every == 0

    # lifecycle -------------------------------------------------------------------------------
    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1:`port` (0: any free port); start again after stop() on the
        same port to play an outage."""
        self._stopping = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._serve)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        self.gateway.reopen()
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        """An outage: no new connection from here on (refused, or closed when one raced the
        stop), every open one closed. A gateway handshake accepted during the stop used to
        stay open and hold the cleanup for aiohttp's 60 s shutdown timeout."""
        self._stopping.set()  # stalled requests end (unanswered)
        runner, self._runner = self._runner, None
        if runner is not None:
            # Listen no more before closing anything: the gateway's close makes discord.py
            # reconnect at once, and a connection the kernel accepted as aiohttp's cleanup
            # began reached aiohttp after it (asyncio hands an accepted socket over in two
            # loop turns: its transport, then connection_made; aiohttp's cleanup waits one),
            # so nothing closed it: a ResourceWarning ("unclosed transport") failed the test
            # about one run in seven (test_health_follows_the_gateway). The turns below let
            # every connection accepted before the listening socket closed reach aiohttp,
            # whose cleanup then closes it.
            for site in list(runner.sites):
                await site.stop()
            for _ in range(ACCEPT_TURNS):
                await asyncio.sleep(0)
        await self.gateway.close_all()
        if runner is not None:
            await runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def stall(
        self, method: str = "*", path: str = "*", *, seconds: float | None = None, count: int = 1
    ) -> Stall:
        """Hold the next `count` requests matching method and path (glob on the path, or the
        spec's route template exactly) for `seconds` before handling them, or, with None,
        until the double stops, never answering. A held request whose client gave up is
        dropped unhandled. Returns the stall (its `arrived` counts the requests held)."""
        stall = Stall(method.upper(), path, seconds, count)
        self._stalls.append(stall)
        return stall

    def expect_violations(self) -> list[Violation]:
        """Declare that this test breaks Discord's rules on purpose; returns the live list."""
        self.violations_expected = True
        return self.violations

    # the HTTP pipeline -----------------------------------------------------------------------
    async def _cdn(self, request: web.Request) -> web.Response:
        found = self.rest.attachment(
            int(request.match_info["channel_id"]), int(request.match_info["attachment_id"])
        )
        if found is None:
            return web.Response(status=404)
        return web.Response(body=found[1], headers={"Content-Type": found[0]})

    async def _serve(self, request: web.Request) -> web.Response:
        if self._stalls and await self._stalled(request):
            return web.Response(status=499)  # nobody is listening any more
        self._in_flight += 1
        self.touch()
        try:
            return await self._serve_inner(request)
        finally:
            self._in_flight -= 1
            self.touch()

    async def _stalled(self, request: web.Request) -> bool:
        """Hold the request if a stall matches; True if its client is gone after it."""
        path = "/" + request.match_info["tail"]
        matched = spec.match_route(path)
        template = matched.template if matched else path
        stall = next(
            (
                st
                for st in self._stalls
                if st.remaining > 0 and st.matches(request.method, path, template)
            ),
            None,
        )
        if stall is None:
            return False
        stall.remaining -= 1
        stall.arrived += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=stall.seconds)
        transport = request.transport
        return self._stopping.is_set() or transport is None or transport.is_closing()

    async def _serve_inner(self, request: web.Request) -> web.Response:
        arrived = self.clock.now()
        method = request.method
        path = "/" + request.match_info["tail"]
        matched = spec.match_route(path)
        template = matched.template if matched else path
        params = matched.params if matched else {}
        try:
            body, uploads = await self._read_body(request)
        except ValueError:
            body, uploads = None, []
            bad_json: DiscordError | None = DiscordError(50109)
        else:
            bad_json = None
        call = Call(method, path, template, params, request.query, body, uploads)
        authorization = request.headers.get("Authorization", "")

        def answer(
            status: int, payload: Any, headers: dict[str, str] | None = None
        ) -> web.Response:
            self.requests.append(
                RequestRecord(
                    method,
                    template,
                    path,
                    body,
                    status,
                    arrived,
                    tuple(u.filename for u in uploads),
                )
            )
            if status >= 400 and call.interaction is not None:
                code = payload.get("code", 0) if isinstance(payload, dict) else 0
                msg = payload.get("message", "") if isinstance(payload, dict) else ""
                call.interaction.errors.append(ErrorRecord(method, template, status, code, msg))
            self.ratelimits.note_answer(status, headers or {}, request.remote or "?")
            hdrs = {**JSON_HEADERS, **(headers or {})}
            if status == 204:
                return web.Response(status=204, headers={"Via": "1.1 google", **(headers or {})})
            return web.Response(status=status, body=json.dumps(payload).encode(), headers=hdrs)

        if (method, template) not in ROUTES:
            self.violations.append(Violation(method, path, 0, template, "route not in the double"))
            return answer(404, {"message": "404: Not Found", "code": 0})
        if "interaction_token" in params:
            # Which interaction the request is about, so its errors show on the test's result.
            call.interaction = self.interactions_by_token.get(params["interaction_token"])
        elif "webhook_token" in params:
            call.interaction = self.interactions_by_token.get(params["webhook_token"])
        elif (method, template) in NO_AUTH_ROUTES:
            pass  # the OAuth2 token route: the app's credentials are in the form body
        elif (method, template) in BEARER_ROUTES and authorization.startswith("Bearer "):
            call.bearer = authorization.removeprefix("Bearer ")
        elif authorization != f"Bot {self.token}":
            return answer(401, {"message": "401: Unauthorized", "code": 0})

        if bad_json is not None:
            self.violations.append(Violation(method, path, 50109, "<body>", "not JSON"))
            return answer(bad_json.status, bad_json.body())
        if fault := self.ratelimits.fault_for(method, path, template):
            self._hold(fault.hold)
            return answer(fault.status, fault.body, fault.headers)
        # A bucket counts per top-level resource: "channels (channel_id), guilds (guild_id),
        # and webhooks (webhook_id or webhook_id + webhook_token)" (Discord API docs, Topics >
        # Rate Limits); an interaction's callback per interaction.
        webhook = params.get("webhook_id", "") + "/" + params.get("webhook_token", "")
        major = (
            params.get("channel_id")
            or params.get("guild_id")
            or (webhook if webhook != "/" else "")
            or params.get("interaction_id")
            or ""
        )
        # A follow-up posts into the interaction's channel, whose webhook messages are limited
        # whoever sends them (ratelimit.WEBHOOK_CHANNEL_LIMIT).
        posts_into = (
            str(call.interaction.channel.id)
            if call.interaction is not None and (method, template) == ("POST", FOLLOWUP)
            else ""
        )
        verdict = self.ratelimits.check(method, template, major, posts_into)
        self._hold(verdict.hold)
        if verdict.status == 429:
            return answer(429, verdict.body, verdict.headers)

        if body is not None and self._check_this_body():
            problem = spec.validate(
                template, method, body, self._edited_flags(call)
            ) or app_emojis.unknown_emoji(body, self.app_emojis.items)
            if problem is not None:
                self.violations.append(
                    Violation(method, path, 50035, problem.where, problem.reason)
                )
                err = DiscordError(50035, errors=problem.errors)
                return answer(err.status, err.body(), verdict.headers)
        try:
            status, payload = await self.rest.handle(call)
        except DiscordError as err:
            if err.code == 50035:
                self.violations.append(Violation(method, path, 50035, "", str(err.errors)))
            return answer(err.status, err.body(), verdict.headers)
        except Exception as exc:  # a bug in the double (or a body it can't make sense of)
            # Loud for the test (a violation), quick for the bot: a 400 is not retried like a
            # 500 would be, for up to 16 seconds.
            reason = f"fakecord could not handle it: {exc!r}"
            self.violations.append(Violation(method, path, 0, template, reason))
            return answer(400, {"message": reason, "code": 0}, verdict.headers)
        return answer(status, payload, verdict.headers)

    def _edited_flags(self, call: Call) -> int:
        """Flags of the message a request edits, if it edits one (components v2 is for good)."""
        target: Message | None = None
        if call.method == "PATCH" and "message_id" in call.params:
            if call.params["message_id"].isdigit():
                target = self.store.find_message(int(call.params["message_id"]))
        elif call.method == "PATCH" and call.template.endswith("@original"):
            target = call.interaction.response if call.interaction else None
        elif (
            call.template.endswith("/callback")
            and call.interaction is not None
            and isinstance(call.body, dict)
            and call.body.get("type") == 7  # an update edits the clicked message
        ):
            target = call.interaction.source_message
        return target.flags if target is not None else 0

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        if not request.can_read_body:
            return None, []
        if request.content_type == "application/x-www-form-urlencoded":
            # OAuth2's token route takes a form, as OAuth2 says (RFC 6749 4.1.3).
            return {k: str(v) for k, v in (await request.post()).items()}, []
        if request.content_type != "multipart/form-data":
            raw = await request.read()
            return (json.loads(raw) if raw else None), []
        body: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            name = getattr(part, "name", None) or ""
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                body = json.loads(data)
            elif name.startswith("files["):
                uploads.append(
                    Upload(
                        index=int(name[6:-1]),
                        filename=getattr(part, "filename", None) or name,
                        content_type=part.headers.get("Content-Type", "application/octet-stream"),
                        data=bytes(data),
                    )
                )
        return body, uploads
