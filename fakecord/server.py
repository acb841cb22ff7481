"""FakeDiscord: the double's HTTP server, gateway and state, set up by a test."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fnmatch
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from aiohttp import web

from . import app_emojis, spec
from .activities import Activities
from .clock import FakeClock
from .commands import CommandRegistry
from .errors import DiscordError
from .gateway import GUILD_MEMBERS, Gateway, Session
from .interactions import ErrorRecord, Interaction
from .messages import Upload
from .models import Channel, Guild, Member, Message, Role, User
from .people import People
from .permissions import Perm
from .ratelimit import FOLLOWUP, RateLimits, under_global_limit
from .rest import BEARER_ROUTES, NO_AUTH_ROUTES, Call, RestApi
from .routes import ROUTES
from .store import Store

API_PREFIX = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json", "Via": "1.1 google"}
# What the bot's role gets unless a test says otherwise: enough to play a game in any channel.
BOT_DEFAULT = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.MANAGE_MESSAGES
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.MANAGE_THREADS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.ADD_REACTIONS
)


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
        self.clock = clock or FakeClock()
        self.store = Store(self.clock)
        self.commands = CommandRegistry()
        self.ratelimits = RateLimits()
        self.bot = self.store.new_user(bot_name, bot=True)
        # Shaped like Discord's: base64 of the bot id, a timestamp part and an HMAC part.
        bot_part = base64.urlsafe_b64encode(str(self.bot.id).encode()).decode().rstrip("=")
        self.token = f"{bot_part}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
        self.app_id = self.bot.id
        self.owner = self.store.new_user("owner")
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.violations_expected = False
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.rest = RestApi(self)
        self.app_emojis = app_emojis.AppEmojis()
        self.activities = Activities(self)
        self.gateway = Gateway(
            token=self.token,
            ready_payload=self._ready,
            guild_payloads=lambda: [self.store.guild_json(g) for g in self.store.guilds.values()],
            members_of=self._members_of,
            resume_url=lambda: self.gateway_url,
            on_activity=self._touch,
        )
        self.gateway.shard_count = shards
        self._in_flight = 0
        self._hold_until = 0.0
        #: Checks that say the bot under test is still working on what it received, though
        #: silent (a computer thinking in its worker process): settle() waits for them too.
        self.busy_probes: list[Callable[[], bool]] = []
        #: Called with (event, message) for every message created, edited or deleted in any
        #: channel, ephemeral ones included, before the gateway dispatches it: a harness that
        #: reacts to what people see (bench/load.py's people) instead of polling channels.
        self.message_watchers: list[Callable[[str, Message], None]] = []
        #: Check one request body in this many against Discord's OpenAPI spec (1: every one,
        #: as the tests do; 0: none). jsonschema takes 20-60 ms a message with components,
        #: which caps the double near 40 requests a second: a load run checks a sample.
        self.check_bodies_every = check_bodies_every
        self._bodies_seen = 0
        self._pending: set[Interaction] = set()
        self._thinking: set[Interaction] = set()
        self._background: set[asyncio.Task[None]] = set()
        self._last_activity = time.monotonic()
        self._stalls: list[Stall] = []
        self._stopping = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0
        # A ready-made place to play: a guild with #general, the bot in it with its own role.
        self.guild = self.add_guild("Nines Test", shard=0 if shards > 1 else None)
        self.bot_role = self.add_role(self.guild, "Nines", BOT_DEFAULT)
        self.add_member(self.guild, self.bot, roles=[self.bot_role])
        self.channel = self.add_channel(self.guild, "general")

    def _check_this_body(self) -> bool:
        self._bodies_seen += 1
        every = self.check_bodies_every
        return every > 0 and self._bodies_seen % every == 0

    # addresses -------------------------------------------------------------------------------
    @property
    def url_root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.url_root + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

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

    # Activities (fakecord/activities.py) ---------------------------------------------
    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (DISCORD_CLIENT_SECRET)."""
        return self.activities.client_secret

    def enable_activities(self) -> dict[str, Any]:
        """Turn Activities on for the app, as the Developer Portal does: Discord makes its
        default Entry Point command (returned)."""
        return self.activities.enable()

    def activity_instance(self, channel: Channel, user_ids: list[int]) -> str:
        """An Activity running in ``channel`` with these people in it; its instance id."""
        return self.activities.instance(channel, user_ids).instance_id

    def authorize(self, user: User | int) -> str:
        """The authorization code the SDK's ``authorize`` gives this person's client."""
        return self.activities.authorize(user)

    def expect_violations(self) -> list[Violation]:
        """Declare that this test breaks Discord's rules on purpose; returns the live list."""
        self.violations_expected = True
        return self.violations

    # setting up the world --------------------------------------------------------------------
    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        guild: Guild | None = None,
        roles: list[Role] | None = None,
    ) -> User:
        """A person, member of `guild` (default: the ready-made guild)."""
        user = self.store.new_user(name, locale=locale)
        self.add_member(guild or self.guild, user, roles=roles)
        return user

    def add_guild(
        self, name: str, *, preferred_locale: str = "en-US", shard: int | None = None
    ) -> Guild:
        """A guild; with ``shard``, one whose id falls on that shard of gateway.shard_count."""
        guild = self.store.new_guild(
            name,
            self.owner,
            preferred_locale=preferred_locale,
            shard=shard or 0,
            shard_count=self.gateway.shard_count if shard is not None else 1,
        )
        if self.gateway.current is not None:
            self._later("GUILD_CREATE", self.store.guild_json(guild))
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        return self.store.new_role(guild, name, int(permissions))

    def add_member(self, guild: Guild, user: User, *, roles: list[Role] | None = None) -> Member:
        member = Member(user, guild.id, [r.id for r in roles or []])
        guild.members[user.id] = member
        if self.gateway.intents & GUILD_MEMBERS:
            self._later("GUILD_MEMBER_ADD", {**member.to_json(), "guild_id": str(guild.id)})
        return member

    def add_channel(self, guild: Guild | None = None, name: str = "games") -> Channel:
        guild = guild or self.guild
        chan = self.store.new_channel(guild, name)
        if self.gateway.current is not None:
            self._later("CHANNEL_CREATE", chan.to_json())
        return chan

    def set_permissions(
        self, channel: Channel, target: User | Role, *, allow: int = 0, deny: int = 0
    ) -> None:
        """A channel overwrite, e.g. deny=Perm.SEND_MESSAGES for fake.bot."""
        self.store.set_overwrite(channel, target, allow=int(allow), deny=int(deny))
        if self.gateway.current is not None:
            self._later("CHANNEL_UPDATE", channel.to_json())

    async def delete_channel(self, channel: Channel) -> None:
        channel.deleted = True
        await self.gateway.dispatch("CHANNEL_DELETE", channel.to_json())

    async def delete_message(self, message: Message) -> None:
        """Someone (a moderator) deletes a message."""
        message.deleted = True
        await self.rest.announce("MESSAGE_DELETE", message)

    def _later(self, event: str, data: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self.gateway.dispatch(event, data))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _members_of(
        self, guild_id: int, query: str, user_ids: list[int] | None, limit: int
    ) -> list[dict[str, Any]]:
        guild = self.store.guilds.get(guild_id)
        if guild is None:
            return []
        found = [
            m.to_json()
            for m in guild.members.values()
            if (user_ids is None or m.user.id in user_ids) and m.user.name.startswith(query)
        ]
        return found[:limit] if limit else found

    def application_json(self) -> dict[str, Any]:
        return {
            "id": str(self.app_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.to_json(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "bot": self.bot.to_json(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
        }

    def _ready(self, session: Session) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.store.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "session_type": "normal",
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "application": {"id": str(self.app_id), "flags": 0},
            "_trace": ["fakecord"],
        }

    # the HTTP pipeline -----------------------------------------------------------------------
    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    def _hold(self, seconds: float) -> None:
        """The bot was told to wait; settle() must not call it idle before it tries again."""
        if seconds > 0:
            self._hold_until = max(self._hold_until, time.monotonic() + seconds)

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
        self._touch()
        try:
            return await self._serve_inner(request)
        finally:
            self._in_flight -= 1
            self._touch()

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
            self.ratelimits.note_answer(status, headers or {})
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
