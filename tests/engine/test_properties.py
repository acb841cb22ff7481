"""Property tests: random games of every ruleset and setting, checked at every step.

Each example plays a whole game with ``random.Random(seed)`` choosing among
``game.legal_actions``, and checks, after every action: the deck is conserved; the card played
was in the hand of the seat that played it and followed suit when it had to (checked here,
not by asking the engine); one trick winner per completed trick; no seat's view shows another
seat's hand or the spare (beyond the hands it held itself); an illegal action changes nothing.
After every hand of Nines the total of the scores has dropped by exactly one (without instant
win), and games end within the bounds that rule implies.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    FULL_DECK,
    JOKER,
    CardPlayed,
    Game,
    GameEnded,
    HandEnded,
    HandStarted,
    IllegalAction,
    Play,
    Rules,
    TrickWon,
    seat_view,
)
from engine.cards import Card

from .test_replay_and_records import nines_trick_winner

NINES_RULESETS = ["classic", "partnership", "four-player"]
TRUMPS = [
    "classic",
    "spades-first",
    "hdsc",
    "hcds",
    "quebec",
    "clubs-first",
    "NT",
    "S",
    "H,NT,D",
    "C,C,H,D,S,NT,H,D,C,S",
]

nines_settings = st.fixed_dictionaries(
    {
        "trumps": st.sampled_from(TRUMPS),
        "exchange": st.sampled_from(["left", "dealer"]),
        "ties": st.sampled_from(["play-on", "joint"]),
        "instant_win": st.sampled_from(["on", "off"]),
        "start": st.integers(3, 21),
    }
)
nein_settings = st.fixed_dictionaries({"rounds": st.integers(1, 12), "limit": st.integers(1, 30)})
any_game = st.one_of(
    st.tuples(st.sampled_from(NINES_RULESETS), nines_settings),
    st.tuples(st.just("nein-nine"), nein_settings),
)


def _cards_in(value: Any, skip: frozenset[str]) -> Iterator[Card]:
    """Every Card reachable in a view, except under the fields named in ``skip``."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name not in skip:
                yield from _cards_in(getattr(value, f.name), skip)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _cards_in(item, skip)


# The previous hand, shown to all once it is over (spare revealed, N4, N13).
REVEALED = frozenset({"last_hand", "last_hand_tricks"})


def _check_views(game: Game) -> None:
    played = {c for t in game.tricks for c in t.cards} | set(game.trick)
    for seat in range(game.players):
        view = seat_view(game, seat)
        # Deck order, not deal order (which fingerprints the shuffle).
        assert view.hand == tuple(sorted(game.hands[seat], key=lambda c: c.index))
        known_put_down = {c for h in view.put_down for c in h}
        visible = set(_cards_in(view, REVEALED))
        assert visible <= set(game.hands[seat]) | known_put_down | played
        for other in range(game.players):
            if other != seat:
                assert not (visible & set(game.hands[other])) - known_put_down
        if game.spare is not None and game.phase != "over":
            assert not (visible & set(game.spare)) - known_put_down
        # Put-down hands really were held by this seat: they were dealt to it or taken.
        log = game.hands_log[-1]
        origins = [set(h) for h in log.dealt] + [set(log.spare or ())]
        origins += [set(h) for s in range(game.players) for h in game.put_down[s]]
        for hand in view.put_down:
            assert set(hand) in origins


def _check_deck(game: Game) -> None:
    if game.phase == "over":
        return
    log = game.hands_log[-1]
    deck = [c for h in log.dealt for c in h] + list(log.spare or ())
    now = [c for h in game.hands for c in h] + list(game.spare or []) + list(game.trick)
    now += [c for t in game.taken for c in t]
    assert sorted(c.index for c in now) == sorted(c.index for c in deck)
    assert len(set(deck)) == len(deck)
    if game.rules.game == "nines":
        assert set(deck) == set(FULL_DECK)
    else:
        assert len(deck) == 21
        assert JOKER in deck


def _try_illegal(game: Game, rng: random.Random) -> None:
    """An illegal action raises and leaves the game exactly as it was."""
    seat = game.turn
    assert seat is not None
    legal = game.legal_actions(seat)
    wrong_seat = (seat + 1 + rng.randrange(game.players - 1)) % game.players
    candidates: list[tuple[int, object]] = [(wrong_seat, legal[0])]
    candidates += [(seat, Play(c)) for c in game.hands[seat] if Play(c) not in legal]
    who, action = rng.choice(candidates)
    if who == seat and game.rules.game != "nines":
        return  # Nein Nine's Joker calls: covered in test_nein_nine.py
    before = (game.to_json(), [list(h) for h in game.hands], list(game.trick), game.turn)
    try:
        game.apply(who, action)  # type: ignore[arg-type]
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"illegal {action} by seat {who} accepted")
    assert (game.to_json(), [list(h) for h in game.hands], list(game.trick), game.turn) == before


