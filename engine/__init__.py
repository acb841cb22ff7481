"""The rules of Nines (Le Neuf, Chômeur) and Nein Nine: pure, typed, standard library only.

A game is (rules, seed, actions). Build rules from the settings vocabulary, start a ``Game``,
read it through ``public_view``/``seat_view``, and drive it with ``apply``, which returns events.
"""

from .actions import (
    JOKER_LOSE,
    JOKER_WIN,
    KEEP,
    SWAP,
    Action,
    Exchange,
    JokerCall,
    Play,
    parse_action,
)
from .cards import FULL_DECK, JOKER, Card, Suit, sort_hand
from .errors import (
    GameIsOver,
    IllegalAction,
    JokerNeedsCall,
    MustFollowSuit,
    NinesError,
    NotInHand,
    NotYourTurn,
    ReplayError,
    SettingError,
    WrongPhase,
)
from .events import (
    CardPlayed,
    DealerChosen,
    Event,
    ExchangeDecided,
    GameEnded,
    HandEnded,
    HandStarted,
    TrickWon,
    TrumpSet,
)
from .game import Game, SheetRow
from .nein_nine import NeinNine, led_suit, round_points, spits, stones, stones_text, suit_under
from .record import game_record
from .rules import RULESETS, TRUMP_PRESETS, Rules, Ruleset, Trump, find_ruleset
from .views import PublicView, SeatView, public_view, seat_view

__all__ = [
    "FULL_DECK",
    "JOKER",
    "JOKER_LOSE",
    "JOKER_WIN",
    "KEEP",
    "RULESETS",
    "SWAP",
    "TRUMP_PRESETS",
    "Action",
    "Card",
    "CardPlayed",
    "DealerChosen",
    "Event",
    "Exchange",
    "ExchangeDecided",
    "Game",
    "GameEnded",
    "GameIsOver",
    "HandEnded",
    "HandStarted",
    "IllegalAction",
    "JokerCall",
    "JokerNeedsCall",
    "MustFollowSuit",
    "NeinNine",
    "NinesError",
    "NotInHand",
    "NotYourTurn",
    "Play",
    "PublicView",
    "ReplayError",
    "Rules",
    "Ruleset",
    "SeatView",
    "SettingError",
    "SheetRow",
    "Suit",
    "TrickWon",
    "Trump",
    "TrumpSet",
    "WrongPhase",
    "find_ruleset",
    "game_record",
    "led_suit",
    "parse_action",
    "public_view",
    "round_points",
    "seat_view",
    "sort_hand",
    "spits",
    "stones",
    "stones_text",
    "suit_under",
]
