"""Reading what ended games left behind (statistics, the leaderboard, history) and forgetting a
player in it."""

from __future__ import annotations

from .driver import Queries, Row, Tx
from .values import (
    FORMER_PLAYER_KEY,
    FORMER_PLAYER_NAME,
    GameKind,
    GameRow,
    HistoryPlayer,
    HistoryRow,
    StatsRow,
    copied,
    from_row,
    game_from,
    player_key,
    stats_from,
)


class HistoryQueries(Queries):
    async def stats(self, guild_id: int, game: GameKind, player_key: str) -> StatsRow | None:
        async def read(tx: Tx) -> Row | None:
            return await tx.fetchone(
                "SELECT * FROM player_stats WHERE guild_id = ? AND kind = ? AND player_key = ?",
                (guild_id, game, player_key),
            )

        row = await self._driver.read(read)
        return None if row is None else stats_from(row)

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

        async def read(tx: Tx) -> tuple[list[Row], int]:
            total = await tx.fetchone(
                f"SELECT count(*) AS total FROM player_stats WHERE {where}", params
            )
            assert total is not None
            rows = await tx.fetchall(
                f"SELECT * FROM player_stats WHERE {where}"
                " ORDER BY rating DESC, wins DESC, games ASC, player_key LIMIT ? OFFSET ?",
                (*params, per_page, (page - 1) * per_page),
            )
            return rows, int(total["total"])

        rows, total = await self._driver.read(read)
        return [stats_from(row) for row in rows], total

    async def history(
        self,
        guild_id: int,
        *,
        player_key: str | None = None,
        game: GameKind | None = None,
        limit: int = 10,
    ) -> list[HistoryRow]:
        """The guild's most recently ended games (finished or abandoned), newest first,
        optionally only those where ``player_key`` sat or of one game kind. A lobby that
        never started (cancelled, expired) was no game: not listed."""
        # "ended_at IS NOT NULL" lets the database use the partial index games_guild_ended.
        conditions = [
            "g.guild_id = ?",
            "g.ended_at IS NOT NULL",
            "g.status IN ('finished', 'abandoned')",
            "g.started_at IS NOT NULL",
            # A daily deal is played privately; its standings are its record (bot/game/daily.py).
            "NOT EXISTS (SELECT 1 FROM daily_tries d WHERE d.game_id = g.id)",
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

        async def read(tx: Tx) -> tuple[list[GameRow], list[Row]]:
            games = [
                game_from(row)
                for row in await tx.fetchall(
                    f"SELECT g.* FROM games g WHERE {' AND '.join(conditions)}"
                    " ORDER BY g.ended_at DESC, g.id DESC LIMIT ?",
                    (*params, limit),
                )
            ]
            if not games:
                return [], []
            marks = ", ".join("?" * len(games))
            # A finished game's results name its players as they finished; an abandoned game
            # has only its seats.
            players = await tx.fetchall(
                f"SELECT s.game_id, s.seat, coalesce(r.player_key, s.player_key) AS player_key,"
                f" coalesce(r.name, s.name) AS name, s.is_computer, r.place, r.final_score,"
                f" coalesce(r.is_winner, 0) AS is_winner"
                f" FROM seats s LEFT JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
                f" WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.seat",
                [g.id for g in games],
            )
            return games, players

        games, players = await self._driver.read(read)
        by_game: dict[int, list[Row]] = {}
        for row in players:
            by_game.setdefault(row["game_id"], []).append(row)
        return [_history_row(g, by_game.get(g.id, [])) for g in games]

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        """Delete the user's statistics and ratings in this guild and anonymise them in the
        guild's ended games, so the other players' records stay whole; delete their own
        preferences (kept per person, not per guild).

        Games still open are left as they are (the player is seated and may be playing); the
        bot should end or leave them first. Returns the number of rows changed.
        """
        key = player_key(user_id, None)
        ended_games = (
            "SELECT id FROM games WHERE guild_id = ? AND ended_at IS NOT NULL"
            " AND status IN ('finished', 'abandoned')"
        )
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
            # The Activity's keys of their moves in the guild's ended games (bot/activity/hub.py).
            (
                f"DELETE FROM action_keys WHERE user_id = ? AND game_id IN ({ended_games})",
                (user_id, guild_id),
            ),
            # The person's own preferences (every server's: they are kept per person), their
            # name on every server's daily standings among them.
            ("DELETE FROM player_prefs WHERE user_id = ?", (user_id,)),
            ("DELETE FROM daily_public_names WHERE user_id = ?", (user_id,)),
            # Their daily tries started here: nameless now. The try stays (one a day: a second
            # would be the price of forgetting), and its hands stay in the fields, as counts.
            (
                "UPDATE daily_tries SET name = ? WHERE user_id = ? AND guild_id = ?",
                (FORMER_PLAYER_NAME, user_id, guild_id),
            ),
            (
                # host_id is NOT NULL; 0 is no Discord snowflake, so it names nobody.
                "UPDATE games SET host_id = 0 WHERE host_id = ? AND guild_id = ?"
                " AND ended_at IS NOT NULL AND status IN ('finished', 'abandoned')",
                (user_id, guild_id),
            ),
        ]

        async def forget(tx: Tx) -> int:
            return sum([await tx.execute(sql, params) for sql, params in statements])

        return await self._driver.write(forget)


def _history_row(game: GameRow, seat_rows: list[Row]) -> HistoryRow:
    assert game.ended_at is not None
    # The game's own columns, by name; the seats' rows give the rest.
    return copied(
        HistoryRow,
        game,
        game_id=game.id,
        winners=tuple(row["seat"] for row in seat_rows if row["is_winner"]),
        players=tuple(from_row(HistoryPlayer, row) for row in seat_rows),
    )
