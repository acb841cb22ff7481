"""The daily deal (issue 47): today's deals, the same for everyone on every server, each played
alone and privately against computers of the hardest level, and scored against everyone who
held the same cards (``engine/duplicate.py``).

The day's deals
    A day is a UTC date; its deal of a game is a seed derived from the operator's
    ``DAILY_SECRET`` and the date by HMAC-SHA256, so every process with that secret deals the
    same cards, and nobody without it can compute tomorrow's. The rules are fixed, not a
    server's: Nines in the classic rules, and Nein Nine, each with its default settings.

The seat
    The person holds seat 0; the computers hold the others, at the hardest level. Their
    choices are exact (``Computers.decide(exact=True)``): seeded by the deal's seed and the
    number of moves so far, as every game's computers are, and judged without the clock, so
    the same moves on the same deal meet the same answers. A daily is "private": nothing of it
    is posted in a channel but one line at its end (the Discord side says how).

One try
    ``daily_tries`` holds one row per person, day and game; claiming it is one insert that a
    second claim, from this process or another, finds taken. The game is a stored game like any
    other (rules, seed and moves), so a restart loses nothing; it is created unrated (one person
    and computers: no rating or statistic moves), in a "channel" that is the person's own id (a
    snowflake no channel has: https://discord.com/developers/docs/reference#snowflakes), so it
    never takes a channel's one open game. Left alone, its turns time out and the computers
    finish it (``GameSession.time_out``), and it is scored like any other.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from engine import GAMES, Game, Rules, parse_action
from engine.duplicate import BoardScore, board_points, score_board, total_share

from ..storage import ChannelBusy, DailyBoard, DailyTry, FieldCounts, GameKind, Seat, Storage
from .session import GameSession
from .sessions import Sessions
from .values import SeatInfo, SessionError

#: The person's seat in every daily.
PERSON_SEAT: Final = 0
#: The computers' level: the hardest.
LEVEL: Final = "hard"
#: The ruleset each game's daily is played by, with its default settings: the game's first
#: registered (its default: classic Nines, Nein Nine).
RULESETS: Final[Mapping[GameKind, str]] = {
    name: game.rulesets[0].name for name, game in GAMES.items()
}


def daily_rules(kind: GameKind) -> Rules:
    return Rules.from_settings(RULESETS[kind])


def day_of(now: float) -> str:
    """The day a moment belongs to: its UTC date ('YYYY-MM-DD'); the deals change at 00:00."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date().isoformat()


def day_before(day: str) -> str:
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def week_of(day: str) -> list[str]:
    """The days of ``day``'s week (Monday first, ISO weeks) up to ``day`` itself."""
    date = dt.date.fromisoformat(day)
    monday = date - dt.timedelta(days=date.weekday())
    return [(monday + dt.timedelta(days=i)).isoformat() for i in range(date.weekday() + 1)]


def private_place(day: str, kind: GameKind, user_id: int) -> int:
    """The "channel" a daily's game is stored in: negative, so no Discord channel has it
    (snowflakes are positive: https://discord.com/developers/docs/reference#snowflakes), and
    one per person, game and day's parity, so a person's daily never takes a channel's one open
    game, and yesterday's, still open, never blocks today's."""
    parity = dt.date.fromisoformat(day).toordinal() % 2
    return -((user_id * 2 + parity) * len(GAMES) + list(GAMES).index(kind))


def deal_seed(secret: str, day: str, kind: GameKind) -> int:
    """The seed of ``day``'s deal of ``kind``: 62 bits of HMAC-SHA256(secret, day and game)."""
    message = f"nines-daily/1/{day}/{kind}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def decisions(game: Game, seat: int = PERSON_SEAT) -> list[tuple[int, int, str]]:
    """Each action of ``seat``, as (hand number, its number among the seat's actions in that
    hand from 0, the action), replayed from the game's log."""
    replay = Game(game.rules, game.seed)
    found: list[tuple[int, int, str]] = []
    counts: Counter[int] = Counter()
    for who, action in game.log:
        if who == seat:
            hand = replay.hand_number
            found.append((hand, counts[hand], str(action)))
            counts[hand] += 1
        replay.apply(who, action)
    return found


@dataclass(frozen=True, slots=True)
class FieldChoice:
    """How the field played one of the person's decisions: the most common action there, how
    many of the field chose it, and how many played that decision."""

    hand: int
    decision: int
    mine: str
    common: str
    chose: int
    field: int


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A finished try scored against the field so far: each hand, and the whole."""

    day: str
    kind: GameKind
    boards: tuple[BoardScore, ...]
    choices: tuple[FieldChoice, ...] = ()

    @property
    def share(self) -> float | None:
        return total_share(self.boards)

    @property
    def field(self) -> int:
        """How many others played the deal's first hand: everyone who finished the deal."""
        return max((b.top for b in self.boards), default=0)


def score_try(points: Mapping[int, int], counts: FieldCounts) -> tuple[BoardScore, ...]:
    """A try's hands, each against its field (which holds the try itself)."""
    scored = []
    for hand, p in sorted(points.items()):
        matchpoints, top = score_board(p, counts.get(hand, {}))
        scored.append(BoardScore(hand, p, matchpoints, top))
    return tuple(scored)