def play_checked(game: Game, rng: random.Random) -> list[object]:
    """Play the whole game at random, checking invariants after every action."""
    nines = game.rules.game == "nines"
    events: list[object] = list(game.opening)
    n = game.players
    _check_deck(game)
    _check_views(game)
    while game.turn is not None:
        seat = game.turn
        hand_before = list(game.hands[seat])
        trick_before = list(game.trick)
        leader_before = game.leader
        won_before = list(game.tricks_won)
        scores_before = list(game.scores)
        hand_number = game.hand_number
        if rng.random() < 0.1:
            _try_illegal(game, rng)
        action = rng.choice(game.legal_actions(seat))
        new = game.apply(seat, action)
        events += new
        played = [e for e in new if isinstance(e, CardPlayed)]
        if isinstance(action, Play):
            assert len(played) == 1
            card = played[0].card
            assert played[0].seat == seat
            assert card in hand_before
            if nines and trick_before:
                led = trick_before[0].suit
                if any(c.suit is led for c in hand_before):
                    assert card.suit is led
            tricks = [e for e in new if isinstance(e, TrickWon)]
            if len(trick_before) == n - 1:
                assert len(tricks) == 1, "exactly one winner per trick"
                trick = tricks[0]
                assert trick.cards == (*trick_before, card)
                assert trick.leader == leader_before
                assert trick.number == len(game.hands_log[hand_number - 1].tricks)
                assert 0 <= trick.winner < n
                if nines:
                    codes = [str(c) for c in trick.cards]
                    trump = game.hands_log[hand_number - 1].trump
                    expect = nines_trick_winner(
                        codes, trick.leader, None if trump is None else trump.value, n
                    )
                    assert trick.winner == expect
                if game.hand_number == hand_number and not game.over:
                    delta = [a - b for a, b in zip(game.tricks_won, won_before, strict=True)]
                    assert delta == [int(s == trick.winner) for s in range(n)]
                    assert game.leader == game.turn == trick.winner
            else:
                assert not tricks
        else:
            assert not played
        for ended in (e for e in new if isinstance(e, HandEnded)):
            if nines:
                assert sum(ended.tricks_won) == 13 or ended.instant_win
                if not ended.instant_win:
                    assert sum(ended.scores) == sum(scores_before) - 1
                else:
                    assert game.rules.instant_win
                    assert min(ended.scores) <= 0
        if any(isinstance(e, HandStarted) for e in new):
            assert game.dealer == (game.first_dealer + game.hand_number - 1) % n
        _check_deck(game)
        _check_views(game)
    assert isinstance(events[-1], GameEnded)
    assert game.winners
    return events


@pytest.mark.slow(20)
@settings(max_examples=30, deadline=None)
@given(game_spec=any_game, seed=st.integers(0, 2**40))
def test_random_games_keep_every_invariant(
    game_spec: tuple[str, dict[str, object]], seed: int
) -> None:
    ruleset, options = game_spec
    game = Game(Rules.from_settings(ruleset, options), seed)
    play_checked(game, random.Random(seed))


@settings(max_examples=150, deadline=None)
@given(
    ruleset=st.sampled_from(NINES_RULESETS),
    options=nines_settings,
    seed=st.integers(0, 2**40),
)
def test_game_length_bounds(ruleset: str, options: dict[str, object], seed: int) -> None:
    """The total drops by at least one a hand, so with joint winners a game ends by the hand
    at which the total leaves someone at zero: 25 hands for classic from 9 (000), 17 for the
    partnership game (000, N10, ties or not) and 33 for four players."""
    options = {**options, "ties": "joint"} if ruleset != "partnership" else options
    rules = Rules.from_settings(ruleset, options)
    game = Game(rules, seed)
    rng = random.Random(seed)
    while game.turn is not None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    start_total = rules.start * rules.units
    # Once the total is below units, someone is at 0 or below.
    assert game.hand_number <= start_total - rules.units + 1
    if rules.start == 9:
        assert game.hand_number <= {"classic": 25, "partnership": 17, "four-player": 33}[ruleset]


@settings(max_examples=60, deadline=None)
@given(game_spec=any_game, seed=st.integers(0, 2**40), cut=st.floats(0, 1))
def test_replay_gives_the_same_state(
    game_spec: tuple[str, dict[str, object]], seed: int, cut: float
) -> None:
    ruleset, options = game_spec
    rules = Rules.from_settings(ruleset, options)
    game = Game(rules, seed)
    rng = random.Random(seed)
    while game.turn is not None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    actions = list(game.log)
    partial = actions[: int(len(actions) * cut)]
    for log in (actions, partial):
        a = Game.replay(rules, seed, log)
        b = Game.from_json(a.to_json())
        assert a.to_json() == b.to_json()
        assert a.scores == b.scores
        assert a.winners == b.winners
        assert a.hand_number == b.hand_number
        for seat in range(rules.players):
            assert seat_view(a, seat) == seat_view(b, seat)
    final = Game.replay(rules, seed, actions)
    assert final.to_json() == game.to_json()
    assert final.scores == game.scores
    assert final.sheet == game.sheet
