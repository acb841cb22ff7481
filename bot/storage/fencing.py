"""Fenced writes (issue 32): a game's write from a sharded process goes through only while the
lease it was made under is still its shard's current one.

A process that lost a shard's lease (it stalled past the lease, its database connection
dropped) may not know yet; a newer holder already runs the shard's games. Each write of a
game carries the writer's ``Fence`` and checks it in the same transaction as the write, so
such a late write is refused whole and the new holder's state is the only one."""

from __future__ import annotations

from .driver import Tx
from .values import Fence, FencedOut, GameNotFound

#: The condition a fenced statement adds: the lease still has the writer's epoch. PostgreSQL
#: holds the lease's row (FOR SHARE) to the commit, so a takeover (an UPDATE of that row)
#: waits for the write and then restores what it wrote; SQLite's one writer does the same.
CURRENT_LEASE = "EXISTS (SELECT 1 FROM shard_leases WHERE shard_id = ? AND epoch = ?{lock})"


def current_lease(tx: Tx) -> str:
    return CURRENT_LEASE.format(lock=tx.dialect.for_share)


async def check_fence(tx: Tx, game_id: int, fence: Fence | None) -> None:
    """Raise FencedOut unless ``fence`` is None (no shards) or still the current lease; the
    first statement of a write's transaction."""
    if fence is None:
        return
    row = await tx.fetchone(f"SELECT {current_lease(tx)} AS current", (fence.shard_id, fence.epoch))
    if row is None or not row["current"]:
        raise FencedOut(game_id, fence)


async def locked_status(tx: Tx, game_id: int) -> str:
    """The game's status, its row locked until the transaction ends (PostgreSQL): what a
    write of the game checks after its fence, before it writes."""
    row = await tx.fetchone(
        f"SELECT status FROM games WHERE id = ?{tx.dialect.for_update}", (game_id,)
    )
    if row is None:
        raise GameNotFound(game_id)
    return str(row["status"])


def fence_values(fence: Fence | None) -> tuple[int | None, int | None]:
    """A fence as the PostgreSQL functions take it: (shard, epoch), or NULLs: not fenced."""
    return (None, None) if fence is None else (fence.shard_id, fence.epoch)
