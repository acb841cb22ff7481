"""Information Set MCTS (Cowling, Powley and Whitehouse, 2012), single observer: the baseline.

Each iteration samples a world consistent with the view, walks one tree of the seat's own
information set (UCB1 with availability counts over the moves legal in that world), adds a
node, finishes the hand with random moves and backs up each mover's score. The strongest
existing Nines program plays this with 2,000 iterations a move; the duel measures against it.
The exchange decision uses the rule (the tree covers the card play).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine.actions import Action
from engine.players.base import Player
from engine.players.games import game_of, knowledge
from engine.players.rules_player import rule_action
from engine.players.sampling import sample_world
from engine.players.state import HandState
from engine.views import SeatView


class Node:
    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move led here
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


def ismcts(
    new_state: Callable[[], HandState],
    iterations: int,
    rng: random.Random,
    scale: float,
    c: float = 0.7,
    rule_rollouts: bool = False,
    deadline: float = math.inf,
) -> int:
    """The most visited move at the root; ``new_state()`` draws a fresh determinization.
    Rollouts play random moves, or with ``rule_rollouts`` the rule-based ones."""
    root = Node(-1)
    for i in range(iterations):
        if i % 16 == 15 and time.perf_counter() > deadline:
            break
        state = new_state()
        node = root
        path = [root]
        while not state.over:
            legal = state.legal_moves()
            untried = [m for m in legal if m not in node.children]
            if untried:
                move = rng.choice(untried)
                for m in legal:
                    if m in node.children:
                        node.children[m].avail += 1
                child = Node(state.turn)
                node.children[move] = child
                state.play(move)
                path.append(child)
                break
            best_v, best = -1.0, legal[0]
            for m in legal:
                ch = node.children[m]
                ch.avail += 1
                v = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if v > best_v:
                    best_v, best = v, m
            node = node.children[best]
            state.play(best)
            path.append(node)
        while not state.over:
            state.play(state.rule_move() if rule_rollouts else rng.choice(state.legal_moves()))
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.reward += state.score(n.mover) / scale
    return max(root.children.items(), key=lambda kv: kv[1].visits)[0]


class IsmctsPlayer(Player):
    name = "ismcts"

    def __init__(
        self, seed: int = 0, iterations: int = 2000, rule_rollouts: bool = False, tries: int = 1
    ) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.rule_rollouts = rule_rollouts
        self.tries = tries  # draws per determinization, the least contradicted kept

    def choose(self, view: SeatView) -> Action:
        if len(view.legal) == 1 or view.table.phase == "exchange":
            return rule_action(view)
        rng = self.rng_for(view)
        k = knowledge(view)
        game = game_of(view.table.rules)

        def fresh() -> HandState:
            return game.state(k, sample_world(k, rng, self.tries), view)

        move = ismcts(fresh, self.iterations, rng, game.scale, rule_rollouts=self.rule_rollouts)
        return game.action(move)
