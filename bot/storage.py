"""The bot's storage: one narrow async class over SQLite, and the only SQL in the project.

One long-lived aiosqlite connection in WAL mode. Every call runs under one asyncio lock, so a
transaction opened by one task never interleaves with another task's statements on the shared
connection. The hot calls (a move, a deadline, a lobby's seats, a server's settings) run their
few statements on the event loop's own thread instead of the connection's: a WAL commit with
synchronous=NORMAL takes well under a millisecond, while a trip to the worker thread and back
waits for the GIL and a loop turn (milliseconds each when the loop is busy, and every other
game queues behind it). Server settings are cached in memory; only set_guild_settings writes
them. Schema changes are numbered files in ``bot/migrations/``, tracked by SQLite's
``PRAGMA user_version``. Callers get frozen dataclasses, never ``sqlite3.Row`` objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import aiosqlite

from bot import ratings

__all__ = [
    "FORMER_PLAYER_KEY",
    "FORMER_PLAYER_NAME",
    "ActionConflict",
    "ActionRow",
    "ChannelBusy",
    "FinishedGame",
    "GameKind",
    "GameNotFound",
    "GameResult",
    "GameRow",
    "GameStateError",
    "GameStatus",
    "HistoryPlayer",
    "HistoryRow",
    "Migration",
    "RatingChange",
    "Seat",
    "SeatResult",
    "SeatRow",
    "SettingValue",
    "StatsRow",
    "Storage",
    "StorageError",
    "load_migrations",
    "player_key",
]

log = logging.getLogger(__name__)

GameKind = Literal["nines", "nein-nine"]
GameStatus = Literal["lobby", "live", "finished", "abandoned"]
SettingValue = str | int | bool

OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "live")
ENDED_STATUSES: tuple[GameStatus, ...] = ("finished", "abandoned")

# What a forgotten player becomes in other people's records.
FORMER_PLAYER_NAME = "Former player"
FORMER_PLAYER_KEY = "former"

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


# --- errors -----------------------------------------------------------------------------------


class StorageError(Exception):
    """Base of the errors this module raises on purpose."""


class GameNotFound(StorageError, LookupError):
    """No game (or seat) with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class ChannelBusy(StorageError):
    """The channel (or thread) already has a game in its lobby or in play."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is already open in this channel")
        self.game_id = game_id


class ActionConflict(StorageError):
    """An action was not appended: wrong index (double click, race) or the game has ended.

    ``expected`` is the index the next action must have, or None when the game has ended.
    """

    def __init__(self, game_id: int, n: int, expected: int | None) -> None:
        if expected is None:
            message = f"game {game_id} has ended; action {n} refused"
        else:
            message = f"game {game_id}: action {n} refused, the next action is {expected}"
        super().__init__(message)
        self.game_id = game_id
        self.n = n
        self.expected = expected


class GameStateError(StorageError):
    """The call does not fit the game's status (e.g. changing seats once it has started)."""


# --- values -----------------------------------------------------------------------------------


def player_key(user_id: int | None, difficulty: str | None) -> str:
    """Stable identity for statistics: ``u:<user id>`` for people, ``cpu:<level>`` for computers.

    >>> player_key(1234, None), player_key(None, "hard")
    ('u:1234', 'cpu:hard')
    """
    if user_id is not None:
        return f"u:{user_id}"
    return f"cpu:{difficulty or 'default'}"


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    kind: GameKind
    rules: dict[str, Any] = field(hash=False)
    seed: int
    status: GameStatus
    host_id: int
    language: str
    lobby_message_id: int | None
    table_message_id: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    ended_at: float | None
    end_reason: str | None
    hands_played: int | None
    rated: bool
    #: How far the channel has been told (see migration 0004).
    shown_hands: int = 0
    table_hand: int | None = None
    turn_message_id: int | None = None
    turn_n: int | None = None
    announced: bool = True

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the lobby fills it: a person (``user_id``) or a computer (``difficulty``)."""

    seat: int
    name: str
    user_id: int | None = None
    is_computer: bool = False
    difficulty: str | None = None

    def __post_init__(self) -> None:
        if self.is_computer and self.user_id is not None:
            raise ValueError("a computer seat has no user id")
        if not self.is_computer and self.user_id is None:
            raise ValueError("a person's seat needs a user id")

    @property
    def player_key(self) -> str:
        return player_key(None if self.is_computer else self.user_id, self.difficulty)


@dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    player_key: str
    user_id: int | None  # None for computers and for forgotten players
    name: str
    is_computer: bool
    difficulty: str | None
    away: bool  # played by the computer after repeated time-outs
    timeouts: int


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    n: int
    seat: int
    action: str
    by_computer: bool
    at: float


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    player_key: str
    name: str
    is_computer: bool
    place: int  # 1 is best; tied seats share a place
    tricks: int
    hands: int
    swaps: int
    exchanges: int
    final_score: int


@dataclass(frozen=True, slots=True)
class GameResult:
    winners: tuple[int, ...]
    hands_played: int
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class RatingChange:
    seat: int
    player_key: str
    before: float  # display ratings
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as stored: enough to redraw its end message or rebuild its record."""

    game: GameRow
    result: GameResult
    rating_changes: tuple[RatingChange, ...]  # empty when the game was not rated


