"""The values the tournament queries give back (tournaments.py): frozen, never database rows."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .driver import Row
from .values import from_row

TournamentStatus = Literal["registration", "running", "paused", "finished", "cancelled"]
OPEN_TOURNAMENT: tuple[TournamentStatus, ...] = ("registration", "running", "paused")


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What a host chooses when creating a tournament."""

    guild_id: int
    channel_id: int
    host_id: int
    name: str
    ruleset: str
    seats: int
    rounds: int
    move_timer: int
    round_minutes: int
    duplicate: bool
    seed: int
    language: str = "en"
    settings: dict[str, str | int] = field(default_factory=dict)
    start_at: float | None = None
    champion_role_id: int | None = None
    break_minutes: int = 0


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    ruleset: str
    settings: dict[str, str | int]
    seats: int
    rounds: int
    move_timer: int
    round_minutes: int
    break_minutes: int
    duplicate: bool
    champion_role_id: int | None
    language: str
    seed: int
    status: TournamentStatus
    current_round: int
    start_at: float | None
    round_deadline: float | None
    next_round_at: float | None
    registration_message_id: int | None
    event_id: int | None
    #: The last round whose standings were posted (0: none yet).
    shown_round: int = 0

    @property
    def open(self) -> bool:
        return self.status in OPEN_TOURNAMENT


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered person: from which round they are paired, and until which (dropped)."""

    user_id: int
    name: str
    joined_at: float
    first_round: int
    checked_in: bool
    dropped_round: int | None

    def plays(self, round_number: int) -> bool:
        """Whether they are paired in that round."""
        dropped = self.dropped_round is not None and self.dropped_round <= round_number
        return self.first_round <= round_number and not dropped


@dataclass(frozen=True, slots=True)
class PairedTable:
    """One table of a round as paired: the user in each seat position (0 deals first; None a
    computer), the deal's seed, and once opened and ended its game, thread and scores; whether
    its people were called to it, and each position's points by hand (``boards``, for
    duplicate scoring)."""

    round: int
    table_no: int
    seed: int
    players: tuple[int | None, ...]
    game_id: int | None = None
    thread_id: int | None = None
    scores: tuple[int, ...] | None = None
    called: bool = False
    boards: tuple[dict[int, int], ...] | None = None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def finished(self) -> bool:
        return self.scores is not None


def tournament_from(row: Row) -> TournamentRow:
    return from_row(TournamentRow, row, settings=json.loads(row["settings"]))


def entrant_from(row: Row) -> Entrant:
    return from_row(Entrant, row)


def players_text(players: tuple[int | None, ...]) -> str:
    return ",".join(str(p or 0) for p in players)


def table_from(row: Row) -> PairedTable:
    scores = row["scores"]
    return PairedTable(
        round=int(row["round"]),
        table_no=int(row["table_no"]),
        seed=int(row["seed"]),
        players=tuple(int(p) or None for p in str(row["players"]).split(",")),
        game_id=row["game_id"],
        thread_id=row["thread_id"],
        scores=None if scores is None else tuple(int(s) for s in str(scores).split(",")),
        called=bool(row["called"]),
        boards=None if row["boards"] is None else boards_from(str(row["boards"])),
    )


def boards_text(boards: Sequence[Mapping[int, int]]) -> str:
    return json.dumps([{str(hand): p for hand, p in sorted(b.items())} for b in boards])


def boards_from(text: str) -> tuple[dict[int, int], ...]:
    return tuple({int(hand): int(p) for hand, p in b.items()} for b in json.loads(text))
