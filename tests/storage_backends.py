"""The storage tests' backends: each test that takes ``backend`` runs once on a SQLite file and
once on a fresh database of the tests' own PostgreSQL server (tests/postgres.py)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage.postgres import _numbered

#: What each database raises when a raw write breaks a constraint or a trigger's guard.
RAW_INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


#: Connections a test's PostgreSQL storage keeps (the bot's default is 32): each opens a
#: server process, and 32 of them made opening a storage cost ~0.15 s of the server's CPU,
#: paid several times by each of the ~70 PostgreSQL tests. With 4, a test's concurrent writes
#: beyond 4 wait their turn for a connection, as on a busy bot.
TEST_POOL_SIZE = 4


@dataclass(frozen=True, slots=True)
class Backend:
    name: str  # "sqlite" or "postgresql"
    target: str  # a SQLite file's path or a PostgreSQL URL

    async def open(self, now: Callable[[], float] = time.time) -> Storage:
        if self.name == "postgresql":
            return await Storage.open(self.target, now=now, pool_size=TEST_POOL_SIZE)
        return await Storage.open(Path(self.target), now=now)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        """One raw statement (``?`` placeholders) on a connection of its own, committed: what
        another program writing to the database would do."""
        if self.name == "sqlite":
            raw = sqlite3.connect(self.target)
            try:
                raw.execute(sql, params)
                raw.commit()
            finally:
                raw.close()
            return
        conn = await asyncpg.connect(self.target)
        try:
            await conn.execute(_numbered(sql), *params)
        finally:
            await conn.close()

    async def column(self, sql: str) -> list[Any]:
        """The first column of a raw query's rows."""
        if self.name == "sqlite":
            raw = sqlite3.connect(self.target)
            try:
                return [row[0] for row in raw.execute(sql)]
            finally:
                raw.close()
        conn = await asyncpg.connect(self.target)
        try:
            return [row[0] for row in await conn.fetch(sql)]
        finally:
            await conn.close()

    async def tables(self) -> set[str]:
        if self.name == "sqlite":
            return set(await self.column("SELECT name FROM sqlite_master WHERE type = 'table'"))
        return set(
            await self.column(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        )

    async def indexes(self) -> set[str]:
        if self.name == "sqlite":
            return set(await self.column("SELECT name FROM sqlite_master WHERE type = 'index'"))
        return set(
            await self.column("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")
        )


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", str(tmp_path / "nines.sqlite3"))
    # Asked for here, not in the signature: a SQLite-only run starts no server.
    return Backend("postgresql", request.getfixturevalue("postgres_url"))
