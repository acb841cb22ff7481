"""The three calls the Activity's server makes to Discord, within a budget.

- ``exchange``: ``POST /oauth2/token``, the person's authorization code for their access token
  (with the client secret; the app's credentials, not a token);
- ``authorization``: ``GET /oauth2/@me`` with the person's bearer token: whose token it is,
  for which application, with which scopes (one call, where ``/users/@me`` told only whose);
- ``instance``: ``GET /applications/{app}/activity-instances/{id}`` with the bot's token,
  sent through discord.py's own HTTP client (``bot_request``), so it shares the bot's global
  rate limit, its session and ``DISCORD_API_BASE`` (the shared proxy where it runs, compose.yaml:
  the proxy's one budget of 45 a second covers it with every process's own requests).

The OAuth2 calls have their own HTTP session (discord.py only speaks with the bot token) to the
same ``DISCORD_API_BASE``. Every call spends the budget first:

- a token bucket of calls in all (``ACTIVITY_DISCORD_BURST``, ``ACTIVITY_DISCORD_PER_MINUTE``);
- a 429 from Discord pauses every call for its ``retry_after``;
- Discord's answers of 401, 403 and 429 are counted over 10 minutes, and at
  ``ACTIVITY_INVALID_LIMIT`` the server stops asking (a WARNING says so) until the count falls
  back. Discord bans an IP for up to an hour after 10,000 invalid requests (401, 403, 429 not
  ``shared``) in 10 minutes, and the bot's gateway and REST share that IP
  (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).

**What a flood costs Discord at most**, whatever it sends and from however many addresses: with
the defaults (burst 50, 300 a minute), 350 requests in its first minute and 300 a minute after
(each sign-in costs at most one call per token and one per instance, answered from the cache
after), of which at most 1,000 invalid answers in any 10 minutes: a tenth of Discord's 10,000,
leaving the rest to the bot's own requests and to a second process on the same IP. The bot-token
call among them takes at most 5 a second of the bot's global 50
(https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import aiohttp
import discord

from .budget import TokenBucket, WindowCount

log = logging.getLogger(__name__)

#: A call to Discord that takes longer than this is given up (the person is told to retry).
TIMEOUT: Final = 10.0
#: Discord's invalid request window (the docs above).
INVALID_WINDOW: Final = 600.0
#: After Discord refused the client secret (``invalid_client``), how long before asking again:
#: every sign-in would be refused the same, and each refusal is an invalid request.
SECRET_PAUSE: Final = 600.0
#: What an upstream failure without a figure of its own is told to wait, in seconds.
RETRY_SOON: Final = 2.0

#: What an instance id may be: it comes from the client and goes into a URL asked with the
#: bot's token, so nothing that could reach another route (``/``, ``..``, ``?``) gets through.
INSTANCE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,200}")


class DiscordUnavailable(Exception):
    """Discord did not answer, answered with a server error or a rate limit, or this server's
    own budget of calls is spent: try again after ``retry_after`` seconds."""

    def __init__(self, why: str, retry_after: float = RETRY_SOON, *, local: bool = False) -> None:
        super().__init__(why)
        #: Seconds (a page is told at least a whole one).
        self.retry_after = max(0.05, retry_after)
        #: This server's own budget said no: Discord was not asked.
        self.local = local


class CodeRefused(Exception):
    """Discord refused the authorization code (expired, used, or not this application's)."""


class TokenRefused(Exception):
    """Discord refused the access token (expired, revoked, or never one of its own)."""


class SecretRefused(Exception):
    """Discord refused the client secret (``invalid_client``): nobody can sign in."""


@dataclass(frozen=True, slots=True)
class Person:
    """Who an access token belongs to."""

    user_id: int
    name: str
    avatar: str | None


@dataclass(frozen=True, slots=True)
class Authorization:
    """What Discord says of an access token (``GET /oauth2/@me``): the application it was
    granted to, its scopes, its person (with ``identify``) and when it expires (monotonic)."""

    application_id: int
    scopes: frozenset[str]
    person: Person | None
    expires_at: float


@dataclass(frozen=True, slots=True)
class Instance:
    """A running Activity instance (``GET /applications/{app}/activity-instances/{id}``)."""

    instance_id: str
    channel_id: int | None
    guild_id: int | None
    users: frozenset[int]


@dataclass(frozen=True, slots=True)
class CallBudget:
    """The budget of the Activity's calls to Discord (bot/base/settings.py)."""

    burst: int = 50
    per_minute: float = 300.0
    invalid_limit: int = 1_000


#: The bot's own request of an instance (discord_internals.activity_instance bound to the bot):
#: the JSON, or None for 404; raises discord.HTTPException for any other refusal.
BotRequest = Callable[[int, str], Awaitable[Any]]


class ActivityApi:
    def __init__(
        self, api_base: str, client_secret: str, bot_request: BotRequest, limits: CallBudget
    ) -> None:
        self.api_base = api_base.rstrip("/")
        self.client_secret = client_secret
        self.bot_request = bot_request
        self.timeout = TIMEOUT
        self.bucket = TokenBucket(limits.burst, limits.per_minute)
        self.invalid = WindowCount(limits.invalid_limit, INVALID_WINDOW)
        #: Discord's 429 said to wait until then (monotonic).
        self.paused_until = 0.0
        self.secret_refused_until = 0.0
        self._secret_said = False
        self._invalid_said = False
        #: Calls sent to Discord (for the figures and the tests), and those not answered yet.
        self.calls = 0
        self.in_flight = 0
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    # -- the budget ---------------------------------------------------------------------------

    def _spend(self, what: str) -> None:
        """Take one call from the budget, or raise DiscordUnavailable without asking."""
        now = time.monotonic()
        # The calls on their way may each come back refused: counted before they do, so the
        # limit holds however many sign-ins arrive at once.
        full = self.invalid.full_for(now, self.in_flight)
        if full > 0:
            if not self._invalid_said:
                self._invalid_said = True
                log.warning(
                    "the Activity stopped asking Discord: %d refusals (401, 403, 429) in 10 "
                    "minutes, of Discord's 10,000 before it bans this IP (bot included); "
                    "sign-ins wait %.0f s (ACTIVITY_INVALID_LIMIT)",
                    self.invalid.limit,
                    full,
                )
            raise DiscordUnavailable(f"{what}: too many refusals from Discord", full, local=True)
        self._invalid_said = False
        if self.paused_until > now:
            raise DiscordUnavailable(f"{what}: Discord's rate limit", self.paused_until - now)
        wait = self.bucket.take(now)
        if wait > 0:
            raise DiscordUnavailable(
                f"{what}: the Activity's budget of calls is spent", wait, local=True
            )
        self.calls += 1
        self.in_flight += 1

    def _answered(self, status: int, headers: Any, body: Any) -> None:
        """Count an invalid answer; a 429 pauses every call for its retry_after."""
        if status not in (401, 403, 429):
            return
        scope = headers.get("X-RateLimit-Scope") if headers is not None else None
        now = time.monotonic()
        if status != 429 or scope != "shared":
            self.invalid.add(now)  # a shared 429 is not counted by Discord (the docs above)
        if status == 429:
            after = body.get("retry_after") if isinstance(body, dict) else None
            if not isinstance(after, int | float):
                after = float(headers.get("Retry-After", RETRY_SOON)) if headers else RETRY_SOON
            self.paused_until = max(self.paused_until, now + float(after))

    async def _call(
        self, method: str, path: str, *, headers: dict[str, str], data: Any = None
    ) -> tuple[int, Any]:
        self._spend(f"{method} {path}")
        try:
            return await self._send(method, path, headers, data)
        finally:
            self.in_flight -= 1

    async def _send(
        self, method: str, path: str, headers: dict[str, str], data: Any
    ) -> tuple[int, Any]:
        try:
            async with self._http().request(
                method,
                self.api_base + path,
                headers=headers,
                data=data,
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            ) as answer:
                status = answer.status
                body = await answer.json(content_type=None) if status != 204 else None
                self._answered(status, answer.headers, body)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordUnavailable(f"{method} {path}: {error!r}") from None
        if status == 429:
            raise DiscordUnavailable(
                f"{method} {path}: HTTP 429", self.paused_until - time.monotonic()
            )
        if status >= 500:
            raise DiscordUnavailable(f"{method} {path}: HTTP {status}")
        return status, body

    # -- the calls ----------------------------------------------------------------------------

    async def exchange(self, client_id: int, code: str) -> str:
        """The access token for an authorization code from the SDK's ``authorize``.

        Discord's OAuth2 docs, "Authorization Code Grant" (the access token exchange): a
        form-encoded POST to ``/oauth2/token`` with ``grant_type=authorization_code``, the code,
        and the application's credentials
        (https://discord.com/developers/docs/topics/oauth2#authorization-code-grant). The
        Activities guide does this same exchange on the app's server, since the secret must
        never reach the client
        (https://discord.com/developers/docs/activities/building-an-activity#step-5-authorizing-authenticating-users).
        An Activity's code has no redirect URI, so none is sent. A wrong secret is answered
        ``invalid_client`` (RFC 6749 5.2): said once in the log, and not asked again for a
        while."""
        if self.secret_refused_until > time.monotonic():
            raise SecretRefused
        form = {
            "client_id": str(client_id),
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        status, body = await self._call("POST", "/oauth2/token", headers=headers, data=form)
        error = body.get("error") if isinstance(body, dict) else None
        if error == "invalid_client":
            self.secret_refused_until = time.monotonic() + SECRET_PAUSE
            if not self._secret_said:
                self._secret_said = True
                log.warning(
                    "Discord refused the Activity's client secret (invalid_client): nobody can "
                    "open the web table until DISCORD_CLIENT_SECRET is the application's "
                    "(Developer Portal > OAuth2 > Client Secret) and DISCORD_CLIENT_ID, if "
                    "set, its id; asked again in %.0f minutes",
                    SECRET_PAUSE / 60,
                )
            raise SecretRefused
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str):
            raise CodeRefused(str(error or status))
        return token

    async def authorization(self, access_token: str) -> Authorization:
        """What Discord says of this access token: Discord's OAuth2 docs, "Get Current
        Authorization Information": the ``application`` it was granted to, its ``scopes``,
        ``expires``, and the ``user`` when it has ``identify``
        (https://discord.com/developers/docs/topics/oauth2#get-current-authorization-information).
        TokenRefused if Discord refuses it (expired, revoked, forged)."""
        status, body = await self._call(
            "GET", "/oauth2/@me", headers={"Authorization": f"Bearer {access_token}"}
        )
        if status != 200 or not isinstance(body, dict):
            raise TokenRefused(str(status))
        application = body.get("application") or {}
        user = body.get("user")
        person = None
        if isinstance(user, dict) and str(user.get("id", "")).isdigit():
            name = user.get("global_name") or user.get("username") or ""
            avatar = user.get("avatar")
            url = (
                f"https://cdn.discordapp.com/avatars/{user['id']}/{avatar}.png" if avatar else None
            )
            person = Person(int(user["id"]), str(name), url)
        app_id = str(application.get("id", ""))
        return Authorization(
            application_id=int(app_id) if app_id.isdigit() else 0,
            scopes=frozenset(str(s) for s in body.get("scopes") or ()),
            person=person,
            expires_at=_expires_at(body.get("expires")),
        )

    async def instance(self, application_id: int, instance_id: str) -> Instance | None:
        """The instance as Discord knows it, asked with the bot token; None if unknown (ended,
        or another application's). Discord's "Get Application Activity Instance": the
        instance's users and its location (``channel_id``, ``guild_id``)
        (https://discord.com/developers/docs/resources/application#get-application-activity-instance);
        the Activities guide says to check a person against it before trusting them
        (https://discord.com/developers/docs/activities/development-guides/multiplayer-experience#activity-instance-management)."""
        if not INSTANCE_ID.fullmatch(instance_id):
            return None
        self._spend("GET activity-instances")
        try:
            return await self._ask_instance(application_id, instance_id)
        finally:
            self.in_flight -= 1

    async def _ask_instance(self, application_id: int, instance_id: str) -> Instance | None:
        what = "GET activity-instances"
        try:
            # discord.py waits out a 429 and retries a 500/502/504 itself: within the timeout.
            body = await asyncio.wait_for(
                self.bot_request(application_id, instance_id), self.timeout
            )
        except discord.HTTPException as error:
            self._answered(error.status, None, None)
            raise DiscordUnavailable(f"{what}: HTTP {error.status}") from None
        except (aiohttp.ClientError, TimeoutError) as error:
            raise DiscordUnavailable(f"{what}: {error!r}") from None
        if not isinstance(body, dict):
            return None
        location = body.get("location") or {}
        channel, guild = location.get("channel_id"), location.get("guild_id")
        return Instance(
            instance_id=str(body.get("instance_id", instance_id)),
            channel_id=int(channel) if channel else None,
            guild_id=int(guild) if guild else None,
            users=frozenset(int(u) for u in body.get("users") or ()),
        )


def _expires_at(text: Any) -> float:
    """An ISO 8601 expiry as a monotonic time (now if it cannot be read: not trusted long)."""
    now = time.monotonic()
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return now
    return now + (when.timestamp() - time.time())
