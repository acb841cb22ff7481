"""Ending games: results, ratings and the statistics they count toward."""

from __future__ import annotations

from bot.storage import ratings

from .driver import Queries, Row, Tx
from .fencing import check_fence, current_lease
from .values import (
    ENDED_STATUSES,
    Fence,
    FencedOut,
    FinishedGame,
    GameNotFound,
    GameResult,
    GameStateError,
    RatingChange,
    game_from,
    seat_result_from,
    validate_result,
)


class ResultQueries(Queries):
    async def finish_game(
        self, game_id: int, result: GameResult, *, fence: Fence | None = None
    ) -> bool:
        """Record the result, mark the game finished and update statistics and ratings.

        One transaction, and idempotent: a game already finished or abandoned is left alone and
        the call returns False, so no game is ever counted twice. A game is rated and counted in
        the statistics only if it was created rated and at least two seats are people; either
        way its result is kept for history. The game must be live, and the result's seats and
        player keys must be the stored seats' (ValueError otherwise). ``fence``: the
        writer's lease of the game's shard (FencedOut once it is not current; fencing.py).
        """
        validate_result(result)
        now = self._now()

        async def finish(tx: Tx) -> bool:
            await check_fence(tx, game_id, fence)
            game = await tx.fetchone(
                f"SELECT guild_id, kind, status, rated FROM games WHERE id = ?"
                f"{tx.dialect.for_update}",
                (game_id,),
            )
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
                for row in await tx.fetchall(
                    "SELECT seat, player_key FROM seats WHERE game_id = ?", (game_id,)
                )
            }
            if stored != {s.seat: s.player_key for s in result.seats}:
                raise ValueError(f"the result's seats do not match game {game_id}'s seats")
            people = sum(1 for s in result.seats if not s.is_computer)
            rated = bool(game["rated"]) and people >= 2
            changes: dict[int, tuple[float, float]] = {}
            if rated:
                changes = await self._count_result(tx, game["guild_id"], game["kind"], result, now)
            winners = set(result.winners)
            await tx.executemany(
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
            await tx.execute(
                "UPDATE games SET status = 'finished', ended_at = ?, updated_at = ?,"
                " end_reason = 'completed', hands_played = ?, rated = ?, turn_deadline = NULL,"
                " announced = 0 WHERE id = ?",
                (now, now, result.hands_played, int(rated), game_id),
            )
            return True

        # On the loop's thread like a move (SQLite): through the worker thread, the call
        # waited while every game's next move waited for the connection.
        return await self._driver.write(finish, hot=True)

    async def _count_result(
        self,
        tx: Tx,
        guild_id: int,
        kind: str,
        result: GameResult,
        now: float,
    ) -> dict[int, tuple[float, float]]:
        """Add a rated result to player_stats; returns seat -> (display before, after), each
        seat's own: two computers of one level each show their own change."""
        keys = sorted({s.player_key for s in result.seats})
        # Another game of the same players may be finishing at this moment (another process
        # on PostgreSQL): each reads the ratings the other wrote, so neither update is lost.
        await tx.lock_keys(f"rating:{guild_id}:{kind}:{key}" for key in keys)
        marks = ", ".join("?" * len(keys))
        current = {
            row["player_key"]: ratings.Rating(row["mu"], row["sigma"])
            for row in await tx.fetchall(
                f"SELECT player_key, mu, sigma FROM player_stats"
                f" WHERE guild_id = ? AND kind = ? AND player_key IN ({marks})",
                (guild_id, kind, *keys),
            )
        }
        before = {key: current.get(key, ratings.initial()) for key in keys}
        new = ratings.rate(
            [before[s.player_key] for s in result.seats], [s.place for s in result.seats]
        )
        # Two seats can share a key (two computers of one level). Each seat is rated as if it
        # were alone, from the level's rating before the game, and its line in the end message
        # shows that change of its own. The level's stored rating then moves by the mean of
        # its seats' changes (each seat a sample of how well the level plays; the best seat's
        # would only ever climb) and each seat counts as one game played.
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
        least = tx.dialect.least
        await tx.executemany(
            "INSERT INTO player_stats (guild_id, kind, player_key, name, is_computer, games, wins,"
            " hands, tricks, swaps, exchanges, best_place, mu, sigma, rating, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, kind, player_key) DO UPDATE SET"
            " name = excluded.name, games = player_stats.games + 1,"
            " wins = player_stats.wins + excluded.wins,"
            " hands = player_stats.hands + excluded.hands,"
            " tricks = player_stats.tricks + excluded.tricks,"
            " swaps = player_stats.swaps + excluded.swaps,"
            " exchanges = player_stats.exchanges + excluded.exchanges,"
            f" best_place = {least}(coalesce(player_stats.best_place, excluded.best_place),"
            " excluded.best_place),"
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
            s.seat: (before[s.player_key].display, rating.display)
            for s, rating in zip(result.seats, new, strict=True)
        }

    async def abandon_game(self, game_id: int, reason: str, *, fence: Fence | None = None) -> bool:
        """End a game without a result: never rated, never counted. Idempotent like
        finish_game (returns False if the game had already ended). ``fence`` as finish_game."""
        now = self._now()

        async def abandon(tx: Tx) -> bool:
            # One statement, the fence in it (a lobby's Cancel is one round trip, issue 31).
            fenced = "" if fence is None else f" AND {current_lease(tx)}"
            fence_values = () if fence is None else (fence.shard_id, fence.epoch)
            changed = await tx.execute(
                "UPDATE games SET status = 'abandoned', ended_at = ?, updated_at = ?,"
                " end_reason = ?, rated = 0, turn_deadline = NULL, announced = 0"
                " WHERE id = ? AND status IN ('lobby', 'live')" + fenced,
                (now, now, reason, game_id, *fence_values),
            )
            return bool(changed)

        if await self._driver.write(abandon, hot=True, single=True):
            return True

        # Nothing changed: a second read says why, only on this path.
        async def status(tx: Tx) -> Row | None:
            return await tx.fetchone("SELECT status FROM games WHERE id = ?", (game_id,))

        found = await self._driver.read(status)
        if found is None:
            raise GameNotFound(game_id)
        if fence is not None and found["status"] not in ENDED_STATUSES:
            raise FencedOut(game_id, fence)
        return False

    async def game_result(self, game_id: int) -> FinishedGame | None:
        """A finished game's stored result and rating changes (None if it did not finish)."""

        async def read(tx: Tx) -> tuple[Row | None, list[Row]]:
            found = await tx.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
            if found is None or found["status"] != "finished":
                return None, []
            return found, await tx.fetchall(
                "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            )

        found, rows = await self._driver.read(read, hot=True)
        if found is None:
            return None
        game = game_from(found)
        result = GameResult(
            winners=tuple(row["seat"] for row in rows if row["is_winner"]),
            hands_played=game.hands_played or 0,
            seats=tuple(seat_result_from(row) for row in rows),
        )
        changes = tuple(
            RatingChange(row["seat"], row["player_key"], row["rating_before"], row["rating_after"])
            for row in rows
            if row["rating_before"] is not None
        )
        return FinishedGame(game, result, changes)
