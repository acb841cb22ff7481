"""The daily deal's tries and results (issue 47): who claimed a day's deal of a game, the points
each finished try scored hand by hand, and each hand's field as counts.

A try is claimed once: the table's primary key (day, kind, user) refuses a second one on every
process at once. A finish writes the try's points and adds one to each of its hands' counts in
one transaction, so the field never holds half a result, and a finish repeated (a restart after
the write) adds nothing. Scoring reads only the counts (``engine/duplicate.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .driver import Queries, Row, Tx
from .values import GameKind, from_row


@dataclass(frozen=True, slots=True)
class DailyTry:
    """One person's try at one day's deal of one game."""

    day: str
    kind: str
    user_id: int
    guild_id: int
    channel_id: int
    name: str
    game_id: int | None
    started_at: float
    finished_at: float | None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True, slots=True)
class DailyBoard:
    """A finished try's points on one hand, with who played it (for the standings)."""

    day: str
    user_id: int
    guild_id: int
    name: str
    hand: int
    points: int


#: Each hand's field: hand -> points -> how many finished tries scored them.
FieldCounts = dict[int, dict[int, int]]

_TRY = (
    "SELECT day, kind, user_id, guild_id, channel_id, name, game_id, started_at, finished_at"
    " FROM daily_tries"
)


