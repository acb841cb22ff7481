"""Issue 7.6: storage safety. Writes are transactions; a crash between a game's last move and
its result neither loses the game nor counts it twice; many games write at once. The tests that
take ``backend`` run on SQLite and on PostgreSQL, some with two Storage objects on one database
as two bot processes would have (issue 18)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.app import NinesBot
from bot.game.session import GameSession, SeatInfo
from bot.process.run import build_bot
from bot.storage import ActionConflict, ChannelBusy, GameResult, Seat, SeatResult, Storage
from engine import Game, Rules
from fakecord import FakeDiscord
from testbed.games import HANG_GUARD
from testbed.settings import bot_settings
from tests.storage_backends import Backend

GUILD = 7


async def live_game(storage: Storage, channel: int, seats: list[Seat], rules: Rules) -> int:
    row = await storage.create_game(
        guild_id=GUILD,
        channel_id=channel,
        kind=rules.game,  # type: ignore[arg-type]
        rules=rules.to_dict(),
        seed=seed_of(channel),
        host_id=seats[0].user_id or 1,
    )
    await storage.set_seats(row.id, seats)
    await storage.update_game(row.id, status="live")
    return row.id


def seed_of(channel: int) -> int:
    return channel % 1_000_003 * 7919


def people(n: int) -> list[Seat]:
    return [Seat(i, f"p{i}", 1000 + i, False, None) for i in range(n)]


def random_game(rules: Rules, seed: int) -> Game:
    game = Game(rules, seed)
    rng = random.Random(seed)
    while not game.over:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


async def test_a_game_whose_result_was_not_stored_is_finished_once_at_start(
    fake_discord: FakeDiscord,
    start_client: Callable[..., Awaitable[discord.Client]],
    tmp_path: Path,
) -> None:
    fake = fake_discord
    database = tmp_path / "nines.sqlite3"
    rules = Rules.from_settings("classic", {"start": 3})
    storage = await Storage.open(database)
    game_id = await live_game(storage, fake.channel.id, people(3), rules)
    # Every move stored, the last one included; then the process "died" before the result.
    finished = random_game(rules, seed_of(fake.channel.id))
    await storage.append_actions(
        game_id, 0, [(seat, str(action), False) for seat, action in finished.log]
    )
    await storage.set_guild_settings(fake.guild.id, {})
    await storage.close()

    async def make(fake: FakeDiscord) -> discord.Client:
        return await build_bot(bot_settings(fake, database))

    for _attempt in range(2):  # a second start must not count it again
        nines = await start_client(make)
        assert isinstance(nines, NinesBot)
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            row = await nines.storage.game(game_id)
            assert row is not None
            if row.status == "finished" and len(nines.sessions) == 0:
                break
            await asyncio.sleep(0.02)
        assert row.status == "finished", row
        result = await nines.storage.game_result(game_id)
        assert result is not None
        assert len(nines.sessions) == 0
        await nines.close()
    storage = await Storage.open(database)
    try:
        with_rows = await storage.leaderboard(GUILD, "nines")
        assert sum(r.games for r in with_rows[0]) == 3  # three players, one game each
    finally:
        await storage.close()


async def test_two_writers_at_the_same_index_one_wins(backend: Backend) -> None:
    storage = await backend.open()
    try:
        rules = Rules.from_settings("classic", {})
        game_id = await live_game(storage, 1, people(3), rules)
        results = await asyncio.gather(
            *(storage.append_action(game_id, 0, 0, "keep", False) for _ in range(10)),
            return_exceptions=True,
        )
        assert sum(1 for r in results if r == 1) == 1
        assert sum(1 for r in results if isinstance(r, ActionConflict)) == 9
        assert len(await storage.actions(game_id)) == 1
    finally:
        await storage.close()


async def test_many_games_at_once_keep_every_log_whole(backend: Backend) -> None:
    storage = await backend.open()
    rules = Rules.from_settings("classic", {"start": 3})
    games = {}
    try:
        for channel in range(1, 31):
            games[await live_game(storage, channel, people(3), rules)] = channel

        async def play(game_id: int, channel: int) -> None:
            game = random_game(rules, seed_of(channel))
            for n, (seat, action) in enumerate(game.log):
                await storage.append_action(game_id, n, seat, str(action), False)
                if n % 7 == 0:
                    await asyncio.sleep(0)
            session_seats = [SeatInfo(f"p{i}", 1000 + i) for i in range(3)]
            row = await storage.game(game_id)
            assert row is not None
            session = GameSession(
                row,
                session_seats,
                None,
                players=3,
                game=game,  # type: ignore[arg-type]
            )
            assert await storage.finish_game(game_id, session.result())
            assert not await storage.finish_game(game_id, session.result())  # idempotent

        await asyncio.gather(*(play(g, c) for g, c in games.items()))
    finally:
        await storage.close()
    storage = await backend.open()
    try:
        for game_id, channel in games.items():
            stored = [(a.seat, a.action) for a in await storage.actions(game_id)]
            expected = random_game(rules, seed_of(channel))
            assert stored == [(s, str(a)) for s, a in expected.log]
            row = await storage.game(game_id)
            assert row is not None and row.status == "finished"
        rows, _total = await storage.leaderboard(GUILD, "nines")
        assert sum(r.games for r in rows) == 3 * len(games)
    finally:
        await storage.close()


async def test_a_failure_inside_finish_rolls_everything_back(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = await backend.open()
    try:
        rules = Rules.from_settings("classic", {"start": 3})
        game_id = await live_game(storage, 1, people(3), rules)
        game = random_game(rules, seed_of(1))
        await storage.append_actions(game_id, 0, [(s, str(a), False) for s, a in game.log])
        row = await storage.game(game_id)
        assert row is not None
        session = GameSession(
            row,
            [SeatInfo(f"p{i}", 1000 + i) for i in range(3)],
            None,  # type: ignore[arg-type]
            players=3,
            game=game,
        )
        result = session.result()

        def crash(*_args: object, **_kwargs: object) -> None:
            raise RuntimeError("power cut")

        monkeypatch.setattr(storage, "_count_result", crash)
        with pytest.raises(RuntimeError):
            await storage.finish_game(game_id, result)
        row = await storage.game(game_id)
        assert row is not None and row.status == "live"
        assert await storage.game_result(game_id) is None
        assert (await storage.leaderboard(GUILD, "nines"))[1] == 0
        monkeypatch.undo()
        assert await storage.finish_game(game_id, result)
        rows, total = await storage.leaderboard(GUILD, "nines")
        assert total == 3 and sum(r.games for r in rows) == 3
    finally:
        await storage.close()


def two_player_result(seats: list[Seat], winner: int) -> GameResult:
    return GameResult(
        winners=(winner,),
        hands_played=3,
        seats=tuple(
            SeatResult(
                s.seat, s.player_key, s.name, False, 1 if s.seat == winner else 2, 5, 3, 0, 3, 0
            )
            for s in seats
        ),
    )


async def test_two_processes_finishing_one_players_games_lose_no_rating(backend: Backend) -> None:
    """Player 1000 finishes a game in each of two processes at the same moment, five times:
    each game must start from the rating the previous one left, never from the same one."""
    first, second = await backend.open(), await backend.open()
    rules = Rules.from_settings("classic", {})
    try:
        for round_ in range(5):
            mine = [Seat(0, "p0", 1000), Seat(1, "a", 2000 + round_)]
            theirs = [Seat(0, "b", 3000 + round_), Seat(1, "p0", 1000)]
            game_a = await live_game(first, 2 * round_ + 1, mine, rules)
            game_b = await live_game(second, 2 * round_ + 2, theirs, rules)
            done = await asyncio.gather(
                first.finish_game(game_a, two_player_result(mine, round_ % 2)),
                second.finish_game(game_b, two_player_result(theirs, 1)),
            )
            assert list(done) == [True, True]
        changes = []
        for game_id in range(1, 11):
            record = await first.game_result(game_id)
            assert record is not None
            changes += [
                (c.before, c.after) for c in record.rating_changes if c.player_key == "u:1000"
            ]
        stats = await first.stats(GUILD, "nines", "u:1000")
        assert stats is not None and stats.games == 10
        # One chain of ten updates: every "before" but the first is another game's "after",
        # and the stored rating is the end of the chain.
        befores = [before for before, _after in changes]
        afters = {after for _before, after in changes}
        assert len(set(befores)) == 10, "two games started from the same rating"
        assert sum(1 for before in befores if before not in afters) == 1
        (last,) = afters - set(befores)
        assert stats.rating == pytest.approx(last)
    finally:
        await first.close()
        await second.close()


async def test_two_processes_racing_for_one_move_store_it_once(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        game_id = await live_game(first, 1, people(3), Rules.from_settings("classic", {}))
        outcomes = await asyncio.gather(
            *(
                store.append_action(game_id, 0, 0, "keep", False, turn_deadline=5.0)
                for _ in range(5)
                for store in (first, second)
            ),
            return_exceptions=True,
        )
        assert sum(1 for o in outcomes if o == 1) == 1
        assert all(isinstance(o, ActionConflict) for o in outcomes if o != 1)
        assert [a.n for a in await second.actions(game_id)] == [0]
    finally:
        await first.close()
        await second.close()


async def test_two_processes_opening_a_game_in_one_channel_open_one(backend: Backend) -> None:
    first, second = await backend.open(), await backend.open()
    try:
        outcomes = await asyncio.gather(
            *(
                store.create_game(
                    guild_id=GUILD, channel_id=9, kind="nines", rules={}, seed=1, host_id=h
                )
                for h, store in enumerate((first, second, first, second))
            ),
            return_exceptions=True,
        )
        opened = [o for o in outcomes if not isinstance(o, BaseException)]
        assert len(opened) == 1
        busy = [o for o in outcomes if isinstance(o, ChannelBusy)]
        assert len(busy) == 3 and {b.game_id for b in busy} == {opened[0].id}
    finally:
        await first.close()
        await second.close()
