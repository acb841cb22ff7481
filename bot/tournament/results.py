"""The standings of a tournament's stored tables: each finished table as a result for
standings.py's rule, with the teams of a partnership ruleset as seat positions."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, find_ruleset

from ..storage.tournament_values import Entrant, PairedTable, TournamentRow
from .seating import rules_of
from .standings import Standing, TableResult, standings


def scale_of(ruleset_name: str) -> int:
    """The opponents at a full table of the ruleset: what a place is worth (standings.py)."""
    ruleset = find_ruleset(ruleset_name)
    return ruleset.players - (len(ruleset.teams[0]) if ruleset.teams else 1)


def player_keys(players: Sequence[int | None]) -> list[str | None]:
    """A table's seat positions as pairing.py and standings.py name people (None: a computer)."""
    return [None if p is None else str(p) for p in players]


def standings_of(
    t: TournamentRow, entrants: Sequence[Entrant], tables: Sequence[PairedTable]
) -> list[Standing]:
    """The standings of the tables ended so far (standings.py's rule)."""
    ruleset = find_ruleset(t.ruleset)
    results = [
        TableResult(
            x.round,
            tuple(player_keys(x.players)),
            x.scores,
            ruleset.kind.higher_wins,
            _teams_by_position(t, x, ruleset.teams),
            x.boards,
        )
        for x in tables
        if x.scores is not None
    ]
    people = [str(e.user_id) for e in entrants]
    return standings(people, results, t.duplicate, scale_of(t.ruleset))


def _teams_by_position(
    t: TournamentRow, table: PairedTable, teams: tuple[tuple[int, ...], ...] | None
) -> tuple[tuple[int, ...], ...] | None:
    """The ruleset's teams (by seat) as seat positions at this table."""
    if teams is None or table.seats != t.seats:
        return None
    first = Game(rules_of(t), table.seed).first_dealer
    return tuple(tuple(sorted((s - first) % t.seats for s in team)) for team in teams)
