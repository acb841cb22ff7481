"""Issue 7.2: turn timers, absent players, lobbies that expire; no game waits forever.

Timers are short (0.3 s, a guild setting), or one person's deadline is made to pass while the
others' stay long; every wait polls with a generous limit.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time

import pytest

import bot.game.state as state_module
from bot.game import TIMEOUTS_BEFORE_AWAY
from bot.storage import Storage
from fakecord import FakeDiscord
from fakecord.models import User
from testbed.games import HANG_GUARD, open_game, play_one, text_of, wait_for
from testbed.people import table_message, whose_turn
from testbed.reading import as_read

from .conftest import StartBot

SHORT = 0.3


def table_text(fake: FakeDiscord, user: User) -> str:
    return text_of(table_message(fake, user, fake.channel))


def channel_text(fake: FakeDiscord, user: User) -> str:
    return "".join(text_of(m) for m in fake.visible(user, fake.channel) if m.ephemeral_for is None)


async def test_a_turn_that_runs_out_is_played_by_the_computer(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    await nines.storage.set_guild_settings(fake.guild.id, {"turn_timer": SHORT})
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    people = [alice, bob]  # seats 0 and 1; nobody plays, so every person's turn runs out
    # Under load the first turn may run out (and the next) before the test looks: what the
    # channel showed is read from every version of its messages, not only the latest.
    # The table showed the deadline as a Discord relative timestamp.
    await wait_for(fake, lambda: "<t:" in shown_text(fake, alice), what="the deadline")
    timed_out = await wait_for(
        fake,
        lambda: next((u for u in people if note(u) in shown_text(fake, alice)), None),
        what="a time-out note",
    )
    seat = people.index(timed_out)
    # The note's move is the computer's, stored for that person's seat, which counts it.
    actions = await nines.storage.actions(game_id)
    assert any(a.by_computer and a.seat == seat for a in actions)
    seats = await nines.storage.seats(game_id)
    assert seats[seat].timeouts >= 1  # nobody played, so nothing reset it


def note(user: User) -> str:
    return f"the computer played for {user.name}"


def shown_text(fake: FakeDiscord, user: User) -> str:
    """Every version of every public message the channel showed ``user``."""
    return as_read(
        "".join(
            (content or "") + json.dumps(embeds, ensure_ascii=False)
            for m in fake.visible(user, fake.channel)
            if m.ephemeral_for is None
            for content, embeds in [*m.history, (m.content, m.embeds)]
        )
    )


async def test_repeated_time_outs_leave_the_seat_to_the_computer_until_i_am_back(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=9)
    session = nines.sessions.get(game_id)
    assert session is not None
    rng = random.Random(1)
    # Bob plays whenever it is his turn; Alice never does. The turn timer is the default (long),
    # so Bob's turns never run out however slow the machine (two in a row would leave nobody at
    # the table and end the game); Alice's deadline is made to pass on each of her turns, and
    # her timer fires and times her out, as a short timer would.
    deadline = time.monotonic() + HANG_GUARD
    while not session.seats[0].away:
        assert time.monotonic() < deadline, "alice was never marked away"
        assert not session.closed, "the game ended"
        if whose_turn(fake, [alice, bob], fake.channel) is bob:
            await play_one(fake, [bob], fake.channel, rng)
        n = session.n
        async with session.lock:
            due = session.game is not None and session.game.turn == 0
            if due and session.deadline is not None:
                session.deadline = session.deps.clock()
                session.timer.resume()
        if due:
            await wait_for(fake, lambda n=n: session.n != n, what="her turn to time out")
        await fake.settle()
    assert session.seats[0].timeouts >= TIMEOUTS_BEFORE_AWAY
    assert not session.closed and not session.seats[1].away and session.seats[1].timeouts == 0
    table = await wait_for(
        fake,
        lambda: (
            (t := table_message(fake, bob, fake.channel))
            and any(b.label == "I'm back" for b in t.buttons())
            and t
        ),
        what="the I'm back button",
    )
    # While away, her clicks are refused privately and change nothing.
    hand = await fake.click(alice, table, "My hand")
    assert hand.ephemeral
    # Bob cannot come back for her.
    res = await fake.click(bob, table, "I'm back")
    assert res.ephemeral and "already yours" in text_of(res.message)
    res = await fake.click(alice, table, "I'm back")
    assert res.ephemeral and "Welcome back" in text_of(res.message)
    assert not session.seats[0].away and session.seats[0].timeouts == 0
    seats = await nines.storage.seats(game_id)
    assert not seats[0].away


async def test_a_game_everyone_left_ends_unrated(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    nines = await start_bot()
    await nines.storage.set_guild_settings(fake.guild.id, {"turn_timer": SHORT})
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "normal"), start=9)
    await wait_for(
        fake,
        lambda: "ran out of time" in channel_text(fake, alice),
        what="the game ending for lack of players",
    )
    row = await nines.storage.game(game_id)
    assert row is not None and row.status == "abandoned" and not row.rated
    assert nines.sessions.get(game_id) is None and len(nines.sessions) == 0
    assert (await nines.storage.game_result(game_id)) is None


async def test_a_lobby_nobody_starts_expires(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
):
    fake = fake_discord
    monkeypatch.setattr(state_module, "LOBBY_SECONDS", SHORT)
    nines = await start_bot()
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    lobby = res.message
    await wait_for(fake, lambda: "Lobby closed" in text_of(lobby), what="the lobby to expire")
    assert not lobby.buttons()
    history = await nines.storage.history(fake.guild.id)
    assert not history or history[0].status == "abandoned"
    assert len(nines.sessions) == 0
    # The channel is free again.
    again = await fake.slash(alice, fake.channel, "nines start")
    assert again.message is not None and again.message.buttons()


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_at_start(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    first = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    due = whose_turn(fake, [alice, bob], fake.channel)
    assert due is not None
    row = await first.storage.game(game_id)
    assert row is not None and row.turn_deadline is not None  # stored, so it survives
    await first.close()
    storage = await Storage.open(fake_database(first))
    await storage.update_game(game_id, turn_deadline=time.time() - 5)
    await storage.close()

    second = await start_bot()
    await wait_for(
        fake,
        lambda: f"the computer played for {due.name}" in channel_text(fake, alice),
        what="the overdue time-out",
    )
    assert "restored" in channel_text(fake, alice)
    actions = await second.storage.actions(game_id)
    assert any(a.by_computer for a in actions)


async def test_a_game_stopped_before_its_deadline_was_stored_still_times_out(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    first = await start_bot()
    await first.storage.set_guild_settings(fake.guild.id, {"turn_timer": 60})
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    await first.close()
    storage = await Storage.open(fake_database(first))
    # As if killed between storing a move (which clears the deadline) and the next deadline.
    await storage.update_game(game_id, turn_deadline=None)
    await storage.set_guild_settings(fake.guild.id, {"turn_timer": SHORT})
    await storage.close()
    second = await start_bot()
    await wait_for(
        fake,
        lambda: "the computer played for" in channel_text(fake, alice),
        what="a time-out after a restart with no stored deadline",
    )
    people = {0, 1}
    assert any(a.by_computer and a.seat in people for a in await second.storage.actions(game_id))


def fake_database(nines: object) -> str:
    return str(nines.settings.database)  # type: ignore[attr-defined]


async def test_a_move_and_the_next_deadline_are_stored_in_one_write(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
):
    """A person's move, the computer moves after it and the next person's deadline: each move
    is one write carrying the deadline of the decision it leads to, never a write of its own."""
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "normal"), start=3)
    deadline_writes: list[object] = []
    update_game = nines.storage.update_game

    async def spied(game_id: int, **fields: object) -> object:
        if "turn_deadline" in fields:
            deadline_writes.append(fields["turn_deadline"])
        return await update_game(game_id, **fields)

    monkeypatch.setattr(nines.storage, "update_game", spied)
    rng = random.Random(5)
    for _ in range(6):
        assert await play_one(fake, [alice], fake.channel, rng) is not None
        await fake.settle()
        session = nines.sessions.get(game_id)
        assert session is not None and session.deadline is not None
        row = await nines.storage.game(game_id)
        assert row is not None and row.turn_deadline == session.deadline
    assert deadline_writes == []


async def test_a_move_that_cannot_be_stored_is_undone(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
):
    """The database fails while storing a card: the player is told, the game in memory is
    back to what the database holds, and the same card can be played again."""
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "normal"), start=3)
    session = nines.sessions.get(game_id)
    assert session is not None
    await wait_for(fake, lambda: whose_turn(fake, [alice], fake.channel), what="alice's turn")
    hand = await fake.click(alice, table_message(fake, alice, fake.channel), "My hand")
    assert hand.message is not None
    move = next(b.custom_id for b in hand.message.buttons() if not b.disabled)
    assert move is not None
    before = (session.n, [str(a) for _, a in session.game.log], session.deadline)  # type: ignore[union-attr]
    append_actions = nines.storage.append_actions

    async def broken(*args: object, **kw: object) -> int:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(nines.storage, "append_actions", broken)
    res = await fake.click(alice, hand.message, move)
    assert res.message is not None and "went wrong" in text_of(res.message), text_of(res.message)
    assert (session.n, [str(a) for _, a in session.game.log], session.deadline) == before  # type: ignore[union-attr]
    assert len(await nines.storage.actions(game_id)) == before[0]
    monkeypatch.setattr(nines.storage, "append_actions", append_actions)
    again = await fake.click(alice, hand.message, move)
    assert not again.errors and "went wrong" not in text_of(again.message)
    assert len(await nines.storage.actions(game_id)) > before[0]
