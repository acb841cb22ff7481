"""The tests' own PostgreSQL server (testbed/postgres.py, its fixtures in tests/postgres.py)
starts, answers, and gives each test a database of its own."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage.driver import Row, Tx
from bot.storage.postgres import POOL_SIZE, PostgresDriver
from testbed.games import HANG_GUARD
from testbed.postgres import SUPERUSER, PostgresServer


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


async def test_the_pool_hands_out_clean_connections_without_a_reset_query(
    postgres_url: str,
) -> None:
    """The driver skips asyncpg's reset query (a round trip a use): a write that failed half
    way is still rolled back before the one connection is used again, and a single-statement
    write cannot run a second statement outside a transaction."""
    driver = await PostgresDriver.open(postgres_url, pool_size=1)
    try:

        async def half_done(tx: Tx) -> None:
            await tx.execute("CREATE TABLE scratch (x INTEGER)")
            raise RuntimeError("failed after its first statement")

        with pytest.raises(RuntimeError):
            await driver.write(half_done)

        async def two(tx: Tx) -> None:
            await tx.execute("CREATE TABLE scratch (x INTEGER)")
            await tx.execute("INSERT INTO scratch VALUES (1)")

        with pytest.raises(AssertionError, match="second statement"):
            await driver.write(two, single=True)

        async def rows(tx: Tx) -> list[Row]:
            return await tx.fetchall("SELECT x FROM scratch")

        # The first write left nothing; the single one's first statement stood alone.
        assert await driver.read(rows) == []
    finally:
        await driver.close()


async def test_every_pooled_connection_is_ready_for_a_move_before_the_first_click(
    postgres_url: str,
) -> None:
    """Opening the storage prepares a move's write on each connection of the pool (a first
    use costs 10-30 ms, paid otherwise by a burst of clicks), and that preparation writes
    nothing."""
    storage = await Storage.open(postgres_url)
    try:
        prepared: list[list[str]] = []

        async def statements(tx: Tx) -> None:
            rows = await tx.fetchall("SELECT statement FROM pg_prepared_statements")
            prepared.append([str(row["statement"]) for row in rows])

        await storage._driver.on_each_connection(statements)
        assert len(prepared) == POOL_SIZE
        for found in prepared:
            assert any("append_actions" in text for text in found), found

        async def counts(tx: Tx) -> Row | None:
            return await tx.fetchone(
                "SELECT (SELECT count(*) FROM games) AS games, "
                "(SELECT count(*) FROM actions) AS actions"
            )

        row = await storage._driver.read(counts)
        assert row is not None and (row["games"], row["actions"]) == (0, 0)
    finally:
        await storage.close()


async def test_a_write_answers_before_its_connection_goes_back_to_the_pool(
    postgres_url: str,
) -> None:
    """The caller gets its answer first; the connection goes back to the pool in the
    background (awaited, asyncpg's release cost a move three more turns of a busy loop), is
    clean for the next user, and closing the storage waits for it."""
    driver = await PostgresDriver.open(postgres_url, pool_size=1)
    try:

        async def create(tx: Tx) -> None:
            await tx.execute("CREATE TABLE scratch (x INTEGER)")

        await driver.write(create)

        async def insert(tx: Tx) -> int:
            return await tx.execute("INSERT INTO scratch VALUES (1)")

        assert await driver.write(insert, single=True) == 1
        assert driver._releasing, "the release should still be on its way"
        assert driver._pool.get_idle_size() == 0
        await asyncio.gather(*driver._releasing)
        assert driver._pool.get_idle_size() == 1

        async def fails(tx: Tx) -> None:
            await tx.execute("INSERT INTO scratch VALUES (2)")
            raise RuntimeError("failed inside the transaction")

        with pytest.raises(RuntimeError):
            await driver.write(fails)

        async def rows(tx: Tx) -> list[int]:
            return [int(row["x"]) for row in await tx.fetchall("SELECT x FROM scratch")]

        # The one connection came back with the failed transaction rolled back.
        assert await driver.read(rows) == [1]
        assert await driver.write(insert, single=True) == 1
    finally:
        await driver.close()  # with a release still pending
    assert not driver._releasing


async def test_a_cancelled_write_gives_its_connection_back(postgres_url: str) -> None:
    driver = await PostgresDriver.open(postgres_url, pool_size=1)
    try:
        # Far longer than the guard below: the connection comes back only if the query was
        # cancelled on the server, not waited out.
        async def slow(tx: Tx) -> None:
            await tx.execute("SELECT pg_sleep(600)")

        task = asyncio.create_task(driver.write(slow))
        # Cancelled once the server runs it (seen from another connection).
        watcher = await asyncpg.connect(postgres_url)
        try:
            deadline = asyncio.get_running_loop().time() + HANG_GUARD
            while not await watcher.fetchval(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE state = 'active' AND query = 'SELECT pg_sleep(600)'"
            ):
                assert asyncio.get_running_loop().time() < deadline, "the query never ran"
                await asyncio.sleep(0.02)
        finally:
            await watcher.close()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

        async def one(tx: Tx) -> Row | None:
            return await tx.fetchone("SELECT 1 AS x")

        row = await asyncio.wait_for(driver.read(one), HANG_GUARD)
        assert row is not None and row["x"] == 1
    finally:
        await driver.close()
