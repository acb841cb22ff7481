"""The tests' PostgreSQL fixtures (a pytest plugin, tests/conftest.py): one throwaway server
for the whole session (testbed/postgres.py), a fresh database on it for each test."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from testbed.postgres import PostgresServer, running_server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    with running_server() as server:
        yield server


_database_numbers = itertools.count(1)


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server for one test; dropped afterwards."""
    name = f"test_{os.getpid()}_{next(_database_numbers)}"
    yield await postgres_server.create(name)
    admin = await asyncpg.connect(postgres_server.url("postgres"))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
