"""Issue 37: the Activity's idempotency keys are stored with the moves they made, in the same
write (migration 0012), so a key resent to another process (after a takeover) is recognised:
the write it would make again is refused whole, nothing stored. On SQLite and PostgreSQL, two
Storage objects on one database standing for two processes."""

from __future__ import annotations

import pytest

from bot.storage import KeyAnswered
from tests.storage_backends import Backend
from tests.test_storage_fencing import lobby, takeover


async def test_a_key_makes_one_move_whichever_process_writes_it(backend: Backend) -> None:
    old, new = await backend.open(), await backend.open()
    try:
        game_id = await lobby(old)
        await old.update_game(game_id, status="live")
        stale, current = await takeover(old, new)
        assert not await new.key_answered(game_id, 1000, "k1")
        # Seat 0's move under key k1, and a computer's after it, in one write.
        moves = [(0, "keep", False), (1, "keep", True)]
        assert await new.append_actions(game_id, 0, moves, fence=current, key=(1000, "k1")) == 2
        # Any process sees the key as answered; another person's same key is theirs.
        assert await old.key_answered(game_id, 1000, "k1")
        assert not await old.key_answered(game_id, 1001, "k1")
        # The same key again, even where the move would fit: refused whole, nothing stored.
        with pytest.raises(KeyAnswered):
            await new.append_actions(
                game_id, 2, [(0, "swap", False)], fence=current, key=(1000, "k1")
            )
        assert [a.action for a in await new.actions(game_id)] == ["keep", "keep"]
        # A fresh key goes through; the fence still refuses the old holder first.
        assert await new.append_actions(game_id, 2, [(2, "keep", False)], key=(1002, "k1")) == 3
        assert await new.key_answered(game_id, 1002, "k1")
        assert len(await old.actions(game_id)) == 3
        del stale
    finally:
        await old.close()
        await new.close()


async def test_forgetting_a_person_forgets_their_keys_in_ended_games(backend: Backend) -> None:
    storage = await backend.open()
    try:
        game_id = await lobby(storage)
        await storage.update_game(game_id, status="live")
        await storage.append_actions(game_id, 0, [(0, "keep", False)], key=(1000, "k"))
        await storage.abandon_game(game_id, "cancelled")
        await storage.forget_player(7, 1000)
        assert not await storage.key_answered(game_id, 1000, "k")
    finally:
        await storage.close()


async def test_a_stored_key_keeps_the_move_it_made(backend: Backend) -> None:
    """Issue 44, item 9: the key keeps its move (the first of its write, at the index it was
    stored with), so a resend with another move can be told from the same one."""
    storage = await backend.open()
    try:
        game_id = await lobby(storage)
        await storage.update_game(game_id, status="live")
        await storage.append_actions(game_id, 0, [(2, "keep", False)])
        moves = [(0, "swap", False), (1, "keep", True)]
        await storage.append_actions(game_id, 1, moves, key=(1000, "k"))
        made = await storage.key_answered(game_id, 1000, "k")
        assert made is not None
        assert (made.n, made.seat, made.action, made.by_computer) == (1, 0, "swap", False)
        assert await storage.key_answered(game_id, 1000, "other") is None
    finally:
        await storage.close()
