"""A game's seats: who sits where, set while it is in its lobby, then its start; and the seats'
time-outs once it is live."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .driver import IntegrityViolation, Queries, Row, Tx
from .fencing import check_fence, fence_values, locked_status
from .values import Fence, FencedOut, GameNotFound, GameStateError, Seat, SeatRow, copied, seat_from

#: A lobby's writes on PostgreSQL (migration 0011), one round trip each, fenced as a move's.
SET_SEATS = "SELECT set_seats(?, ?, ?, ?, ?, ?, ?, ?, ?) AS status"
START_GAME = "SELECT * FROM start_game(?, ?, ?, ?, ?, ?)"

INSERT_SEATS = (
    "INSERT INTO seats (game_id, seat, player_key, user_id, name, is_computer, difficulty)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def check_seats(seats: Sequence[Seat]) -> None:
    """What the database would refuse half-way: a seat number or a person twice."""
    numbers = [s.seat for s in seats]
    people = [s.user_id for s in seats if s.user_id is not None]
    if len(set(numbers)) != len(numbers) or len(set(people)) != len(people):
        raise ValueError(f"invalid seats: {list(seats)}")


def seat_columns(seats: Sequence[Seat]) -> list[list[Any]]:
    """The seats as the PostgreSQL functions take them: one array per column."""
    return [
        [s.seat for s in seats],
        [s.player_key for s in seats],
        [s.user_id for s in seats],
        [s.name for s in seats],
        [int(s.is_computer) for s in seats],
        [s.difficulty for s in seats],
    ]


def seat_rows(game_id: int, seats: Sequence[Seat]) -> list[tuple[Any, ...]]:
    return [
        (game_id, s.seat, s.player_key, s.user_id, s.name, int(s.is_computer), s.difficulty)
        for s in seats
    ]


def stored_seats(game_id: int, seats: Sequence[Seat]) -> list[SeatRow]:
    """What a lobby's fresh seats are once stored: nobody away, no time-outs yet."""
    return [copied(SeatRow, s, game_id=game_id, away=False, timeouts=0) for s in seats]


def in_lobby(game_id: int, status: object, fence: Fence | None, refusal: str) -> None:
    """What a lobby's write found of its game (``status``; None: no such game, "fenced": a
    newer lease holds its shard): GameStateError(``refusal``) unless it is in its lobby."""
    if status is None:
        raise GameNotFound(game_id)
    if status == "fenced" and fence is not None:
        raise FencedOut(game_id, fence)
    if status != "lobby":
        raise GameStateError(refusal)


class SeatQueries(Queries):
    # --- seats --------------------------------------------------------------------------------

    async def set_seats(
        self, game_id: int, seats: Iterable[Seat], *, fence: Fence | None = None
    ) -> list[SeatRow]:
        """Replace the game's seats; only while it is in its lobby (seats are fixed once live)."""
        seat_list = sorted(seats, key=lambda s: s.seat)
        check_seats(seat_list)

        def check(status: object) -> None:
            in_lobby(game_id, status, fence, f"game {game_id} has started; its seats are fixed")

        async def replace(tx: Tx) -> None:
            await check_fence(tx, game_id, fence)
            check(await locked_status(tx, game_id))
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await tx.executemany(INSERT_SEATS, seat_rows(game_id, seat_list))

        async def call(tx: Tx) -> None:
            # PostgreSQL: the same steps in one function call (migration 0011), one round trip.
            row = await tx.fetchone(
                SET_SEATS, (game_id, *seat_columns(seat_list), *fence_values(fence))
            )
            check(None if row is None else row["status"])

        try:
            await self._game_write(replace, call)
        except IntegrityViolation as error:
            raise ValueError(f"invalid seats for game {game_id}: {error}") from error
        return stored_seats(game_id, seat_list)

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
            in_lobby(game_id, status, fence, f"game {game_id} has already started or ended")

        async def start(tx: Tx) -> set[int]:
            await check_fence(tx, game_id, fence)
            check(await locked_status(tx, game_id))
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
                START_GAME, (game_id, now, turn_deadline, wanted, *fence_values(fence))
            )
            check(None if row is None else row["status"])
            assert row is not None
            return {int(user_id) for user_id in row["autoplay"]}

        return await self._game_write(start, call)

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
