"""The three calls the Activity's server makes to Discord, with its own HTTP session.

Not through discord.py: its HTTP client only speaks with the bot token, and two of these calls
are the person's (the OAuth2 code grant, then their bearer token). The base URL is the bot's
(``DISCORD_API_BASE``), so a test points them at the Discord double like everything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

import aiohttp

#: A call to Discord that takes longer than this is given up (the person retries).
TIMEOUT: Final = 10.0

#: What an instance id may be: it comes from the client and goes into a URL asked with the
#: bot's token, so nothing that could reach another route (``/``, ``..``, ``?``) gets through.
INSTANCE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,200}")


class DiscordUnavailable(Exception):
    """Discord did not answer, or answered with a server error or a rate limit."""


class CodeRefused(Exception):
    """Discord refused the authorization code (expired, used, or not this application's)."""


@dataclass(frozen=True, slots=True)
class Person:
    """Who an access token belongs to (``GET /users/@me``)."""

    user_id: int
    name: str
    avatar: str | None


@dataclass(frozen=True, slots=True)
class Instance:
    """A running Activity instance (``GET /applications/{app}/activity-instances/{id}``)."""

    instance_id: str
    channel_id: int | None
    guild_id: int | None
    users: frozenset[int]


class ActivityApi:
    def __init__(self, api_base: str, bot_token: str, client_secret: str) -> None:
        self.api_base = api_base.rstrip("/")
        self.bot_token = bot_token
        self.client_secret = client_secret
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(
        self, method: str, path: str, *, headers: dict[str, str], data: Any = None
    ) -> tuple[int, Any]:
        try:
            async with self._http().request(
                method, self.api_base + path, headers=headers, data=data
            ) as answer:
                status = answer.status
                body = await answer.json(content_type=None) if status != 204 else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordUnavailable(f"{method} {path}: {error!r}") from None
        if status == 429 or status >= 500:
            raise DiscordUnavailable(f"{method} {path}: HTTP {status}")
        return status, body

    async def exchange(self, client_id: int, code: str) -> str:
        """The access token for an authorization code from the SDK's ``authorize``.

        Discord's OAuth2 docs, "Authorization Code Grant" (the access token exchange): a
        form-encoded POST to ``/oauth2/token`` with ``grant_type=authorization_code``, the code,
        and the application's credentials
        (https://discord.com/developers/docs/topics/oauth2#authorization-code-grant). The
        Activities guide does this same exchange on the app's server, since the secret must
        never reach the client
        (https://discord.com/developers/docs/activities/building-an-activity#step-5-authorizing-authenticating-users).
        An Activity's code has no redirect URI, so none is sent."""
        form = {
            "client_id": str(client_id),
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        status, body = await self._call("POST", "/oauth2/token", headers=headers, data=form)
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str):
            raise CodeRefused(str(body.get("error") if isinstance(body, dict) else status))
        return token

    async def person(self, access_token: str) -> Person | None:
        """Who holds this access token; None if Discord refuses it (expired, revoked, forged).
        ``GET /users/@me`` with the bearer token needs the ``identify`` scope."""
        status, body = await self._call(
            "GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"}
        )
        if status != 200 or not isinstance(body, dict) or "id" not in body:
            return None
        name = body.get("global_name") or body.get("username") or ""
        avatar = body.get("avatar")
        url = f"https://cdn.discordapp.com/avatars/{body['id']}/{avatar}.png" if avatar else None
        return Person(int(body["id"]), str(name), url)

    async def instance(self, application_id: int, instance_id: str) -> Instance | None:
        """The instance as Discord knows it, asked with the bot token; None if unknown (ended,
        or another application's). Discord's "Get Application Activity Instance": the
        instance's users and its location (``channel_id``, ``guild_id``)
        (https://discord.com/developers/docs/resources/application#get-application-activity-instance);
        the Activities guide says to check a person against it before trusting them
        (https://discord.com/developers/docs/activities/development-guides/multiplayer-experience#activity-instance-management)."""
        if not INSTANCE_ID.fullmatch(instance_id):
            return None
        path = f"/applications/{application_id}/activity-instances/{quote(instance_id)}"
        status, body = await self._call(
            "GET", path, headers={"Authorization": f"Bot {self.bot_token}"}
        )
        if status != 200 or not isinstance(body, dict):
            return None
        location = body.get("location") or {}
        channel, guild = location.get("channel_id"), location.get("guild_id")
        return Instance(
            instance_id=str(body.get("instance_id", instance_id)),
            channel_id=int(channel) if channel else None,
            guild_id=int(guild) if guild else None,
            users=frozenset(int(u) for u in body.get("users") or ()),
        )
