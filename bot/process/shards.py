"""A sharded bot (SHARD_COUNT): several processes on one database, each serving the gateway
shards it holds a lease on.

A lease (storage's shards.py) is taken with a conditional write and renewed every
RENEW_EVERY seconds for LEASE_SECONDS. A process takes the shards of SHARD_IDS (all of them
when unset) that are free, and any other shard whose lease expired (its owner died); it
restores a shard's games before it IDENTIFYs for it, so the first click finds them. A
process whose renewal fails lets the shard go: it closes the shard's connection and stops
running its games. A process that finds one of its SHARD_IDS held by another asks for it
(``wanted_by``), and the holder hands it back (letting it go first), so a restarted process
gets its own shards again. IDENTIFYs of every process go through one slot per ``max_concurrency``
bucket in the database, IDENTIFY_SPACING seconds apart, as Discord requires.

Each new holder of a shard gets the lease's next epoch: every write of the shard's games
carries it (``fence``) and the database refuses it once a newer holder has the shard
(storage's fencing.py), and a process answers a shard's clicks only while its lease is
surely held (``sure_until``), so one that stalled past its lease neither writes nor answers.
A lost connection whose lease is still held RESUMEs (bot.discord_internals' shard), never
spending an IDENTIFY.

An unsharded bot (SHARD_COUNT unset) never loads this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any, Final

from discord.ext import commands

from ..app import NinesBot
from ..base import Settings, discord_internals
from ..game import Computers
from ..storage import Fence, Storage

log = logging.getLogger(__name__)

#: How long a lease lasts without renewal, and how often it is renewed.
LEASE_SECONDS: Final = 15.0
RENEW_EVERY: Final = 5.0
#: Discord's spacing of two IDENTIFYs in one max_concurrency bucket (5 s), and a margin for
#: the time from a slot to its IDENTIFY reaching Discord (one arrived 0.3 ms early without).
IDENTIFY_SPACING: Final = 5.5


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's formula: the shard whose session gets a guild's events."""
    return (guild_id >> 22) % shard_count


class ShardLeases:
    """This process's leases on the database: which shards it holds, and the changes at each
    renewal."""

    def __init__(
        self,
        storage: Storage,
        count: int,
        wanted: tuple[int, ...],
        *,
        lease: float = LEASE_SECONDS,
    ) -> None:
        self.storage = storage
        self.count = count
        self.wanted = frozenset(wanted)
        self.lease = lease
        self.owner = secrets.token_hex(8)
        self.held: frozenset[int] = frozenset()
        #: The fencing token of each shard held (storage's ShardLease.epoch).
        self.epochs: dict[int, int] = {}
        #: time.monotonic() until which the held leases are surely ours.
        self.sure_until = 0.0
        #: When the first lease of another process runs out (Unix time; inf: none), so the
        #: next renewal can come right then and take its shard over at once.
        self.next_expiry = float("inf")

    def serves(self, guild_id: int) -> bool:
        """The guild's shard is held, surely: past ``sure_until`` (a renewal late, the
        process stalled) the lease may have passed to another process, which answers the
        shard's clicks; this one waits for its renewal to know."""
        return shard_of(guild_id, self.count) in self.held and time.monotonic() < self.sure_until

    def fence(self, guild_id: int) -> Fence | None:
        """The lease of the guild's shard, stamped on its games' writes; None if not held
        (a write under it is refused: no lease has epoch -1)."""
        shard_id = shard_of(guild_id, self.count)
        return Fence(shard_id, self.epochs.get(shard_id, -1) if shard_id in self.held else -1)

    async def renew(self) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        """Renew what is held, take the wanted shards that are free and the others whose
        lease expired, ask for the wanted ones another process holds; returns (gained, lost,
        asked back: held shards another process wants, its SHARD_IDS)."""
        started = time.monotonic()
        held = await self.storage.take_shards(self.held | self.wanted, self.owner, self.lease)
        now = time.time()
        leases = await self.storage.shard_leases()
        others = {s: lease for s, lease in leases.items() if lease.owner != self.owner}
        orphans = {s for s, lease in others.items() if s < self.count and lease.expires_at <= now}
        self.next_expiry = min(
            (lease.expires_at for lease in others.values() if lease.expires_at > now),
            default=float("inf"),
        )
        epochs = {s: leases[s].epoch for s in held if s in leases}
        if orphans:
            taken = await self.storage.take_shards(orphans, self.owner, self.lease)
            # A new holder: the conditional write moved each one to its next epoch.
            epochs |= {s: others[s].epoch + 1 for s in taken}
            held |= taken
        if self.wanted - held:
            await self.storage.want_shards(self.wanted - held, self.owner)
        # Only shards held before this renewal: taking an orphan cleared its request to be
        # handed back (its owner changed), so the stale one read above must not make this
        # process let it go unserved while its lease stays this process's, nor take it over
        # and hand it back in one go.
        asked = frozenset(
            s
            for s in (held & self.held) - self.wanted
            if s in leases and leases[s].wanted_by not in (None, self.owner)
        )
        before, self.held = self.held, frozenset(held)
        # Held before and now but under a newer epoch: the lease ran out and another process
        # held the shard in between; the games it ran here are stale, so lost and gained.
        moved = frozenset(s for s in before & self.held if self.epochs.get(s) != epochs.get(s))
        self.epochs = {s: e for s, e in epochs.items() if s in self.held}
        self.sure_until = started + self.lease
        return (self.held - before) | moved, (before - self.held) | moved, asked

    async def hand_back(self, shard_ids: frozenset[int]) -> None:
        """Give these shards (no longer held nor served) to the processes that asked."""
        for shard_id in sorted(shard_ids):
            await self.storage.hand_over(shard_id, self.owner, self.lease)

    def expire(self) -> frozenset[int]:
        """The renewal failed (the database is away): once the leases may have expired,
        another process may serve the shards, so this one lets them all go."""
        if time.monotonic() < self.sure_until:
            return frozenset()
        lost, self.held = self.held, frozenset()
        return lost

    async def release(self) -> None:
        """A clean stop: the shards are free for another process at once."""
        held, self.held = self.held, frozenset()
        if held:
            await self.storage.release_shards(held, self.owner)


