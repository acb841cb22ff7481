"""Build exact positions for engine tests.

A ``Game`` always starts from a seeded draw and deal. To test one rule on one position, build a
game with ``new_game`` and then overwrite the state of the hand in progress with ``set_hand``:
the hands (and spare), dealer, leader, whose turn it is, the trick in progress, the trump, the
scores at the start of the hand and the tricks already won. The helpers touch only the state
attributes that ``Game`` documents (hands, spare, dealer, leader, turn, trick, trump, phase,
scores, hand_start_scores, tricks_won, exchange_made, put_down) and keep the hand's log
(``hands_log[-1]``) in step so records stay coherent.

>>> game = set_hand(new_game("classic"), ["AH 2C", "KH 3C", "QH 4C"], dealer=2, trump="S")
>>> game.turn, game.leader, [str(c) for c in game.hands[1]]
(0, 0, ['KH', '3C'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import Action, Card, Game, Rules, Suit
from engine.cards import FULL_DECK


def cards(text: str) -> list[Card]:
    """Cards from space-separated codes: ``cards("AS KH 9D")``."""
    return [Card.parse(code) for code in text.split()]


def codes(items: Sequence[Card]) -> list[str]:
    return [str(c) for c in items]


def new_game(ruleset: str = "classic", seed: int = 0, **settings: object) -> Game:
    """A freshly dealt game; settings use the shared vocabulary (``trumps="quebec"``)."""
    return Game(Rules.from_settings(ruleset, settings), seed)


def set_hand(
    game: Game,
    hands: Sequence[str],
    *,
    spare: str | None = None,
    dealer: int | None = None,
    leader: int | None = None,
    turn: int | None = None,
    trick: str = "",
    trump: str | None = "H",
    scores: Sequence[int] | None = None,
    tricks_won: Sequence[int] | None = None,
    phase: str = "play",
) -> Game:
    """Overwrite the hand in progress with an exact position and return the game.

    ``hands`` are one string of card codes per seat. ``trump`` is a suit code or None for no
    trump. ``leader`` defaults to the dealer's left; ``turn`` to the seat after the cards of
    ``trick`` (played by ``leader`` onward). ``scores`` are the scores at the start of the hand.
    Cards not given anywhere are simply out of the hand: use this for rule checks, not for
    deck-conservation tests.
    """
    n = game.players
    assert len(hands) == n, f"{n} hands needed"
    game.hands = [cards(h) for h in hands]
    game.spare = cards(spare) if spare is not None else None
    if dealer is not None:
        game.dealer = dealer
    game.leader = (game.dealer + 1) % n if leader is None else leader
    game.trick = cards(trick)
    game.turn = (game.leader + len(game.trick)) % n if turn is None else turn
    game.trump = None if trump is None else Suit.parse(trump)
    game.phase = phase
    if scores is not None:
        game.scores = list(scores)
        game.hand_start_scores = tuple(scores)
    game.tricks_won = list(tricks_won) if tricks_won is not None else [0] * n
    game.exchange_made = []
    game.put_down = [[] for _ in range(n)]
    log = game.hands_log[-1]
    log.dealer = game.dealer
    log.trump = game.trump
    log.dealt = tuple(tuple(h) for h in game.hands)
    log.spare = tuple(game.spare) if game.spare is not None else None
    log.exchange = game.exchange_made
    return game


def play_random(
    game: Game, rng: random.Random, max_actions: int = 100_000
) -> list[tuple[int, Action]]:
    """Play the game to its end with random legal actions; return the actions taken."""
    taken: list[tuple[int, Action]] = []
    while game.turn is not None and len(taken) < max_actions:
        seat = game.turn
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        taken.append((seat, action))
    return taken


def finish_exchange(game: Game, swap: bool = False) -> None:
    """Everyone keeps (or swaps) until play starts."""
    from engine import Exchange

    while game.phase == "exchange":
        assert game.turn is not None
        game.apply(game.turn, Exchange(swap))


ALL_CARDS = frozenset(FULL_DECK)
