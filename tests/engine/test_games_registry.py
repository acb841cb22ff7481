"""The games' registry (``engine.games``): each game once, its rulesets its own, and a clear
error for a game or ruleset it does not know."""

from __future__ import annotations

import dataclasses

import pytest

from engine import GAMES, NINES, RULESETS, Rules, SettingError, find_ruleset, game_type
from engine.games import register
from engine.games.nines import Nines, players


def test_the_games_and_their_rulesets_in_the_order_offered() -> None:
    assert list(GAMES) == ["nines", "nein-nine"]
    assert list(RULESETS) == ["classic", "partnership", "four-player", "nein-nine"]
    for name in RULESETS:
        rules = Rules.from_settings(name)
        assert rules.kind is GAMES[rules.game].kind and rules.variant is GAMES[rules.game].variant


def test_a_game_registers_once_and_its_rulesets_are_its_own() -> None:
    before = (dict(GAMES), dict(RULESETS))
    with pytest.raises(ValueError, match="registered already"):
        register(NINES, Nines(), GAMES["nines"].rulesets, players)
    other = dataclasses.replace(NINES, name="other")
    with pytest.raises(ValueError, match="another game"):
        register(other, Nines(), GAMES["nines"].rulesets, players)
    taken = (dataclasses.replace(RULESETS["classic"], kind=other),)
    with pytest.raises(ValueError, match="is taken"):
        register(other, Nines(), taken, players)
    with pytest.raises(ValueError, match="no ruleset"):
        register(other, Nines(), (), players)
    assert (dict(GAMES), dict(RULESETS)) == before  # a refused game changes nothing


def test_unknown_names_are_refused_in_plain_words() -> None:
    with pytest.raises(KeyError, match="the games are nines, nein-nine"):
        game_type("whist")
    with pytest.raises(SettingError, match="choose one of classic, partnership"):
        find_ruleset("whist")
