"""The fence on gateway sessions: a process never keeps a session on a shard it does not hold,
and never answers a click for a shard another process holds (issue 32)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest

from bot.base import discord_internals
from bot.process.shards import ShardedNinesBot, ShardLeases, shard_of
from bot.storage import Fence
from cogs.nines.opening import Opening


class FakeShard:
    def __init__(self) -> None:
        self.disconnected = False

    async def disconnect(self) -> None:
        self.disconnected = True


class FakeBot:
    """What ShardedNinesBot._launch/_fence/dispatch touch, and nothing else."""

    def __init__(self, held: set[int]) -> None:
        self.leases = SimpleNamespace(held=frozenset(held))
        self.shard_count = 2
        self.shard_ids: list[int] = []
        self.shards: dict[int, FakeShard] = {}
        self._fencing: set[asyncio.Task[None]] = set()
        self.dispatched: list[str] = []

    def get_shard(self, shard_id: int) -> FakeShard | None:
        return self.shards.get(shard_id)

    _fence = ShardedNinesBot._fence
    _launch = ShardedNinesBot._launch


async def test_a_connection_completing_after_its_handback_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's log: the shard is handed back while the takeover's connection is being
    made (waiting for the IDENTIFY slot); the session must not stay open."""
    bot = FakeBot({1})

    async def launch_shard(client: Any, shard_id: int) -> None:
        client.leases.held = frozenset()  # handed back meanwhile
        client.shards[shard_id] = FakeShard()  # the connection completes

    monkeypatch.setattr(discord_internals, "set_shards", lambda *args: None)
    monkeypatch.setattr(discord_internals, "launch_shard", launch_shard)
    await bot._launch([1])
    await asyncio.gather(*bot._fencing)
    assert bot.shards[1].disconnected


async def test_a_held_shard_keeps_its_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = FakeBot({1})

    async def launch_shard(client: Any, shard_id: int) -> None:
        client.shards[shard_id] = FakeShard()

    monkeypatch.setattr(discord_internals, "set_shards", lambda *args: None)
    monkeypatch.setattr(discord_internals, "launch_shard", launch_shard)
    await bot._launch([1])
    assert not bot._fencing and not bot.shards[1].disconnected


async def test_a_reconnect_on_a_shard_no_longer_held_is_closed() -> None:
    """discord.py reconnects a shard on its own and dispatches shard_connect at READY."""
    bot = FakeBot(set())
    bot.shards[0] = FakeShard()
    bot._fence(0)
    await asyncio.gather(*bot._fencing)
    assert bot.shards[0].disconnected


class Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, *, ephemeral: bool) -> None:
        self.sent.append(text)


class Storage:
    def __init__(self, row: object) -> None:
        self.row = row

    async def game(self, game_id: int) -> object:
        return self.row


def click(guild_id: int) -> Any:
    return SimpleNamespace(guild_id=guild_id, locale="en-US", response=Response())


@pytest.mark.parametrize(("held", "answered"), [(True, True), (False, False)])
async def test_only_the_holder_answers_for_an_unknown_game(held: bool, answered: bool) -> None:
    guild_id = 1 << 22
    leases = ShardLeases(None, 2, ())  # type: ignore[arg-type]
    leases.held = frozenset({shard_of(guild_id, 2)} if held else ())
    leases.sure_until = time.monotonic() + 15  # renewed just now
    opening = Opening(None, Storage(None), leases.serves)  # type: ignore[arg-type]
    interaction = click(guild_id)
    await opening.unknown_game(interaction, 7)
    assert bool(interaction.response.sent) is answered


@pytest.mark.parametrize(
    ("row", "sentence"),
    [
        (None, "I do not know that game (the button is not from a game of mine)."),
        (
            SimpleNamespace(is_open=False),
            "That game is over: its result is in the end message of its channel, and"
            " /nines record gives the whole game.",
        ),
    ],
)
async def test_over_is_said_only_of_a_game_that_is_over(row: object, sentence: str) -> None:
    opening = Opening(None, Storage(row), None)  # type: ignore[arg-type]
    interaction = click(1 << 22)
    await opening.unknown_game(interaction, 7)
    assert interaction.response.sent == [sentence]


