"""What the storage's queries need from a database, and the two dialects' few differences.

The queries (games.py, results.py, settings.py, history.py) are written once against ``Tx``:
``?`` placeholders, columns read by name from a ``Row``. Each database has a thin driver
(sqlite.py, postgres.py) that runs a piece of work as one transaction or one read. A piece of
work awaits only its own statements, so SQLite's driver can run it without a loop turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .values import StorageError

T = TypeVar("T")


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class IntegrityViolation(StorageError):
    """The database refused a write that breaks one of its constraints (unique, check, the
    action log's order): the caller turns it into the error that explains it."""


class Row(Protocol):
    """A result row: columns by name (or position), as sqlite3.Row and asyncpg.Record give."""

    def __getitem__(self, key: str | int, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """Where the two databases' SQL must differ; everything else is written once."""

    name: str
    #: Appended to a SELECT of the game row that a transaction goes on to change. SQLite's
    #: BEGIN IMMEDIATE already holds the only write lock; PostgreSQL locks the row.
    for_update: str
    #: The smaller of two values (SQLite's scalar min, PostgreSQL's LEAST).
    least: str
    #: Appended to the SELECT of a shard's lease that fences a write: PostgreSQL holds the
    #: row so a takeover's UPDATE waits for the write's commit (SQLite: its one writer).
    for_share: str


SQLITE = Dialect("sqlite", for_update="", least="min", for_share="")
POSTGRESQL = Dialect("postgresql", for_update=" FOR UPDATE", least="LEAST", for_share=" FOR SHARE")


class Tx(Protocol):
    """One transaction (or one read) on one connection."""

    dialect: Dialect

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...

    async def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def lock_keys(self, keys: Iterable[str]) -> None:
        """Hold these names until the transaction ends, so two transactions that read and
        then write the same players' ratings run one after the other (PostgreSQL: advisory
        locks in a fixed order; SQLite: its one writer already does)."""
        ...


Work = Callable[[Tx], Coroutine[Any, Any, T]]


class Driver(Protocol):
    """A database the storage runs on."""

    dialect: Dialect

    async def write(self, work: Work[T], *, hot: bool = False, single: bool = False) -> T:
        """Run ``work`` as one transaction: all of it or none. ``hot`` marks the calls a move
        makes (SQLite runs those on the loop's own thread). ``single``: the work is one
        statement, atomic by itself, so PostgreSQL runs it without BEGIN and COMMIT (two round
        trips fewer; a move's writes wait on every round trip)."""
        ...

    async def read(self, work: Work[T], *, hot: bool = False) -> T: ...

    async def on_each_connection(self, work: Work[None]) -> None:
        """Run ``work`` once on every connection the driver holds (to prepare statements)."""
        ...

    async def schema_version(self) -> int: ...

    async def journal_mode(self) -> str | None:
        """SQLite's journal mode; None on a database without one."""
        ...

    async def close(self) -> None: ...


class TimedDriver:
    """A driver that reports how long each write transaction took (e.g. to a histogram)."""

    def __init__(self, inner: Driver, observe: Callable[[float], None]) -> None:
        self.dialect = inner.dialect
        self._inner = inner
        self._observe = observe

    async def write(self, work: Work[T], *, hot: bool = False, single: bool = False) -> T:
        started = time.perf_counter()
        try:
            return await self._inner.write(work, hot=hot, single=single)
        finally:
            self._observe(time.perf_counter() - started)

    async def read(self, work: Work[T], *, hot: bool = False) -> T:
        return await self._inner.read(work, hot=hot)

    async def on_each_connection(self, work: Work[None]) -> None:
        await self._inner.on_each_connection(work)

    async def schema_version(self) -> int:
        return await self._inner.schema_version()

    async def journal_mode(self) -> str | None:
        return await self._inner.journal_mode()

    async def close(self) -> None:
        await self._inner.close()


class Queries:
    """What every group of queries shares: the driver and the clock."""

    _driver: Driver
    _now: Callable[[], float]

    async def _put(self, table: str, key: str, key_value: object, /, **columns: object) -> None:
        """Write the row of ``table`` whose ``key`` is ``key_value``: inserted with ``columns``,
        or, where it stands, those columns replaced (one statement on both databases)."""
        names = [key, *columns]
        sql = (
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
            f" ON CONFLICT ({key}) DO UPDATE"
            f" SET {', '.join(f'{name} = excluded.{name}' for name in columns)}"
        )

        async def write(tx: Tx) -> None:
            await tx.execute(sql, (key_value, *columns.values()))

        await self._driver.write(write)

    async def _game_write(self, steps: Work[T], function: Work[T]) -> T:
        """A write of a game in play (hot): on PostgreSQL its stored function, called in one
        round trip (``single``); elsewhere its steps, in one transaction."""
        if self._driver.dialect is POSTGRESQL:
            return await self._driver.write(function, hot=True, single=True)
        return await self._driver.write(steps, hot=True)