class ShardedNinesBot(NinesBot, commands.AutoShardedBot):
    """The bot as one of several processes: discord.py's AutoShardedBot started only on the
    shards this process holds a lease on, more as it takes over, fewer as it loses them."""

    def __init__(self, settings: Settings, storage: Storage, computers: Computers) -> None:
        count = settings.shard_count
        assert count is not None
        wanted = settings.shard_ids if settings.shard_ids is not None else tuple(range(count))
        self.leases = ShardLeases(storage, count, wanted)
        self.serves = self.leases.serves
        self._max_concurrency = 1
        self._keeper: asyncio.Task[None] | None = None
        self._changing = asyncio.Lock()
        self._fencing: set[asyncio.Task[None]] = set()
        super().__init__(settings, storage, computers, shard_count=count, shard_ids=[])

    def fence(self, guild_id: int) -> Fence | None:
        return self.leases.fence(guild_id)

    def fenced_out(self, fence: Fence) -> None:
        """A game's write under ``fence`` was refused: if that is the lease this process
        believes it holds, another process has the shard, so stop serving it now rather than
        at the next renewal (meanwhile its clicks would be answered here as well). Under an
        older epoch than the one held, only that session was stale (renew's ``moved``)."""
        shard_id = fence.shard_id
        if shard_id not in self.leases.held or self.leases.epochs.get(shard_id) != fence.epoch:
            return
        log.warning("a write on shard %d was refused: its lease is gone", shard_id)
        self.leases.held -= {shard_id}
        task = asyncio.create_task(self._fenced_out(shard_id), name="fenced-out")
        self._fencing.add(task)
        task.add_done_callback(self._fencing.discard)

    async def _fenced_out(self, shard_id: int) -> None:
        async with self._changing:
            await self._let_go(frozenset({shard_id}))

    async def setup_hook(self) -> None:
        # The leases first: the cog restores the games of the shards held.
        if not self.leases.held:
            await self.leases.renew()
        log.info("shards held at start: %s of %d", sorted(self.leases.held), self.leases.count)
        await super().setup_hook()

    async def launch_shards(self) -> None:
        """Connect the shards held (not SHARD_IDS: some may be another process's), then keep
        the leases. Overrides an undocumented step (listed in bot.discord_internals)."""
        if self.is_closed():
            return
        limits = await self.fetch_session_start_limits()
        self._max_concurrency = max(1, limits.max_concurrency)
        await self._launch(sorted(self.leases.held))
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep_leases(), name="shard-leases")

    async def _launch(self, shard_ids: list[int]) -> None:
        self.shard_ids = sorted({*(self.shard_ids or []), *shard_ids})
        discord_internals.set_shards(self, self.shard_count, self.shard_ids)
        for shard_id in shard_ids:
            await discord_internals.launch_shard(self, shard_id)
            # Its lease may have gone while the connection was being made (launch_shard
            # waits for the IDENTIFY slot): a session never stays on a shard not held.
            self._fence(shard_id)

    def _fence(self, shard_id: int | None) -> None:
        """Close at once a connection on a shard this process does not hold: Discord sends
        every event of a shard to each session identified on it
        (https://discord.com/developers/docs/events/gateway#sharding), so it would answer
        clicks for the shard's holder."""
        if shard_id is None or shard_id in self.leases.held:
            return
        shard = self.get_shard(shard_id)
        if shard is not None:
            log.warning("closing the connection of shard %d, not held", shard_id)
            task = asyncio.create_task(shard.disconnect(), name=f"fence-shard-{shard_id}")
            self._fencing.add(task)
            task.add_done_callback(self._fencing.discard)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # READY parsed for a shard (discord.py dispatches shard_connect there, also after a
        # reconnect of its own), or RESUMED (shard_resumed): if the shard was handed back
        # meanwhile, close it before its events are acted on.
        if event_name in ("shard_connect", "shard_resumed") and args and isinstance(args[0], int):
            self._fence(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this bucket's next IDENTIFY slot, shared by every process."""
        bucket = (shard_id or 0) % self._max_concurrency
        at = await self.storage.reserve_identify(bucket, IDENTIFY_SPACING)
        delay = at - time.time()
        if delay > 0:
            log.info("shard %s identifies in %.1f s (bucket %d)", shard_id, delay, bucket)
            await asyncio.sleep(delay)

    async def _keep_leases(self) -> None:
        while not self.is_closed():
            # Every RENEW_EVERY seconds, or just after another process's lease runs out.
            expiry = self.leases.next_expiry - time.time() + 0.05
            await asyncio.sleep(max(0.05, min(RENEW_EVERY, expiry)))
            try:
                gained, lost, asked = await self.leases.renew()
            except Exception:
                log.warning("could not renew the shard leases", exc_info=True)
                gained, lost, asked = frozenset(), self.leases.expire(), frozenset()
            async with self._changing:
                if lost:
                    log.warning("lost the lease of shard(s) %s", sorted(lost))
                    await self._let_go(lost)
                if asked:
                    # Back to the process whose SHARD_IDS they are: it came back.
                    log.warning("handing shard(s) %s back", sorted(asked))
                    self.leases.held -= asked
                    await self._let_go(asked)
                    await self.leases.hand_back(asked)
                if gained:
                    await self._take_over(gained)

    async def _let_go(self, shard_ids: frozenset[int]) -> None:
        log.info("no longer serving shard(s) %s", sorted(shard_ids))
        for shard_id in shard_ids:
            shard = self.get_shard(shard_id)
            if shard is not None:
                with contextlib.suppress(Exception):
                    await shard.disconnect()
        self.shard_ids = [s for s in self.shard_ids or [] if s not in shard_ids]
        discord_internals.set_shards(self, self.shard_count, self.shard_ids)
        # By shard, not by what is held: a shard held again under a newer epoch (``moved``
        # in renew) drops its stale games too, and _take_over restores them.
        self.sessions.let_go(
            lambda guild_id: shard_of(guild_id, self.leases.count) not in shard_ids
        )

    async def _take_over(self, shard_ids: frozenset[int]) -> None:
        """A shard whose owner died (or that was free): its games first, then its session,
        then their channels told (overdue timers run at once)."""
        started = time.monotonic()
        # Its servers' settings may have changed while another process served them.
        self.storage.forget_guild_settings()
        restored = await self.sessions.restore(self.leases.serves)
        ready = [self.wait_for("shard_ready", check=lambda s: s in shard_ids) for _ in shard_ids]
        waiting = [asyncio.ensure_future(r) for r in ready]
        await self._launch(sorted(shard_ids))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*waiting), 30)
        log.warning(
            "took over shard(s) %s with %d game(s) in %.2f s",
            sorted(shard_ids),
            len(restored),
            time.monotonic() - started,
        )
        if restored:
            self.announce_restored(restored)

    def gateway_open(self) -> bool:
        """Every shard held is connected (none held: a healthy standby, ready to take over)."""
        shards = self.shards
        return all(s in shards and not shards[s].is_closed() for s in self.leases.held)

    async def close_gateway(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
        for shard in self.shards.values():
            with contextlib.suppress(Exception):
                await shard.disconnect()

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
        with contextlib.suppress(Exception):
            await self.leases.release()
        await super().close()


__all__ = ["IDENTIFY_SPACING", "LEASE_SECONDS", "RENEW_EVERY", "ShardLeases", "ShardedNinesBot"]
