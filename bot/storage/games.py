"""Games, their seats and their action log: what a live game reads and writes."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .driver import POSTGRESQL, IntegrityViolation, Queries, Row, Tx
from .fencing import check_fence, current_lease
from .values import (
    ENDED_STATUSES,
    GAME_KINDS,
    OPEN_STATUSES,
    UPDATABLE,
    ActionConflict,
    ActionRow,
    ChannelBusy,
    DeliveryMarks,
    Fence,
    FencedOut,
    GameKind,
    GameNotFound,
    GameRow,
    GameStateError,
    Seat,
    SeatRow,
    delivery_from,
    game_from,
    seat_from,
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


async def _game_status(tx: Tx, game_id: int) -> str:
    """The game's status, its row locked until the transaction ends (PostgreSQL)."""
    row = await tx.fetchone(
        f"SELECT status FROM games WHERE id = ?{tx.dialect.for_update}", (game_id,)
    )
    if row is None:
        raise GameNotFound(game_id)
    return str(row["status"])


#: A move's write on PostgreSQL (migration 0010: 0007's with the writer's fence).
APPEND_ACTIONS = "SELECT * FROM append_actions(?, ?, ?, ?, ?, ?, ?, ?, ?)"
#: A lobby's writes on PostgreSQL (migration 0011), one round trip each, fenced as a move's.
OPEN_GAME = "SELECT * FROM open_game(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
SET_SEATS = "SELECT set_seats(?, ?, ?, ?, ?, ?, ?, ?, ?) AS status"
START_GAME = "SELECT * FROM start_game(?, ?, ?, ?, ?, ?)"

