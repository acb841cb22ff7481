"""Playouts with sight of the world (``simulate.sighted_play``): always a legal card, and the
rule's "sure winner" judged against the seats' real holdings, not every unseen card."""

from __future__ import annotations

import math
import random

import pytest

from bench.players.duel import hard_with
from engine import seat_view
from engine.cards import Card
from engine.players.simulate import (
    FULL,
    NO_TRUMP,
    SUIT_MASKS,
    SUIT_OF,
    NinesHand,
    _discard,
    _lead,
    best_position,
    highest,
    legal_mask,
    lowest,
    rule_play,
    sighted_play,
)

from .test_players import positions_of


def bits(text: str) -> int:
    mask = 0
    for code in text.split():
        mask |= 1 << Card.parse(code).index
    return mask


def card(code: str) -> int:
    return Card.parse(code).index


def can_beat(hand: int, card: int, led: int, trump: int) -> bool:
    """Whether a seat with ``hand``, still to play, could beat ``card`` (the trick's best)."""
    follow = hand & SUIT_MASKS[led]
    if follow:
        return SUIT_OF[card] == led and highest(follow) > card
    trumps = hand & SUIT_MASKS[trump] if trump != NO_TRUMP else 0
    return bool(trumps) and (SUIT_OF[card] != trump or highest(trumps) > card)


def reference(hands: list[int], seat: int, trick: list[int], n: int, trump: int) -> int:
    """``sighted_play`` spelled out card by card, seat by seat."""
    hand = hands[seat]
    k = len(trick)
    others = [hands[(seat + j) % n] for j in range(1, n)]  # in turn after me
    later = others[: n - 1 - k]
    if k == 0:
        out = 0
        for h in others:
            out |= h
        ruffable = sum(
            1 << s
            for s in range(4)
            if any(
                not h & SUIT_MASKS[s] and trump != NO_TRUMP and h & SUIT_MASKS[trump]
                for h in others
            )
        )
        return _lead(hand, trump, out, n, ruffable)
    led = SUIT_OF[trick[0]]
    bi = best_position(trick, trump)
    best = trick[bi]
    follow = hand & SUIT_MASKS[led]
    if follow:
        candidates = follow if SUIT_OF[best] == led else 0
    else:
        trumps = hand & SUIT_MASKS[trump] if trump != NO_TRUMP else 0
        candidates = trumps & ~((2 << best) - 1) if SUIT_OF[best] == trump else trumps
        if not candidates:
            return _discard(hand, trump)
    winners = [
        c for c in range(52) if candidates >> c & 1 and (SUIT_OF[c] != SUIT_OF[best] or c > best)
    ]
    for c in winners:
        if not any(can_beat(h, c, led, trump) for h in later):
            return c
    return lowest(follow) if follow else lowest(candidates)


def random_hand(rng: random.Random, n: int, size: int) -> NinesHand:
    """A fresh hand of ``size`` cards a seat, a random trump (or none) and leader."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[s * size : (s + 1) * size]) for s in range(n)]
    trump = rng.choice([0, 1, 2, 3, NO_TRUMP])
    return NinesHand(hands, trump, rng.randrange(n), [], [0] * n, 0, False, 4, None)


@pytest.mark.parametrize("n", [3, 4])
def test_sighted_play_is_the_rule_judged_against_the_real_holdings(n: int) -> None:
    rng = random.Random(n * 7)
    for _ in range(3000):
        state = random_hand(rng, n, rng.randint(1, 13))
        trump = state.trump
        for _ in range(rng.randrange(n)):  # some cards of the trick already down
            state.play(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
        seat = state.turn
        expected = reference(state.hands, seat, state.trick, n, trump)
        assert sighted_play(state.hands, seat, state.trick, n, trump) == expected


@pytest.mark.parametrize("n", [3, 4])
def test_sighted_playouts_play_only_legal_cards_to_the_end(n: int) -> None:
    rng = random.Random(n * 10)
    for _ in range(200):
        size = 13 if n == 4 else rng.randint(1, 13)
        state = random_hand(rng, n, size)
        trump = state.trump
        while not state.over:
            seat = state.turn
            chosen = sighted_play(state.hands, seat, state.trick, n, trump)
            assert legal_mask(state.hands[seat], state.trick) >> chosen & 1
            state.play(chosen)
        assert sum(state.tricks) == size


def test_a_card_only_the_spare_could_beat_is_a_sure_winner() -> None:
    # Spades led; seat 0 holds K and 3, seat 1 (last to play) only the 4; the ace is in the
    # spare. The rule cannot see that and keeps the king; with sight the king wins the trick.
    hands = [bits("KS 3S 2H"), bits("4S 5H 6H"), bits("5S 7H 8H")]
    trick = [card("5S")]
    played = 1 << card("5S")
    seen = hands[0] | played
    assert (FULL & ~seen) >> card("AS") & 1  # the ace is among the cards the rule fears
    assert rule_play(hands[0], trick, 3, 1, played, False) == card("3S")
    assert sighted_play(hands, 0, trick, 3, 1) == card("KS")


def test_a_sighted_ruff_is_the_lowest_trump_nobody_after_can_overruff() -> None:
    # Clubs led, seat 0 void in clubs with the 2 and 9 of hearts (trump); seat 1 is void too
    # and holds the 5 of hearts: the 2 would be overruffed, the 9 holds.
    hands = [bits("2H 9H 3D"), bits("5H 4D 5D"), bits("3C 7C 8C")]
    trick = [card("AC")]
    assert sighted_play(hands, 0, trick, 3, 1) == card("9H")
    hands[1] = bits("4C 4D 5D")  # seat 1 must follow clubs: the 2 holds
    assert sighted_play(hands, 0, trick, 3, 1) == card("2H")


@pytest.mark.parametrize("ruleset", ["classic", "four-player", "partnership"])
def test_hard_sees_its_worlds_only_with_a_spare(ruleset: str) -> None:
    """Sight is hard's setting where a spare holds dead cards (classic); elsewhere it lost
    among rule players or gained nothing, and hard plays as without it."""
    hard = hard_with(3, budget_s=math.inf)
    blind = hard_with(3, budget_s=math.inf, sighted=False)
    differ = 0
    for game, seat in positions_of(ruleset, 40, seed=5):
        view = seat_view(game, seat)
        differ += hard.choose(view) != blind.choose(view)
    if ruleset == "classic":
        assert differ >= 4
    else:
        assert differ == 0
