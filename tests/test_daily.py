"""The daily deal without Discord (bot/game/daily.py): the day's deals from the secret and the date,
the same cards and the same computer answers to the same moves on two bots, one try a person,
a finish scored against the field, a restart mid-daily, and a daily left alone finished by the
computers."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bot.app import NinesBot
from bot.base import Settings
from bot.game import (
    Computers,
    Daily,
    Sessions,
    day_before,
    day_of,
    deal_seed,
    decisions,
    rank,
    week_of,
)
from bot.game.session import GameSession, SessionError
from bot.storage import DailyBoard, DailyTry, GameKind, Storage
from engine import Action
from tests.test_layers import RecordingPresenter

SECRET = "s" * 40
NOON = dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC).timestamp()
DAY = "2026-12-02"


@dataclass
class Bot:
    storage: Storage
    sessions: Sessions
    computers: Computers
    daily: Daily

    async def close(self) -> None:
        await self.sessions.close()
        await self.computers.close()
        await self.storage.close()


async def open_bot(path: Path) -> Bot:
    storage = await Storage.open(path, now=lambda: NOON)
    computers = Computers(0)
    bot = NinesBot(Settings(token="a.b.c"), storage, computers)
    sessions = bot.plug_in(RecordingPresenter())
    sessions.deps = replace(sessions.deps, clock=lambda: NOON)
    return Bot(storage, sessions, computers, Daily(SECRET, storage, sessions))


@pytest.fixture
async def bots(tmp_path: Path) -> AsyncIterator[tuple[Bot, Bot]]:
    one, two = await open_bot(tmp_path / "one.sqlite3"), await open_bot(tmp_path / "two.sqlite3")
    yield one, two
    await one.close()
    await two.close()


async def start(bot: Bot, user_id: int, guild_id: int, kind: GameKind = "nines") -> GameSession:
    found, claimed = await bot.storage.claim_daily(
        DAY, kind, user_id, guild_id=guild_id, channel_id=guild_id * 10, name=f"p{user_id}"
    )
    assert claimed
    return await bot.daily.open_game(found, language="en")


async def play_to_the_end(session: GameSession, pick: int = 0) -> None:
    """The person plays the ``pick``-th legal action (modulo their choice) at every turn."""
    game = session.game
    assert game is not None
    user_id = session.seats[0].user_id
    assert user_id is not None
    while not game.over:
        assert game.turn == 0, "the computers play up to the person's turn"
        legal = game.legal_actions(0)
        action: Action = legal[pick % len(legal)]
        async with session.lock:
            await session.act(user_id, session.n, action)
        game = session.game
        assert game is not None


def test_the_days_deals_come_from_the_secret_and_the_date() -> None:
    assert deal_seed(SECRET, DAY, "nines") == deal_seed(SECRET, DAY, "nines")
    seeds = {
        deal_seed(SECRET, DAY, "nines"),
        deal_seed(SECRET, DAY, "nein-nine"),
        deal_seed(SECRET, "2026-12-03", "nines"),
        deal_seed("t" * 40, DAY, "nines"),
    }
    assert len(seeds) == 4 and all(0 <= s < 1 << 62 for s in seeds)
    # The day changes at 00:00 UTC.
    midnight = dt.datetime(2026, 12, 3, tzinfo=dt.UTC).timestamp()
    assert day_of(midnight - 1) == DAY and day_of(midnight) == "2026-12-03"
    assert day_before("2026-12-01") == "2026-11-30"
    assert week_of("2026-12-02") == ["2026-11-30", "2026-12-01", "2026-12-02"]


@pytest.mark.parametrize("kind", ["nines", "nein-nine"])
async def test_two_bots_deal_the_same_cards_and_answer_the_same_moves_alike(
    bots: tuple[Bot, Bot], kind: GameKind
) -> None:
    one, two = bots
    first = await start(one, 1, guild_id=100, kind=kind)
    second = await start(two, 2, guild_id=200, kind=kind)
    assert first.private and second.private and first.seed == second.seed
    assert first.game is not None and second.game is not None
    assert first.game.hands[0] == second.game.hands[0]  # the same cards in the same seat
    assert first.seat_of(1) == second.seat_of(2) == 0
    assert first.game.log == second.game.log  # the computers' opening moves alike
    await play_to_the_end(first)
    await play_to_the_end(second)
    # The same moves met the same answers, to the last card.
    assert first.game.log == second.game.log
    assert first.status == second.status == "finished"


async def test_a_second_try_is_refused_and_a_finish_is_scored_against_the_field(
    bots: tuple[Bot, Bot],
) -> None:
    one, _ = bots
    sessions = [await start(one, user, guild_id=100) for user in (1, 2, 3)]
    _found, claimed = await one.storage.claim_daily(
        DAY, "nines", 1, guild_id=300, channel_id=3000, name="again"
    )
    assert not claimed  # the same person, another server: still one try
    results = []
    for pick, session in enumerate(sessions):
        await play_to_the_end(session, pick)
        result = await one.daily.record(session)
        assert result is not None
        results.append(result)
    # Recorded twice, counted once.
    again = await one.daily.record(sessions[0])
    field = await one.storage.daily_field(DAY, "nines")
    assert sum(field[1].values()) == 3
    # The last to finish is scored against the two before it, hand by hand.
    last = results[-1]
    assert last.boards[0].top == 2 and last.share is not None
    # Everyone's share on a hand all three played adds up to the pairs among them.
    assert again is not None
    everyone = [again, *[await one.daily.result_of(await _try(one, u)) for u in (2, 3)]]
    first_hand = [r.boards[0].matchpoints for r in everyone if r is not None]
    assert sum(first_hand) == 3  # 3 pairs, a point each
    # How the others played: the most common choice at each of the person's decisions.
    assert last.choices and all(c.field >= c.chose >= 1 for c in last.choices)
    assert decisions(sessions[0].game)[0][:2] == (1, 0)  # type: ignore[arg-type]


async def _try(bot: Bot, user_id: int) -> DailyTry:
    found = await bot.storage.daily_try(DAY, "nines", user_id)
    assert found is not None
    return found


async def test_a_restart_mid_daily_loses_nothing(tmp_path: Path) -> None:
    bot = await open_bot(tmp_path / "one.sqlite3")
    session = await start(bot, 1, guild_id=100)
    game = session.game
    assert game is not None
    async with session.lock:
        await session.act(1, session.n, game.legal_actions(0)[0])
    log = list(game.log)
    await bot.close()
    bot = await open_bot(tmp_path / "one.sqlite3")
    try:
        restored = await bot.sessions.restore()
        (again,) = restored
        assert again.private and again.game is not None and again.game.log == log
        assert bot.sessions.seated(100, 1) is None  # a daily is not a server's game
        await play_to_the_end(again)
        assert (await bot.daily.record(again)) is not None
    finally:
        await bot.close()


async def test_a_daily_that_ended_unscored_is_scored_when_asked_again(tmp_path: Path) -> None:
    """The process stopped between the game's end and its scoring: the next ask (chat's
    command or the web table's hello, both through ``Daily.claim``) scores it from the stored
    game, once, and shows its result."""
    bot = await open_bot(tmp_path / "one.sqlite3")
    session = await start(bot, 1, guild_id=100)
    await play_to_the_end(session)  # ended and stored; ``record`` never ran
    await bot.close()
    bot = await open_bot(tmp_path / "one.sqlite3")
    bot.daily.today = lambda: DAY  # type: ignore[method-assign]
    try:
        (ended,) = await bot.sessions.restore()  # back closed, its end owed to nobody here
        assert ended.closed and bot.sessions.get(session.id) is None
        assert not (await _try(bot, 1)).finished
        found = await bot.daily.claim("nines", 1, guild_id=200, channel_id=2000, name="p1")
        assert found.finished and found.game_id == session.id
        result = await bot.daily.result_of(found)
        assert result is not None and result.boards
        again = await bot.daily.claim("nines", 1, guild_id=100, channel_id=1000, name="p1")
        assert again.finished_at == found.finished_at
        field = await bot.storage.daily_field(DAY, "nines")
        assert sum(field[1].values()) == 1  # scored once
    finally:
        await bot.close()


async def test_a_daily_made_before_a_stop_its_try_never_took_is_taken_and_started(
    tmp_path: Path,
) -> None:
    """The process stopped between making the try's game and the try taking it: restored as a
    lobby in the try's place, the next ask takes that game and starts it (no second game, no
    refusal)."""
    bot = await open_bot(tmp_path / "one.sqlite3")
    found, _ = await bot.storage.claim_daily(
        DAY, "nines", 1, guild_id=100, channel_id=1000, name="p1"
    )

    async def stopped(*_: object) -> bool:
        raise RuntimeError("the process stops here")

    bot.storage.attach_daily_game = stopped  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await bot.daily.open_game(found, language="en")
    await bot.close()
    bot = await open_bot(tmp_path / "one.sqlite3")
    try:
        (lobby,) = await bot.sessions.restore()
        assert lobby.game is None and not lobby.private
        found = await _try(bot, 1)
        assert found.game_id is None
        session = await bot.daily.open_game(found, language="en")
        assert session is lobby and session.private and session.game is not None
        assert (await _try(bot, 1)).game_id == session.id
        await play_to_the_end(session)
        assert (await bot.daily.record(session)) is not None
    finally:
        await bot.close()


async def test_a_daily_left_alone_is_finished_by_the_computers(bots: tuple[Bot, Bot]) -> None:
    one, _ = bots
    session = await start(one, 1, guild_id=100)
    while session.status == "live":
        async with session.lock:
            await session.time_out()
    assert session.status == "finished" and session.seats[0].away
    result = await one.daily.record(session)
    assert result is not None and result.boards


def test_the_standings_rank_by_average_share_and_the_week_needs_enough_deals() -> None:
    def board(day: str, user: int, hand: int, points: int) -> DailyBoard:
        return DailyBoard(day, user, 1, f"p{user}", hand, points)

    monday, tuesday, wednesday = "2026-11-30", "2026-12-01", DAY
    boards = [
        # Monday: 1 beats 2 on both hands; 3 ties 2 on hand 1, loses hand 2.
        board(monday, 1, 1, 2),
        board(monday, 1, 2, 1),
        board(monday, 2, 1, 0),
        board(monday, 2, 2, 0),
        board(monday, 3, 1, 0),
        board(monday, 3, 2, -1),
        # Tuesday: 2 alone beats 1.
        board(tuesday, 1, 1, 0),
        board(tuesday, 2, 1, 3),
        # Wednesday: 1 and 2 tie.
        board(wednesday, 1, 1, 1),
        board(wednesday, 2, 1, 1),
    ]
    fields = {
        monday: {1: {2: 1, 0: 2}, 2: {1: 1, 0: 1, -1: 1}},
        tuesday: {1: {0: 1, 3: 1}},
        wednesday: {1: {1: 2}},
    }
    week = rank(boards, fields, least=3)
    # 1: Monday 4/4, Tuesday 0/1, Wednesday 1/2 -> (1 + 0 + 0.5) / 3; 2: (1.5/4 + 1 + 0.5) / 3.
    assert [(s.user_id, s.deals) for s in week] == [(2, 3), (1, 3)]
    assert week[0].share == pytest.approx((1.5 / 4 + 1 + 0.5) / 3)
    assert week[1].share == pytest.approx(0.5)
    monday_only = rank([b for b in boards if b.day == monday], fields, least=1)
    assert [s.user_id for s in monday_only] == [1, 2, 3]
    assert monday_only[2].share == pytest.approx(0.5 / 4)
    # Alone in a field: no share, ranked after those who have one.
    alone = rank([board("2026-12-03", 9, 1, 0)], {"2026-12-03": {1: {0: 1}}}, least=1)
    assert alone[0].share is None


async def test_two_processes_never_give_one_person_two_tries(tmp_path: Path) -> None:
    """Both processes read the person's try before either made its game (the person typed
    /nines daily twice, each reaching another process): one game is made, the other process
    refuses in words, and nothing of its own attempt is left to play."""
    one, two = (
        await open_bot(tmp_path / "shared.sqlite3"),
        await open_bot(tmp_path / "shared.sqlite3"),
    )
    try:
        tries = [
            await bot.storage.claim_daily(DAY, "nines", 1, guild_id=g, channel_id=10 * g, name="p1")
            for bot, g in ((one, 100), (two, 200))
        ]
        assert [claimed for _, claimed in tries] == [True, False]
        assert all(found.game_id is None for found, _ in tries)
        session = await one.daily.open_game(tries[0][0], language="en")
        with pytest.raises(SessionError) as refused:
            await two.daily.open_game(tries[1][0], language="en")
        assert refused.value.key == "daily.elsewhere"
        assert (await _try(one, 1)).game_id == session.id
        assert two.sessions.all() == []
        # After a restart of the second process, only the one game is there to play.
        assert [s.id for s in await two.sessions.restore()] == [session.id]
        live = [g.id for g in await one.storage.live_games()]
        assert live == [session.id]
    finally:
        await one.close()
        await two.close()
