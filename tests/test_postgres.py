"""The tests' own PostgreSQL server (tests/postgres.py) starts, answers, and gives each test a
database of its own."""

from __future__ import annotations

import asyncpg

from tests.postgres import SUPERUSER, PostgresServer


async def test_the_server_answers_on_loopback(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    assert postgres_server.host == "127.0.0.1"
    conn = await asyncpg.connect(postgres_url)
    try:
        version = await conn.fetchval("SHOW server_version_num")
        assert int(version) >= 130000
        assert await conn.fetchval("SELECT current_user") == SUPERUSER
        # A fresh database: no tables of a previous test.
        tables = await conn.fetchval(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        )
        assert tables == 0
        await conn.execute("CREATE TABLE scratch (x INTEGER)")
    finally:
        await conn.close()


async def test_each_test_gets_its_own_database(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT to_regclass('scratch') IS NULL")
    finally:
        await conn.close()
