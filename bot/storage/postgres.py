"""The PostgreSQL driver: an asyncpg pool, so several bot processes can share one database.

A write is one transaction on one pooled connection; a read is its statements on one
connection without a transaction (each statement sees committed data). The queries' ``?``
placeholders become PostgreSQL's ``$1, $2...``. Schema versions are kept in a one-row table
``schema_version``, and migrations run under an advisory lock, so processes starting together
apply each migration once.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

import asyncpg

from .driver import POSTGRESQL, IntegrityViolation, Row, T, Work
from .migrations import check_version, load_migrations

log = logging.getLogger(__name__)

#: The advisory lock held while migrating (any fixed number; "nines" in ASCII).
_MIGRATION_LOCK = 0x6E696E6573

#: Connections per process at most (opened as needed): a game's moves are serialised by its
#: own lock, but 200 games clicking at once queued for 8 connections (p99 click to answer
#: 415 ms against 95 ms with 32, bench/load.py). PostgreSQL's default allows 100 in all.
POOL_SIZE = 32

#: The durability SQLite has with synchronous=NORMAL: a commit returns once PostgreSQL has it,
#: without waiting for its log to reach the disk. A crash of the bot loses nothing; a crash of
#: the database server or its machine may lose the last fraction of a second of commits, never
#: corrupt anything. Waiting for the disk made each move wait for an fsync (p50 78 ms per
#: move's write at 200 games on this machine's disk).
SESSION_SETTINGS = {"synchronous_commit": "off"}

_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``?`` placeholders as ``$1, $2, ...`` (the queries have no ``?`` inside a literal)."""
    counter = itertools.count(1)
    return _PLACEHOLDER.sub(lambda _match: f"${next(counter)}", sql)


def _rowcount(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 3", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTx:
    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.pool.PoolConnectionProxy[Any]) -> None:
        self._conn = conn

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        try:
            row: Row | None = await self._conn.fetchrow(_numbered(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityViolation(str(error)) from error
        return row

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            rows: list[Row] = list(await self._conn.fetch(_numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityViolation(str(error)) from error
        return rows

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        try:
            return _rowcount(await self._conn.execute(_numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityViolation(str(error)) from error

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            await self._conn.executemany(_numbered(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityViolation(str(error)) from error

    async def lock_keys(self, keys: Iterable[str]) -> None:
        # One order for every transaction, so two of them never wait for each other in a ring.
        for key in sorted(set(keys)):
            await self._conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class _SingleStatementTx(_PostgresTx):
    """A write of one statement, run without a transaction block: PostgreSQL makes a lone
    statement atomic. A second statement would commit apart from the first, so it is refused."""

    def __init__(self, conn: asyncpg.pool.PoolConnectionProxy[Any]) -> None:
        super().__init__(conn)
        self._used = False

    def _once(self) -> None:
        if self._used:
            raise AssertionError("a single-statement write ran a second statement")
        self._used = True

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        self._once()
        return await super().fetchone(sql, params)

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        self._once()
        return await super().fetchall(sql, params)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        self._once()
        return await super().execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        raise AssertionError("executemany is several statements: use write()")

    async def lock_keys(self, keys: Iterable[str]) -> None:
        raise AssertionError("a lock outside a transaction would be released at once")


async def _keep_session(conn: asyncpg.Connection[Any]) -> None:
    """What the pool does to a connection it takes back, instead of asyncpg's reset query: one
    more round trip after every use, and a move's writes wait on each. Nothing needs it: no
    LISTEN, no cursors, no session advisory locks (transaction ones only), no SET after
    connecting. asyncpg still rolls back a transaction left open before calling this."""


class PostgresDriver:
    """Runs the storage's work on PostgreSQL. Build with ``await PostgresDriver.open(url)``."""

    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool[Any]) -> None:
        self._pool = pool
        self._releasing: set[asyncio.Task[None]] = set()

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresDriver:
        """Connect to ``url`` (postgresql://user:pass@host:port/db) and migrate its schema."""
        pool: asyncpg.Pool[Any] = await asyncpg.create_pool(
            url,
            # All opened at once: a connection's first use of a statement costs 10-30 ms
            # (see ``on_each_connection``), and a pool that grows during a burst pays it then.
            min_size=pool_size,
            max_size=pool_size,
            command_timeout=60,
            server_settings=SESSION_SETTINGS,
            reset=_keep_session,
        )
        try:
            async with pool.acquire() as conn:
                version = await _migrate(conn)
        except BaseException:
            await pool.close()
            raise
        log.info("opened PostgreSQL at schema v%d", version)
        return cls(pool)

    async def write(self, work: Work[T], *, hot: bool = False, single: bool = False) -> T:
        conn = await self._pool.acquire()
        try:
            if single:
                return await work(_SingleStatementTx(conn))
            async with conn.transaction():
                return await work(_PostgresTx(conn))
        finally:
            self._release(conn)

    async def read(self, work: Work[T], *, hot: bool = False) -> T:
        conn = await self._pool.acquire()
        try:
            return await work(_PostgresTx(conn))
        finally:
            self._release(conn)

    def _release(self, conn: asyncpg.pool.PoolConnectionProxy[Any]) -> None:
        """Give ``conn`` back to the pool after the caller has its answer. Awaited, asyncpg's
        release costs three turns of the event loop, and on a busy loop each turn is every
        other game's work (bench/loop_turns.py: a move's write took 6 turns, the statement 3).
        A transaction is over by now (committed, or rolled back by its context); the pool
        rolls back anything left open all the same."""
        task = asyncio.get_running_loop().create_task(self._pool.release(conn))
        self._releasing.add(task)
        task.add_done_callback(self._released)

    def _released(self, task: asyncio.Task[None]) -> None:
        self._releasing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a connection could not go back to the pool", exc_info=task.exception())

    async def on_each_connection(self, work: Work[None]) -> None:
        """The pool hands out its most recently used connection first, so the rest see their
        first use of a statement (prepare, asyncpg's look-up of the array types, compiling a
        plpgsql function: 10-30 ms, measured in bench/load.py's tail) only when a burst of
        clicks needs them all at once: run ``work`` on each of them ahead of that."""
        held: list[asyncpg.pool.PoolConnectionProxy[Any]] = []
        try:
            for _ in range(self._pool.get_max_size()):
                held.append(await self._pool.acquire())
            await asyncio.gather(*(work(_PostgresTx(conn)) for conn in held))
        finally:
            for conn in held:
                await self._pool.release(conn)

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return int(await conn.fetchval("SELECT version FROM schema_version"))

    async def journal_mode(self) -> str | None:
        return None

    async def close(self) -> None:
        if self._releasing:
            await asyncio.gather(*self._releasing, return_exceptions=True)
        await self._pool.close()


async def _migrate(conn: asyncpg.pool.PoolConnectionProxy[Any]) -> int:
    """Apply the pending migrations, each in one transaction with its version number."""
    migrations = load_migrations("postgresql")
    for migration in [None, *migrations]:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            current = await conn.fetchval("SELECT version FROM schema_version")
            if current is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            check_version(current, migrations)
            if migration is None or migration.version <= current:
                continue
            log.info("applying migration %s", migration.name)
            await conn.execute(migration.sql)
            await conn.execute("UPDATE schema_version SET version = $1", migration.version)
    return migrations[-1].version if migrations else 0
