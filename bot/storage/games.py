"""Games: a lobby opened, a game's row read and updated, its delivery marks. Its seats are
``seats.py``'s, its action log ``actions.py``'s."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from typing import Any

from .actions import APPEND_ACTIONS
from .driver import POSTGRESQL, IntegrityViolation, Queries, Row, Tx
from .fencing import check_fence, current_lease, locked_status
from .seats import (
    INSERT_SEATS,
    SET_SEATS,
    START_GAME,
    check_seats,
    seat_columns,
    seat_rows,
)
from .values import (
    ENDED_STATUSES,
    GAME_KINDS,
    OPEN_STATUSES,
    UPDATABLE,
    ChannelBusy,
    DeliveryMarks,
    Fence,
    FencedOut,
    GameKind,
    GameNotFound,
    GameRow,
    GameStateError,
    Seat,
    delivery_from,
    game_from,
)


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


async def _open_game_id(tx: Tx, channel_id: int, thread_id: int | None) -> int | None:
    row = await tx.fetchone(*_open_game_sql(channel_id, thread_id))
    return None if row is None else int(row[0])


#: A lobby's opening on PostgreSQL (migration 0011), one round trip, fenced as a move's.
OPEN_GAME = "SELECT * FROM open_game(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


class GameQueries(Queries):
    async def prepare_moves(self) -> None:
        """PostgreSQL: make every pooled connection ready for a move's write, a lobby click's
        and a Start's before the first click (``Driver.on_each_connection``): calls for no
        game, which write nothing."""
        if self._driver.dialect is not POSTGRESQL:
            return

        async def call(tx: Tx) -> None:
            await tx.fetchone(APPEND_ACTIONS, (0, 0, [], [], [], 0.0, None, None, None, None, None))
            await tx.fetchone(SET_SEATS, (0, *seat_columns([]), None, None))
            await tx.fetchone(START_GAME, (0, 0.0, None, [], None, None))

        await self._driver.on_each_connection(call)

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
        seats: Iterable[Seat] = (),
    ) -> GameRow:
        """Open a lobby with its first ``seats`` (e.g. the host's). Raises ChannelBusy if the
        channel (or thread) already has an open game, ValueError for seats the schema refuses.

        ``rated=False`` makes a friendly game; otherwise finish_game rates it when at least two
        people played.
        """
        if kind not in GAME_KINDS:
            raise ValueError(f"unknown game kind {kind!r}")
        seat_list = sorted(seats, key=lambda s: s.seat)
        check_seats(seat_list)
        now = self._now()
        values = (
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
            int(rated),
        )

        async def create(tx: Tx) -> Row:
            busy = await _open_game_id(tx, channel_id, thread_id)
            if busy is not None:
                raise ChannelBusy(busy)
            row = await tx.fetchone(
                "INSERT INTO games (guild_id, channel_id, thread_id, kind, rules, seed, status,"
                " host_id, language, lobby_message_id, created_at, updated_at, rated)"
                " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING *",
                (*values[:-1], now, values[-1]),  # created_at, updated_at, rated
            )
            assert row is not None
            await tx.executemany(INSERT_SEATS, seat_rows(int(row["id"]), seat_list))
            return row

        async def call(tx: Tx) -> Row:
            # PostgreSQL: the same steps in one function call (migration 0011), one round trip;
            # an open game in the channel is a unique violation there, handled below.
            row = await tx.fetchone(OPEN_GAME, (*values, *seat_columns(seat_list)))
            assert row is not None
            return row

        try:
            return game_from(await self._game_write(create, call))
        except IntegrityViolation:
            # Another process opened a game here between our check and our insert.
            await self._raise_if_busy(channel_id, thread_id, None)
            raise

    async def _raise_if_busy(self, channel_id: int, thread_id: int | None, own: int | None) -> None:
        async def find(tx: Tx) -> int | None:
            return await _open_game_id(tx, channel_id, thread_id)

        busy = await self._driver.read(find)
        if busy is not None and busy != own:
            raise ChannelBusy(busy) from None

    async def game(self, game_id: int) -> GameRow | None:
        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))

        row = await self._driver.read(read)
        return None if row is None else game_from(row)

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or live game started in this channel or running in this thread, if any."""

        async def read(tx: Tx) -> Row | None:
            game_id = await _open_game_id(tx, channel_id, None)
            if game_id is None:
                return None
            return await tx.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))

        row = await self._driver.read(read)
        return None if row is None else game_from(row)

    async def _games(self, sql: str) -> list[GameRow]:
        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(sql)

        return [game_from(row) for row in await self._driver.read(read)]

    async def live_games(self) -> list[GameRow]:
        """Every game in its lobby or in play, oldest first: what a restart must restore."""
        return await self._games(
            "SELECT * FROM games WHERE status IN ('lobby', 'live') ORDER BY id"
        )

    async def unannounced_games(self) -> list[GameRow]:
        """Ended games whose end their channel has not been told yet (the process stopped
        in between), oldest first: a restart announces them."""
        return await self._games(
            "SELECT * FROM games WHERE announced = 0 AND status IN ('finished', 'abandoned')"
            " ORDER BY id"
        )

    async def load_delivery(self, game_id: int) -> DeliveryMarks:
        """How far the game's channel has been told (the presenter's notebook, as saved)."""

        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(
                "SELECT table_message_id, table_hand, shown_hands, turn_message_id, turn_n"
                " FROM games WHERE id = ?",
                (game_id,),
            )

        row = await self._driver.read(read)
        if row is None:
            raise GameNotFound(game_id)
        return delivery_from(row)

    async def save_delivery(
        self, game_id: int, marks: DeliveryMarks, *, fence: Fence | None = None
    ) -> None:
        """Store the presenter's notebook of a game: one statement, whatever changed, fenced
        as every write of a game."""
        await self.update_game(
            game_id,
            fence=fence,
            **asdict(marks),
        )

    async def update_game(
        self, game_id: int, *, fence: Fence | None = None, **fields: Any
    ) -> GameRow:
        """Change some of a game's columns (message ids, deadline, lobby status, ...).

        Only the columns in ``UPDATABLE`` are accepted; ``status`` may only be 'lobby' or
        'live' here and never reopens an ended game. ``fence``: the writer's lease of the
        game's shard (FencedOut once it is not current; fencing.py).
        """
        unknown = set(fields) - UPDATABLE
        if unknown:
            raise TypeError(f"update_game cannot change {sorted(unknown)}")
        if not fields:
            raise TypeError("update_game needs at least one field")
        status = fields.get("status")
        if status is not None and status not in OPEN_STATUSES:
            raise ValueError("use finish_game or abandon_game to end a game")
        if "rules" in fields:
            fields["rules"] = json.dumps(dict(fields["rules"]), sort_keys=True)
        thread_id = fields.get("thread_id")
        now = self._now()
        if status == "live":
            fields["started_at"] = now  # a lobby that never gets here is no game (history)
        # Column names come from the whitelist above, never from the caller. Flags are stored
        # as 0/1 in both databases.
        assignments = ", ".join(f"{name} = ?" for name in sorted(fields))
        values = [
            int(value) if isinstance(value, bool) else value
            for value in (fields[name] for name in sorted(fields))
        ]

        async def set_columns(tx: Tx) -> Row | None:
            if fence is None:
                return await tx.fetchone(
                    f"UPDATE games SET {assignments}, updated_at = ? WHERE id = ? RETURNING *",
                    (*values, now, game_id),
                )
            # The fence in the statement itself: still one statement (``mark``).
            return await tx.fetchone(
                f"UPDATE games SET {assignments}, updated_at = ?"
                f" WHERE id = ? AND {current_lease(tx)} RETURNING *",
                (*values, now, game_id, fence.shard_id, fence.epoch),
            )

        async def update(tx: Tx) -> Row:
            await check_fence(tx, game_id, fence)
            current = await locked_status(tx, game_id)
            if status is not None and current in ENDED_STATUSES:
                raise GameStateError(f"game {game_id} has ended and cannot be reopened")
            if thread_id is not None and current in OPEN_STATUSES:
                busy = await _open_game_id(tx, thread_id, None)
                if busy is not None and busy != game_id:
                    raise ChannelBusy(busy)
            row = await set_columns(tx)
            assert row is not None
            return row

        async def mark(tx: Tx) -> Row:
            # Neither status nor thread: nothing to check first, one statement (what a move's
            # delivery marks and message ids need, one round trip on PostgreSQL).
            row = await set_columns(tx)
            if row is None:
                raise GameNotFound(game_id)
            return row

        try:
            if status is None and thread_id is None:
                try:
                    return game_from(await self._driver.write(mark, hot=True, single=True))
                except GameNotFound:
                    # Nothing written: a game that exists was refused by the fence.
                    if fence is not None and await self.game(game_id) is not None:
                        raise FencedOut(game_id, fence) from None
                    raise
            return game_from(await self._driver.write(update, hot=True))
        except IntegrityViolation:
            if thread_id is not None:  # another game took the thread meanwhile
                await self._raise_if_busy(thread_id, None, game_id)
            raise
