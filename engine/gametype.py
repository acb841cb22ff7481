"""What a game is, as traits every reader asks instead of matching the game's name.

OpenSpiel's ``GameType`` and python-chess's variant classes carry what a game is as
attributes; every reader (the engine's views, the computer players, the chat table, the web
table, the records) asks the game's type (``Rules.kind``). Each game's module
(``engine/games/``) makes its own and registers it.

Each trait is one ruling its readers ask (what a seat may see, how scores are counted, written
and ranked), none the same question as another. Where games differ in what the rules compute,
the game's ``Variant`` answers instead: the score a game starts at (``start_score``), whether
it is over but for a tie (``end_reached``), the cards above its trump suit (``spits``), what a
Joker may do (``check_play``).

>>> from engine.games import game_type
>>> game_type("nein-nine").unit, game_type("nein-nine").higher_wins
('round', True)
>>> game_type("nines").faces, game_type("nines").has_quota
('KQJ', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: A registered game's name (``engine.games.GAMES``), as stored with each game.
GameName = str


@dataclass(frozen=True, slots=True)
class GameType:
    """One game's fixed traits; the settings that vary within it are ``Rules``."""

    name: GameName
    #: What one deal is called: a "hand" of Nines (N12), a "round" of Nein Nine (G8).
    unit: Literal["hand", "round"]
    #: The highest score wins (Nein Nine, G9); in Nines the lowest does (N8).
    higher_wins: bool
    #: The face cards' letters in the deck, highest first: Nein Nine has no king or queen (G1).
    faces: str
    #: Tricks are counted against a quota and the scores count down to zero (N7), so the
    #: score sheet shows the starting scores and keeps their total, one less each hand (N12).
    #: Nein Nine scores tricks less the 9s taken, up from 0 (G8, G9).
    has_quota: bool
    #: Scores are written signed with G10's stones (``+3 ○○○``), not as a count down to zero.
    signed_scores: bool
    #: Taken tricks go face down (G11): a seat's view shows no earlier trick of the round.
    hidden_tricks: bool
    #: Trump is set during play by the first 8 (G4), so a hand may start with none.
    trump_from_play: bool
