"""Shard leases and IDENTIFY slots: what several bot processes on one database coordinate.

Only a sharded bot (SHARD_COUNT) calls these; a single process never does."""

from __future__ import annotations

from collections.abc import Iterable

from .driver import Queries, Tx


class ShardQueries(Queries):
    async def take_shards(self, shard_ids: Iterable[int], owner: str, seconds: float) -> set[int]:
        """Take or renew the lease of each shard that is free, expired or already ``owner``'s,
        until ``seconds`` from now, in one transaction; returns the shards ``owner`` holds.
        A conditional write: of two processes racing for a shard, one gets it."""
        now = self._now()
        wanted = sorted(set(shard_ids))

        async def write(tx: Tx) -> set[int]:
            held = set()
            for shard_id in wanted:
                changed = await tx.execute(
                    "INSERT INTO shard_leases (shard_id, owner, expires_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (shard_id) DO UPDATE"
                    " SET owner = excluded.owner, expires_at = excluded.expires_at"
                    " WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at <= ?",
                    (shard_id, owner, now + seconds, now),
                )
                if changed:
                    held.add(shard_id)
            return held

        return await self._driver.write(write)

    async def release_shards(self, shard_ids: Iterable[int], owner: str) -> None:
        """Give up ``owner``'s leases of these shards (a clean stop): expired, so another
        process takes them (and their games) at once."""
        ids = sorted(set(shard_ids))

        async def write(tx: Tx) -> None:
            for shard_id in ids:
                await tx.execute(
                    "UPDATE shard_leases SET expires_at = 0 WHERE shard_id = ? AND owner = ?",
                    (shard_id, owner),
                )

        await self._driver.write(write)

    async def shard_leases(self) -> dict[int, tuple[str, float]]:
        """Every lease: shard -> (owner, expiry as Unix time)."""

        async def read(tx: Tx) -> dict[int, tuple[str, float]]:
            rows = await tx.fetchall("SELECT shard_id, owner, expires_at FROM shard_leases")
            return {int(r["shard_id"]): (str(r["owner"]), float(r["expires_at"])) for r in rows}

        return await self._driver.read(read)

    async def reserve_identify(self, bucket: int, spacing: float) -> float:
        """Reserve the next IDENTIFY moment of a bucket (Unix time, now at the earliest), the
        following one ``spacing`` seconds later, for every process sharing the database."""
        now = self._now()

        async def write(tx: Tx) -> float:
            # The row exists before it is locked, so two first reservations queue on it too.
            await tx.execute(
                "INSERT INTO identify_slots (bucket, next_at) VALUES (?, ?)"
                " ON CONFLICT (bucket) DO NOTHING",
                (bucket, 0.0),
            )
            row = await tx.fetchone(
                "SELECT next_at FROM identify_slots WHERE bucket = ?" + tx.dialect.for_update,
                (bucket,),
            )
            at = max(now, float(row["next_at"])) if row is not None else now
            await tx.execute(
                "UPDATE identify_slots SET next_at = ? WHERE bucket = ?", (at + spacing, bucket)
            )
            return at

        return await self._driver.write(write)
