"""Server settings and the bot's own small facts (meta)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import TypeVar, cast

from .driver import SQLITE, Queries, Tx
from .values import SettingValue

T = TypeVar("T")


class SettingsQueries(Queries):
    """Server settings are cached in memory; only set_guild_settings writes them."""

    _settings: dict[int, dict[str, SettingValue]]  # guild -> stored settings
    _locks: dict[str, asyncio.Lock]  # one_at_a_time's, on SQLite

    async def get_guild_settings(self, guild_id: int) -> dict[str, SettingValue]:
        """The guild's stored settings; an empty dict when it never changed any."""
        cached = self._settings.get(guild_id)
        if cached is None:

            async def read(tx: Tx) -> dict[str, SettingValue]:
                row = await tx.fetchone(
                    "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
                )
                return {} if row is None else cast(dict[str, SettingValue], json.loads(row[0]))

            cached = self._settings[guild_id] = await self._driver.read(read, hot=True)
        return dict(cached)  # a copy: callers may change theirs

    def forget_guild_settings(self) -> None:
        """Drop the cache: another process may have written settings meanwhile (a sharded bot
        that takes over a shard it served before)."""
        self._settings.clear()

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, SettingValue]) -> None:
        """Replace the guild's settings with ``settings`` (validated by the caller)."""
        text = json.dumps(dict(settings), sort_keys=True)
        await self._put(
            "guild_settings", "guild_id", guild_id, settings=text, updated_at=self._now()
        )
        self._settings[guild_id] = json.loads(text)

    async def get_meta(self, key: str) -> str | None:
        async def read(tx: Tx) -> str | None:
            row = await tx.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
            return None if row is None else str(row["value"])

        return await self._driver.read(read)

    async def set_meta(self, key: str, value: str) -> None:
        await self._put("meta", "key", key, value=value)

    async def one_at_a_time(self, name: str, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` while no other process sharing this database runs work of that
        ``name`` (processes starting together: the first does it, the others wait, then find
        it done). PostgreSQL: a transaction holding an advisory lock on ``name`` for the
        while, as migrations do (a connection taken from the pool meanwhile). SQLite serves
        one process: a lock in this process is enough, and its one writer stays free."""
        if self._driver.dialect is SQLITE:
            lock = self._locks.setdefault(name, asyncio.Lock())
            async with lock:
                return await work()

        async def locked(tx: Tx) -> T:
            await tx.lock_keys([f"one-at-a-time:{name}"])
            return await work()

        return await self._driver.write(locked)