class DailyQueries(Queries):
    async def claim_daily(
        self,
        day: str,
        kind: GameKind,
        user_id: int,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
    ) -> tuple[DailyTry, bool]:
        """The person's try at the day's deal of ``kind``, and whether this call claimed it
        (False: it was claimed before, here or by another process: a second try is refused)."""
        now = self._now()

        async def claim(tx: Tx) -> tuple[Row, bool]:
            added = await tx.execute(
                "INSERT INTO daily_tries (day, kind, user_id, guild_id, channel_id, name,"
                " started_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (day, kind, user_id) DO NOTHING",
                (day, kind, user_id, guild_id, channel_id, name, now),
            )
            row = await tx.fetchone(
                f"{_TRY} WHERE day = ? AND kind = ? AND user_id = ?", (day, kind, user_id)
            )
            assert row is not None
            return row, added == 1

        row, claimed = await self._driver.write(claim)
        return from_row(DailyTry, row), claimed

    async def attach_daily_game(self, day: str, kind: GameKind, user_id: int, game_id: int) -> bool:
        """The game created for a claimed try; False, nothing written, if the try has a game
        already (another process made one first: one try, one game)."""

        async def attach(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE daily_tries SET game_id = ?"
                " WHERE day = ? AND kind = ? AND user_id = ? AND game_id IS NULL",
                (game_id, day, kind, user_id),
            )
            return changed == 1

        return await self._driver.write(attach)

    async def daily_try(self, day: str, kind: GameKind, user_id: int) -> DailyTry | None:
        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(
                f"{_TRY} WHERE day = ? AND kind = ? AND user_id = ?", (day, kind, user_id)
            )

        row = await self._driver.read(read)
        return None if row is None else from_row(DailyTry, row)

    async def daily_of_game(self, game_id: int) -> DailyTry | None:
        """The try a game was created for, if it is a daily."""

        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(f"{_TRY} WHERE game_id = ?", (game_id,))

        row = await self._driver.read(read)
        return None if row is None else from_row(DailyTry, row)

    async def daily_games(self, game_ids: Iterable[int]) -> set[int]:
        """Which of these games are dailies (a restart's games, to run privately)."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" * len(wanted))

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                f"SELECT game_id FROM daily_tries WHERE game_id IN ({marks})", wanted
            )

        return {int(row["game_id"]) for row in await self._driver.read(read)}

    async def finish_daily(
        self,
        day: str,
        kind: GameKind,
        user_id: int,
        points: Mapping[int, int],
        choices: Sequence[tuple[int, int, str]],
    ) -> bool:
        """A try's results join the field: its ``points`` by hand, and its ``choices`` (hand,
        decision number in the hand, action). One transaction; False, nothing written, if the
        try was finished already (or never claimed)."""
        now = self._now()

        async def finish(tx: Tx) -> bool:
            marked = await tx.execute(
                "UPDATE daily_tries SET finished_at = ?"
                " WHERE day = ? AND kind = ? AND user_id = ? AND finished_at IS NULL",
                (now, day, kind, user_id),
            )
            if marked != 1:
                return False
            await tx.executemany(
                "INSERT INTO daily_boards (day, kind, user_id, hand, points)"
                " VALUES (?, ?, ?, ?, ?)",
                [(day, kind, user_id, hand, p) for hand, p in sorted(points.items())],
            )
            await tx.executemany(
                "INSERT INTO daily_field (day, kind, hand, points, players)"
                " VALUES (?, ?, ?, ?, 1) ON CONFLICT (day, kind, hand, points)"
                " DO UPDATE SET players = daily_field.players + 1",
                [(day, kind, hand, p) for hand, p in sorted(points.items())],
            )
            await tx.executemany(
                "INSERT INTO daily_choices (day, kind, hand, decision, action, players)"
                " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (day, kind, hand, decision, action)"
                " DO UPDATE SET players = daily_choices.players + 1",
                [(day, kind, hand, n, action) for hand, n, action in sorted(set(choices))],
            )
            return True

        return await self._driver.write(finish)

    async def daily_field(self, day: str, kind: GameKind) -> FieldCounts:
        """Every hand's field of the day's deal of ``kind``: a few rows a hand."""

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                "SELECT hand, points, players FROM daily_field WHERE day = ? AND kind = ?",
                (day, kind),
            )

        counts: FieldCounts = {}
        for row in await self._driver.read(read):
            counts.setdefault(int(row["hand"]), {})[int(row["points"])] = int(row["players"])
        return counts

    async def daily_choices(
        self, day: str, kind: GameKind
    ) -> dict[tuple[int, int], dict[str, int]]:
        """How the field played each decision of the day's seat: (hand, decision) -> action ->
        how many."""

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                "SELECT hand, decision, action, players FROM daily_choices"
                " WHERE day = ? AND kind = ?",
                (day, kind),
            )

        found: dict[tuple[int, int], dict[str, int]] = {}
        for row in await self._driver.read(read):
            at = (int(row["hand"]), int(row["decision"]))
            found.setdefault(at, {})[str(row["action"])] = int(row["players"])
        return found

    async def daily_boards(
        self,
        days: Iterable[str],
        kind: GameKind,
        *,
        guild_id: int | None = None,
        public_only: bool = False,
    ) -> list[DailyBoard]:
        """The finished tries' points of these days, hand by hand: one server's people
        (``guild_id``), or everyone's; ``public_only``: only those who said yes to the board
        across servers, by the name they chose there."""
        wanted = sorted(set(days))
        if not wanted:
            return []
        marks = ", ".join("?" * len(wanted))
        name = "p.name" if public_only else "t.name"
        join = " JOIN daily_public_names AS p ON p.user_id = t.user_id" if public_only else ""
        where = f"t.kind = ? AND t.day IN ({marks}) AND t.finished_at IS NOT NULL"
        params: list[object] = [kind, *wanted]
        if guild_id is not None:
            where += " AND t.guild_id = ?"
            params.append(guild_id)

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                f"SELECT t.day, t.user_id, t.guild_id, {name} AS name, b.hand, b.points"
                f" FROM daily_tries AS t{join} JOIN daily_boards AS b"
                " ON b.day = t.day AND b.kind = t.kind AND b.user_id = t.user_id"
                f" WHERE {where}",
                params,
            )

        return [from_row(DailyBoard, row) for row in await self._driver.read(read)]

    async def set_daily_public_name(self, user_id: int, name: str | None) -> None:
        """Show the person on the board across servers under ``name``; None: not at all."""
        if name is not None:
            await self._put(
                "daily_public_names", "user_id", user_id, name=name, updated_at=self._now()
            )
            return

        async def drop(tx: Tx) -> None:
            await tx.execute("DELETE FROM daily_public_names WHERE user_id = ?", (user_id,))

        await self._driver.write(drop)

    async def daily_public_name(self, user_id: int) -> str | None:
        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(
                "SELECT name FROM daily_public_names WHERE user_id = ?", (user_id,)
            )

        row = await self._driver.read(read)
        return None if row is None else str(row["name"])