_INSERT_SEATS = (
    "INSERT INTO seats (game_id, seat, player_key, user_id, name, is_computer, difficulty)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _check_seats(seats: Sequence[Seat]) -> None:
    """What the database would refuse half-way: a seat number or a person twice."""
    numbers = [s.seat for s in seats]
    people = [s.user_id for s in seats if s.user_id is not None]
    if len(set(numbers)) != len(numbers) or len(set(people)) != len(people):
        raise ValueError(f"invalid seats: {list(seats)}")


def _seat_columns(seats: Sequence[Seat]) -> list[list[Any]]:
    """The seats as the PostgreSQL functions take them: one array per column."""
    return [
        [s.seat for s in seats],
        [s.player_key for s in seats],
        [s.user_id for s in seats],
        [s.name for s in seats],
        [int(s.is_computer) for s in seats],
        [s.difficulty for s in seats],
    ]


def _seat_rows(game_id: int, seats: Sequence[Seat]) -> list[tuple[Any, ...]]:
    return [
        (game_id, s.seat, s.player_key, s.user_id, s.name, int(s.is_computer), s.difficulty)
        for s in seats
    ]


def _stored_seats(game_id: int, seats: Sequence[Seat]) -> list[SeatRow]:
    """What a lobby's fresh seats are once stored: nobody away, no time-outs yet."""
    return [
        SeatRow(
            game_id=game_id,
            seat=s.seat,
            player_key=s.player_key,
            user_id=s.user_id,
            name=s.name,
            is_computer=s.is_computer,
            difficulty=s.difficulty,
            away=False,
            timeouts=0,
        )
        for s in seats
    ]


def _fence_values(fence: Fence | None) -> tuple[int | None, int | None]:
    """A fence as the PostgreSQL functions take it: (shard, epoch), or NULLs: not fenced."""
    return (None, None) if fence is None else (fence.shard_id, fence.epoch)


class GameQueries(Queries):
    async def prepare_moves(self) -> None:
        """PostgreSQL: make every pooled connection ready for a move's write, a lobby click's
        and a Start's before the first click (``Driver.on_each_connection``): calls for no
        game, which write nothing."""
        if self._driver.dialect is not POSTGRESQL:
            return

        async def call(tx: Tx) -> None:
            await tx.fetchone(APPEND_ACTIONS, (0, 0, [], [], [], 0.0, None, None, None))
            await tx.fetchone(SET_SEATS, (0, *_seat_columns([]), None, None))
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
        _check_seats(seat_list)
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
            await tx.executemany(_INSERT_SEATS, _seat_rows(int(row["id"]), seat_list))
            return row

        async def call(tx: Tx) -> Row:
            # PostgreSQL: the same steps in one function call (migration 0011), one round trip;
            # an open game in the channel is a unique violation there, handled below.
            row = await tx.fetchone(OPEN_GAME, (*values, *_seat_columns(seat_list)))
            assert row is not None
            return row

        try:
            if self._driver.dialect is POSTGRESQL:
                return game_from(await self._driver.write(call, hot=True, single=True))
            return game_from(await self._driver.write(create, hot=True))
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
            table_message_id=marks.table_message_id,
            table_hand=marks.table_hand,
            shown_hands=marks.shown_hands,
            turn_message_id=marks.turn_message_id,
            turn_n=marks.turn_n,
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
            current = await _game_status(tx, game_id)
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

    # --- seats --------------------------------------------------------------------------------

    async def set_seats(
        self, game_id: int, seats: Iterable[Seat], *, fence: Fence | None = None
    ) -> list[SeatRow]:
        """Replace the game's seats; only while it is in its lobby (seats are fixed once live)."""
        seat_list = sorted(seats, key=lambda s: s.seat)
        _check_seats(seat_list)

        def check(status: object) -> None:
            if status is None:
                raise GameNotFound(game_id)
            if status == "fenced" and fence is not None:
                raise FencedOut(game_id, fence)
            if status != "lobby":
                raise GameStateError(f"game {game_id} has started; its seats are fixed")

        async def replace(tx: Tx) -> None:
            await check_fence(tx, game_id, fence)
            check(await _game_status(tx, game_id))
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await tx.executemany(_INSERT_SEATS, _seat_rows(game_id, seat_list))

        async def call(tx: Tx) -> None:
            # PostgreSQL: the same steps in one function call (migration 0011), one round trip.
            row = await tx.fetchone(
                SET_SEATS, (game_id, *_seat_columns(seat_list), *_fence_values(fence))
            )
            check(None if row is None else row["status"])

        try:
            if self._driver.dialect is POSTGRESQL:
                await self._driver.write(call, hot=True, single=True)
            else:
                await self._driver.write(replace, hot=True)
        except IntegrityViolation as error:
            raise ValueError(f"invalid seats for game {game_id}: {error}") from error
        return _stored_seats(game_id, seat_list)

    async def start_game(
        self,
        game_id: int,
        people: Iterable[int],
        *,
        turn_deadline: float | None,
        fence: Fence | None = None,
    ) -> set[int]:
        """A lobby's Start: the game goes live, with the deadline of its first decision (None:
        no timer). Returns which of ``people`` have autoplay on (see autoplay_users), read in
        the same trip. Raises GameStateError unless the game is in its lobby, FencedOut (nothing
        stored) once the game's shard has a newer holder."""
        wanted = sorted(set(people))
        now = self._now()

        def check(status: object) -> None:
            if status is None:
                raise GameNotFound(game_id)
            if status == "fenced" and fence is not None:
                raise FencedOut(game_id, fence)
            if status != "lobby":
                raise GameStateError(f"game {game_id} has already started or ended")

        async def start(tx: Tx) -> set[int]:
            await check_fence(tx, game_id, fence)
            check(await _game_status(tx, game_id))
            await tx.execute(
                "UPDATE games SET status = 'live', started_at = ?, updated_at = ?,"
                " turn_deadline = ? WHERE id = ?",
                (now, now, turn_deadline, game_id),
            )
            if not wanted:
                return set()
            marks = ", ".join("?" * len(wanted))
            rows = await tx.fetchall(
                f"SELECT user_id FROM player_prefs WHERE autoplay = 1 AND user_id IN ({marks})",
                wanted,
            )
            return {int(row["user_id"]) for row in rows}

        async def call(tx: Tx) -> set[int]:
            # PostgreSQL: the same steps in one function call (migration 0011), one round trip.
            row = await tx.fetchone(
                START_GAME, (game_id, now, turn_deadline, wanted, *_fence_values(fence))
            )
            check(None if row is None else row["status"])
            assert row is not None
            return {int(user_id) for user_id in row["autoplay"]}

        if self._driver.dialect is POSTGRESQL:
            return await self._driver.write(call, hot=True, single=True)
        return await self._driver.write(start, hot=True)

    async def seats(self, game_id: int) -> list[SeatRow]:
        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )

        return [seat_from(row) for row in await self._driver.read(read)]

    async def set_seat_away(
        self, game_id: int, seat: int, away: bool, timeouts: int, *, fence: Fence | None = None
    ) -> None:
        """Record a seat's time-outs and whether the computer now plays it."""

        async def update(tx: Tx) -> None:
            await check_fence(tx, game_id, fence)
            changed = await tx.execute(
                "UPDATE seats SET away = ?, timeouts = ? WHERE game_id = ? AND seat = ?",
                (int(away), timeouts, game_id, seat),
            )
            if changed == 0:
                raise GameNotFound(game_id)

        await self._driver.write(update, hot=True)

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
        fence: Fence | None = None,
    ) -> int:
        """Store action ``n`` of the game and its new turn deadline, atomically.

        ``n`` must be exactly the number of actions already stored, else ActionConflict: a
        double click or a race can neither store a move twice nor skip one. ``turn_deadline``
        is the deadline of the next decision (None: no timer running). Returns the next index.
        """
        return await self.append_actions(
            game_id, n, [(seat, action, by_computer)], turn_deadline=turn_deadline, fence=fence
        )

    async def append_actions(
        self,
        game_id: int,
        first_n: int,
        actions: Sequence[tuple[int, str, bool]],
        *,
        turn_deadline: float | None = None,
        fence: Fence | None = None,
    ) -> int:
        """Store ``(seat, action, by_computer)`` moves as indices ``first_n``, ``first_n + 1``...

        All or nothing, e.g. a person's card and the computer cards that follow it. Same rules
        as append_action; returns the next index. ``fence``: the writer's lease of the game's
        shard; FencedOut, nothing stored, once a newer holder has it (fencing.py).
        """
        if not actions:
            raise ValueError("no actions to append")
        now = self._now()

        rows = [
            (game_id, first_n + i, seat, action, int(by_computer), now)
            for i, (seat, action, by_computer) in enumerate(actions)
        ]

        def check(found: Row | None) -> int:
            if found is None:
                raise GameNotFound(game_id)
            if found["status"] == "fenced" and fence is not None:
                raise FencedOut(game_id, fence)
            if found["status"] in ENDED_STATUSES:
                raise ActionConflict(game_id, first_n, None)
            stored = int(found["stored"])
            if first_n != stored:
                raise ActionConflict(game_id, first_n, stored)
            return stored

        async def append(tx: Tx) -> int:
            # One trip for the game's status and its count of actions. The game's row stays
            # locked to the commit (PostgreSQL), so two writers of one game count its actions
            # one after the other.
            await check_fence(tx, game_id, fence)
            stored = check(
                await tx.fetchone(
                    "SELECT status, (SELECT count(*) FROM actions WHERE game_id = games.id)"
                    f" AS stored FROM games WHERE id = ?{tx.dialect.for_update}",
                    (game_id,),
                )
            )
            try:
                await tx.executemany(
                    "INSERT INTO actions (game_id, n, seat, action, by_computer, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
            except IntegrityViolation as error:  # the schema's own guard; unreachable here
                raise ActionConflict(game_id, first_n, stored) from error
            await tx.execute(
                "UPDATE games SET updated_at = ?, turn_deadline = ? WHERE id = ?",
                (now, turn_deadline, game_id),
            )
            return first_n + len(actions)

        async def call(tx: Tx) -> int:
            # PostgreSQL: the same steps, fence first, in one function call (migration 0010),
            # one round trip.
            check(
                await tx.fetchone(
                    APPEND_ACTIONS,
                    (
                        game_id,
                        first_n,
                        [row[2] for row in rows],
                        [row[3] for row in rows],
                        [row[4] for row in rows],
                        now,
                        turn_deadline,
                        None if fence is None else fence.shard_id,
                        None if fence is None else fence.epoch,
                    ),
                )
            )
            return first_n + len(actions)

        if self._driver.dialect is POSTGRESQL:
            return await self._driver.write(call, hot=True, single=True)
        return await self._driver.write(append, hot=True)

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The game's action log in order."""

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
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
            for row in await self._driver.read(read)
        ]