def field_choices(
    mine: list[tuple[int, int, str]], counts: Mapping[tuple[int, int], Mapping[str, int]]
) -> tuple[FieldChoice, ...]:
    found = []
    for hand, n, action in mine:
        chosen = counts.get((hand, n), {})
        if not chosen:
            continue
        common, chose = max(chosen.items(), key=lambda item: (item[1], item[0]))
        found.append(FieldChoice(hand, n, action, common, chose, sum(chosen.values())))
    return tuple(found)


class Daily:
    """The daily deals of one bot: its secret, its clock, its storage and its sessions."""

    def __init__(self, secret: str | None, storage: Storage, sessions: Sessions) -> None:
        self.secret = secret
        self.storage = storage
        self.sessions = sessions

    @property
    def offered(self) -> bool:
        return self.secret is not None

    def today(self) -> str:
        return day_of(self.sessions.deps.clock())

    def seed(self, day: str, kind: GameKind) -> int:
        if self.secret is None:
            raise SessionError("daily.not_offered")
        return deal_seed(self.secret, day, kind)

    async def claim(
        self, kind: GameKind, user_id: int, *, guild_id: int, channel_id: int, name: str
    ) -> DailyTry:
        """The person's try at today's deal of ``kind``, claimed now or before (one a day, on
        every process). A try whose game ended but was never scored (the process stopped
        between the game's last write and ``record``) is scored now from its stored game, so
        it reads as finished and its result is there."""
        day = self.today()
        found, _claimed = await self.storage.claim_daily(
            day, kind, user_id, guild_id=guild_id, channel_id=channel_id, name=name
        )
        if found.finished or found.game_id is None or self.sessions.get(found.game_id):
            return found
        game = await self.stored_game(found.game_id)
        if game is None or not game.over:
            return found
        points, mine = board_points(game, PERSON_SEAT), decisions(game)
        await self.storage.finish_daily(day, kind, user_id, points, mine)
        return await self.storage.daily_try(day, kind, user_id) or found

    async def open_game(self, found: DailyTry, *, language: str) -> GameSession:
        """The game of a claimed try, created, started and stored (its first computer turns
        played): found open if it was created already. Two processes that both read the try
        before either made its game make one game: the try's place holds one open game
        (``ChannelBusy``) and takes one game id; the other is told ``daily.elsewhere``. A game
        made by a process that stopped before its try took it (restored here as a lobby in the
        try's place) is taken now and started."""
        kind: GameKind = found.kind
        if found.game_id is not None:
            return self.running(found.game_id)
        rules = daily_rules(kind)
        names = computer_names(rules.players)
        seats = [
            Seat(PERSON_SEAT, found.name, user_id=found.user_id),
            *(
                Seat(i, name, is_computer=True, difficulty=LEVEL)
                for i, name in enumerate(names, start=1)
            ),
        ]
        try:
            row = await self.storage.create_game(
                guild_id=found.guild_id,
                channel_id=private_place(found.day, kind, found.user_id),
                kind=kind,
                rules=rules.to_dict(),
                seed=self.seed(found.day, kind),
                host_id=found.user_id,
                language=language,
                rated=False,
                seats=seats,
            )
        except ChannelBusy as busy:  # made a moment ago, here or by another process
            await self.storage.attach_daily_game(found.day, kind, found.user_id, busy.game_id)
            return await self.adopted(busy.game_id, found)
        if not await self.storage.attach_daily_game(found.day, kind, found.user_id, row.id):
            taken = await self.storage.daily_try(found.day, kind, found.user_id)
            if taken is None or taken.game_id != row.id:  # (not taken by a racing process)
                await self.storage.abandon_game(row.id, "cancelled")
                raise SessionError("daily.elsewhere")
        infos = [SeatInfo(found.name, found.user_id)]
        infos += [SeatInfo(name, None, LEVEL) for name in names]
        turn_seconds = await self.sessions._turn_seconds(found.guild_id, {})
        session = GameSession(
            row, infos, self.sessions.deps, players=rules.players, turn_seconds=turn_seconds
        )
        session.private = True
        session.fence = self.sessions.deps.fence(found.guild_id)
        self.sessions.add(session)
        async with session.lock:
            await session.lobby.start(found.user_id)
            await session.run_computers()
        return session

    async def adopted(self, game_id: int, found: DailyTry) -> GameSession:
        """The game in the try's place, if it is the try's: running here, and started if a
        stop left it a lobby; ``daily.elsewhere`` otherwise."""
        taken = await self.storage.daily_try(found.day, found.kind, found.user_id)
        if taken is None or taken.game_id != game_id:
            raise SessionError("daily.elsewhere")
        session = self.running(game_id)
        if session.game is None and session.status == "lobby":
            session.private = True
            async with session.lock:
                await session.lobby.start(found.user_id)
                await session.run_computers()
        return session

    def running(self, game_id: int) -> GameSession:
        """A try's game, made already: this process's session of it, or ``daily.elsewhere``."""
        session = self.sessions.get(game_id)
        if session is None:
            raise SessionError("daily.elsewhere")
        return session

    async def record(self, session: GameSession) -> DailyResult | None:
        """A finished daily's results join the field (once: a second call adds nothing), and
        it is scored against the field so far. None: not a daily, or not finished."""
        found = await self.storage.daily_of_game(session.id)
        game = session.game
        if found is None or game is None or not game.over:
            return None
        kind: GameKind = found.kind
        points = board_points(game, PERSON_SEAT)
        mine = decisions(game)
        await self.storage.finish_daily(found.day, kind, found.user_id, points, mine)
        return await self.result(found.day, kind, points, mine)

    async def result(
        self,
        day: str,
        kind: GameKind,
        points: Mapping[int, int],
        mine: list[tuple[int, int, str]],
    ) -> DailyResult:
        counts = await self.storage.daily_field(day, kind)
        boards = score_try(points, counts)
        choices = field_choices(mine, await self.storage.daily_choices(day, kind))
        return DailyResult(day, kind, boards, choices)

    async def result_of(self, found: DailyTry) -> DailyResult | None:
        """A finished try's result as the field stands now (read from its stored game)."""
        if not found.finished or found.game_id is None:
            return None
        kind: GameKind = found.kind
        game = await self.stored_game(found.game_id)
        if game is None:
            return None
        return await self.result(found.day, kind, board_points(game, PERSON_SEAT), decisions(game))

    async def standings(
        self, days: list[str], kind: GameKind, *, guild_id: int | None, least: int = 1
    ) -> list[Standing]:
        """The standings over ``days``: one server's people (``guild_id``), or, None, those
        of every server who said yes to it, by the name they chose. Reads each day's field
        (a few rows a hand) and the people's hands; computed when asked, never per finish."""
        fields = {day: await self.storage.daily_field(day, kind) for day in days}
        boards = await self.storage.daily_boards(
            days, kind, guild_id=guild_id, public_only=guild_id is None
        )
        return rank(boards, fields, least)

    async def played(self, day: str, kind: GameKind, user_id: int) -> bool:
        """Whether the person has finished ``day``'s deal of ``kind``: until then nothing of
        it can be read by them (standings, hands)."""
        found = await self.storage.daily_try(day, kind, user_id)
        return found is not None and found.finished

    async def stored_game(self, game_id: int) -> Game | None:
        row = await self.storage.game(game_id)
        if row is None:
            return None
        actions = [(a.seat, parse_action(a.action)) for a in await self.storage.actions(game_id)]
        return Game.replay(Rules.from_dict(row.rules), row.seed, actions)


