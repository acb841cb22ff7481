"""Chosen table positions for the web table's browser tests, as the real table-model type
(``bot/table/table_model.py``): the fake server turns them into TABLE with the bot's own serializer
(``bot.activity.protocol.table_json``), and checks every frame against the contract's schema
(docs/activity-protocol.md). Positions hand-placed where a test needs one exact moment (whose
turn, which cards); ``tests/activity/test_played.py`` draws a whole played game's tables too.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from bot.table import HandModel, PlayedCard, RankRow, SeatModel, TableModel, TrickModel, TurnModel
from engine import Card, HandEnded, Rules, SheetRow, game_type
from engine.actions import parse_action
from engine.cards import Suit


def _model(**fields: Any) -> TableModel:
    """A table model; the fields these positions do not set take a mid-game's values."""
    later: dict[str, Any] = {"n": 30, "notation": "en", "first_dealer": 0, "draw": ()}
    return TableModel(**{**later, **fields})


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


ALEX, BEA, CAM, DOM = 101, 102, 103, 104
NINES = game_type("nines")
NEIN = game_type("nein-nine")


def _seat(seat: int, name: str, code: str, user: int | None, **kw: Any) -> SeatModel:
    base: dict[str, Any] = {
        "level": None if user else "hard",
        "away": False,
        "host": seat == 0,
        "team": seat,
        "cards_left": 13,
        "tricks_won": 0,
        "quota_left": None,
    }
    base.update(kw)
    return SeatModel(seat=seat, name=name, code=code, user_id=user, computer=user is None, **base)


def nines_play(viewer: int | None, *, deadline_in: float = 40.0) -> TableModel:
    """Nines, classic, hand 3 (hearts trump), trick 5 under way: Béatrice led K♠, the computer
    followed 4♠, and it is Alex's turn: Alex must follow spades (A♠ 10♠ 3♠)."""
    rules = Rules.from_settings("classic")
    hands = {0: cards("AS TS 3S QH 7H 9C 2C KD 5D"), 1: cards("QS 2S AH 9H 4H KC 8C 3D"),
             2: cards("9S 8S 3H 2H AC TC 7C 6D")}  # fmt: skip
    seats = (
        _seat(0, "Alex", "Ale", ALEX, cards_left=9, tricks_won=2, quota_left=2),
        _seat(1, "Béatrice Tremblay-Gagnon", "Béa", BEA, cards_left=8, tricks_won=1, quota_left=3),
        _seat(2, "Computer (hard)", "Com", None, cards_left=8, tricks_won=1, quota_left=3),
    )
    done = (
        TrickModel(1, (PlayedCard(1, Card.parse("AD")), PlayedCard(2, Card.parse("2D")),
                       PlayedCard(0, Card.parse("4D"))), winner=1, winning_card=Card.parse("AD")),
        TrickModel(2, (PlayedCard(1, Card.parse("JC")), PlayedCard(2, Card.parse("3C")),
                       PlayedCard(0, Card.parse("QC"))), winner=0, winning_card=Card.parse("QC")),
        TrickModel(3, (PlayedCard(0, Card.parse("KH")), PlayedCard(1, Card.parse("5H")),
                       PlayedCard(2, Card.parse("6H"))), winner=0, winning_card=Card.parse("KH")),
        TrickModel(4, (PlayedCard(0, Card.parse("JS")), PlayedCard(1, Card.parse("5S")),
                       PlayedCard(2, Card.parse("KS"))), winner=2, winning_card=Card.parse("KS")),
    )  # fmt: skip
    trick = TrickModel(5, (PlayedCard(2, Card.parse("6S")), PlayedCard(1, Card.parse("7S"))))
    hand = None
    if viewer is not None:
        mine = hands[viewer]
        legal = tuple(parse_action(str(c)) for c in mine if c.suit is Suit.SPADES)
        hand = HandModel(
            seat=viewer,
            cards=mine,
            legal=legal if viewer == 0 else (),
            playable=frozenset(c for c in mine if c.suit is Suit.SPADES)
            if viewer == 0
            else frozenset(),
            put_down=None,
        )
    return _model(
        game_id=7,
        kind=NINES,
        rules=rules,
        status="playing",
        viewer=viewer,
        seats=seats,
        hand_number=3,
        phase="play",
        dealer=2,
        trump=Suit.HEARTS,
        spits=None,
        exchange_order=(0, 1, 2),
        exchange=((0, False), (1, True), (2, False)),
        turn=TurnModel(seat=0, kind="play", deadline=time.time() + deadline_in),
        trick=trick,
        tricks=done,
        scores=(7, 9, 8),
        start_scores=(9, 9, 9),
        sheet=(
            SheetRow(1, Suit.HEARTS, 0, (8, 9, 9)),
            SheetRow(2, Suit.DIAMONDS, 1, (7, 9, 8)),
        ),
        last_result=HandEnded(
            2, (5, 4, 4), (7, 9, 8), cards("2H 3D 4C 5S 6H 7D 8C 9S TH JD QC KS AH")
        ),
        tiebreak=None,
        winners=None,
        ranking=None,
        hand=hand,
    )


