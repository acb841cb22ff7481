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
        # 24 worlds take ~12 ms; the budget caps the rare slow position (anytime). 32 took
        # 0.11 to 0.12 of ISMCTS-2000's time; 24 take 0.75 to 0.80 of that, and the change
        # is within noise at a human-like table (duel --rotate, 300 deals, against 32):
        # classic +0.070 (-0.026 .. +0.166), four-player +0.033 (-0.072 .. +0.139),
        # partnership -0.077 (-0.239 .. +0.086). In the partnership game, from 5 cards in
        # hand the worlds (up to 16 at 5 cards, 32 from 4, as many as the pool gives) are
        # solved double dummy instead of played out by the rule (``endgame.py``): +0.105
        # tricks/hand (95% CI +0.028 .. +0.182, 200 deals) among ISMCTS-500 and +0.087
        # (-0.029 .. +0.204, 80) among ISMCTS-2000 over playouts alone; against ISMCTS-2000
        # itself -0.120 (-0.279 .. +0.039, 300 deals; was -0.300 over 100 before).
        # In classic, playouts judge sure winners against the world's hands (``sighted``),
        # measured against the same settings without (duel --rotate, 300 deals): +0.217
        # (+0.059 .. +0.375) at a human-like table, +0.153 (+0.007 .. +0.300) among
        # ISMCTS-500, +0.057 (-0.076 .. +0.190) among ISMCTS-2000, -0.003 among rule players,
        # in 1.08 to 1.23 times the time.
        "hard": Level(worlds=24, budget_s=0.25, endgame=5, solved_worlds=16, sighted=True),
    }
)
