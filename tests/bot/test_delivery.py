"""The presenter's notebook (cogs/nines/delivery.py): it, not the session, says which messages
stand for a game, and storage keeps its marks in one call, read back after a restart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.storage import DeliveryMarks, GameNotFound, Storage
from tests.fakecord import FakeDiscord

from .conftest import StartBot
from .notebook import delivery
from .people import table_message, turn_messages
from .robust import open_game, play_one, wait_for


async def test_marks_saved_in_one_call_read_back(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    try:
        game = await storage.create_game(
            guild_id=1, channel_id=2, kind="nines", rules={}, seed=7, host_id=3
        )
        assert await storage.load_delivery(game.id) == DeliveryMarks()  # 0004's defaults
        marks = DeliveryMarks(
            table_message_id=10, table_hand=2, shown_hands=1, turn_message_id=11, turn_n=40
        )
        await storage.save_delivery(game.id, marks)
        assert await storage.load_delivery(game.id) == marks
        row = await storage.game(game.id)
        assert row is not None and row.table_message_id == 10 and row.turn_n == 40
        with pytest.raises(GameNotFound):
            await storage.load_delivery(game.id + 1)
    finally:
        await storage.close()


async def test_the_notebook_names_the_standing_messages_and_is_stored(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    rng = random.Random(5)
    for _ in range(4):
        assert await play_one(fake, [alice, bob], fake.channel, rng) is not None
    await fake.settle()
    session = nines.sessions.get(game_id)
    assert session is not None
    assert not hasattr(session, "table_message_id")  # the session plays; the presenter tells
    notebook = delivery(session)
    table = await wait_for(fake, lambda: table_message(fake, alice, fake.channel))
    assert notebook.table_message_id == table.id
    pings = turn_messages(fake, alice, fake.channel)
    assert [m.id for m in pings] == ([notebook.turn_message_id] if pings else [])
    assert await nines.storage.load_delivery(game_id) == notebook.marks()
