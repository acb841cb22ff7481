"""A tournament's state (issue 48): its settings and status, who registered, each round's
tables as paired, and how each table's game ended. Stored like a game's so a restart or a
failover loses nothing; each step that must happen once (pair a round, open a table's game,
end a table) is a conditional write that tells the caller whether it was the one."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from .driver import Queries, Tx
from .tournament_values import (
    OPEN_TOURNAMENT,
    Entrant,
    PairedTable,
    TournamentRow,
    TournamentSpec,
    TournamentStatus,
    boards_text,
    entrant_from,
    players_text,
    table_from,
    tournament_from,
)

_OPEN = ", ".join(f"'{s}'" for s in OPEN_TOURNAMENT)


class TournamentQueries(Queries):
    async def create_tournament(self, spec: TournamentSpec) -> TournamentRow:
        now = self._now()

        async def write(tx: Tx) -> TournamentRow:
            row = await tx.fetchone(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, name, ruleset, settings,"
                " seats, rounds, move_timer, round_minutes, duplicate, champion_role_id, language,"
                " seed, start_at, break_minutes, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    spec.guild_id,
                    spec.channel_id,
                    spec.host_id,
                    spec.name,
                    spec.ruleset,
                    json.dumps(spec.settings, sort_keys=True),
                    spec.seats,
                    spec.rounds,
                    spec.move_timer,
                    spec.round_minutes,
                    int(spec.duplicate),
                    spec.champion_role_id,
                    spec.language,
                    spec.seed,
                    spec.start_at,
                    spec.break_minutes,
                    now,
                    now,
                ),
            )
            assert row is not None
            return tournament_from(row)

        return await self._driver.write(write)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        async def read(tx: Tx) -> TournamentRow | None:
            row = await tx.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
            return None if row is None else tournament_from(row)

        return await self._driver.read(read)

    async def open_tournaments(self, guild_id: int | None = None) -> list[TournamentRow]:
        """Tournaments not yet over (all guilds', or one guild's), oldest first."""
        where = f"status IN ({_OPEN})" + ("" if guild_id is None else " AND guild_id = ?")

        async def read(tx: Tx) -> list[TournamentRow]:
            rows = await tx.fetchall(
                f"SELECT * FROM tournaments WHERE {where} ORDER BY id",
                () if guild_id is None else (guild_id,),
            )
            return [tournament_from(r) for r in rows]

        return await self._driver.read(read)

    async def set_tournament_messages(
        self,
        tournament_id: int,
        *,
        registration_message_id: int | None = None,
        event_id: int | None = None,
    ) -> None:
        """Remember the registration message and the scheduled event (None: left as is)."""

        async def write(tx: Tx) -> None:
            await tx.execute(
                "UPDATE tournaments SET registration_message_id ="
                " COALESCE(?, registration_message_id), event_id = COALESCE(?, event_id),"
                " updated_at = ? WHERE id = ?",
                (registration_message_id, event_id, self._now(), tournament_id),
            )

        await self._driver.write(write)

    async def set_tournament_status(
        self,
        tournament_id: int,
        status: TournamentStatus,
        *,
        was: Sequence[TournamentStatus],
    ) -> bool:
        """Move the tournament to ``status`` if it is in one of ``was``; whether it did. The
        time of the next round is kept (a pause during a break keeps it)."""
        marks = ", ".join("?" * len(was))

        async def write(tx: Tx) -> bool:
            changed = await tx.execute(
                f"UPDATE tournaments SET status = ?, updated_at = ?"
                f" WHERE id = ? AND status IN ({marks})",
                (status, self._now(), tournament_id, *was),
            )
            return changed == 1

        return await self._driver.write(write)

    # -- registration ---------------------------------------------------------------------

    async def join_tournament(
        self, tournament_id: int, user_id: int, name: str, first_round: int
    ) -> bool:
        """Register the person (again, after leaving: from ``first_round``); False if they are
        registered and playing already."""

        async def write(tx: Tx) -> bool:
            row = await tx.fetchone(
                "SELECT dropped_round FROM tournament_players"
                " WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            if row is None:
                await tx.execute(
                    "INSERT INTO tournament_players (tournament_id, user_id, name, joined_at,"
                    " first_round) VALUES (?, ?, ?, ?, ?)",
                    (tournament_id, user_id, name, self._now(), first_round),
                )
                return True
            if row["dropped_round"] is None:
                return False
            await tx.execute(
                "UPDATE tournament_players SET dropped_round = NULL, first_round = ?, name = ?"
                " WHERE tournament_id = ? AND user_id = ?",
                (first_round, name, tournament_id, user_id),
            )
            return True

        return await self._driver.write(write)

    async def leave_tournament(self, tournament_id: int, user_id: int, from_round: int) -> bool:
        """Stop pairing the person from ``from_round`` (their played games stand). Before any
        round they leave the list altogether. False if they were not playing."""

        async def write(tx: Tx) -> bool:
            if from_round <= 1:
                return (
                    await tx.execute(
                        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?"
                        " AND dropped_round IS NULL",
                        (tournament_id, user_id),
                    )
                    == 1
                )
            changed = await tx.execute(
                "UPDATE tournament_players SET dropped_round = ?"
                " WHERE tournament_id = ? AND user_id = ? AND dropped_round IS NULL",
                (from_round, tournament_id, user_id),
            )
            return changed == 1

        return await self._driver.write(write)

    async def check_in(self, tournament_id: int, user_id: int) -> bool:
        async def write(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournament_players SET checked_in = 1"
                " WHERE tournament_id = ? AND user_id = ? AND dropped_round IS NULL",
                (tournament_id, user_id),
            )
            return changed == 1

        return await self._driver.write(write)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """Everyone who registered (dropped ones too), in order of registration."""

        async def read(tx: Tx) -> list[Entrant]:
            rows = await tx.fetchall(
                "SELECT * FROM tournament_players WHERE tournament_id = ?"
                " ORDER BY joined_at, user_id",
                (tournament_id,),
            )
            return [entrant_from(r) for r in rows]

        return await self._driver.read(read)

    # -- rounds ---------------------------------------------------------------------------

    async def pair_round(
        self,
        tournament_id: int,
        round_number: int,
        tables: Sequence[PairedTable],
        deadline: float,
    ) -> bool:
        """Store round ``round_number``'s tables and move the tournament to it, all at once, if
        it is running at the round before; False (nothing written) otherwise: the round was
        paired already, by this process before a restart or by another."""

        async def write(tx: Tx) -> bool:
            moved = await tx.execute(
                "UPDATE tournaments SET current_round = ?, round_deadline = ?,"
                " next_round_at = NULL, updated_at = ?"
                " WHERE id = ? AND current_round = ? AND status = 'running'",
                (round_number, deadline, self._now(), tournament_id, round_number - 1),
            )
            if moved != 1:
                return False
            await tx.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, table_no, seed, players)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (tournament_id, round_number, t.table_no, t.seed, players_text(t.players))
                    for t in tables
                ],
            )
            return True

        return await self._driver.write(write)

    async def tournament_tables(
        self, tournament_id: int, round_number: int | None = None
    ) -> list[PairedTable]:
        """Every round's tables (or one round's), in round and table order."""
        where = "tournament_id = ?" + ("" if round_number is None else " AND round = ?")
        params = (tournament_id,) if round_number is None else (tournament_id, round_number)

        async def read(tx: Tx) -> list[PairedTable]:
            rows = await tx.fetchall(
                f"SELECT * FROM tournament_tables WHERE {where} ORDER BY round, table_no", params
            )
            return [table_from(r) for r in rows]

        return await self._driver.read(read)

    async def attach_table_game(
        self, tournament_id: int, round_number: int, table_no: int, game_id: int, thread_id: int
    ) -> bool:
        """Record the game a table plays (and mark the game a tournament game), if the table
        has none yet; False if it had one."""

        async def write(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournament_tables SET game_id = ?, thread_id = ?"
                " WHERE tournament_id = ? AND round = ? AND table_no = ? AND game_id IS NULL",
                (game_id, thread_id, tournament_id, round_number, table_no),
            )
            if changed == 1:
                await tx.execute(
                    "UPDATE games SET tournament_id = ? WHERE id = ?", (tournament_id, game_id)
                )
            return changed == 1

        return await self._driver.write(write)

    async def set_table_thread(
        self, tournament_id: int, round_number: int, table_no: int, thread_id: int
    ) -> int:
        """Remember the thread opened for a table, the moment it exists (a restart then opens
        the table's game in it rather than in a second thread); the table's thread, this one
        or one stored before."""

        async def write(tx: Tx) -> int:
            await tx.execute(
                "UPDATE tournament_tables SET thread_id = ?"
                " WHERE tournament_id = ? AND round = ? AND table_no = ? AND thread_id IS NULL",
                (thread_id, tournament_id, round_number, table_no),
            )
            row = await tx.fetchone(
                "SELECT thread_id FROM tournament_tables"
                " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (tournament_id, round_number, table_no),
            )
            assert row is not None
            return int(row[0])

        return await self._driver.write(write)

    async def mark_table_called(self, tournament_id: int, round_number: int, table_no: int) -> None:
        """The table's people were pinged in its thread: a restart does not ping them again."""

        async def write(tx: Tx) -> None:
            await tx.execute(
                "UPDATE tournament_tables SET called = 1"
                " WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (tournament_id, round_number, table_no),
            )

        await self._driver.write(write)

    async def mark_round_shown(
        self, tournament_id: int, round_number: int, next_round_at: float | None
    ) -> bool:
        """The round's standings were posted: stored with the time of the next round (None: at
        once, or the end), once; False if they had been marked already."""

        async def write(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournaments SET shown_round = ?, next_round_at = ?, updated_at = ?"
                " WHERE id = ? AND shown_round < ?",
                (round_number, next_round_at, self._now(), tournament_id, round_number),
            )
            return changed == 1

        return await self._driver.write(write)

    async def finish_table(
        self,
        tournament_id: int,
        round_number: int,
        table_no: int,
        scores: Sequence[int],
        boards: Sequence[Mapping[int, int]] | None = None,
    ) -> bool:
        """Record a table's final scores by seat position (and each position's points by hand),
        once; False if it had ended."""

        async def write(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournament_tables SET scores = ?, boards = ?"
                " WHERE tournament_id = ? AND round = ? AND table_no = ? AND scores IS NULL",
                (
                    ",".join(map(str, scores)),
                    None if boards is None else boards_text(boards),
                    tournament_id,
                    round_number,
                    table_no,
                ),
            )
            return changed == 1

        return await self._driver.write(write)

    async def tournament_of_game(self, game_id: int) -> int | None:
        """The tournament a game belongs to, if any."""

        async def read(tx: Tx) -> int | None:
            row = await tx.fetchone("SELECT tournament_id FROM games WHERE id = ?", (game_id,))
            return None if row is None or row[0] is None else int(row[0])

        return await self._driver.read(read)