def nines_exchange(viewer: int) -> TableModel:
    """Nines, hand 4 (clubs trump), the exchange: Alex decides first, keep or swap."""
    base = nines_play(viewer)
    mine = cards("AS KS 9S 4S QH JH 3H AC 8C 5C KD TD 2D")
    seats = tuple(
        dataclasses.replace(s, cards_left=13, tricks_won=0, quota_left=4) for s in base.seats
    )
    hand = HandModel(
        seat=viewer,
        cards=mine,
        legal=(parse_action("keep"), parse_action("swap")) if viewer == 0 else (),
        playable=frozenset(),
        put_down=None,
    )
    return dataclasses.replace(
        base,
        seats=seats,
        hand_number=4,
        phase="exchange",
        dealer=0,
        trump=Suit.CLUBS,
        exchange=(),
        turn=TurnModel(seat=0, kind="exchange", deadline=time.time() + 40),
        trick=None,
        tricks=(),
        sheet=(*base.sheet, SheetRow(3, Suit.HEARTS, 2, (6, 9, 8))),
        scores=(6, 9, 8),
        last_result=HandEnded(
            3, (5, 4, 4), (6, 9, 8), cards("2S 3S 4H 5H 6C 7C 8D 9D TC JC QD KH AD")
        ),
        hand=hand,
    )


def nines_over() -> TableModel:
    """Nines, finished: the computer reached 0 first."""
    base = nines_play(0)
    return dataclasses.replace(
        base,
        status="finished",
        phase="over",
        turn=None,
        trick=None,
        tricks=base.tricks,  # the last hand's tricks stay readable at the end
        scores=(2, 4, 0),
        sheet=(*base.sheet, SheetRow(3, Suit.CLUBS, 2, (2, 4, 0))),
        last_result=HandEnded(
            3, (6, 3, 4), (2, 4, 0), cards("2H 3D 4C 5S 6H 7D 8C 9S TH JD QC KS AH")
        ),
        winners=(2,),
        ranking=(
            RankRow(unit=2, seats=(2,), place=1, score=0, winner=True),
            RankRow(unit=0, seats=(0,), place=2, score=2, winner=False),
            RankRow(unit=1, seats=(1,), place=3, score=4, winner=False),
        ),
        hand=dataclasses.replace(base.hand, cards=(), legal=(), playable=frozenset())
        if base.hand
        else None,
    )


