"""First dealer (N2), the deal (N3), the dealer passing left and the trump rotation (N5)."""

from __future__ import annotations

import random

import pytest

import engine.cards
from engine import FULL_DECK, Card, DealerChosen, Exchange, Game, HandStarted, Rules
from engine.games.nines import Nines

from .positions import new_game, play_random

NINES_RULESETS = ["classic", "partnership", "four-player"]


def _shuffled(rng: random.Random) -> list[Card]:
    """The deck as the engine shuffles it (its shuffle helper, or Random.shuffle)."""
    helper = getattr(engine.cards, "shuffled", None)
    if helper is not None:
        return list(helper(rng, FULL_DECK))
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


def _check_draw(chosen: DealerChosen, players: int) -> None:
    assert chosen.rounds, "at least one round of draws"
    drawing = list(range(players))
    for draws in chosen.rounds:
        assert [seat for seat, _ in draws] == drawing
        cards = [card for _, card in draws]
        assert len(set(cards)) == len(cards), "cards in one round come from one deck"
        top = max(c.rank for c in cards)
        drawing = [seat for seat, card in draws if card.rank == top]
    assert drawing == [chosen.dealer], "the last round has one highest card: its drawer deals"


@pytest.mark.parametrize("ruleset", NINES_RULESETS)
def test_first_dealer_is_the_highest_draw(ruleset: str) -> None:
    for seed in range(60):
        game = new_game(ruleset, seed)
        chosen = game.opening[0]
        assert isinstance(chosen, DealerChosen)
        _check_draw(chosen, game.players)
        assert game.first_dealer == chosen.dealer == game.dealer


def test_ties_for_highest_draw_again() -> None:
    tied = []
    for seed in range(300):
        chosen = new_game("classic", seed).opening[0]
        assert isinstance(chosen, DealerChosen)
        if len(chosen.rounds) > 1:
            tied.append(chosen)
    assert tied, "some seed in 300 has a tie for highest"
    for chosen in tied:
        first = chosen.rounds[0]
        top = max(c.rank for _, c in first)
        assert sum(1 for _, c in first if c.rank == top) >= 2
        # Only the tied players draw again.
        assert [s for s, _ in chosen.rounds[1]] == [s for s, c in first if c.rank == top]


def test_draw_of_first_dealer_direct() -> None:
    chosen = Nines().choose_first_dealer(random.Random(5), 3)
    _check_draw(chosen, 3)


def test_opening_events() -> None:
    game = new_game("classic", 3)
    chosen, started = game.opening
    assert isinstance(chosen, DealerChosen)
    assert isinstance(started, HandStarted)
    assert started.number == 1
    assert started.dealer == chosen.dealer
    assert started.trump == game.rules.trumps[0]
    d = chosen.dealer
    assert started.exchange_order == ((d + 1) % 3, (d + 2) % 3, d)


@pytest.mark.parametrize(
    ("ruleset", "dealer"),
    [(r, d) for r in NINES_RULESETS for d in range(Rules.from_settings(r).players)],
)
def test_deal_order_n3(ruleset: str, dealer: int) -> None:
    """One card at a time clockwise from the dealer's left; the spare right after the dealer."""
    rules = Rules.from_settings(ruleset)
    n = rules.players
    hands, spare = Nines().deal(random.Random(99), rules, dealer)
    deck = _shuffled(random.Random(99))
    order = [(dealer + k) % n for k in range(1, n + 1)]
    expected: list[list[object]] = [[] for _ in range(n)]
    expected_spare: list[object] = []
    piles = [*order, "spare"] if rules.has_spare else order
    for i, card in enumerate(deck):
        pile = piles[i % len(piles)]
        (expected_spare if pile == "spare" else expected[pile]).append(card)  # type: ignore[index]
    assert hands == expected
    if rules.has_spare:
        assert spare == expected_spare
        assert order[-1] == dealer, "the dealer's card comes just before the spare's"
    else:
        assert spare is None
    assert all(len(h) == 13 for h in hands)


@pytest.mark.parametrize("ruleset", NINES_RULESETS)
def test_deal_uses_the_whole_deck(ruleset: str) -> None:
    game = new_game(ruleset, 11)
    everything = [c for h in game.hands for c in h] + list(game.spare or [])
    assert sorted(c.index for c in everything) == list(range(52))
    assert all(len(h) == 13 for h in game.hands)
    assert (game.spare is not None) == (ruleset == "classic")
    if game.spare is not None:
        assert len(game.spare) == 13


def test_deal_is_deterministic_from_the_seed() -> None:
    rules = Rules.from_settings("classic")
    a, b, c = Game(rules, 1234), Game(rules, 1234), Game(rules, 1235)
    assert a.hands == b.hands
    assert a.spare == b.spare
    assert a.dealer == b.dealer
    assert a.opening == b.opening
    assert (a.hands, a.spare) != (c.hands, c.spare)


def test_later_deals_are_deterministic_too() -> None:
    rules = Rules.from_settings("classic")
    a, b = Game(rules, 77), Game(rules, 77)
    play_random(a, random.Random(1), max_actions=60)
    play_random(b, random.Random(2), max_actions=60)  # different play, same deals
    assert a.hand_number == b.hand_number == 2
    assert a.hands_log[1].dealt == b.hands_log[1].dealt
    assert a.hands_log[1].spare == b.hands_log[1].spare


@pytest.mark.parametrize("ruleset", NINES_RULESETS)
def test_dealer_passes_left_and_trumps_rotate(ruleset: str) -> None:
    game = new_game(ruleset, 21, trumps="quebec", ties="joint")
    play_random(game, random.Random(0))
    first = game.first_dealer
    n = game.players
    assert len(game.hands_log) >= 2
    for i, log in enumerate(game.hands_log):
        assert log.number == i + 1
        assert log.dealer == (first + i) % n
        assert log.trump == game.rules.trumps[i % 5]
    for row, log in zip(game.sheet, game.hands_log, strict=True):
        assert (row.number, row.dealer, row.trump) == (log.number, log.dealer, log.trump)


def test_hand_started_events_announce_each_hand() -> None:
    game = new_game("classic", 8, ties="joint")
    rng = random.Random(4)
    started = [e for e in game.opening if isinstance(e, HandStarted)]
    while game.turn is not None:
        seat = game.turn
        started += [
            e
            for e in game.apply(seat, rng.choice(game.legal_actions(seat)))
            if isinstance(e, HandStarted)
        ]
    assert [e.number for e in started] == list(range(1, game.hand_number + 1))
    for e in started:
        assert e.dealer == (game.first_dealer + e.number - 1) % 3
        assert e.trump == game.rules.trump_of_hand(e.number - 1)
        assert e.exchange_order[0] == (e.dealer + 1) % 3


def test_left_of_dealer_leads_first_trick_without_exchange() -> None:
    for seed in range(10):
        game = new_game("partnership", seed)
        assert game.phase == "play"
        assert game.turn == game.leader == (game.dealer + 1) % 4
        assert game.exchange_order == ()
        assert game.legal_actions(game.turn)
        assert not any(isinstance(a, Exchange) for a in game.legal_actions(game.turn))
