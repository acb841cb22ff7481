"""Issue 7.3: one action at a time per game, and games never wait for each other."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from engine import Action, SeatView
from engine.players import choose
from fakecord import FakeDiscord
from testbed.games import HANG_GUARD, open_game, text_of, wait_for
from testbed.people import open_hand, table_message, whose_turn

from .conftest import StartBot


async def until(check: Callable[[], object], what: str) -> None:
    """Poll ``check`` until true; HANG_GUARD only fails a stuck test."""
    deadline = time.monotonic() + HANG_GUARD
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        await asyncio.sleep(0.01)


async def test_a_double_click_is_one_move(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    turn = whose_turn(fake, [alice, bob], fake.channel)
    assert turn is not None
    seat = [alice, bob].index(turn)
    hand = await open_hand(fake, turn, fake.channel)
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    assert move is not None
    before = await nines.storage.actions(game_id)
    first = await fake.click(turn, hand, move, wait=False)
    second = await fake.click(turn, hand, move, wait=False)
    await fake.settle()
    after = await nines.storage.actions(game_id)
    mine = [a for a in after[len(before) :] if a.seat == seat and not a.by_computer]
    assert len(mine) == 1
    assert first.acknowledged and second.acknowledged and not first.errors + second.errors
    # Both answers edit the same private hand: the later one says the click was out of date.
    assert first.message is second.message
    assert "out of date" in text_of(second.message)


async def test_two_people_race_for_the_last_seat(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    nines = await start_bot()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    res = await fake.slash(alice, fake.channel, "nines start")
    lobby = res.message
    assert lobby is not None
    await fake.click(alice, lobby, "+ 🤖 Easy")
    joins = [await fake.click(who, lobby, "Join", wait=False) for who in (bob, carol)]
    await fake.settle()
    session = nines.sessions.in_channel(fake.channel.id)
    assert session is not None and len(session.seats) == 3
    seated = {s.user_id for s in session.seats}
    assert (bob.id in seated) != (carol.id in seated)
    told = [m for j in joins for m in [j.response, *j.followups] if m and m.ephemeral_for]
    assert len(told) == 1 and "Every seat is taken" in text_of(told[0]), told
    assert len(await nines.storage.seats(session.id)) == 3


async def test_a_click_racing_the_timer_gives_one_move(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    turn = whose_turn(fake, [alice, bob], fake.channel)
    assert turn is not None
    seat = [alice, bob].index(turn)
    session = nines.sessions.get(game_id)
    assert session is not None
    hand = await open_hand(fake, turn, fake.channel)
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    assert move is not None
    n = session.n
    # Hold the game while its deadline passes, then click: the timer and the click both wait
    # for the game; exactly one of them makes the move.
    async with session.lock:
        # The turn's deadline passes now, as one that passed while the bot was down (a short
        # turn timer instead ran out before a loaded machine showed the table).
        assert session.deadline is not None
        session.deadline = session.deps.clock()
        session.timer.resume()
        await until(lambda: session.timer._expiry is not None, "the timer to fire")
        click = await fake.click(turn, hand, move, wait=False)
        await until(lambda: len(session.lock._waiters or ()) >= 2, "the click at the lock")  # type: ignore[attr-defined]
    await fake.settle()
    actions = await nines.storage.actions(game_id)
    row = await nines.storage.game(game_id)
    assert len(actions) > n, (row, actions, text_of(click.message))
    assert actions[n].seat == seat
    assert [a.n for a in actions if a.seat == seat and a.n >= n][:1] == [n]
    assert click.acknowledged and not click.errors
    timed_out = "the computer played for" in "".join(
        text_of(m) for m in fake.visible(alice, fake.channel)
    )
    # Whichever came first, the move was made once, the click was answered privately and the
    # table says whether the computer played.
    assert click.message is not None and click.message.ephemeral_for == turn.id
    assert timed_out or not actions[n].by_computer


async def test_a_slow_computer_does_not_delay_another_game(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    thinking = asyncio.Event()
    loop = asyncio.get_running_loop()
    # A search, in its thread, that lasts until the test has seen Bob answered.
    release, thought = threading.Event(), threading.Event()

    def slow(view: SeatView, difficulty: str, seed: int, budget: float) -> Action:
        if difficulty == "hard":
            loop.call_soon_threadsafe(thinking.set)
            release.wait(HANG_GUARD)
            thought.set()
        return choose(view, "normal", seed, budget)

    nines.computers.choose = slow
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    other = fake.add_channel(name="other")
    await fake.settle()
    await open_game(fake, bob, computers=("easy", "easy"), channel=other, start=3)
    await open_game(fake, alice, computers=("hard", "hard"), start=3)
    # Alice's move makes her game's computers think for a long time...
    alice_turn = await wait_for(fake, lambda: whose_turn(fake, [alice], fake.channel))
    assert alice_turn is alice
    hand = await open_hand(fake, alice, fake.channel)
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    thinking.clear()
    try:
        await fake.click(alice, hand, move, wait=False)
        await asyncio.wait_for(thinking.wait(), HANG_GUARD)
        # ... while Bob, in another channel, is answered before the search ends.
        table = table_message(fake, bob, other)
        assert table is not None
        res = await fake.click(bob, table, "My hand", wait=False)
        await asyncio.wait_for(res.answered.wait(), HANG_GUARD)
        assert not thought.is_set()
    finally:
        release.set()
    await fake.settle()
