"""The fast rule-based player: cheap heuristics, also the search's playout policy."""

from __future__ import annotations

from ..actions import KEEP, PLAYS, SWAP, Action
from ..views import SeatView
from .base import Player
from .sampling import mask_of, trump_index
from .simulate import rule_exchange, rule_play


def nines_rule_action(view: SeatView) -> Action:
    """Nines: keep or swap by hand strength; play by the rules of thumb in ``rule_play``."""
    table = view.table
    trump = trump_index(table.trump)
    hand = mask_of(view.hand)
    if table.phase == "exchange":
        discarded = any(swap for _, swap in table.exchange)
        return SWAP if rule_exchange(hand, trump, discarded) else KEEP
    played = 0
    for t in view.played:
        played |= mask_of(t.cards)
    trick = [c.index for _, c in table.trick]
    for c in trick:
        played |= 1 << c
    card = rule_play(hand, trick, table.players, trump, played, table.rules.teams is not None)
    action = PLAYS[card]
    assert action in view.legal, (action, view.legal)
    return action


def rule_action(view: SeatView) -> Action:
    if view.table.rules.game == "nein-nine":
        from .nein import nein_rule_action

        return nein_rule_action(view)
    return nines_rule_action(view)


class RulesPlayer(Player):
    """Rules of thumb; with ``noise`` > 0 a share of its plays are random (the easy level)."""

    name = "rules"

    def __init__(self, seed: int = 0, noise: float = 0.0) -> None:
        super().__init__(seed)
        self.noise = noise

    def choose(self, view: SeatView) -> Action:
        if self.noise and len(view.legal) > 1:
            rng = self.rng_for(view)
            if rng.random() < self.noise:
                return rng.choice(view.legal)
        return rule_action(view)
