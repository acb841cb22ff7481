"""Duplicate matches at a table of friends (issue 47): which games are the rotations of one
match. A rotation is stored once: (match, rotation) is unique, so two processes never start the
same rotation twice."""

from __future__ import annotations

from collections.abc import Iterable

from .driver import Queries, Row, Tx


class DuplicateQueries(Queries):
    async def add_duplicate_game(self, match_id: int, rotation: int, game_id: int) -> None:
        """``game_id`` is rotation ``rotation`` of the match (its first game: ``match_id``)."""

        async def add(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO duplicate_games (game_id, match_id, rotation) VALUES (?, ?, ?)",
                (game_id, match_id, rotation),
            )

        await self._driver.write(add)

    async def duplicate_of(self, game_id: int) -> tuple[int, int] | None:
        """(match, rotation) of a game that is part of a duplicate match."""

        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(
                "SELECT match_id, rotation FROM duplicate_games WHERE game_id = ?", (game_id,)
            )

        row = await self._driver.read(read)
        return None if row is None else (int(row["match_id"]), int(row["rotation"]))

    async def duplicates_of(self, game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """(match, rotation) of each of these games that is part of a duplicate match (a
        restart's games, read at once)."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                "SELECT game_id, match_id, rotation FROM duplicate_games"
                f" WHERE game_id IN ({marks})",
                wanted,
            )

        return {
            int(r["game_id"]): (int(r["match_id"]), int(r["rotation"]))
            for r in await self._driver.read(read)
        }

    async def duplicate_games(self, match_id: int) -> list[int]:
        """The match's games, by rotation."""

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetchall(
                "SELECT game_id FROM duplicate_games WHERE match_id = ? ORDER BY rotation",
                (match_id,),
            )

        return [int(row["game_id"]) for row in await self._driver.read(read)]