@dataclass(frozen=True, slots=True)
class StatsRow:
    guild_id: int
    kind: GameKind
    player_key: str
    name: str
    is_computer: bool
    games: int
    wins: int
    hands: int
    tricks: int
    swaps: int
    exchanges: int
    best_place: int | None
    mu: float
    sigma: float
    rating: float  # display rating (bot/ratings.py)
    updated_at: float


@dataclass(frozen=True, slots=True)
class HistoryPlayer:
    seat: int
    player_key: str
    name: str
    is_computer: bool
    place: int | None  # None for an abandoned game
    final_score: int | None


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: int
    kind: GameKind
    status: GameStatus
    rated: bool
    end_reason: str | None
    ended_at: float
    hands_played: int | None
    winners: tuple[int, ...]
    players: tuple[HistoryPlayer, ...]


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


# --- migrations -------------------------------------------------------------------------------


def load_migrations() -> list[Migration]:
    """The packaged migrations, in order; read through importlib.resources so an installed wheel
    works as well as a checkout."""
    folder = resources.files("bot").joinpath("migrations")
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is not None:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations are not numbered 1..n: {[m.name for m in found]}")
    return found


async def _migrate(db: aiosqlite.Connection, migrations: Sequence[Migration]) -> int:
    rows = await db.execute_fetchall("PRAGMA user_version")
    current = int(next(iter(rows))[0])
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise RuntimeError(
            f"database schema v{current} is newer than this code (v{latest}); refusing to run"
        )
    for migration in migrations[current:]:
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
    return latest


# --- row conversion ---------------------------------------------------------------------------


