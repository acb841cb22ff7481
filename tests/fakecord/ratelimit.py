"""Per-route and global rate limits, forced 429s and injected server errors.

Windows run on real monotonic time (not the fake clock) because discord.py really sleeps for
`retry_after` before trying again.
"""

from __future__ import annotations

import fnmatch
import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

# Generous defaults: a well-behaved bot never sees a 429 unless a test tightens a limit.
DEFAULT_ROUTE_LIMIT, DEFAULT_WINDOW = 10_000, 1.0
DEFAULT_GLOBAL_LIMIT = 100_000

#: Routes an interaction's token opens: its callback and its webhook (``@original``, follow-ups,
#: their edits and deletes). Discord: "Interaction endpoints are not bound to the bot's Global
#: Rate Limit" (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit);
#: their per-route limits still apply.
INTERACTION_ROUTE_PREFIXES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")


def under_global_limit(template: str) -> bool:
    """Whether a request on this route (the spec's template) counts against the bot's global
    limit of requests a second."""
    return not template.startswith(INTERACTION_ROUTE_PREFIXES)


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

    def matches(self, method: str, path: str, template: str) -> bool:
        if self.method not in ("*", method):
            return False
        return template == self.pattern or fnmatch.fnmatchcase(path, self.pattern)


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
    sent_429: int = 0
    sent_faults: int = 0
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
        the spec's route template exactly) with `status`: 500, 502, ... or 429 (then with
        `retry_after` and the `global` flag, as Discord sends them)."""
        self._faults.append(Fault(status, method.upper(), path, count, retry_after, is_global))

    # used by the server ------------------------------------------------------------------
    def fault_for(self, method: str, path: str, template: str) -> Verdict | None:
        for fault in self._faults:
            if fault.remaining > 0 and fault.matches(method, path, template):
                fault.remaining -= 1
                fault.served += 1
                if fault.status == 429:
                    self.sent_429 += 1
                    return self._too_many(fault.retry_after, fault.is_global)
                self.sent_faults += 1
                reason = {
                    500: "Internal Server Error",
                    502: "Bad Gateway",
                    503: "Service Unavailable",
                    504: "Gateway Timeout",
                }.get(fault.status, "")
                body = {"message": f"{fault.status}: {reason}".strip(), "code": 0}
                # discord.py retries a 5xx after 1, 3, 5 ... seconds.
                return Verdict({}, fault.status, body, hold=1.0 + 2 * (fault.served - 1))
        return None

    @staticmethod
    def _too_many(retry_after: float, is_global: bool) -> Verdict:
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
        }
        headers = {
            "Retry-After": str(int(retry_after + 0.999)),
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return Verdict(headers, 429, body, hold=retry_after)

    def check(self, method: str, template: str, major: str) -> Verdict:
        now = time.monotonic()
        key = f"{method} {template}"
        limit, window = self.route_limits.get(key, (DEFAULT_ROUTE_LIMIT, DEFAULT_WINDOW))
        bucket_hash = hashlib.sha1(key.encode()).hexdigest()[:16]
        bucket = self._buckets.setdefault(f"{bucket_hash}:{major}", _Window(limit, window))
        if self._global is None:
            self._global = _Window(*self.global_limit)

        if under_global_limit(template) and not self._global.take(now):
            self.sent_429 += 1
            return self._too_many(max(self._global.reset_at - now, 0.001), True)

        ok = bucket.take(now)
        reset_after = max(bucket.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(bucket.limit - bucket.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }
        if ok:
            return Verdict(headers, hold=reset_after if bucket.used >= bucket.limit else 0.0)
        self.sent_429 += 1
        headers.update({"X-RateLimit-Scope": "user", "Retry-After": str(int(reset_after + 0.999))})
        body = {
            "message": "You are being rate limited.",
            "retry_after": reset_after,
            "global": False,
        }
        return Verdict(headers, 429, body, hold=reset_after)
