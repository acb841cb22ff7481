"""The bot's storage: one narrow async interface, and the only SQL in the project.

``Storage`` is the interface the bot uses. Its queries are grouped by concern (games.py: games,
seats and the action log; results.py: ending games and ratings; settings.py: server settings;
history.py: statistics, history and privacy; preferences.py: a person's own preferences;
shards.py: a sharded bot's shard leases; tournaments.py: tournaments, issue 48; daily.py:
the daily deal's tries and fields; duplicates.py: duplicate matches; activity_tokens.py: what
Discord said of the web table's tokens) and
written once over a small driver interface (driver.py) that each database implements:
SQLite (sqlite.py, the default: one file, one process) and PostgreSQL (postgres.py: several
processes sharing one database). Both have the same schema, in numbered migrations
(migrations.py). Callers get frozen dataclasses (values.py), never database rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .actions import ActionQueries
from .activity_tokens import StoredToken, TokenQueries, token_hash
from .daily import DailyBoard, DailyQueries, DailyTry, FieldCounts
from .driver import Driver, IntegrityViolation, TimedDriver, is_postgres_url
from .duplicates import DuplicateQueries
from .games import GameQueries
from .history import HistoryQueries
from .migrations import Migration, load_migrations
from .preferences import PreferenceQueries
from .results import ResultQueries
from .seats import SeatQueries
from .settings import SettingsQueries
from .shards import ShardQueries
from .sqlite import SqliteDriver
from .tournaments import TournamentQueries
from .values import (
    FORMER_PLAYER_KEY,
    FORMER_PLAYER_NAME,
    ActionConflict,
    ActionRow,
    ChannelBusy,
    DeliveryMarks,
    Fence,
    FencedOut,
    FinishedGame,
    GameKind,
    GameNotFound,
    GameResult,
    GameRow,
    GameStateError,
    GameStatus,
    HistoryPlayer,
    HistoryRow,
    KeyAnswered,
    RatingChange,
    Seat,
    SeatResult,
    SeatRow,
    SettingValue,
    StatsRow,
    StorageError,
    player_key,
)

__all__ = [
    "FORMER_PLAYER_KEY",
    "FORMER_PLAYER_NAME",
    "ActionConflict",
    "ActionRow",
    "ChannelBusy",
    "DailyBoard",
    "DailyTry",
    "DeliveryMarks",
    "Fence",
    "FencedOut",
    "FieldCounts",
    "FinishedGame",
    "GameKind",
    "GameNotFound",
    "GameResult",
    "GameRow",
    "GameStateError",
    "GameStatus",
    "HistoryPlayer",
    "HistoryRow",
    "IntegrityViolation",
    "KeyAnswered",
    "Migration",
    "RatingChange",
    "Seat",
    "SeatResult",
    "SeatRow",
    "SettingValue",
    "StatsRow",
    "Storage",
    "StorageError",
    "StoredToken",
    "load_migrations",
    "player_key",
    "token_hash",
]


class Storage(
    GameQueries,
    SeatQueries,
    ActionQueries,
    ResultQueries,
    SettingsQueries,
    HistoryQueries,
    PreferenceQueries,
    ShardQueries,
    TournamentQueries,
    DailyQueries,
    DuplicateQueries,
    TokenQueries,
):
    """Async access to the bot's database. Build with ``await Storage.open(target)``."""

    def __init__(self, driver: Driver, now: Callable[[], float] = time.time) -> None:
        self._driver = driver
        self._now = now
        self._settings = {}
        self._locks = {}

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        now: Callable[[], float] = time.time,
        pool_size: int | None = None,
    ) -> Storage:
        """Open the database and bring its schema up to date: a PostgreSQL URL
        (``postgresql://user:pass@host:port/db``), with ``pool_size`` connections (None: the
        driver's default), else the path of a SQLite file (created with its folder if
        needed)."""
        driver: Driver
        if is_postgres_url(target):
            # Imported here: a SQLite bot never loads asyncpg (~3 MB).
            from .postgres import PostgresDriver

            if pool_size is None:
                driver = await PostgresDriver.open(str(target))
            else:
                driver = await PostgresDriver.open(str(target), pool_size=pool_size)
        else:
            driver = await SqliteDriver.open(Path(target))
        storage = cls(driver, now)
        try:
            await storage.prepare_moves()
        except BaseException:
            await driver.close()
            raise
        return storage

    @property
    def dialect(self) -> str:
        """Which database this is: "sqlite" or "postgresql"."""
        return self._driver.dialect.name

    async def close(self) -> None:
        await self._driver.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self._driver.schema_version()

    async def journal_mode(self) -> str | None:
        """SQLite's journal mode ("wal" unless the file system refused it); None on PostgreSQL."""
        return await self._driver.journal_mode()

    def observe_writes(self, observe: Callable[[float], None]) -> None:
        """Call ``observe`` with the seconds each write transaction took, from now on."""
        self._driver = TimedDriver(self._driver, observe)
