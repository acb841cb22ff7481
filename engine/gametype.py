"""What each game is, said once: the differences between Nines and Nein Nine as data.

OpenSpiel's ``GameType`` and python-chess's variant classes carry what a game is as
attributes; every reader (the engine's views, the computer players, the chat table, the web
table, the records) asks the game's type instead of matching its name.

>>> GAME_TYPES["nein-nine"].unit, GAME_TYPES["nein-nine"].higher_wins
('round', True)
>>> game_type("nines").faces, game_type("nines").has_quota
('KQJ', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

GameName = Literal["nines", "nein-nine"]
GAME_NAMES: Final[tuple[GameName, ...]] = get_args(GameName)


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
    #: Tricks are counted against a quota (N7); Nein Nine scores tricks less 9s taken (G8).
    has_quota: bool
    #: The score sheet keeps a running total column (N12); Nein Nine's scores are the totals.
    total_column: bool
    #: Scores are written signed with G10's stones (``+3 ○○○``), not as a count down to zero.
    signed_scores: bool
    #: Taken tricks go face down (G11): a seat's view shows no earlier trick of the round.
    hidden_tricks: bool
    #: Trump is set during play by the first 8 (G5), so a hand may start with none.
    trump_from_play: bool
    #: A Joker is played with a call, win or lose (G7).
    joker: bool
    #: What each score starts at: Nines counts down from the rules' ``start`` (N6).
    counts_down: bool


GAME_TYPES: Final[dict[GameName, GameType]] = {
    "nines": GameType(
        name="nines",
        unit="hand",
        higher_wins=False,
        faces="KQJ",
        has_quota=True,
        total_column=True,
        signed_scores=False,
        hidden_tricks=False,
        trump_from_play=False,
        joker=False,
        counts_down=True,
    ),
    "nein-nine": GameType(
        name="nein-nine",
        unit="round",
        higher_wins=True,
        faces="J",
        has_quota=False,
        total_column=False,
        signed_scores=True,
        hidden_tricks=True,
        trump_from_play=True,
        joker=True,
        counts_down=False,
    ),
}


#: The two games by their type, for registries keyed by the game (``players.games``).
NINES: Final = GAME_TYPES["nines"]
NEIN_NINE: Final = GAME_TYPES["nein-nine"]


def game_type(name: str) -> GameType:
    """The game of that name; KeyError names the games otherwise."""
    for kind in GAME_TYPES.values():
        if kind.name == name:
            return kind
    raise KeyError(f"Unknown game {name!r}: the games are {', '.join(GAME_TYPES)}.")
