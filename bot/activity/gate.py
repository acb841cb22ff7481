"""Who may sit at a web table: a hello checked against what Discord said, remembered, and
checked again while the socket stays open.

What Discord said is cached in this process (``Gate.tokens``, ``Gate.instances``): a token's
application, scopes and person until it expires or ``recheck_seconds`` pass (a refused token
for a minute); an instance's record for a few seconds, asked again on demand: a person missing
from it is looked for in a fresh copy before being refused (its ``users`` lag right after a
launch). Concurrent askers of one key share one call.

What Discord said of a token this application may use is also stored (``TokenStore``, the
database's activity_tokens, bot/storage/activity_tokens.py: keyed by the token's hash), read on
a hello's cache miss before Discord is asked and written after it answers, trusted as long as
the process would have trusted it: a round of re-checks asks Discord (never the database) for a
token whose copy in memory ran out, so an open table's token is asked again within two rounds
of its last answer, and its row is trusted that long (``stored_trust``). So a restart does not
start cold: the open tables reconnect (spread by
the page's back-off) and their tokens are found in the database; only each instance is asked
again (its record is kept seconds, not stored). What the database cannot answer is asked of
Discord within the budget of calls (bot/activity/discord_api.py), each page told ``retry``
with a ``retry_after`` while it is spent.

Each socket let in is watched (``watch``) until it closes: every ``recheck_seconds`` (and when
``recheck`` is told an instance changed) its token and its place in the instance are checked
again, from the cache, and a person no longer allowed loses the socket with the reason. An
upstream failure during a re-check keeps the socket (it is checked at the next round).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from aiohttp import web

from ..storage import StoredToken
from ..words import tr
from .discord_api import (
    ActivityApi,
    Authorization,
    DiscordUnavailable,
    Instance,
    Person,
    TokenRefused,
)
from .protocol import Hello, error_frame

log = logging.getLogger(__name__)

#: How long an instance's record (or its absence) is trusted: its ``users`` change as people
#: come and go.
INSTANCE_SECONDS: Final = 10.0
#: How long a refused token is remembered (a flood repeating one costs a call a minute).
REFUSED_SECONDS: Final = 60.0
#: Entries kept per cache (the least recently used forgotten past it): a flood of made-up
#: tokens cannot grow the server's memory.
KEPT: Final = 20_000
#: How many times the periodic re-check tries a socket again that the budget could not afford.
PACED_TRIES: Final = 3
#: Added to two rounds of re-checks in a stored token's trust: a round takes its time.
ROUND_SLACK: Final = 60.0
#: The scope the page asks for (web/src/main.ts) and without which no person is named.
SCOPE: Final = "identify"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Admitted:
    person: Person
    instance: Instance


@dataclass(frozen=True, slots=True)
class Refused:
    """A hello not let in: its protocol code, the i18n key of its words, and for ``retry``
    how long to wait."""

    code: str
    words: str
    retry_after: float | None = None

    def frame(self, lang: str) -> dict[str, Any]:
        frame = error_frame(None, self.code, tr(lang, self.words))
        if self.retry_after is not None:
            frame["retry_after"] = max(1, math.ceil(self.retry_after))
        return frame


class Watched(Protocol):
    """An open socket let in (hub.Client)."""

    ws: web.WebSocketResponse
    user_id: int
    lang: str

    def send(self, frame: dict[str, Any] | str) -> None: ...

    def stop(self) -> None: ...


class TokenStore(Protocol):
    """Where what Discord said of a token outlives the process (storage.TokenQueries)."""

    async def stored_token(self, token: str) -> StoredToken | None: ...

    async def store_token(self, token: str, found: StoredToken) -> None: ...

    async def forget_untrusted_tokens(self) -> int: ...


def _wall(monotonic: float) -> float:
    return time.time() + (monotonic - time.monotonic())


def _monotonic(wall: float) -> float:
    return time.monotonic() + (wall - time.time())


class Cache(OrderedDict[str, tuple[float, T]]):
    """Answers by key until a monotonic time, the least recently used forgotten past KEPT."""

    def fresh(self, key: str, now: float) -> tuple[bool, T | None]:
        found = self.get(key)
        if found is None or found[0] <= now:
            return False, None
        self.move_to_end(key)
        return True, found[1]

    def keep(self, key: str, until: float, value: T) -> None:
        self[key] = (until, value)
        self.move_to_end(key)
        while len(self) > KEPT:
            self.popitem(last=False)


class Gate:
    def __init__(
        self,
        api: ActivityApi,
        application_id: Callable[[], int | None],
        recheck_seconds: float,
        store: TokenStore | None = None,
    ) -> None:
        self.api = api
        self.store = store
        self.application_id = application_id
        self.recheck_seconds = recheck_seconds
        self.tokens: Cache[Authorization | None] = Cache()
        self.instances: Cache[Instance | None] = Cache()
        self._flights: dict[tuple[str, str], asyncio.Future[Any]] = {}
        #: Sockets let in, with the hello that let them in (to check it again).
        self.watched: dict[Watched, Hello] = {}

    # -- what Discord said, cached ------------------------------------------------------------

    async def _once(self, key: tuple[str, str], ask: Callable[[], Awaitable[T]]) -> T:
        """``ask()``, shared by everyone who asks the same key meanwhile."""
        flight = self._flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(ask())
            self._flights[key] = flight
            flight.add_done_callback(lambda _: self._flights.pop(key, None))
        result: T = await asyncio.shield(flight)
        return result

    def stored_trust(self) -> float:
        """How long a stored answer is trusted: a token answered at t is in memory until
        t + ``recheck_seconds``, and asked again at the first round after that, so by two
        rounds (and a round's own time) at the latest."""
        return 2 * self.recheck_seconds + ROUND_SLACK

    async def authorization(self, token: str, *, stored: bool = True) -> Authorization:
        """What Discord said of the token; TokenRefused or DiscordUnavailable. ``stored``:
        the database may answer on a miss (a hello); a re-check asks Discord."""
        known, found = self.tokens.fresh(token, time.monotonic())
        if not known:
            found = await self._once(
                ("token", token), lambda: self._ask_token(token, stored=stored)
            )
        if found is None:
            raise TokenRefused
        return found

    async def _ask_token(self, token: str, *, stored: bool) -> Authorization | None:
        kept = await self._stored(token) if stored else None
        if kept is not None:
            authorization, until = kept
            self.tokens.keep(token, until, authorization)
            return authorization
        try:
            found: Authorization | None = await self.api.authorization(token)
        except TokenRefused:
            found = None
        now = time.monotonic()
        until = (
            now + REFUSED_SECONDS
            if found is None
            else min(found.expires_at, now + self.recheck_seconds)
        )
        self.tokens.keep(token, until, found)
        if found is not None:
            await self._store(token, found, min(found.expires_at, now + self.stored_trust()))
        return found

    async def _stored(self, token: str) -> tuple[Authorization, float] | None:
        """What the database kept of the token and until when (monotonic) it is trusted; None
        when it kept nothing trusted still, or cannot be read (Discord is asked instead)."""
        if self.store is None:
            return None
        try:
            row = await self.store.stored_token(token)
        except Exception:
            log.exception("activity sign-in: the stored tokens could not be read")
            return None
        if row is None:
            return None
        person = Person(row.user_id, row.name, row.avatar)
        found = Authorization(row.application_id, row.scopes, person, _monotonic(row.expires_at))
        # In memory like an answer of Discord's: asked again at the round after.
        until = min(_monotonic(row.trusted_until), time.monotonic() + self.recheck_seconds)
        return found, until

    async def _store(self, token: str, found: Authorization, until: float) -> None:
        """Keep what Discord said of a token that may sit at this application's tables (no
        other: a flood of foreign or scope-less tokens writes nothing), trusted until
        ``until`` (monotonic)."""
        person = found.person
        if (
            self.store is None
            or person is None
            or found.application_id != self.application_id()
            or SCOPE not in found.scopes
        ):
            return
        row = StoredToken(
            found.application_id,
            found.scopes,
            person.user_id,
            person.name,
            person.avatar,
            _wall(found.expires_at),
            _wall(until),
        )
        try:
            await self.store.store_token(token, row)
        except Exception:
            log.exception("activity sign-in: a token could not be stored (kept in memory)")

    async def instance(self, app: int, instance_id: str, *, fresh: bool = False) -> Instance | None:
        """The instance's record (None: unknown), from the cache unless ``fresh``."""
        known, found = self.instances.fresh(instance_id, time.monotonic())
        if known and not fresh:
            return found
        return await self._once(
            ("instance", instance_id), lambda: self._ask_instance(app, instance_id)
        )

    async def _ask_instance(self, app: int, instance_id: str) -> Instance | None:
        found = await self.api.instance(app, instance_id)
        self.instances.keep(instance_id, time.monotonic() + INSTANCE_SECONDS, found)
        return found

    # -- the check ----------------------------------------------------------------------------

    async def check(self, hello: Hello, *, stored: bool = True) -> Admitted | Refused:
        """Who this is and where, trusting nothing the client says: the person comes from the
        token (which must be this application's, with ``identify``), the channel from
        Discord's instance, in which the person must be."""
        app = self.application_id()
        if app is None:
            return Refused("retry", "activity.error.discord", 5.0)
        try:
            authorization = await self.authorization(hello.access_token, stored=stored)
            person = authorization.person
            if authorization.application_id != app:
                return Refused("auth", "activity.error.foreign_token")
            if SCOPE not in authorization.scopes or person is None:
                return Refused("auth", "activity.error.scope")
            cached, _ = self.instances.fresh(hello.instance_id, time.monotonic())
            instance = await self.instance(app, hello.instance_id)
            if cached and (instance is None or person.user_id not in instance.users):
                # Its users may lag right after a launch: a fresh copy before refusing.
                instance = await self.instance(app, hello.instance_id, fresh=True)
        except TokenRefused:
            return Refused("auth", "activity.error.auth")
        except DiscordUnavailable as error:
            # The server's own budget is said once, where it binds (discord_api), not a hello.
            log.log(
                logging.DEBUG if error.local else logging.WARNING,
                "activity sign-in: Discord did not answer (%s)",
                error,
            )
            return Refused("retry", "activity.error.discord", error.retry_after)
        if instance is None or person.user_id not in instance.users:
            return Refused("not-in-instance", "activity.error.not_in_instance")
        if instance.channel_id != hello.channel_id or (
            hello.guild_id is not None and instance.guild_id != hello.guild_id
        ):
            return Refused("wrong-channel", "activity.error.wrong_channel")
        return Admitted(person, instance)

    # -- checked again ------------------------------------------------------------------------

    def watch(self, socket: Watched, hello: Hello) -> None:
        self.watched[socket] = hello
        for gone in [s for s in self.watched if s.ws.closed]:
            del self.watched[gone]

    async def recheck(self, instance_id: str | None = None, *, paced: bool = False) -> int:
        """Check every watched socket again (or those of one instance, whose record is asked
        afresh: Discord said its participants changed); a person no longer allowed loses the
        socket, told why. How many were closed.

        ``paced`` (the periodic round): a check the budget of calls cannot afford now waits
        its ``retry_after`` and is tried again (up to PACED_TRIES), so a round spreads over
        the budget instead of checking its first few sockets and putting off the rest."""
        app = self.application_id()
        if app is None:
            return 0
        if instance_id is not None:
            try:
                await self.instance(app, instance_id, fresh=True)
            except DiscordUnavailable as error:
                log.info("activity re-check of %s put off (%s)", instance_id, error)
                return 0
        closed = 0
        for socket, hello in list(self.watched.items()):
            if instance_id is not None and hello.instance_id != instance_id:
                continue
            verdict = await self.check(hello, stored=False)
            for _ in range(PACED_TRIES if paced else 0):
                if not isinstance(verdict, Refused) or verdict.code != "retry":
                    break
                await asyncio.sleep(verdict.retry_after or 1.0)
                verdict = await self.check(hello, stored=False)
            if socket.ws.closed:
                self.watched.pop(socket, None)
            elif isinstance(verdict, Refused) and verdict.code != "retry":
                log.info("activity: %s is no longer let in (%s)", socket.user_id, verdict.code)
                socket.send(verdict.frame(socket.lang))
                socket.stop()
                self.watched.pop(socket, None)
                closed += 1
        return closed

    async def recheck_every(self) -> None:
        """Re-check every ``recheck_seconds`` until cancelled (the server's stop), the stored
        tokens whose trust ran out swept first."""
        while True:
            if self.store is not None:
                try:
                    await self.store.forget_untrusted_tokens()
                except Exception:
                    log.exception("activity: the stored tokens could not be swept")
            await asyncio.sleep(self.recheck_seconds)
            try:
                await self.recheck(paced=True)
            except Exception:
                log.exception("activity re-check failed; trying again next round")
