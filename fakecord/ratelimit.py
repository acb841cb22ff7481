"""Per-route and global rate limits, forced 429s and injected server errors.

Windows run on real monotonic time (not the fake clock) because discord.py really sleeps for
`retry_after` before trying again.

What Discord does, and where that is said (its rate-limit docs are
https://discord.com/developers/docs/topics/rate-limits, "the docs" below):
- a 429 says its scope in ``X-RateLimit-Scope``: ``user`` (this bot's own bucket), ``global``
  (its requests a second in all; then also ``X-RateLimit-Global: true`` and ``"global": true``
  in the body) or ``shared`` (a resource's limit, whoever calls it) (the docs, "Header Format"
  and "Exceeding A Rate Limit");
- per-route buckets are counted per top-level resource: ``channel_id``, ``guild_id``, or
  ``webhook_id`` + ``webhook_token`` (the docs, first section);
- 401, 403 and 429 answers, a ``shared`` 429 excepted, are invalid requests, of which an IP
  may make 10,000 in 10 minutes before Cloudflare bans it (the docs, "Invalid Request Limit").
"""

from __future__ import annotations

import fnmatch
import hashlib
import random
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

# Generous defaults: a well-behaved bot never sees a 429 unless a test tightens a limit.
DEFAULT_ROUTE_LIMIT, DEFAULT_WINDOW = 10_000, 1.0
DEFAULT_GLOBAL_LIMIT = 100_000

#: "All bots can make up to 50 requests per second to our API" (the docs, "Global Rate
#: Limit"); `limit_global(DISCORD_GLOBAL_LIMIT)` enforces it.
DISCORD_GLOBAL_LIMIT = 50

#: Routes an interaction's token opens: its callback and its webhook (``@original``, follow-ups,
#: their edits and deletes). Discord: "Interaction endpoints are not bound to the bot's Global
#: Rate Limit" (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit);
#: their per-route limits still apply.
INTERACTION_ROUTE_PREFIXES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"

#: Per-route buckets as Discord applies them to bots; Discord publishes no figures (the docs
#: say to read the headers instead), so these are what bots measure.
#: Channel routes: 5 messages posted, 5 edited, 5 deleted per channel every 5, 5 and 1 s (the
#: figures this project's load bench has always used; discord.py's and discord.js's users
#: report the same ``X-RateLimit-Limit: 5``).
CHANNEL_ROUTE_LIMITS: tuple[tuple[str, str, int, float], ...] = (
    ("POST", "/channels/{channel_id}/messages", 5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", 5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", 5, 1.0),
)
#: An interaction's webhook routes, per token and route: 5 requests every 2 s. Measured by
#: MinnDevelopment ("5/2s per interaction") and confirmed by Discord's staff as "identical to
#: webhook rate limits" (discord/discord-api-docs#2701); webhooks' 5 a 2 s is the figure of
#: https://birdie0.github.io/discord-webhooks-guide/other/rate_limits.html. "Interactions
#: webhooks share the same rate limit properties as normal webhooks" (Discord API docs,
#: Interactions > Receiving and Responding > Followup Messages).
WEBHOOK_TOKEN_LIMIT = (5, 2.0)
#: Messages posted into one channel through webhooks, whichever token: 30 a minute, answered
#: with a ``shared`` 429. The weakest figure here: "30/60s per guild/global (hard to test)"
#: (discord/discord-api-docs#2701), a hidden shared limit on follow-ups
#: (discord/discord-api-docs#7243), and webhooks' widely reported 30 messages a minute per
#: channel.
WEBHOOK_CHANNEL_LIMIT = (30, 60.0)
#: Cloudflare's ban threshold: 10,000 invalid requests (401, 403, 429 not ``shared``) in 10
#: minutes (the docs, "Invalid Request Limit aka Cloudflare bans").
INVALID_REQUEST_LIMIT, INVALID_REQUEST_WINDOW = 10_000, 600.0
SCOPES = ("global", "user", "shared")


def under_global_limit(template: str) -> bool:
    """Whether a request on this route (the spec's template) counts against the bot's global
    limit of requests a second."""
    return not template.startswith(INTERACTION_ROUTE_PREFIXES)


def is_invalid(status: int, scope: str | None) -> bool:
    """Whether Discord counts this answer toward the invalid request limit: "An invalid
    request is one that results in 401, 403, or 429 statuses", but "429 errors returned with
    X-RateLimit-Scope: shared are not counted against you" (the docs)."""
    return status in (401, 403) or (status == 429 and scope != "shared")


