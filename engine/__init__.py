"""The rules of Nines (Le Neuf, Chômeur) and Nein Nine: pure, typed, standard library only.

A game is (rules, seed, actions). Build rules from the settings vocabulary, start a ``Game``,
read it through ``public_view``/``seat_view``, and drive it with ``apply``, which returns events.

Each game lives in its own module under ``games/`` and registers itself when imported: the
imports of ``games.nines`` and ``games.nein_nine`` below are the list of games, in the order
they are offered.
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
from .gametype import GameType
from .record import game_record
from .rules import TRUMP_PRESETS, Rules, Ruleset, Trump
from .views import PublicView, SeatView, public_view, seat_view

# The games, each registering itself (``games``): Nines first, as the commands offer them.
from .games import GAMES, RULESETS, find_ruleset, game_type  # isort: skip
from .games.nines import NINES, Nines  # isort: skip
from .games.nein_nine import (  # isort: skip
    NEIN_NINE,
    NeinNine,
    led_suit,
    round_points,
    spits,
    stones,
    stones_text,
    suit_under,
)

__all__ = [
    "FULL_DECK",
    "GAMES",
    "JOKER",
    "JOKER_LOSE",
    "JOKER_WIN",
    "KEEP",
    "NEIN_NINE",
    "NINES",
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
    "GameType",
    "HandEnded",
    "HandStarted",
    "IllegalAction",
    "JokerCall",
    "JokerNeedsCall",
    "MustFollowSuit",
    "NeinNine",
    "Nines",
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
    "game_type",
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