def nein_nine_play(viewer: int | None) -> TableModel:
    """Nein Nine, round 2: diamonds are trump (Big Spit 7♦, Little Spit 7♥), trick 3 under way:
    Cam led J♣ and it is Béa's turn (seat 1): she holds the Joker, 10♣ and 9♣."""
    rules = Rules.from_settings("nein-nine")
    hands = {0: cards("TH 9H 8C 7S JS"), 1: cards("JK TC 9C 8S 7S"), 2: cards("JD 9D TS 8H")}
    seats = (
        _seat(0, "Alex", "Ale", ALEX, cards_left=5, tricks_won=1, host=True),
        _seat(1, "Béa", "Béa", BEA, cards_left=5, tricks_won=0, host=False),
        _seat(2, "Cam", "Cam", CAM, cards_left=4, tricks_won=1, host=False),
    )
    hand = None
    if viewer is not None:
        mine = hands[viewer]
        if viewer == 1:
            legal = tuple(parse_action(t) for t in ("TC", "9C", "JK:win", "JK:lose"))
            playable = frozenset(cards("TC 9C JK"))
        else:
            legal, playable = (), frozenset()
        hand = HandModel(seat=viewer, cards=mine, legal=legal, playable=playable, put_down=None)
    return _model(
        game_id=8,
        notation="fr",  # a game in French: R D V on its cards, for every reader
        kind=NEIN,
        rules=rules,
        status="playing",
        viewer=viewer,
        seats=seats,
        hand_number=2,
        phase="play",
        dealer=0,
        trump=Suit.DIAMONDS,
        spits=(Card.parse("7D"), Card.parse("7H")),
        exchange_order=(),
        exchange=(),
        turn=TurnModel(seat=1, kind="play", deadline=time.time() + 30),
        trick=TrickModel(3, (PlayedCard(2, Card.parse("JC")),)),
        # G11 amended: the last trick stands only until the next trick's first card.
        tricks=(),
        scores=(2, -1, 0),
        start_scores=(0, 0, 0),
        sheet=(SheetRow(1, Suit.SPADES, 2, (2, -1, 0)),),
        last_result=HandEnded(1, (3, 2, 2), (2, -1, 0), None, nines=(1, 3, 0), points=(2, -1, 0)),
        tiebreak=None,
        winners=None,
        ranking=None,
        hand=hand,
    )


def partnership_play(viewer: int | None) -> TableModel:
    """Nines in partnership (four seats, two teams), trick 2: everyone but Dom has played."""
    rules = Rules.from_settings("partnership")
    seats = (
        _seat(0, "Alex", "Ale", ALEX, team=0, cards_left=12, tricks_won=1, quota_left=5),
        _seat(1, "Béa", "Béa", BEA, team=1, cards_left=11, tricks_won=0, quota_left=6),
        _seat(2, "Cam", "Cam", CAM, team=0, cards_left=11, tricks_won=0, quota_left=5),
        _seat(3, "Dom", "Dom", DOM, team=1, cards_left=11, tricks_won=0, quota_left=6),
    )
    mine = cards("AS KS 9S 4S QH JH 3H AC 8C 5C KD 2D")
    hand = (
        HandModel(viewer, mine, tuple(parse_action(str(c)) for c in mine), frozenset(mine), None)
        if viewer is not None
        else None
    )
    return _model(
        game_id=9,
        kind=NINES,
        rules=rules,
        status="playing",
        viewer=viewer,
        seats=seats,
        hand_number=1,
        phase="play",
        dealer=3,
        trump=None,
        spits=None,
        exchange_order=(),
        exchange=(),
        turn=TurnModel(seat=0, kind="play", deadline=None),
        trick=TrickModel(2, (PlayedCard(1, Card.parse("TD")), PlayedCard(2, Card.parse("QD")),
                             PlayedCard(3, Card.parse("3D")))),
        tricks=(TrickModel(1, (PlayedCard(0, Card.parse("AH")), PlayedCard(1, Card.parse("2H")),
                               PlayedCard(2, Card.parse("5H")), PlayedCard(3, Card.parse("9H"))),
                           winner=0, winning_card=Card.parse("AH")),),
        scores=(9, 9),
        start_scores=(9, 9),
        sheet=(),
        last_result=None,
        tiebreak=None,
        winners=None,
        ranking=None,
        hand=hand,
    )  # fmt: skip