class Restoring:
    """Sessions whose restore brings game 7 back once ``release`` is set: a quick restore
    as soon as a click waits for it, a long one only once the click was deferred (by then
    its wait, RESTORE_WAIT, ran out)."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.release = asyncio.Event()
        self.games: dict[int, object] = {}
        self.done = asyncio.Event()
        self.restoring = True

    def get(self, game_id: int) -> object | None:
        return self.games.get(game_id)

    async def restore(self) -> None:
        await self.release.wait()
        self.games[7] = "the game"
        self.restoring = False
        self.done.set()

    async def restored(self, within: float) -> bool:
        if self.quick:
            self.release.set()
        try:
            await asyncio.wait_for(self.done.wait(), within)
        except TimeoutError:
            return False
        return True


class Deferrable(Response):
    def __init__(self, deferring: asyncio.Event) -> None:
        super().__init__()
        self.deferred = False
        self.deferring = deferring

    def is_done(self) -> bool:
        return self.deferred

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self.deferred = True
        self.deferring.set()


@pytest.mark.parametrize(("quick", "deferred"), [(True, False), (False, True)])
async def test_a_click_during_a_restore_waits_for_its_game(quick: bool, deferred: bool) -> None:
    sessions = Restoring(quick)
    opening = Opening(sessions, None, None)  # type: ignore[arg-type]
    interaction = SimpleNamespace(response=Deferrable(sessions.release), guild_id=None)
    restore = asyncio.ensure_future(sessions.restore())
    assert await opening.session_for(7, interaction) == "the game"  # type: ignore[arg-type]
    assert interaction.response.deferred is deferred
    await restore


class FencedBot:
    """What ShardedNinesBot.fenced_out touches."""

    def __init__(self, held: set[int], epochs: dict[int, int]) -> None:
        self.leases = SimpleNamespace(held=frozenset(held), epochs=epochs)
        self._fencing: set[asyncio.Task[None]] = set()
        self._changing = asyncio.Lock()
        self.let_go: list[frozenset[int]] = []

    async def _let_go(self, shard_ids: frozenset[int]) -> None:
        self.let_go.append(shard_ids)

    fenced_out = ShardedNinesBot.fenced_out
    _fenced_out = ShardedNinesBot._fenced_out


async def test_a_refused_write_under_the_lease_held_lets_the_shard_go_at_once() -> None:
    """Issue 32: the database refused a game's write under the epoch this process believes
    it holds: another process has the shard, so it stops serving it (and answering its
    clicks) now, not at the next renewal up to 5 s later."""
    bot = FencedBot({0, 1}, {0: 3, 1: 1})
    bot.fenced_out(Fence(0, 3))
    await asyncio.gather(*bot._fencing)
    assert bot.leases.held == {1} and bot.let_go == [frozenset({0})]


async def test_a_refused_write_of_a_stale_session_keeps_the_shard() -> None:
    """Under an older epoch than the one held: only that session was stale (the renewal
    that saw the newer epoch restores its games); the shard stays served."""
    bot = FencedBot({0}, {0: 3})
    bot.fenced_out(Fence(0, 2))
    assert not bot._fencing and bot.leases.held == {0} and bot.let_go == []


def test_a_lease_not_surely_held_serves_nothing() -> None:
    """A process stalled past its lease (SIGSTOP, a long pause) may have lost the shard
    without knowing: until its renewal says so, it answers none of the shard's clicks (the
    controller's session_for finds no game, and unknown_game says nothing)."""
    leases = ShardLeases(None, 2, ())  # type: ignore[arg-type]
    leases.held = frozenset({0})
    leases.sure_until = time.monotonic() + 15
    assert leases.serves(0) and not leases.serves(1 << 22)
    leases.sure_until = time.monotonic() - 0.01  # the lease may have run out
    assert not leases.serves(0)


async def test_a_click_on_a_shard_not_surely_held_finds_no_game() -> None:
    leases = ShardLeases(None, 2, ())  # type: ignore[arg-type]
    leases.held = frozenset({0})
    sessions = SimpleNamespace(get=lambda game_id: object(), restoring=False)
    opening = Opening(sessions, Storage(None), leases.serves)  # type: ignore[arg-type]
    assert await opening.session_for(7, click(3)) is None  # stalled
    leases.sure_until = time.monotonic() + 15
    assert await opening.session_for(7, click(3)) is not None