def computer_names(players: int) -> list[str]:
    """The computers' names at a daily: the same at every daily, in every language."""
    return ["🤖 Ada", "🤖 Blaise", "🤖 Claude"][: players - 1]


__all__ = [
    "LEVEL",
    "PERSON_SEAT",
    "WEEK_DEALS",
    "Daily",
    "DailyResult",
    "FieldChoice",
    "Standing",
    "daily_rules",
    "day_before",
    "day_of",
    "deal_seed",
    "decisions",
    "private_place",
    "rank",
    "week_of",
]


#: Days of the week's deals a person needs to be ranked for the week.
WEEK_DEALS: Final = 3


@dataclass(frozen=True, slots=True)
class Standing:
    """One person in a standings: their average share of the field over ``deals`` deals
    (None: alone in every field so far)."""

    user_id: int
    name: str
    share: float | None
    deals: int


def matchpoint_tables(counts: FieldCounts) -> dict[int, dict[int, tuple[float, int]]]:
    """Per hand, per points scored on it: (matchpoints, top), as ``score_board`` gives them."""
    return {
        hand: {p: score_board(p, by_points) for p in by_points}
        for hand, by_points in counts.items()
    }


def rank(boards: list[DailyBoard], fields: Mapping[str, FieldCounts], least: int) -> list[Standing]:
    """Each person's share per day (``score_try`` against that day's field), averaged over
    their days; those with fewer than ``least`` days left out; best first."""
    by_day: dict[tuple[int, str], dict[int, int]] = {}
    names: dict[int, str] = {}
    for board in boards:
        by_day.setdefault((board.user_id, board.day), {})[board.hand] = board.points
        names[board.user_id] = board.name
    # Each board's matchpoints by points, worked out once per field (a few rows a hand), not
    # once per person: a standings of ten thousand reads each from a table.
    tables = {day: matchpoint_tables(counts) for day, counts in fields.items()}
    shares: dict[int, list[float | None]] = {}
    for (user_id, day), points in sorted(by_day.items()):
        table = tables.get(day, {})
        matchpoints = top = 0.0
        for hand, p in points.items():
            got, most = table[hand][p]
            matchpoints += got
            top += most
        shares.setdefault(user_id, []).append(None if top == 0 else matchpoints / top)
    standings = []
    for user_id, found in shares.items():
        if len(found) < least:
            continue
        known = [s for s in found if s is not None]
        share = sum(known) / len(known) if known else None
        standings.append(Standing(user_id, names[user_id], share, len(found)))
    standings.sort(key=lambda s: (s.share is None, -(s.share or 0.0), s.name))
    return standings