@dataclass
class _Window:
    limit: int
    window: float
    used: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.used, self.reset_at = 0, now + self.window
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


@dataclass
class Fault:
    status: int
    method: str
    pattern: str
    remaining: int
    retry_after: float = 0.05
    is_global: bool = False
    served: int = 0
    #: The share of matching requests answered so (``fail_share``; 1.0: every one, in turn).
    share: float = 1.0
    rng: random.Random | None = None

    def matches(self, method: str, path: str, template: str) -> bool:
        if self.method not in ("*", method):
            return False
        if not (template == self.pattern or fnmatch.fnmatchcase(path, self.pattern)):
            return False
        return self.rng is None or self.rng.random() < self.share


@dataclass
class Verdict:
    """What the limiter says about one request: go ahead (with headers) or answer 429/5xx."""

    headers: dict[str, str]
    status: int = 200
    body: dict[str, Any] | None = None
    # How long discord.py will now sleep before its next try (settle() waits that out).
    hold: float = 0.0


@dataclass
class RateLimits:
    route_limits: dict[str, tuple[int, float]] = field(default_factory=dict)
    global_limit: tuple[int, float] = (DEFAULT_GLOBAL_LIMIT, 1.0)
    #: Per token and route on an interaction's webhook routes: Discord's, always (None: the
    #: generous default of the other routes).
    webhook_token_limit: tuple[int, float] | None = WEBHOOK_TOKEN_LIMIT
    #: Messages a channel takes through webhooks, shared by every token (None: no limit).
    webhook_channel_limit: tuple[int, float] | None = None
    sent_429: int = 0
    sent_faults: int = 0
    #: 429s answered, by ``X-RateLimit-Scope``: "global", "user", "shared".
    sent_429_by_scope: Counter[str] = field(default_factory=Counter)
    #: Requests that counted against the global limit (let through its window).
    under_global: int = 0
    #: Invalid requests answered in all (401, 403, 429 not shared), and when (monotonic), by
    #: the caller's IP, as Discord counts them toward a ban.
    invalid_requests: int = 0
    _invalid_times: dict[str, deque[float]] = field(default_factory=dict)
    _buckets: dict[str, _Window] = field(default_factory=dict)
    _global: _Window | None = None
    _faults: list[Fault] = field(default_factory=list)

    # test-facing knobs -------------------------------------------------------------------
    def limit_route(self, method: str, template: str, limit: int, window: float) -> None:
        """E.g. limit_route("POST", "/channels/{channel_id}/messages", 2, 0.2)."""
        self.route_limits[f"{method} {template}"] = (limit, window)
        self._buckets.clear()

    def limit_global(self, limit: int, window: float = 1.0) -> None:
        self.global_limit = (limit, window)
        self._global = None

    def use_discord_route_limits(self) -> None:
        """Discord's per-route buckets as bots observe them (see the figures' sources above):
        channel messages and a channel's webhook messages (an interaction token's routes have
        Discord's limit from the start). The global limit is apart:
        `limit_global(DISCORD_GLOBAL_LIMIT)`."""
        for method, template, limit, window in CHANNEL_ROUTE_LIMITS:
            self.limit_route(method, template, limit, window)
        self.webhook_token_limit = WEBHOOK_TOKEN_LIMIT
        self.webhook_channel_limit = WEBHOOK_CHANNEL_LIMIT
        self._buckets.clear()

    def inject(
        self,
        status: int,
        method: str = "*",
        path: str = "*",
        count: int = 1,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> None:
        """Answer the next `count` requests matching method and path (glob on the path, or
        the spec's route template exactly) with `status`: 401, 403, 500, 502, ... or 429 (then
        with `retry_after` and the `global` flag, as Discord sends them)."""
        self._faults.append(Fault(status, method.upper(), path, count, retry_after, is_global))

    def fail_share(
        self, status: int, share: float, method: str = "*", path: str = "*", *, seed: int = 0
    ) -> None:
        """From now on, answer about ``share`` of the requests matching method and path with
        ``status`` (each drawn apart, a seeded draw): an upstream failing a tenth of the time."""
        rng = random.Random(seed)
        self._faults.append(Fault(status, method.upper(), path, 1 << 62, share=share, rng=rng))

    def invalid_in_window(self, ip: str | None = None) -> int:
        """Invalid requests in the last 10 minutes from ``ip`` (None: the IP with the most),
        against Cloudflare's 10,000 an IP."""
        now = time.monotonic()
        for times in self._invalid_times.values():
            self._forget_invalid(times, now)
        if ip is not None:
            return len(self._invalid_times.get(ip, ()))
        return max((len(t) for t in self._invalid_times.values()), default=0)

    # used by the server ------------------------------------------------------------------
    def note_answer(self, status: int, headers: dict[str, str], ip: str = "127.0.0.1") -> None:
        """Count an answer a caller got toward its IP's invalid request limit."""
        if is_invalid(status, headers.get("X-RateLimit-Scope")):
            now = time.monotonic()
            self.invalid_requests += 1
            times = self._invalid_times.setdefault(ip, deque())
            times.append(now)
            self._forget_invalid(times, now)

    @staticmethod
    def _forget_invalid(times: deque[float], now: float) -> None:
        while times and times[0] <= now - INVALID_REQUEST_WINDOW:
            times.popleft()

    def fault_for(self, method: str, path: str, template: str) -> Verdict | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.matches(method, path, template):
                fault.remaining -= 1
                fault.served += 1
                if fault.status == 429:
                    return self._too_many(
                        fault.retry_after, "global" if fault.is_global else "user"
                    )
                self.sent_faults += 1
                reason = {
                    401: "Unauthorized",
                    403: "Forbidden",
                    500: "Internal Server Error",
                    502: "Bad Gateway",
                    503: "Service Unavailable",
                    504: "Gateway Timeout",
                }.get(fault.status, "")
                body = {"message": f"{fault.status}: {reason}".strip(), "code": 0}
                # discord.py retries a 500, 502 or 504 after 1, 3, 5 ... seconds (no other).
                retried = fault.status in (500, 502, 504)
                hold = 1.0 + 2 * (fault.served - 1) if retried else 0.0
                return Verdict({}, fault.status, body, hold=hold)
        return None

    def _too_many(
        self, retry_after: float, scope: str, headers: dict[str, str] | None = None
    ) -> Verdict:
        """A 429 as the docs show it for each scope ("Exceeding A Rate Limit")."""
        self.sent_429 += 1
        self.sent_429_by_scope[scope] += 1
        shared = scope == "shared"
        body = {
            "message": f"{'The resource is' if shared else 'You are'} being rate limited.",
            "retry_after": retry_after,
            "global": scope == "global",
        }
        out = {
            **(headers or {}),
            "Retry-After": str(int(retry_after + 0.999)),
            "X-RateLimit-Scope": scope,
        }
        if scope == "global":
            out["X-RateLimit-Global"] = "true"
        return Verdict(out, 429, body, hold=retry_after)

    def _route_limit(self, key: str, template: str) -> tuple[int, float]:
        if key in self.route_limits:
            return self.route_limits[key]
        if self.webhook_token_limit is not None and template.startswith(FOLLOWUP):
            return self.webhook_token_limit
        return DEFAULT_ROUTE_LIMIT, DEFAULT_WINDOW

    def check(self, method: str, template: str, major: str, shared: str = "") -> Verdict:
        """`major`: the top-level resource the route's bucket is counted per; `shared`: the
        channel a webhook posts into, whose messages by webhook are limited whoever sends."""
        now = time.monotonic()
        # One route, one bucket: @original is a message id of the token's (Discord's docs
        # write both routes as one "Edit Webhook Message").
        key = f"{method} {template.replace('@original', '{message_id}')}"
        limit, window = self._route_limit(f"{method} {template}", template)
        bucket_hash = hashlib.sha1(key.encode()).hexdigest()[:16]
        bucket = self._buckets.setdefault(f"{bucket_hash}:{major}", _Window(limit, window))
        if self._global is None:
            self._global = _Window(*self.global_limit)

        if under_global_limit(template):
            if not self._global.take(now):
                return self._too_many(max(self._global.reset_at - now, 0.001), "global")
            self.under_global += 1

        ok = bucket.take(now)
        reset_after = max(bucket.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(bucket.limit - bucket.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }
        if not ok:
            return self._too_many(reset_after, "user", headers)
        if shared and self.webhook_channel_limit is not None:
            pool = self._buckets.setdefault(
                f"shared:{shared}", _Window(*self.webhook_channel_limit)
            )
            if not pool.take(now):
                return self._too_many(max(pool.reset_at - now, 0.001), "shared", headers)
        return Verdict(headers, hold=reset_after if bucket.used >= bucket.limit else 0.0)
