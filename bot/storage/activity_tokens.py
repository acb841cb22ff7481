"""What Discord said of the web table's access tokens, kept across a restart (issue 44).

The Activity's gate (bot/activity/gate.py) asks Discord's ``GET /oauth2/@me`` who a token
belongs to; after a restart every open table says hello again with the token it holds, and
without this table each would cost Discord that call again. A row is read on a cache miss,
written after Discord vouched for the token, ignored once ``trusted_until`` has passed, and
swept by ``forget_untrusted_tokens``.

A row is keyed by the token's SHA-256, never the token: the gate only needs to know a token it
met again, never to present it, so a copy of the database gives nobody a token to sign in
with. A plain hash suffices (no salt, no slow hash): Discord's bearer tokens are random strings
of far more than 128 bits, so there is no dictionary to try against the hash, and SHA-256 is
not reversible.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .driver import Queries, Tx


def token_hash(token: str) -> str:
    """The key a token is stored under (hex SHA-256 of its UTF-8 bytes)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredToken:
    """What Discord said of one token: its application, scopes and person; when it expires
    and until when the gate trusts this without asking again (seconds since the epoch)."""

    application_id: int
    scopes: frozenset[str]
    user_id: int
    name: str
    avatar: str | None
    expires_at: float
    trusted_until: float


class TokenQueries(Queries):
    async def stored_token(self, token: str) -> StoredToken | None:
        """What was stored of ``token``, unless its trust has run out (or nothing was)."""

        async def read(tx: Tx) -> StoredToken | None:
            row = await tx.fetchone(
                "SELECT application_id, scopes, user_id, name, avatar, expires_at, trusted_until"
                " FROM activity_tokens WHERE token_hash = ? AND trusted_until > ?",
                (token_hash(token), self._now()),
            )
            if row is None:
                return None
            return StoredToken(
                int(row["application_id"]),
                frozenset(str(row["scopes"]).split()),
                int(row["user_id"]),
                str(row["name"]),
                None if row["avatar"] is None else str(row["avatar"]),
                float(row["expires_at"]),
                float(row["trusted_until"]),
            )

        return await self._driver.read(read)

    async def store_token(self, token: str, found: StoredToken) -> None:
        """Keep what Discord said of ``token`` (replacing what was kept of it)."""
        await self._put(
            "activity_tokens",
            "token_hash",
            token_hash(token),
            application_id=found.application_id,
            scopes=" ".join(sorted(found.scopes)),
            user_id=found.user_id,
            name=found.name,
            avatar=found.avatar,
            expires_at=found.expires_at,
            trusted_until=found.trusted_until,
        )

    async def forget_token(self, token: str) -> None:
        """Drop what was kept of ``token`` (Discord refused it since)."""

        async def write(tx: Tx) -> None:
            await tx.execute(
                "DELETE FROM activity_tokens WHERE token_hash = ?", (token_hash(token),)
            )

        await self._driver.write(write, single=True)

    async def forget_untrusted_tokens(self) -> int:
        """Sweep the rows whose trust has run out; how many."""

        async def write(tx: Tx) -> int:
            return await tx.execute(
                "DELETE FROM activity_tokens WHERE trusted_until <= ?", (self._now(),)
            )

        return await self._driver.write(write, single=True)
