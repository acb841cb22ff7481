"""The private hand's words around a hand's end and the exchange (issue 38, items 7 and 11):
the hand that just ended is told in every seat's hand until the next hand's first trick, and
a seat that swapped reads what it took: the spare as dealt, or the hand the player before it
put down."""

from __future__ import annotations

import random

import pytest

from bot.table import build
from cogs.nines.render import hand_content
from engine import Exchange, Game, Rules
from testbed.reading import as_read
from tests.test_table_model import session_for


def swapping_game(seed: int = 3) -> Game:
    game = Game(Rules.from_settings("classic", {"start": 3}), seed)
    assert game.phase == "exchange"
    return game


@pytest.mark.parametrize(
    ("lang", "spare", "taken"),
    [
        ("en", "You took the spare hand.", "You took the hand {} put down."),
        ("fr", "Vous avez pris le chômeur.", "Vous avez pris la main que {} a déposée."),
    ],
)
def test_a_swap_says_whose_hand_it_took(lang: str, spare: str, taken: str) -> None:
    game = swapping_game()
    first, second, third = game.exchange_order
    session = session_for(game, language=lang)
    game.apply(first, Exchange(swap=True))
    text = hand_content(lang, build(session, first))
    assert spare in text and taken.split("{}")[0] not in text
    game.apply(second, Exchange(swap=False))
    game.apply(third, Exchange(swap=True))  # takes what ``first`` put down
    mine = build(session, third)
    text = hand_content(lang, mine)
    assert taken.format(mine.seats[first].name) in as_read(text) and spare not in text
    # The first swapper still reads that it took the spare; a seat that kept reads neither.
    assert spare in hand_content(lang, build(session, first))
    kept = hand_content(lang, build(session, second))
    assert spare not in kept and taken.format(mine.seats[first].name) not in kept


@pytest.mark.parametrize("ruleset", ["classic", "four-player", "partnership", "nein-nine"])
def test_every_seat_reads_the_hand_that_just_ended(ruleset: str) -> None:
    rules = Rules.from_settings(ruleset, {"rounds": 3} if ruleset == "nein-nine" else {"start": 9})
    game = Game(rules, 5)
    session = session_for(game)
    rng = random.Random(5)
    while game.hand_number == 1:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    unit = rules.kind.unit.capitalize()
    for seat in range(rules.players):
        model = build(session, seat)
        text = hand_content("en", model)
        line = next(x for x in text.splitlines() if x.startswith(f"{unit} 1 is over: "))
        assert all(s.name in line for s in model.seats), line  # each player's outcome
        assert "Hand 2" in text or "Round 2" in text  # the new hand, above it
    # Gone once the new hand's first trick is taken.
    while len(game.tricks) == 0:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert " 1 is over" not in hand_content("en", build(session, 0))


def test_the_hand_that_ended_in_french() -> None:
    game = Game(Rules.from_settings("classic", {"start": 9}), 2)
    session = session_for(game, language="fr")
    rng = random.Random(2)
    while game.hand_number == 1:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    text = hand_content("fr", build(session, 1))
    assert "La manche 1 est terminée\u00a0: " in text, text
