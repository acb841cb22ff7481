"""The search-based player (the hard level): each game's search at a ``Level``'s settings.

Nines: ``nines.nines_search``; Nein Nine: ``nein.nein_search`` (``games.game_of``); both search
with ``determinized.best_move``.
"""

from __future__ import annotations

import random

from ..actions import Action
from ..views import SeatView
from .base import Player
from .games import game_of
from .levels import SEARCH, Level
from .nines import nines_worlds
from .sampling import Knowledge


class SearchPlayer(Player):
    """Determinized Monte Carlo at a ``Level``'s settings (``nines.py``, ``nein.py``).

    Nines: ``worlds`` sampled worlds for card play. ``inference`` redraws worlds that
    contradict the others' decisions (up to that many draws a world, three-hand games);
    four-hand games keep the least contradicted of one pool of ``pool`` draws a world.
    ``exchange_worlds`` > 0 decides keep or swap by paired simulations instead of the rule.
    ``budget_s`` caps the thinking time: the worlds done by then decide. Four players each for
    themselves: the others' follows and discards rule out cards, and near the end of a game
    playouts count the chance to win it (``race``). ``endgame`` > 0: from that many cards in
    hand the worlds are solved exactly instead of played out (``endgame.py``; two teams),
    ``solved_worlds`` of them from ``endgame`` cards and twice as many a card fewer.
    ``sighted``: in a game with a spare (classic), card play's playouts judge "a sure winner"
    and "a safe lead" against the world's hands of the seats still to play (for a lead, all
    the others), not against every card the seat has not seen, the spare's 13 dead cards
    among them; hard's setting, card play only. Nein Nine: ``nein_worlds`` worlds, each the
    best fit of 4 draws to the others' plays.

    What each setting measured, and the options left off: docs/players.md.
    """

    name = "search"

    def __init__(self, seed: int = 0, level: Level = SEARCH) -> None:
        super().__init__(seed)
        self.level = level

    def choose(self, view: SeatView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        game = game_of(view.table.rules)
        return game.search(view, self.rng_for(view), self.level, self._worlds)

    def _worlds(self, k: Knowledge, rng: random.Random, count: int) -> list[list[int]]:
        """Up to ``count`` worlds to judge the cards in (the bench's players draw others)."""
        return nines_worlds(k, rng, count, self.level)
