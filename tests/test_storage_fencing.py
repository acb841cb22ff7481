"""Issue 32: fenced game writes. Each write of a game carries its writer's lease epoch for the
game's shard (a ``Fence``); once a newer holder has the shard, the write is refused whole
(FencedOut) and nothing of it is stored. On SQLite and on PostgreSQL, two Storage objects on
one database standing for two processes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.storage import Fence, FencedOut, GameResult, Seat, SeatResult, Storage
from engine import Rules
from tests.storage_backends import Backend

GUILD = 7  # on shard 0 of any count: (7 >> 22) % n == 0
SHARD = 0


async def lobby(storage: Storage) -> int:
    rules = Rules.from_settings("classic", {})
    row = await storage.create_game(
        guild_id=GUILD,
        channel_id=1,
        kind=rules.game,  # type: ignore[arg-type]
        rules=rules.to_dict(),
        seed=11,
        host_id=1000,
    )
    await storage.set_seats(row.id, SEATS)
    return row.id


SEATS = [Seat(0, "p0", 1000), Seat(1, "p1", 1001), Seat(2, "p2", 1002)]


async def takeover(old: Storage, new: Storage) -> tuple[Fence, Fence]:
    """``old`` holds shard 0, its lease runs out, ``new`` takes it over: both fences."""
    assert await old.take_shards([SHARD], "old", -1.0) == {SHARD}  # expired at once
    stale = Fence(SHARD, (await old.shard_leases())[SHARD].epoch)
    assert await new.take_shards([SHARD], "new", 60.0) == {SHARD}
    current = Fence(SHARD, (await new.shard_leases())[SHARD].epoch)
    assert current.epoch == stale.epoch + 1
    return stale, current


async def test_a_stale_holders_move_is_refused_and_the_holders_goes_through(
    backend: Backend,
) -> None:
    old, new = await backend.open(), await backend.open()
    try:
        game_id = await lobby(old)
        await old.update_game(game_id, status="live")
        stale, current = await takeover(old, new)
        before = await new.game(game_id)
        with pytest.raises(FencedOut):
            await old.append_actions(
                game_id,
                0,
                [(0, "keep", False), (1, "keep", True)],
                turn_deadline=9.0,
                fence=stale,
            )
        # Nothing half-written: no action, not the deadline nor the time of the write.
        assert await new.actions(game_id) == []
        assert await new.game(game_id) == before
        assert (
            await new.append_actions(
                game_id, 0, [(0, "keep", False)], turn_deadline=9.0, fence=current
            )
            == 1
        )
        assert [(a.n, a.action) for a in await old.actions(game_id)] == [(0, "keep")]
        # The same holder renewing its lease keeps its epoch: its fence stays good.
        assert await new.take_shards([SHARD], "new", 60.0) == {SHARD}
        assert await new.append_action(game_id, 1, 1, "keep", False, fence=current) == 2
        # A process without shards writes unfenced (the single-process default).
        assert await new.append_action(game_id, 2, 2, "keep", False) == 3
    finally:
        await old.close()
        await new.close()


async def test_every_write_of_a_game_is_fenced(backend: Backend) -> None:
    """A game's other writes: its columns (one statement or a transaction), seats, a seat's
    time-outs, its end. Refused from the stale holder, with nothing changed."""
    old, new = await backend.open(), await backend.open()
    try:
        game_id = await lobby(old)
        stale, current = await takeover(old, new)
        row, seats = await new.game(game_id), await new.seats(game_id)
        refused: list[Callable[[Fence], Awaitable[object]]] = [
            lambda f: old.update_game(game_id, table_message_id=5, fence=f),  # one statement
            lambda f: old.update_game(game_id, status="live", fence=f),  # a transaction
            lambda f: old.set_seats(game_id, SEATS[:2], fence=f),
            lambda f: old.start_game(game_id, [], turn_deadline=None, fence=f),
            lambda f: old.set_seat_away(game_id, 1, True, 2, fence=f),
            lambda f: old.abandon_game(game_id, "stale", fence=f),
        ]
        for write in refused:
            with pytest.raises(FencedOut):
                await write(stale)
        assert await new.game(game_id) == row
        assert await new.seats(game_id) == seats
        # The holder's go through.
        assert (
            await new.update_game(game_id, table_message_id=5, fence=current)
        ).table_message_id == 5
        await new.set_seats(game_id, SEATS, fence=current)
        await new.set_seat_away(game_id, 1, True, 2, fence=current)
        await new.start_game(game_id, [], turn_deadline=None, fence=current)
        assert (await new.game(game_id)).status == "live"  # type: ignore[union-attr]
        result = GameResult(
            winners=(0,),
            hands_played=1,
            seats=tuple(
                SeatResult(s.seat, s.player_key, s.name, False, s.seat + 1, 1, 1, 0, 0, 0)
                for s in SEATS
            ),
        )
        with pytest.raises(FencedOut):
            await old.finish_game(game_id, result, fence=stale)
        assert (await new.game(game_id)).status == "live"  # type: ignore[union-attr]
        assert await new.finish_game(game_id, result, fence=current)
    finally:
        await old.close()
        await new.close()


async def test_a_fenced_write_of_no_game_is_still_not_found(backend: Backend) -> None:
    from bot.storage import GameNotFound

    storage = await backend.open()
    try:
        assert await storage.take_shards([SHARD], "me", 60.0) == {SHARD}
        fence = Fence(SHARD, (await storage.shard_leases())[SHARD].epoch)
        with pytest.raises(GameNotFound):
            await storage.update_game(404, table_message_id=5, fence=fence)
        with pytest.raises(GameNotFound):
            await storage.append_action(404, 0, 0, "keep", False, fence=fence)
    finally:
        await storage.close()
