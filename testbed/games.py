"""Games through the double, as the robustness tests (issue 7) and the benchmarks drive them: set
up quickly, raw clicks, played to the end, waiting on what people see."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any, Final

from fakecord import FakeDiscord
from fakecord.interactions import MESSAGE_COMPONENT, Interaction
from fakecord.models import Channel, Message, User

from .people import enabled_moves, end_message, table_message, whose_turn
from .reading import as_read

#: How long a wait on a bot process may last before the test calls it stuck. Not a figure of
#: speed: each such wait ends on what it waits for (an event of the double, the bot's own
#: answer); a starved process (the suite's eight workers on two cores, each starting bots of
#: its own) is slow, not stuck, and a deadline near the usual time failed it now and then.
HANG_GUARD: Final = 120.0


def text_of(message: Message | None) -> str:
    """Everything a person reads on a message: content and embeds (names as read, without
    their bidi isolates and escapes: ``testbed.reading.as_read``)."""
    if message is None:
        return ""
    return as_read((message.content or "") + json.dumps(message.embeds, ensure_ascii=False))


async def wait_for(
    fake: FakeDiscord, check: Callable[[], Any], *, within: float = HANG_GUARD, what: str = ""
) -> Any:
    """settle() until ``check()`` is truthy (the bot may work a while without a request)."""
    deadline = time.monotonic() + within
    while True:
        await fake.settle()
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what or check}")
        await asyncio.sleep(0.02)


async def open_game(
    fake: FakeDiscord,
    host: User,
    *,
    people: tuple[User, ...] = (),
    computers: tuple[str, ...] = (),
    channel: Channel | None = None,
    **options: Any,
) -> int:
    """A lobby in ``channel`` with these people and computer levels, started by ``host``;
    returns the game's id."""
    channel = channel or fake.channel
    res = await fake.slash(host, channel, "nines start", **options)
    assert not res.errors and res.message is not None, res.errors
    lobby = res.message
    game_id = game_id_of(lobby)
    for person in people:
        await fake.click(person, lobby, "Join")
    for level in computers:
        await fake.click(host, lobby, f"nines:1:lobby:{game_id}:cpu-{level}")
    start = await fake.click(host, lobby, "Start")
    assert not start.errors, start.errors
    await wait_for(fake, lambda: table_message(fake, host, channel), what="the table")
    return game_id


def game_id_of(message: Message) -> int:
    for button in message.buttons():
        if button.custom_id and button.custom_id.startswith("nines:1:"):
            return int(button.custom_id.split(":")[3])
    raise AssertionError("no game button on that message")


async def raw_click(
    fake: FakeDiscord,
    user: User,
    message: Message,
    custom_id: str,
    *,
    wait: bool = True,
) -> Interaction:
    """A component interaction with any custom_id on ``message``: what a modified client (or
    a forged request) can send, whatever buttons the message really has."""
    channel = fake.store.channel(message.channel_id)
    data = {"custom_id": custom_id, "component_type": 2}
    return await fake._interact(MESSAGE_COMPONENT, user, channel, data, wait=wait, source=message)


async def play_one(
    fake: FakeDiscord, users: list[User], channel: Channel, rng: random.Random
) -> tuple[User, Interaction] | None:
    """The person named on the table opens their hand and clicks a legal move (a Joker call
    too). Returns who and the move's interaction, or None when the game is over."""
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        if end_message(fake, users[0], channel) is not None:
            return None
        user = await wait_for(
            fake,
            lambda: whose_turn(fake, users, channel) or end_message(fake, users[0], channel),
            what="someone's turn",
        )
        if not isinstance(user, User):
            return None
        table = table_message(fake, user, channel)
        assert table is not None
        opened = await fake.click(user, table, "My hand")
        assert not opened.errors and opened.message is not None, opened.errors
        moves = enabled_moves(opened.message)
        if moves:
            break
        await asyncio.sleep(0.05)  # the table was a moment behind: look again
    else:
        raise AssertionError(f"no move to make: {text_of(opened.message)}")
    res = await fake.click(user, opened.message, rng.choice(moves))
    assert not res.errors, res.errors
    calls = [b.custom_id for b in (res.message.buttons() if res.message else ()) if b.custom_id]
    calls = [c for c in calls if ":joker:" in c]
    if calls:
        res = await fake.click(user, res.message, rng.choice(calls))  # type: ignore[arg-type]
        assert not res.errors, res.errors
    return user, res


async def finish(
    fake: FakeDiscord, users: list[User], channel: Channel, *, seed: int = 1, limit: int = 3000
) -> Message:
    """Everyone plays until the game-over message."""
    rng = random.Random(seed)
    for _ in range(limit):
        if await play_one(fake, users, channel, rng) is None:
            ended: Message = await wait_for(
                fake, lambda: end_message(fake, users[0], channel), what="the end message"
            )
            return ended
    raise AssertionError("the game did not end")
