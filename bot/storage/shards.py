"""Shard leases and IDENTIFY slots: what several bot processes on one database coordinate.

Only a sharded bot (SHARD_COUNT) calls these; a single process never does."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .driver import Queries, Tx


@dataclass(frozen=True, slots=True)
class ShardLease:
    owner: str  # a process's random id
    expires_at: float  # Unix time
    wanted_by: str | None  # a process that asked for the shard back
    #: The fencing token: one more for each new holder, the same across its renewals.
    epoch: int = 0


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
                    "INSERT INTO shard_leases (shard_id, owner, expires_at, epoch)"
                    " VALUES (?, ?, ?, 1)"
                    " ON CONFLICT (shard_id) DO UPDATE"
                    " SET owner = excluded.owner, expires_at = excluded.expires_at,"
                    " epoch = CASE WHEN shard_leases.owner = excluded.owner"
                    " THEN shard_leases.epoch ELSE shard_leases.epoch + 1 END,"
                    # A request to hand the shard back stands until its owner changes.
                    " wanted_by = CASE WHEN shard_leases.owner = excluded.owner"
                    " THEN shard_leases.wanted_by END"
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

    async def shard_leases(self) -> dict[int, ShardLease]:
        """Every lease, by shard."""

        async def read(tx: Tx) -> dict[int, ShardLease]:
            rows = await tx.fetchall(
                "SELECT shard_id, owner, expires_at, wanted_by, epoch FROM shard_leases"
            )
            return {
                int(r["shard_id"]): ShardLease(
                    str(r["owner"]), float(r["expires_at"]), r["wanted_by"], int(r["epoch"])
                )
                for r in rows
            }

        return await self._driver.read(read)

    async def want_shards(self, shard_ids: Iterable[int], owner: str) -> None:
        """Ask whoever holds these shards to hand them to ``owner`` (its SHARD_IDS)."""
        ids = sorted(set(shard_ids))

        async def write(tx: Tx) -> None:
            for shard_id in ids:
                await tx.execute(
                    "UPDATE shard_leases SET wanted_by = ? WHERE shard_id = ? AND owner <> ?",
                    (owner, shard_id, owner),
                )

        await self._driver.write(write)

    async def hand_over(self, shard_id: int, owner: str, seconds: float) -> bool:
        """Give ``owner``'s lease of a shard to the process that asked for it, for ``seconds``
        (it renews it as its own); False if nobody asked or ``owner`` no longer holds it."""
        now = self._now()

        async def write(tx: Tx) -> int:
            return await tx.execute(
                "UPDATE shard_leases SET owner = wanted_by, wanted_by = NULL, expires_at = ?,"
                " epoch = epoch + 1"
                " WHERE shard_id = ? AND owner = ? AND wanted_by IS NOT NULL",
                (now + seconds, shard_id, owner),
            )

        return await self._driver.write(write) == 1

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
