"""The SQLite driver: one long-lived aiosqlite connection in WAL mode.

Every call is serialised, so a transaction opened by one task never interleaves with another
task's statements on the shared connection. The hot calls (a move, a deadline, a lobby's
seats, a server's settings) run their few statements on the event loop's own thread instead
of the connection's: a WAL commit with synchronous=NORMAL takes well under a millisecond,
while a trip to a worker thread and back waits for the GIL and a loop turn (milliseconds each
when the loop is busy, and every other game queues behind it). The other calls run on a worker
thread, and the loop serves other games meanwhile. Schema versions are SQLite's
``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from .driver import SQLITE, IntegrityViolation, Row, T, Work
from .migrations import Migration, check_version, load_migrations

log = logging.getLogger(__name__)

#: How often the checkpoint thread copies the write-ahead log into the database file.
CHECKPOINT_EVERY: float = 1.0


class _Checkpointer:
    """Copies the write-ahead log into the database from a thread of its own.

    SQLite's automatic checkpoint runs inside whichever COMMIT fills the log past 1,000 pages,
    and with synchronous=NORMAL it syncs the database file: on the loop's thread that stopped
    every game for 80-200 ms every few seconds at 200 games. A PASSIVE checkpoint on its own
    connection blocks neither readers nor the writer, and the sqlite3 module releases the GIL
    while it works."""

    def __init__(self, path: str, every: float = CHECKPOINT_EVERY) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(path, every), name="sqlite-checkpoint", daemon=True
        )
        self._thread.start()

    def _run(self, path: str, every: float) -> None:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA cache_size = -256")  # it only copies pages: keep its cache small
            while not self._stop.wait(every):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    log.warning("WAL checkpoint failed", exc_info=True)
        finally:
            conn.close()

    async def stop(self) -> None:
        self._stop.set()
        await asyncio.to_thread(self._thread.join)


async def _migrate(db: aiosqlite.Connection, migrations: Sequence[Migration]) -> int:
    rows = await db.execute_fetchall("PRAGMA user_version")
    current = int(next(iter(rows))[0])
    check_version(current, list(migrations))
    for migration in [m for m in migrations if m.version > current]:
        log.info("applying migration %s", migration.name)
        # executescript runs the whole file; BEGIN/COMMIT make file and version one step.
        # user_version lives in the database header, so it rolls back with the rest.
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n"
            f"PRAGMA user_version = {migration.version};\nCOMMIT;"
        )
        try:
            await db.executescript(script)
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
    return migrations[-1].version if migrations else 0


def _drive(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends to its end, without the event loop: the statements
    of a SQLite transaction, so nothing can interleave with them."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("storage work awaited something other than its own statements")


class _SqliteTx:
    """Statements on the sqlite3 connection; the coroutines never suspend (see _drive)."""

    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        row: Row | None = self._run(sql, params).fetchone()
        return row

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        rows: list[Row] = self._run(sql, params).fetchall()
        return rows

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return max(self._run(sql, params).rowcount, 0)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise IntegrityViolation(str(error)) from error

    async def lock_keys(self, keys: Iterable[str]) -> None:
        """Nothing to do: BEGIN IMMEDIATE made this the only writer."""

    def _run(self, sql: str, params: Sequence[object]) -> sqlite3.Cursor:
        try:
            return self._conn.execute(sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityViolation(str(error)) from error


def _transaction(conn: sqlite3.Connection, work: Work[T]) -> T:
    # IMMEDIATE takes the write lock up front, so reads made inside the transaction (counts,
    # current ratings) cannot go stale before the writes that rely on them.
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = _drive(work(_SqliteTx(conn)))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def _reading(conn: sqlite3.Connection, work: Work[T]) -> T:
    return _drive(work(_SqliteTx(conn)))


class SqliteDriver:
    """Runs the storage's work on one SQLite file. Build with ``await SqliteDriver.open(path)``."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, checkpointer: _Checkpointer | None) -> None:
        self._db = db
        self._checkpointer = checkpointer
        # Serialises the calls that run on a worker thread (they await while they work).
        self._lock = asyncio.Lock()
        # Set while no worker-thread call holds the connection: the calls run on the loop's
        # thread wait for it only, never behind each other (they cannot interleave anyway).
        self._idle = asyncio.Event()
        self._idle.set()

    @classmethod
    async def open(cls, path: Path) -> SqliteDriver:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves instead of sqlite3's guesses.
        # check_same_thread=False: hot calls run on the loop's thread, the others on a worker
        # thread, never at the same time (see _idle and _lock).
        db = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.row_factory = aiosqlite.Row
            rows = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            mode = str(next(iter(rows))[0])
            if mode != "wal" and str(path) != ":memory:":
                # e.g. a network file system: still correct, but readers block the writer.
                log.warning("SQLite refused WAL mode for %s (journal_mode=%s)", path, mode)
            # NORMAL is durable across application crashes in WAL mode; only a power cut
            # may lose the last commits, never corrupt the file.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            # Moves touch a few pages (the end of the actions index, the games' rows): a
            # 512 KB page cache holds them (SQLite's default is 2 MB).
            await db.execute("PRAGMA cache_size = -512")
            version = await _migrate(db, load_migrations("sqlite"))
            if mode == "wal":  # checkpoints off the loop's thread (see _Checkpointer)
                await db.execute("PRAGMA wal_autocheckpoint = 0")
                # The log restarts from its head once checkpointed; this trims the file a
                # burst of writes left large (46 MB seen under load) back to 4 MB.
                await db.execute("PRAGMA journal_size_limit = 4194304")
        except BaseException:
            await db.close()
            raise
        log.info("opened %s at schema v%d", path, version)
        return cls(db, _Checkpointer(str(path)) if mode == "wal" else None)

    async def close(self) -> None:
        async with self._held():
            await self._db.close()
        if self._checkpointer is not None:
            await self._checkpointer.stop()
            self._checkpointer = None

    @contextlib.asynccontextmanager
    async def _held(self) -> AsyncIterator[None]:
        """The connection for a call through a worker thread (it awaits while it works)."""
        async with self._lock:
            self._idle.clear()
            try:
                yield
            finally:
                self._idle.set()

    async def _run(
        self, run: Callable[[sqlite3.Connection, Work[T]], T], work: Work[T], hot: bool
    ) -> T:
        conn = self._db._conn
        if hot:
            # At once on the loop's thread as soon as no worker-thread call holds the
            # connection; waiting on an event, not in the lock's queue, it needs no loop turn
            # per call ahead of it. Keep hot work small: it holds the loop.
            while not self._idle.is_set():
                await self._idle.wait()
            return run(conn, work)
        async with self._held():
            done = asyncio.ensure_future(asyncio.to_thread(run, conn, work))
            try:
                return await asyncio.shield(done)
            except asyncio.CancelledError:
                # The thread cannot be stopped: keep the connection until it has finished,
                # or a hot call would run its statements inside this transaction.
                await asyncio.wait([done])
                raise

    async def write(self, work: Work[T], *, hot: bool = False, single: bool = False) -> T:
        return await self._run(_transaction, work, hot)

    async def read(self, work: Work[T], *, hot: bool = False) -> T:
        return await self._run(_reading, work, hot)

    async def on_each_connection(self, work: Work[None]) -> None:
        await self.read(work)  # one connection

    async def _pragma(self, name: str) -> str:
        async with self._held():
            rows = await self._db.execute_fetchall(f"PRAGMA {name}")
        return str(next(iter(rows))[0])

    async def schema_version(self) -> int:
        return int(await self._pragma("user_version"))

    async def journal_mode(self) -> str:
        return await self._pragma("journal_mode")
