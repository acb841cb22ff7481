"""Each level's settings in one place: one frozen ``Level`` per level, read by ``make_player``.

The bench changes one with ``dataclasses.replace`` (the duel's ``with:KEY=VALUE`` spec).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal


@dataclass(frozen=True, slots=True)
class Level:
    """How a level plays. ``player`` "rules": the rule player, ``noise`` of its plays random;
    "search": the determinized search (``search.SearchPlayer``), with the settings below."""

    player: Literal["rules", "search"] = "search"
    noise: float = 0.0
    #: Worlds sampled for card play; four hands draw them from one pool of ``pool`` a world.
    worlds: int = 32
    #: Worlds that decide keep or swap (0: the rule decides).
    exchange_worlds: int = 48
    #: Draws a world to fit the others' decisions (three hands).
    inference: int = 8
    pool: int = 12
    #: Seconds of thinking: the worlds done by then decide.
    budget_s: float = 0.8
    #: From this many cards in hand (two teams) the worlds are solved exactly, ``solved_worlds``
    #: of them from ``endgame`` cards and twice as many a card fewer (0: playouts to the end).
    endgame: int = 0
    solved_worlds: int = 0
    #: With a spare, playouts judge sure winners against the world's hands.
    sighted: bool = False
    #: Nein Nine's worlds (``nein.py``).
    nein_worlds: int = 16


#: The search's settings before a level changes them (the bench's ``search:`` spec).
SEARCH: Final = Level()

#: The levels offered to people, weakest first; each measurably stronger than the one before.
LEVELS: Final[Mapping[str, Level]] = MappingProxyType(
    {
        "easy": Level("rules", noise=0.3),
        "normal": Level("rules"),
        # Each setting kept for what it measured against hard without it (docs/players.md,
        # "The figures behind hard's settings"); 24 worlds take ~12 ms, the budget caps the
        # rare slow position.
        "hard": Level(worlds=24, budget_s=0.25, endgame=5, solved_worlds=16, sighted=True),
    }
)