def _game(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        kind=row["kind"],
        rules=json.loads(row["rules"]),
        seed=row["seed"],
        status=row["status"],
        host_id=row["host_id"],
        language=row["language"],
        lobby_message_id=row["lobby_message_id"],
        table_message_id=row["table_message_id"],
        turn_deadline=row["turn_deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        ended_at=row["ended_at"],
        end_reason=row["end_reason"],
        hands_played=row["hands_played"],
        rated=bool(row["rated"]),
        shown_hands=row["shown_hands"],
        table_hand=row["table_hand"],
        turn_message_id=row["turn_message_id"],
        turn_n=row["turn_n"],
        announced=bool(row["announced"]),
    )


def _seat(row: sqlite3.Row) -> SeatRow:
    return SeatRow(
        game_id=row["game_id"],
        seat=row["seat"],
        player_key=row["player_key"],
        user_id=row["user_id"],
        name=row["name"],
        is_computer=bool(row["is_computer"]),
        difficulty=row["difficulty"],
        away=bool(row["away"]),
        timeouts=row["timeouts"],
    )


def _stats(row: sqlite3.Row) -> StatsRow:
    return StatsRow(
        guild_id=row["guild_id"],
        kind=row["kind"],
        player_key=row["player_key"],
        name=row["name"],
        is_computer=bool(row["is_computer"]),
        games=row["games"],
        wins=row["wins"],
        hands=row["hands"],
        tricks=row["tricks"],
        swaps=row["swaps"],
        exchanges=row["exchanges"],
        best_place=row["best_place"],
        mu=row["mu"],
        sigma=row["sigma"],
        rating=row["rating"],
        updated_at=row["updated_at"],
    )


def _seat_result(row: sqlite3.Row) -> SeatResult:
    return SeatResult(
        seat=row["seat"],
        player_key=row["player_key"],
        name=row["name"],
        is_computer=bool(row["is_computer"]),
        place=row["place"],
        tricks=row["tricks"],
        hands=row["hands"],
        swaps=row["swaps"],
        exchanges=row["exchanges"],
        final_score=row["final_score"],
    )


def _validate_result(result: GameResult) -> None:
    seats = [s.seat for s in result.seats]
    if len(set(seats)) != len(seats):
        raise ValueError("a seat appears twice in the result")
    if not set(result.winners) <= set(seats):
        raise ValueError("a winner is not one of the result's seats")
    if any(s.place < 1 for s in result.seats):
        raise ValueError("places start at 1")


# Columns update_game may touch; status may only move between the open states there, since
# ending a game must go through finish_game / abandon_game.
_UPDATABLE = frozenset(
    {
        "thread_id",
        "rules",
        "seed",
        "status",
        "host_id",
        "language",
        "lobby_message_id",
        "table_message_id",
        "turn_deadline",
        "shown_hands",
        "table_hand",
        "turn_message_id",
        "turn_n",
        "announced",
    }
)

_GAME_KINDS: frozenset[str] = frozenset({"nines", "nein-nine"})


_T = TypeVar("_T")


#: How often the checkpoint thread copies the write-ahead log into the database file.
CHECKPOINT_EVERY: float = 1.0


class _Checkpointer:
    """Copies the write-ahead log into the database from a thread of its own.

    SQLite's automatic checkpoint runs inside whichever COMMIT fills the log past 1,000 pages,
    and with synchronous=NORMAL it syncs the database file: on the loop's thread (see
    ``Storage._transaction``) that stopped every game for 80-200 ms every few seconds at 200
    games. A PASSIVE checkpoint on its own connection blocks neither readers nor the writer,
    and the sqlite3 module releases the GIL while it works."""

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


# --- the class --------------------------------------------------------------------------------


class Storage:
    """Async access to the bot's SQLite database. Build with ``await Storage.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, now: Callable[[], float]) -> None:
        self._db = db
        self._now = now
        # One connection is shared by every task: serialise whole calls, so one task's
        # transaction never sees (or commits) another task's half-done statements.
        self._lock = asyncio.Lock()
        # Set while no worker-thread call holds the connection: the calls run on the loop's
        # thread wait for it only, never behind each other (they cannot interleave anyway).
        self._idle = asyncio.Event()
        self._idle.set()
        self._settings: dict[int, dict[str, SettingValue]] = {}  # guild -> stored settings
        self._checkpointer: _Checkpointer | None = None

    @classmethod
    async def open(cls, path: str | Path, *, now: Callable[[], float] = time.time) -> Storage:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves instead of sqlite3's guesses.
        # check_same_thread=False: the hot calls run on the loop's thread (see _transaction),
        # never at the same time as the worker thread: the lock serialises every call.
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
            version = await _migrate(db, load_migrations())
            if mode == "wal":  # checkpoints off the loop's thread (see _Checkpointer)
                await db.execute("PRAGMA wal_autocheckpoint = 0")
                # The log restarts from its head once checkpointed; this trims the file a
                # burst of writes left large (46 MB seen under load) back to 4 MB.
                await db.execute("PRAGMA journal_size_limit = 4194304")
        except BaseException:
            await db.close()
            raise
        log.info("opened %s at schema v%d", path, version)
        storage = cls(db, now)
        if mode == "wal":
            storage._checkpointer = _Checkpointer(str(path))
        return storage

    async def close(self) -> None:
        async with self._held():
            await self._db.close()
        if self._checkpointer is not None:
            await self._checkpointer.stop()
            self._checkpointer = None

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def _held(self) -> AsyncIterator[None]:
        """The connection for a call through its worker thread (it awaits between statements)."""
        async with self._lock:
            self._idle.clear()
            try:
                yield
            finally:
                self._idle.set()

    async def _on_loop(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the loop's thread as soon as no worker-thread call holds the
        connection. It never awaits, so nothing interleaves with it; and waiting on an event,
        not in the lock's queue, it needs no loop turn per call ahead of it."""
        while not self._idle.is_set():
            await self._idle.wait()
        return work(self._db._conn)

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._held():
            yield self._db

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._held():
            # IMMEDIATE takes the write lock up front, so reads made inside the transaction
            # (counts, current ratings) cannot go stale before the writes that rely on them.
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _transaction(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` as one write transaction, at once, on the event loop's thread.

        Every awaited statement waits for a turn of the event loop (and for the GIL) while the
        lock keeps every other game waiting: under load with 200 games each trip took tens of
        milliseconds, queued. ``work`` is a few indexed statements and a WAL commit (no fsync
        with synchronous=NORMAL): far less than one trip. Keep it small.
        """

        def run(conn: sqlite3.Connection) -> _T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return await self._on_loop(run)

    async def schema_version(self) -> int:
        async with self._read() as db:
            rows = await db.execute_fetchall("PRAGMA user_version")
        return int(next(iter(rows))[0])

    async def journal_mode(self) -> str:
        async with self._read() as db:
            rows = await db.execute_fetchall("PRAGMA journal_mode")
        return str(next(iter(rows))[0])

    # --- guild settings -----------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> dict[str, SettingValue]:
        """The guild's stored settings; an empty dict when it never changed any."""
        cached = self._settings.get(guild_id)
        if cached is None:

            def read(conn: sqlite3.Connection) -> dict[str, SettingValue]:
                row = conn.execute(
                    "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
                ).fetchone()
                return {} if row is None else cast(dict[str, SettingValue], json.loads(row[0]))

            cached = self._settings[guild_id] = await self._on_loop(read)
        return dict(cached)  # a copy: callers may change theirs

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, SettingValue]) -> None:
        """Replace the guild's settings with ``settings`` (validated by the caller)."""
        text = json.dumps(dict(settings), sort_keys=True)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE"
                " SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, text, self._now()),
            )
        self._settings[guild_id] = json.loads(text)

    # --- meta ---------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall("SELECT value FROM meta WHERE key = ?", (key,)))
        return str(rows[0]["value"]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # --- games --------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: GameKind,
        rules: Mapping[str, Any],
        seed: int,
        host_id: int,
        language: str = "en",
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        rated: bool = True,
    ) -> GameRow:
        """Open a lobby. Raises ChannelBusy if the channel (or thread) already has an open game.

        ``rated=False`` makes a friendly game; otherwise finish_game rates it when at least two
        people played.
        """
        if kind not in _GAME_KINDS:
            raise ValueError(f"unknown game kind {kind!r}")
        now = self._now()

        def create(conn: sqlite3.Connection) -> sqlite3.Row:
            busy = self._open_game_id_now(conn, channel_id, thread_id)
            if busy is not None:
                raise ChannelBusy(busy)
            row: sqlite3.Row = conn.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, kind, rules, seed, status,"
                " host_id, language, lobby_message_id, created_at, updated_at, rated)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    kind,
                    json.dumps(dict(rules), sort_keys=True),
                    seed,
                    host_id,
                    language,
                    lobby_message_id,
                    now,
                    now,
                    int(rated),
                ),
            ).fetchone()
            return row

        return _game(await self._transaction(create))

    @staticmethod
    def _open_game_sql(channel_id: int, thread_id: int | None) -> tuple[str, tuple[int, ...]]:
        # A game is "in" a channel if it was started there or runs in a thread with that id,
        # so a click inside a game's thread finds it too.
        ids = [channel_id] if thread_id is None else [channel_id, thread_id]
        marks = ", ".join("?" * len(ids))
        # Two arms so each uses its partial unique index instead of scanning every game.
        sql = (
            f"SELECT id FROM games"
            f" WHERE status IN ('lobby', 'live') AND channel_id IN ({marks})"
            f" UNION ALL SELECT id FROM games"
            f" WHERE status IN ('lobby', 'live') AND thread_id IN ({marks})"
            f" ORDER BY id LIMIT 1"
        )
        return sql, (*ids, *ids)

    @classmethod
    async def _open_game_id(
        cls, db: aiosqlite.Connection, channel_id: int, thread_id: int | None
    ) -> int | None:
        rows = list(await db.execute_fetchall(*cls._open_game_sql(channel_id, thread_id)))
        return int(rows[0]["id"]) if rows else None

    @classmethod
    def _open_game_id_now(
        cls, conn: sqlite3.Connection, channel_id: int, thread_id: int | None
    ) -> int | None:
        row = conn.execute(*cls._open_game_sql(channel_id, thread_id)).fetchone()
        return None if row is None else int(row[0])

    async def game(self, game_id: int) -> GameRow | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall("SELECT * FROM games WHERE id = ?", (game_id,)))
        return _game(rows[0]) if rows else None

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or live game started in this channel or running in this thread, if any."""
        async with self._read() as db:
            game_id = await self._open_game_id(db, channel_id, None)
            if game_id is None:
                return None
            rows = list(await db.execute_fetchall("SELECT * FROM games WHERE id = ?", (game_id,)))
        return _game(rows[0])

    async def live_games(self) -> list[GameRow]:
        """Every game in its lobby or in play, oldest first: what a restart must restore."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM games WHERE status IN ('lobby', 'live') ORDER BY id"
            )
        return [_game(row) for row in rows]

    async def unannounced_games(self) -> list[GameRow]:
        """Ended games whose end their channel has not been told yet (the process stopped
        in between), oldest first: a restart announces them."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM games WHERE announced = 0 AND status IN ('finished', 'abandoned')"
                " ORDER BY id"
            )
        return [_game(row) for row in rows]

    async def update_game(self, game_id: int, **fields: Any) -> GameRow:
        """Change some of a game's columns (message ids, deadline, lobby status, ...).

        Only the columns in ``_UPDATABLE`` are accepted; ``status`` may only be 'lobby' or
        'live' here and never reopens an ended game.
        """
        unknown = set(fields) - _UPDATABLE
        if unknown:
            raise TypeError(f"update_game cannot change {sorted(unknown)}")
        if not fields:
            raise TypeError("update_game needs at least one field")
        status = fields.get("status")
        if status is not None and status not in OPEN_STATUSES:
            raise ValueError("use finish_game or abandon_game to end a game")
        if "rules" in fields:
            fields["rules"] = json.dumps(dict(fields["rules"]), sort_keys=True)
        # Column names come from the whitelist above, never from the caller.
        assignments = ", ".join(f"{name} = ?" for name in sorted(fields))
        values = [fields[name] for name in sorted(fields)]
        if fields.get("thread_id") is None:
            # The common case (a deadline, a message id): one trip to the database thread.
            now = self._now()

            def update(conn: sqlite3.Connection) -> sqlite3.Row:
                found = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
                if found is None:
                    raise GameNotFound(game_id)
                if status is not None and found["status"] in ENDED_STATUSES:
                    raise GameStateError(f"game {game_id} has ended and cannot be reopened")
                row: sqlite3.Row = conn.execute(
                    f"UPDATE games SET {assignments}, updated_at = ? WHERE id = ? RETURNING *",
                    (*values, now, game_id),
                ).fetchone()
                return row

            return _game(await self._transaction(update))
        async with self._write() as db:
            current = await self._game_status(db, game_id)
            if status is not None and current in ENDED_STATUSES:
                raise GameStateError(f"game {game_id} has ended and cannot be reopened")
            thread_id = fields.get("thread_id")
            if thread_id is not None and current in OPEN_STATUSES:
                busy = await self._open_game_id(db, thread_id, None)
                if busy is not None and busy != game_id:
                    raise ChannelBusy(busy)
            async with db.execute(
                f"UPDATE games SET {assignments}, updated_at = ? WHERE id = ? RETURNING *",
                (*values, self._now(), game_id),
            ) as cursor:
                row = await cursor.fetchone()
        assert row is not None
        return _game(row)

    @staticmethod
    async def _game_status(db: aiosqlite.Connection, game_id: int) -> GameStatus:
        rows = list(await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (game_id,)))
        if not rows:
            raise GameNotFound(game_id)
        return cast(GameStatus, rows[0]["status"])

    # --- seats --------------------------------------------------------------------------------

    async def set_seats(self, game_id: int, seats: Iterable[Seat]) -> list[SeatRow]:
        """Replace the game's seats; only while it is in its lobby (seats are fixed once live)."""
        seat_list = sorted(seats, key=lambda s: s.seat)

        def replace(conn: sqlite3.Connection) -> list[sqlite3.Row]:
            found = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
            if found is None:
                raise GameNotFound(game_id)
            if found["status"] != "lobby":
                raise GameStateError(f"game {game_id} has started; its seats are fixed")
            conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            try:
                conn.executemany(
                    "INSERT INTO seats (game_id, seat, player_key, user_id, name, is_computer,"
                    " difficulty) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            game_id,
                            s.seat,
                            s.player_key,
                            s.user_id,
                            s.name,
                            int(s.is_computer),
                            s.difficulty,
                        )
                        for s in seat_list
                    ],
                )
            except sqlite3.IntegrityError as error:
                raise ValueError(f"invalid seats for game {game_id}: {error}") from error
            return conn.execute(
                "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()

        return [_seat(row) for row in await self._transaction(replace)]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return [_seat(row) for row in rows]

    async def set_seat_away(self, game_id: int, seat: int, away: bool, timeouts: int) -> None:
        """Record a seat's time-outs and whether the computer now plays it."""

        def update(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE seats SET away = ?, timeouts = ? WHERE game_id = ? AND seat = ?",
                (int(away), timeouts, game_id, seat),
            )
            if cursor.rowcount == 0:
                raise GameNotFound(game_id)

        await self._transaction(update)

    # --- actions ------------------------------------------------------------------------------

    async def append_action(
        self,
        game_id: int,
        n: int,
        seat: int,
        action: str,
        by_computer: bool,
        *,
        turn_deadline: float | None = None,
    ) -> int:
        """Store action ``n`` of the game and its new turn deadline, atomically.

        ``n`` must be exactly the number of actions already stored, else ActionConflict: a
        double click or a race can neither store a move twice nor skip one. ``turn_deadline``
        is the deadline of the next decision (None: no timer running). Returns the next index.
        """
        return await self.append_actions(
            game_id, n, [(seat, action, by_computer)], turn_deadline=turn_deadline
        )

    async def append_actions(
        self,
        game_id: int,
        first_n: int,
        actions: Sequence[tuple[int, str, bool]],
        *,
        turn_deadline: float | None = None,
    ) -> int:
        """Store ``(seat, action, by_computer)`` moves as indices ``first_n``, ``first_n + 1``...

        All or nothing, e.g. a person's card and the computer cards that follow it. Same rules
        as append_action; returns the next index.
        """
        if not actions:
            raise ValueError("no actions to append")
        now = self._now()

        def append(conn: sqlite3.Connection) -> int:
            found = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
            if found is None:
                raise GameNotFound(game_id)
            if found["status"] in ENDED_STATUSES:
                raise ActionConflict(game_id, first_n, None)
            counted = conn.execute(
                "SELECT count(*) AS stored FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            stored = int(counted["stored"])
            if first_n != stored:
                raise ActionConflict(game_id, first_n, stored)
            try:
                conn.executemany(
                    "INSERT INTO actions (game_id, n, seat, action, by_computer, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (game_id, first_n + i, seat, action, int(by_computer), now)
                        for i, (seat, action, by_computer) in enumerate(actions)
                    ],
                )
            except sqlite3.IntegrityError as error:  # the schema's own guard; unreachable here
                raise ActionConflict(game_id, first_n, stored) from error
            conn.execute(
                "UPDATE games SET updated_at = ?, turn_deadline = ? WHERE id = ?",
                (now, turn_deadline, game_id),
            )
            return first_n + len(actions)

        return await self._transaction(append)

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The game's action log in order."""
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
            )
        return [
            ActionRow(
                game_id=row["game_id"],
                n=row["n"],
                seat=row["seat"],
                action=row["action"],
                by_computer=bool(row["by_computer"]),
                at=row["at"],
            )
            for row in rows
        ]

    # --- ending -------------------------------------------------------------------------------

    async def finish_game(self, game_id: int, result: GameResult) -> bool:
        """Record the result, mark the game finished and update statistics and ratings.

        One transaction, and idempotent: a game already finished or abandoned is left alone and
        the call returns False, so no game is ever counted twice. A game is rated and counted in
        the statistics only if it was created rated and at least two seats are people; either
        way its result is kept for history. The game must be live, and the result's seats and
        player keys must be the stored seats' (ValueError otherwise).
        """
        _validate_result(result)
        now = self._now()
        # On the loop's thread like a move (see _transaction): through the worker thread, each
        # statement waited a loop turn while every game's next move waited for the connection.

        def finish(conn: sqlite3.Connection) -> bool:
            game = conn.execute(
                "SELECT guild_id, kind, status, rated FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if game is None:
                raise GameNotFound(game_id)
            if game["status"] in ENDED_STATUSES:
                return False
            if game["status"] != "live":
                raise GameStateError(f"game {game_id} has not started; abandon it instead")
            # The statistics key off player_key: a result that does not match the stored seats
            # would credit the wrong players, so it is refused rather than counted.
            stored = {
                row["seat"]: row["player_key"]
                for row in conn.execute(
                    "SELECT seat, player_key FROM seats WHERE game_id = ?", (game_id,)
                )
            }
            if stored != {s.seat: s.player_key for s in result.seats}:
                raise ValueError(f"the result's seats do not match game {game_id}'s seats")
            people = sum(1 for s in result.seats if not s.is_computer)
            rated = bool(game["rated"]) and people >= 2
            changes: dict[int, tuple[float, float]] = {}
            if rated:
                changes = self._count_result(conn, game["guild_id"], game["kind"], result, now)
            winners = set(result.winners)
            conn.executemany(
                "INSERT INTO results (game_id, seat, player_key, name, is_computer, place,"
                " is_winner, tricks, hands, swaps, exchanges, final_score, rating_before,"
                " rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        s.seat,
                        s.player_key,
                        s.name,
                        int(s.is_computer),
                        s.place,
                        int(s.seat in winners),
                        s.tricks,
                        s.hands,
                        s.swaps,
                        s.exchanges,
                        s.final_score,
                        *changes.get(s.seat, (None, None)),
                    )
                    for s in result.seats
                ],
            )
            conn.execute(
                "UPDATE games SET status = 'finished', ended_at = ?, updated_at = ?,"
                " end_reason = 'completed', hands_played = ?, rated = ?, turn_deadline = NULL,"
                " announced = 0 WHERE id = ?",
                (now, now, result.hands_played, int(rated), game_id),
            )
            return True

        return await self._transaction(finish)

    def _count_result(
        self,
        conn: sqlite3.Connection,
        guild_id: int,
        kind: str,
        result: GameResult,
        now: float,
    ) -> dict[int, tuple[float, float]]:
        """Add a rated result to player_stats; returns seat -> (display before, after)."""
        keys = sorted({s.player_key for s in result.seats})
        marks = ", ".join("?" * len(keys))
        current = {
            row["player_key"]: ratings.Rating(row["mu"], row["sigma"])
            for row in conn.execute(
                f"SELECT player_key, mu, sigma FROM player_stats"
                f" WHERE guild_id = ? AND kind = ? AND player_key IN ({marks})",
                (guild_id, kind, *keys),
            )
        }
        before = {key: current.get(key, ratings.initial()) for key in keys}
        new = ratings.rate(
            [before[s.player_key] for s in result.seats], [s.place for s in result.seats]
        )
        # Two seats can share a key (two computers of one level): the entry moves by the mean
        # of its seats' changes, and each seat counts as one game played.
        per_key: dict[str, list[ratings.Rating]] = {}
        for seat_result, rating in zip(result.seats, new, strict=True):
            per_key.setdefault(seat_result.player_key, []).append(rating)
        after = {
            key: ratings.Rating(
                before[key].mu + sum(r.mu - before[key].mu for r in rs) / len(rs),
                sum(r.sigma for r in rs) / len(rs),
            )
            for key, rs in per_key.items()
        }
        winners = set(result.winners)
        conn.executemany(
            "INSERT INTO player_stats (guild_id, kind, player_key, name, is_computer, games, wins,"
            " hands, tricks, swaps, exchanges, best_place, mu, sigma, rating, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, kind, player_key) DO UPDATE SET"
            " name = excluded.name, games = games + 1, wins = wins + excluded.wins,"
            " hands = hands + excluded.hands, tricks = tricks + excluded.tricks,"
            " swaps = swaps + excluded.swaps, exchanges = exchanges + excluded.exchanges,"
            " best_place = min(coalesce(best_place, excluded.best_place), excluded.best_place),"
            " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,"
            " updated_at = excluded.updated_at",
            [
                (
                    guild_id,
                    kind,
                    s.player_key,
                    s.name,
                    int(s.is_computer),
                    int(s.seat in winners),
                    s.hands,
                    s.tricks,
                    s.swaps,
                    s.exchanges,
                    s.place,
                    after[s.player_key].mu,
                    after[s.player_key].sigma,
                    after[s.player_key].display,
                    now,
                )
                for s in result.seats
            ],
        )
        return {
            s.seat: (before[s.player_key].display, after[s.player_key].display)
            for s in result.seats
        }

    async def abandon_game(self, game_id: int, reason: str) -> bool:
        """End a game without a result: never rated, never counted. Idempotent like
        finish_game (returns False if the game had already ended)."""
        now = self._now()

        def abandon(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE games SET status = 'abandoned', ended_at = ?, updated_at = ?,"
                " end_reason = ?, rated = 0, turn_deadline = NULL, announced = 0"
                " WHERE id = ? AND status IN ('lobby', 'live')",
                (now, now, reason, game_id),
            )
            if cursor.rowcount:
                return True
            if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise GameNotFound(game_id)
            return False

        return await self._transaction(abandon)

    async def game_result(self, game_id: int) -> FinishedGame | None:
        """A finished game's stored result and rating changes (None if it did not finish)."""

        def read(conn: sqlite3.Connection) -> tuple[sqlite3.Row | None, list[sqlite3.Row]]:
            found = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if found is None or found["status"] != "finished":
                return None, []
            return found, conn.execute(
                "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()

        found, rows = await self._on_loop(read)
        if found is None:
            return None
        game = _game(found)
        result = GameResult(
            winners=tuple(row["seat"] for row in rows if row["is_winner"]),
            hands_played=game.hands_played or 0,
            seats=tuple(_seat_result(row) for row in rows),
        )
        changes = tuple(
            RatingChange(row["seat"], row["player_key"], row["rating_before"], row["rating_after"])
            for row in rows
            if row["rating_before"] is not None
        )
        return FinishedGame(game, result, changes)

    # --- statistics ---------------------------------------------------------------------------

    async def stats(self, guild_id: int, game: GameKind, player_key: str) -> StatsRow | None:
        async with self._read() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT * FROM player_stats WHERE guild_id = ? AND kind = ? AND player_key = ?",
                    (guild_id, game, player_key),
                )
            )
        return _stats(rows[0]) if rows else None

    async def leaderboard(
        self,
        guild_id: int,
        game: GameKind,
        page: int = 1,
        per_page: int = 10,
        computers: bool = False,
    ) -> tuple[list[StatsRow], int]:
        """One page (1-based) of the guild's ranking and the number of ranked entries.

        People only by default; ``computers=True`` lists the computer levels instead. Ordered by
        display rating, then wins, then fewer games (same wins in fewer games ranks higher).
        """
        if page < 1 or per_page < 1:
            raise ValueError("page and per_page start at 1")
        where = "guild_id = ? AND kind = ? AND is_computer = ?"
        params = (guild_id, game, int(computers))
        async with self._read() as db:
            total_rows = list(
                await db.execute_fetchall(
                    f"SELECT count(*) AS total FROM player_stats WHERE {where}", params
                )
            )
            rows = await db.execute_fetchall(
                f"SELECT * FROM player_stats WHERE {where}"
                " ORDER BY rating DESC, wins DESC, games ASC, player_key LIMIT ? OFFSET ?",
                (*params, per_page, (page - 1) * per_page),
            )
        return [_stats(row) for row in rows], int(total_rows[0]["total"])

    async def history(
        self,
        guild_id: int,
        *,
        player_key: str | None = None,
        game: GameKind | None = None,
        limit: int = 10,
    ) -> list[HistoryRow]:
        """The guild's most recently ended games (finished or abandoned), newest first,
        optionally only those where ``player_key`` sat or of one game kind."""
        # "ended_at IS NOT NULL" lets SQLite use the partial index games_guild_ended.
        conditions = [
            "g.guild_id = ?",
            "g.ended_at IS NOT NULL",
            "g.status IN ('finished', 'abandoned')",
        ]
        params: list[object] = [guild_id]
        if player_key is not None:
            conditions.append(
                "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_key = ?)"
            )
            params.append(player_key)
        if game is not None:
            conditions.append("g.kind = ?")
            params.append(game)
        async with self._read() as db:
            games = [
                _game(row)
                for row in await db.execute_fetchall(
                    f"SELECT g.* FROM games g WHERE {' AND '.join(conditions)}"
                    " ORDER BY g.ended_at DESC, g.id DESC LIMIT ?",
                    (*params, limit),
                )
            ]
            if not games:
                return []
            marks = ", ".join("?" * len(games))
            # A finished game's results name its players as they finished; an abandoned game
            # has only its seats.
            players = await db.execute_fetchall(
                f"SELECT s.game_id, s.seat, coalesce(r.player_key, s.player_key) AS player_key,"
                f" coalesce(r.name, s.name) AS name, s.is_computer, r.place, r.final_score,"
                f" coalesce(r.is_winner, 0) AS is_winner"
                f" FROM seats s LEFT JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
                f" WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.seat",
                [g.id for g in games],
            )
        by_game: dict[int, list[sqlite3.Row]] = {}
        for row in players:
            by_game.setdefault(row["game_id"], []).append(row)
        history: list[HistoryRow] = []
        for g in games:
            seat_rows = by_game.get(g.id, [])
            assert g.ended_at is not None
            history.append(
                HistoryRow(
                    game_id=g.id,
                    kind=g.kind,
                    status=g.status,
                    rated=g.rated,
                    end_reason=g.end_reason,
                    ended_at=g.ended_at,
                    hands_played=g.hands_played,
                    winners=tuple(row["seat"] for row in seat_rows if row["is_winner"]),
                    players=tuple(
                        HistoryPlayer(
                            seat=row["seat"],
                            player_key=row["player_key"],
                            name=row["name"],
                            is_computer=bool(row["is_computer"]),
                            place=row["place"],
                            final_score=row["final_score"],
                        )
                        for row in seat_rows
                    ),
                )
            )
        return history

    # --- privacy ------------------------------------------------------------------------------

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        """Delete the user's statistics and ratings in this guild and anonymise them in the
        guild's ended games, so the other players' records stay whole.

        Games still open are left as they are (the player is seated and may be playing); the
        bot should end or leave them first. Returns the number of rows changed.
        """
        key = player_key(user_id, None)
        ended_games = (
            "SELECT id FROM games WHERE guild_id = ? AND ended_at IS NOT NULL"
            " AND status IN ('finished', 'abandoned')"
        )
        changed = 0
        async with self._write() as db:
            statements: list[tuple[str, tuple[object, ...]]] = [
                (
                    "DELETE FROM player_stats WHERE guild_id = ? AND player_key = ?",
                    (guild_id, key),
                ),
                (
                    f"UPDATE seats SET user_id = NULL, name = ?, player_key = ?"
                    f" WHERE user_id = ? AND game_id IN ({ended_games})",
                    (FORMER_PLAYER_NAME, FORMER_PLAYER_KEY, user_id, guild_id),
                ),
                (
                    f"UPDATE results SET name = ?, player_key = ?"
                    f" WHERE player_key = ? AND game_id IN ({ended_games})",
                    (FORMER_PLAYER_NAME, FORMER_PLAYER_KEY, key, guild_id),
                ),
                (
                    # host_id is NOT NULL; 0 is no Discord snowflake, so it names nobody.
                    "UPDATE games SET host_id = 0 WHERE host_id = ? AND guild_id = ?"
                    " AND ended_at IS NOT NULL AND status IN ('finished', 'abandoned')",
                    (user_id, guild_id),
                ),
            ]
            for sql, params in statements:
                async with db.execute(sql, params) as cursor:
                    changed += max(cursor.rowcount, 0)
        return changed
