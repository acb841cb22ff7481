"""What Discord does for an app's Activities: OAuth2 codes and tokens, the running instances,
and the Entry Point command it keeps once Activities are on.

Sources: Discord's OAuth2 docs ("Authorization Code Grant": a code is exchanged once, at
``POST /oauth2/token``, form-encoded, with the app's client id and secret, for a bearer token
that expires; https://discord.com/developers/docs/topics/oauth2#authorization-code-grant);
"Get Application Activity Instance" (the instance's ``location`` and ``users``;
https://discord.com/developers/docs/resources/application#get-application-activity-instance);
"Get Current Authorization Information" (``GET /oauth2/@me`` with a bearer token: the token's
``application``, ``scopes``, ``expires``, and its ``user`` when ``identify`` was granted;
https://discord.com/developers/docs/topics/oauth2#get-current-authorization-information);
the Activities overview (enabling Activities makes a default Entry Point command, "Launch";
https://discord.com/developers/docs/activities/overview#launching-activities), and Discord's
answer to a bulk overwrite without it (50240, serenity-rs/serenity#2993).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .commands import PRIMARY_ENTRY_POINT
from .models import Channel, User

if TYPE_CHECKING:
    from .world import World

#: How long an authorization code can be exchanged (Discord's codes are short-lived).
CODE_SECONDS = 10 * 60.0
#: An access token's life (Discord's bearer tokens last a week: ``expires_in`` 604800).
TOKEN_SECONDS = 7 * 24 * 3600.0
#: Entry Point command handler: Discord launches the Activity itself (DISCORD_LAUNCH_ACTIVITY).
DISCORD_LAUNCH_ACTIVITY = 2


@dataclass
class Grant:
    user_id: int
    expires_at: float
    used: bool = False


#: What the Embedded App SDK's ``authorize`` asks for the web table (web/src/main.ts).
SCOPE = "identify"


@dataclass
class Token:
    user_id: int
    expires_at: float
    #: Space-separated, as OAuth2's ``scope`` (RFC 6749 3.3).
    scope: str = SCOPE
    #: The application the token was granted to (None: the double's own).
    application_id: int | None = None


@dataclass
class ActivityInstance:
    instance_id: str
    launch_id: str
    channel: Channel
    users: list[int] = field(default_factory=list)

    def to_json(self, app_id: int) -> dict[str, Any]:
        location = {
            "id": f"gc-{self.channel.guild_id}-{self.channel.id}",
            "kind": "gc",
            "channel_id": str(self.channel.id),
            "guild_id": str(self.channel.guild_id),
        }
        return {
            "application_id": str(app_id),
            "instance_id": self.instance_id,
            "launch_id": self.launch_id,
            "location": location,
            "users": [str(u) for u in self.users],
        }


class Activities:
    """The double's Activities state; tests reach it through FakeDiscord's helpers."""

    def __init__(self, fake: World) -> None:
        self.fake = fake
        self.enabled = False
        self.client_secret = secrets.token_urlsafe(24)
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Token] = {}
        self.instances: dict[str, ActivityInstance] = {}

    def enable(self) -> dict[str, Any]:
        """Activities turned on in the Developer Portal: Discord makes the default Entry Point
        command ("launch", type 4, handled by Discord) among the app's global commands."""
        self.enabled = True
        scope = self.fake.commands.scope(None)
        existing = next((c for c in scope.values() if c.get("type") == PRIMARY_ENTRY_POINT), None)
        if existing is not None:
            return existing
        return self.fake.commands.upsert(
            self.fake.app_id,
            None,
            {
                "name": "launch",
                "type": PRIMARY_ENTRY_POINT,
                "handler": DISCORD_LAUNCH_ACTIVITY,
                "description": "",
                "integration_types": [0, 1],
                "contexts": [0, 1, 2],
            },
            self.fake.store.snowflake,
        )

    def authorize(self, user: User | int) -> str:
        """The code the Embedded App SDK's ``authorize`` hands the client for this person."""
        user_id = user if isinstance(user, int) else user.id
        code = secrets.token_urlsafe(20)
        self.codes[code] = Grant(user_id, self.fake.clock.now() + CODE_SECONDS)
        return code

    def exchange(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """``POST /oauth2/token``: (status, body) as an OAuth2 server answers (RFC 6749 5.2)."""
        if form.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        if (
            form.get("client_id") != str(self.fake.app_id)
            or form.get("client_secret") != self.client_secret
        ):
            return 401, {"error": "invalid_client"}
        grant = self.codes.get(form.get("code", ""))
        if grant is None or grant.used or grant.expires_at <= self.fake.clock.now():
            refused = 'Invalid "code" in request.'
            return 400, {"error": "invalid_grant", "error_description": refused}
        grant.used = True  # a code is good once
        token = self.mint(grant.user_id)
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": int(TOKEN_SECONDS),
            "refresh_token": secrets.token_urlsafe(24),
            "scope": self.tokens[token].scope,
        }

    def mint(
        self, user: User | int, *, application_id: int | None = None, scope: str = SCOPE
    ) -> str:
        """A live bearer token of this person for an application (by default the double's
        own; another's is what any "Login with Discord" site holds for its users)."""
        user_id = user if isinstance(user, int) else user.id
        token = secrets.token_urlsafe(24)
        self.tokens[token] = Token(
            user_id, self.fake.clock.now() + TOKEN_SECONDS, scope, application_id
        )
        return token

    def revoke(self, token: str) -> None:
        """The person (or the app) revoked the token: Discord answers 401 for it from now on
        (https://discord.com/developers/docs/topics/oauth2#authorization-code-grant-token-revocation-example)."""
        self.tokens.pop(token, None)

    def live(self, token: str) -> Token | None:
        """The bearer token, if it is a live one."""
        found = self.tokens.get(token)
        if found is None or found.expires_at <= self.fake.clock.now():
            return None
        return found

    def holder(self, token: str) -> int | None:
        """Whose bearer token this is, if it is a live one."""
        found = self.live(token)
        return None if found is None else found.user_id

    def authorization(self, token: str) -> dict[str, Any] | None:
        """``GET /oauth2/@me``: the token's application, scopes and expiry, and its person
        when it has ``identify``; None for a token that is not a live one (401)."""
        found = self.live(token)
        if found is None:
            return None
        app_id = found.application_id or self.fake.app_id
        application = {
            **self.fake.application_json(),
            "id": str(app_id),
            "name": self.fake.bot.name if app_id == self.fake.app_id else "Another app",
            "type": None,
            "flags_new": "0",
        }
        for private in ("owner", "team", "bot", "interactions_endpoint_url", "redirect_uris"):
            application.pop(private, None)  # a partial application, as Discord shows it
        scopes = found.scope.split()
        wall = time.time() + (found.expires_at - self.fake.clock.now())
        body: dict[str, Any] = {
            "application": application,
            "scopes": scopes,
            "expires": datetime.fromtimestamp(wall, UTC).isoformat(),
        }
        if "identify" in scopes:
            user = self.fake.store.user(found.user_id).to_json()
            body["user"] = {**user, "flags": 0, "primary_guild": None}
        return body

    def leave(self, user: User | int, instance_id: str) -> None:
        """The person closed the Activity: Discord drops them from the instance's ``users``
        (the SDK's ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE tells the others), and an instance
        nobody is in ends (its route answers 404)."""
        user_id = user if isinstance(user, int) else user.id
        instance = self.instances.get(instance_id)
        if instance is None:
            return
        if user_id in instance.users:
            instance.users.remove(user_id)
        if not instance.users:
            del self.instances[instance_id]

    def instance(self, channel: Channel, user_ids: list[int]) -> ActivityInstance:
        """A running instance in ``channel`` with these people in it (the channel's own, if one
        runs: everyone who opens the app there joins the same instance)."""
        running = next((i for i in self.instances.values() if i.channel.id == channel.id), None)
        if running is None:
            running = ActivityInstance(
                instance_id=f"i-{self.fake.store.snowflake()}-gc-{channel.guild_id}-{channel.id}",
                launch_id=str(self.fake.store.snowflake()),
                channel=channel,
            )
            self.instances[running.instance_id] = running
        for user_id in user_ids:
            if user_id not in running.users:
                running.users.append(user_id)
        return running
