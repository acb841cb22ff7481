"""The storage's values: what callers get back (frozen dataclasses, never database rows), the
errors it raises on purpose, and how a row becomes a value."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from engine import GAMES
from engine.gametype import GameName

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from .driver import Row

_Value = TypeVar("_Value", bound="DataclassInstance")

#: A game's kind as stored (``games.kind``): the engine's game name.
GameKind = GameName
GameStatus = Literal["lobby", "live", "finished", "abandoned"]
SettingValue = str | int | bool

OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "live")
ENDED_STATUSES: tuple[GameStatus, ...] = ("finished", "abandoned")

# What a forgotten player becomes in other people's records.
FORMER_PLAYER_NAME = "Former player"
FORMER_PLAYER_KEY = "former"


# --- errors -----------------------------------------------------------------------------------


class StorageError(Exception):
    """Base of the errors the storage raises on purpose."""


class GameNotFound(StorageError, LookupError):
    """No game (or seat) with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class ChannelBusy(StorageError):
    """The channel (or thread) already has a game in its lobby or in play."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is already open in this channel")
        self.game_id = game_id


class ActionConflict(StorageError):
    """An action was not appended: wrong index (double click, race) or the game has ended.

    ``expected`` is the index the next action must have, or None when the game has ended.
    """

    def __init__(self, game_id: int, n: int, expected: int | None) -> None:
        if expected is None:
            message = f"game {game_id} has ended; action {n} refused"
        else:
            message = f"game {game_id}: action {n} refused, the next action is {expected}"
        super().__init__(message)
        self.game_id = game_id
        self.n = n
        self.expected = expected


class KeyAnswered(StorageError):
    """A move's write refused, nothing written: the person's idempotency key made a move of
    this game already (the Activity's resend after a reconnection or a takeover)."""

    def __init__(self, game_id: int, key: str) -> None:
        super().__init__(f"game {game_id}: key {key!r} was answered already")
        self.game_id = game_id
        self.key = key


class GameStateError(StorageError):
    """The call does not fit the game's status (e.g. changing seats once it has started)."""


class FencedOut(StorageError):
    """A game's write refused, nothing written: its writer's lease of the game's shard has
    passed to a newer holder (issue 32's fencing token), which runs the game now."""

    def __init__(self, game_id: int, fence: Fence) -> None:
        super().__init__(
            f"game {game_id}: write refused, shard {fence.shard_id} is past epoch {fence.epoch}"
        )
        self.game_id = game_id
        self.fence = fence


@dataclass(frozen=True, slots=True)
class Fence:
    """What a sharded process stamps on each write of a game: the game's shard and the epoch
    of its lease on it (storage's ShardLease.epoch). The write goes through only while that
    lease is the shard's current one. A process without shards writes with no fence (None)."""

    shard_id: int
    epoch: int


# --- values -----------------------------------------------------------------------------------


def player_key(user_id: int | None, difficulty: str | None) -> str:
    """Stable identity for statistics: ``u:<user id>`` for people, ``cpu:<level>`` for computers.

    >>> player_key(1234, None), player_key(None, "hard")
    ('u:1234', 'cpu:hard')
    """
    if user_id is not None:
        return f"u:{user_id}"
    return f"cpu:{difficulty or 'default'}"


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    kind: GameKind
    rules: dict[str, Any] = field(hash=False)
    seed: int
    status: GameStatus
    host_id: int
    language: str
    lobby_message_id: int | None
    table_message_id: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    ended_at: float | None
    end_reason: str | None
    hands_played: int | None
    rated: bool
    #: How far the channel has been told (see migration 0004).
    shown_hands: int = 0
    table_hand: int | None = None
    turn_message_id: int | None = None
    turn_n: int | None = None
    announced: bool = True
    #: The tournament whose table this game was (migration 0016), else None.
    tournament_id: int | None = None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the lobby fills it: a person (``user_id``) or a computer (``difficulty``)."""

    seat: int
    name: str
    user_id: int | None = None
    is_computer: bool = False
    difficulty: str | None = None

    def __post_init__(self) -> None:
        if self.is_computer and self.user_id is not None:
            raise ValueError("a computer seat has no user id")
        if not self.is_computer and self.user_id is None:
            raise ValueError("a person's seat needs a user id")

    @property
    def player_key(self) -> str:
        return player_key(None if self.is_computer else self.user_id, self.difficulty)


@dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    player_key: str
    user_id: int | None  # None for computers and for forgotten players
    name: str
    is_computer: bool
    difficulty: str | None
    away: bool  # played by the computer after repeated time-outs
    timeouts: int


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    n: int
    seat: int
    action: str
    by_computer: bool
    at: float


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    player_key: str
    name: str
    is_computer: bool
    place: int  # 1 is best; tied seats share a place
    tricks: int
    hands: int
    swaps: int
    exchanges: int
    final_score: int


@dataclass(frozen=True, slots=True)
class GameResult:
    winners: tuple[int, ...]
    hands_played: int
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class RatingChange:
    seat: int
    player_key: str
    before: float  # display ratings
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as stored: enough to redraw its end message or rebuild its record."""

    game: GameRow
    result: GameResult
    rating_changes: tuple[RatingChange, ...]  # empty when the game was not rated


@dataclass(frozen=True, slots=True)
class StatsRow:
    guild_id: int
    kind: GameKind
    player_key: str
    name: str
    is_computer: bool
    games: int
    wins: int
    hands: int
    tricks: int
    swaps: int
    exchanges: int
    best_place: int | None
    mu: float
    sigma: float
    rating: float  # display rating (bot/storage/ratings.py)
    updated_at: float


@dataclass(frozen=True, slots=True)
class HistoryPlayer:
    seat: int
    player_key: str
    name: str
    is_computer: bool
    place: int | None  # None for an abandoned game
    final_score: int | None


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game_id: int
    kind: GameKind
    status: GameStatus
    rated: bool
    end_reason: str | None
    ended_at: float
    hands_played: int | None
    winners: tuple[int, ...]
    players: tuple[HistoryPlayer, ...]
    #: The tournament whose table this game was, else None.
    tournament_id: int | None = None


# --- row conversion ---------------------------------------------------------------------------


def from_row(cls: type[_Value], row: Row, **computed: Any) -> _Value:
    """The value whose fields are the row's columns of the same names, but ``computed`` ones.

    A field typed ``bool`` is made one: SQLite stores a bool as the integer 0 or 1.
    """
    values = {
        f.name: bool(row[f.name]) if f.type in ("bool", bool) else row[f.name]
        for f in fields(cls)
        if f.name not in computed
    }
    return cls(**values, **computed)


def copied(cls: type[_Value], source: object, **computed: Any) -> _Value:
    """The value whose fields are ``source``'s attributes of the same names, but ``computed``
    ones: one value made from another that holds what it needs."""
    values = {f.name: getattr(source, f.name) for f in fields(cls) if f.name not in computed}
    return cls(**values, **computed)


def game_from(row: Row) -> GameRow:
    return from_row(GameRow, row, rules=json.loads(row["rules"]))


def seat_from(row: Row) -> SeatRow:
    return from_row(SeatRow, row)


def stats_from(row: Row) -> StatsRow:
    return from_row(StatsRow, row)


def seat_result_from(row: Row) -> SeatResult:
    return from_row(SeatResult, row)


def validate_result(result: GameResult) -> None:
    seats = [s.seat for s in result.seats]
    if len(set(seats)) != len(seats):
        raise ValueError("a seat appears twice in the result")
    if not set(result.winners) <= set(seats):
        raise ValueError("a winner is not one of the result's seats")
    if any(s.place < 1 for s in result.seats):
        raise ValueError("places start at 1")


@dataclass(frozen=True, slots=True)
class DeliveryMarks:
    """How far a game's channel has been told (migration 0004's columns): the presenter's
    notebook as storage keeps it, plain values (``bot`` knows nothing of the presenter)."""

    table_message_id: int | None = None
    #: The hand the table message shows.
    table_hand: int | None = None
    #: Hands whose summaries stand in the channel.
    shown_hands: int = 0
    #: The standing "your turn" message and the decision (action count) it announced.
    turn_message_id: int | None = None
    turn_n: int | None = None


def delivery_from(row: Row) -> DeliveryMarks:
    return from_row(DeliveryMarks, row)


# Columns update_game may touch; status may only move between the open states there, since
# ending a game must go through finish_game / abandon_game.
UPDATABLE = frozenset(
    {
        "thread_id",
        "rules",
        "seed",
        "status",
        "host_id",
        "language",
        "lobby_message_id",
        "table_message_id",
        "turn_deadline",
        "shown_hands",
        "table_hand",
        "turn_message_id",
        "turn_n",
        "announced",
    }
)

#: The games a row may be of: the engine's registered games.
GAME_KINDS: frozenset[str] = frozenset(GAMES)
