"""What a tournament's tables play and who sits where: each table's deal, its rules (a
three-seat table of a four-seat tournament plays a companion ruleset) and its seats in game
order, computers filling the seats the field leaves empty."""

from __future__ import annotations

import random

from engine import Game, Rules

from ..game import SeatInfo
from ..storage.tournament_values import Entrant, PairedTable, TournamentRow
from ..words import tr

#: The computers' level at a tournament's tables.
COMPUTER_LEVEL = "normal"

#: A four-seat ruleset whose tournament seats a remainder at three-seat tables, and the ruleset
#: those tables play: the same game each for themselves, at three (``four-player``: quota 3;
#: ``classic``: a spare hand, quota 4). Partnership (teams) and Nein Nine (three only) have
#: none. Not in duplicate: every table of a duplicate round plays the same deals, so computers
#: fill its seats instead.
THREE_SEAT_COMPANIONS = {"four-player": "classic"}


def table_seed(tournament: TournamentRow, round_number: int, table_no: int) -> int:
    """The deal of a table: its own, or in duplicate the round's, the same at every table."""
    which = 0 if tournament.duplicate else table_no
    return random.Random(f"{tournament.seed}:{round_number}:{which}").getrandbits(62)


def rules_of(tournament: TournamentRow, seats: int | None = None) -> Rules:
    """The rules of the tournament's tables of ``seats`` (its own size if None): a three-seat
    table of a four-seat tournament plays the companion ruleset (``THREE_SEAT_COMPANIONS``)."""
    ruleset = tournament.ruleset
    if seats is not None and seats != tournament.seats:
        ruleset = THREE_SEAT_COMPANIONS[ruleset]
    return Rules.from_settings(ruleset, tournament.settings)


def allows_three(tournament: TournamentRow) -> bool:
    """Whether a remainder of the field may sit at three-seat tables (``pairing.py``)."""
    return (
        tournament.seats == 4
        and not tournament.duplicate
        and tournament.ruleset in THREE_SEAT_COMPANIONS
    )


def seat_infos(
    t: TournamentRow, table: PairedTable, entrants: dict[int, Entrant]
) -> tuple[list[SeatInfo], int]:
    """A table's seats in game order (its seat positions turned so position 0 is the game's
    first dealer) and the person who hosts its game (the first person seated)."""
    first = Game(rules_of(t, table.seats), table.seed).first_dealer
    by_seat: list[int | None] = [None] * table.seats
    for position, user in enumerate(table.players):
        by_seat[(first + position) % table.seats] = user
    infos: list[SeatInfo] = []
    for i, user in enumerate(by_seat):
        if user is None:
            names = tr(t.language, f"computer.names.{COMPUTER_LEVEL}").split(", ")
            infos.append(SeatInfo(f"🤖 {names[i % len(names)]}", None, COMPUTER_LEVEL))
        else:
            infos.append(SeatInfo(entrants[user].name if user in entrants else "?", user))
    return infos, next(u for u in by_seat if u is not None)
