"""A computer's decision that depends on its seat's view, its level and its seed alone, never on
the clock: what makes a duplicate deal fair (issue 47). ``choose`` stops a search at its level's
time budget, so a busy machine judges fewer worlds and may answer differently; here the search
judges every world its level names (hard: ~12 ms for its 24 worlds; the long budget only stops a
search gone wrong). Two people who play the same cards on the same deal meet the same answers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from ..actions import Action
from ..views import SeatView
from . import make_player
from .search import SearchPlayer

#: Seconds a search may take before its level's worlds are all judged: far beyond any (the
#: caller's own time limit, bot/game/computer.py, stops it first and plays the rule-based move).
UNHURRIED_S: Final = 60.0


def choose_exact(view: SeatView, difficulty: str, seed: int) -> Action:
    """The decision at ``difficulty`` with every world of its level judged."""
    player = make_player(difficulty, seed)
    if isinstance(player, SearchPlayer):
        player.level = replace(player.level, budget_s=UNHURRIED_S)
    return player.choose(view)


__all__ = ["UNHURRIED_S", "choose_exact"]
