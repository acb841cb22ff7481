"""The games, each in its own module beside this one, and the registry they join.

A game's module holds all of it (as OpenSpiel's ``register_game`` at the end of a game's file,
and python-chess's variant classes): what the game is (its ``GameType``), how it plays (its
``Variant``), its rulesets and its computer players' model, and registers them here on import.
``engine/__init__.py`` imports each game's module; the shared flow (``game.py``, ``rules.py``,
``views.py``) imports no game and asks the rules instead (``Rules.kind``, ``Rules.variant``).

This module imports no game, so the shared modules may import it.

>>> [name for name in GAMES], game_type("nein-nine").unit
(['nines', 'nein-nine'], 'round')
>>> list(RULESETS) == [r.name for game in GAMES.values() for r in game.rulesets]
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from ..errors import SettingError
from ..gametype import GameType

if TYPE_CHECKING:
    from ..players.games import GameModel
    from ..rules import Ruleset
    from ..variant import Variant


@dataclass(frozen=True, slots=True)
class Registered:
    """One game as its module registered it."""

    kind: GameType
    #: The game's play rules; a variant keeps no state, so every game of it shares this one.
    variant: Variant
    #: Its rulesets, in the order the commands offer them.
    rulesets: tuple[Ruleset, ...]
    #: Its computer players' model (``players.games``), built when first asked: the players
    #: are a larger package than the rules.
    players: Callable[[], GameModel]


_games: dict[str, Registered] = {}
_rulesets: dict[str, Ruleset] = {}

#: The registered games by name, in the order their modules registered them.
GAMES: Final[Mapping[str, Registered]] = MappingProxyType(_games)
#: Every game's rulesets by name, in the same order.
RULESETS: Final[Mapping[str, Ruleset]] = MappingProxyType(_rulesets)


def register(
    kind: GameType,
    variant: Variant,
    rulesets: tuple[Ruleset, ...],
    players: Callable[[], GameModel],
) -> Registered:
    """Add a game (called once, at the end of the game's module); ValueError if its name or a
    ruleset's is taken, or a ruleset plays another game."""
    if kind.name in _games:
        raise ValueError(f"The game {kind.name!r} is registered already.")
    if not rulesets:
        raise ValueError(f"The game {kind.name!r} has no ruleset.")
    for ruleset in rulesets:
        if ruleset.kind is not kind:
            raise ValueError(f"The ruleset {ruleset.name!r} plays another game than {kind.name!r}.")
        if ruleset.name in _rulesets:
            raise ValueError(f"The ruleset name {ruleset.name!r} is taken.")
    entry = Registered(kind, variant, rulesets, players)
    _games[kind.name] = entry
    _rulesets.update((r.name, r) for r in rulesets)
    return entry


def game_type(name: str) -> GameType:
    """The game of that name; KeyError names the games otherwise."""
    entry = _games.get(name)
    if entry is None:
        raise KeyError(f"Unknown game {name!r}: the games are {', '.join(_games)}.")
    return entry.kind


def find_ruleset(name: str) -> Ruleset:
    """The ruleset of that name; a SettingError naming the choices otherwise."""
    ruleset = _rulesets.get(name.strip().lower())
    if ruleset is None:
        raise SettingError(f"Unknown ruleset {name!r}: choose one of {', '.join(_rulesets)}.")
    return ruleset
