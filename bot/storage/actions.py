"""A game's action log: every move, stored in order, each exactly once."""

from __future__ import annotations

from collections.abc import Sequence

from .driver import IntegrityViolation, Queries, Row, Tx
from .fencing import check_fence
from .values import (
    ENDED_STATUSES,
    ActionConflict,
    ActionRow,
    Fence,
    FencedOut,
    GameNotFound,
    KeyAnswered,
    from_row,
)

#: A move's write on PostgreSQL (migration 0012: 0007's with the writer's fence and the key).
APPEND_ACTIONS = "SELECT * FROM append_actions(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


class ActionQueries(Queries):
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
        key: tuple[int, str] | None = None,
    ) -> int:
        """Store ``(seat, action, by_computer)`` moves as indices ``first_n``, ``first_n + 1``...

        All or nothing, e.g. a person's card and the computer cards that follow it. Same rules
        as append_action; returns the next index. ``fence``: the writer's lease of the game's
        shard; FencedOut, nothing stored, once a newer holder has it (fencing.py). ``key``:
        ``(user id, idempotency key)`` of the person whose move comes first (the Activity's),
        stored with it; KeyAnswered, nothing stored, when that key made a move already.
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
            if found["status"] == "answered" and key is not None:
                raise KeyAnswered(game_id, key[1])
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
            if key is not None:
                try:
                    await tx.execute(
                        "INSERT INTO action_keys (game_id, user_id, key, n) VALUES (?, ?, ?, ?)",
                        (game_id, key[0], key[1], first_n),
                    )
                except IntegrityViolation:  # the key's primary key: it moved already
                    raise KeyAnswered(game_id, key[1]) from None  # the transaction rolls back
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
                        None if key is None else key[0],
                        None if key is None else key[1],
                    ),
                )
            )
            return first_n + len(actions)

        return await self._game_write(append, call)

    async def key_answered(self, game_id: int, user_id: int, key: str) -> ActionRow | None:
        """The move the person's idempotency key made in the game (append_actions), or None.
        The key keeps its move through the index it was stored with: the first of its write,
        the person's own (the computers' follow it)."""

        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(
                "SELECT a.* FROM action_keys AS k"
                " JOIN actions AS a ON a.game_id = k.game_id AND a.n = k.n"
                " WHERE k.game_id = ? AND k.user_id = ? AND k.key = ?",
                (game_id, user_id, key),
            )

        row = await self._driver.read(read)
        return None if row is None else from_row(ActionRow, row)

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The game's action log in order."""

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                "SELECT * FROM actions WHERE game_id = ? ORDER BY n", (game_id,)
            )

        return [from_row(ActionRow, row) for row in await self._driver.read(read)]
