"""Each game is described once, in its own module (issues 36 and 45): no code matches a game's
name as a string; it asks the game's type (``Rules.kind``) or its variant (``Rules.variant``).
Each registered game's type, variant, rulesets and players' model come from one module under
``engine/games/``; the shared flow imports none of them; and the places that list the games
for people (the cog's choices and rules text, the web table) list the registered ones.

A name may still be written where it is a value, not a test: a command option's choice, a
default (``game or "nines"``), a call's argument, a docstring, a locale key built from
``rules.game``. What is forbidden is deciding by the name: comparing with it (``==``, ``!=``,
``in``), choosing between names in a conditional expression, keying a registry by it (a dict
or a ``match`` case).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.words import LANGUAGES, catalogue
from engine import GAMES, RULESETS, GameType

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot", "cogs", "bench")
NAMES = frozenset(GAMES)

#: Files another helper of issue 36 is rewriting (the table model, which asks the game's type):
#: the lead empties this set when the branches are merged, and the test then holds for every
#: file. A file listed here that no longer matches a name fails, so none stays listed.
PENDING: set[str] = set()


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def _names_in(node: ast.AST) -> bool:
    """A game's name, alone or in a tuple, list or set written out."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(e) for e in node.elts)
    return _is_name(node)


def matches(source: str) -> Iterator[tuple[int, str]]:
    """Each place ``source`` decides by a game's name: (line, what it does)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            if any(_names_in(side) for side in (node.left, *node.comparators)):
                yield node.lineno, "compares a game's name"
        elif isinstance(node, ast.IfExp):
            if _is_name(node.body) or _is_name(node.orelse):
                yield node.lineno, "chooses a game's name in a conditional expression"
        elif isinstance(node, ast.Dict):
            # "nines" alone is also a field (a hand's 9s taken, game-record.md): a registry by
            # game names Nein Nine among its keys.
            if any(isinstance(key, ast.Constant) and key.value == "nein-nine" for key in node.keys):
                yield node.lineno, "keys a dict by a game's name"
        elif isinstance(node, ast.MatchValue) and _is_name(node.value):
            yield node.lineno, "matches a game's name in a case"


def sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in ROOT.joinpath(package).rglob("*.py"))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", sources(), ids=_relative)
def test_no_code_decides_by_a_games_name(path: Path) -> None:
    where = _relative(path)
    if where in PENDING:
        return
    found = [f"{where}:{line} {what}" for line, what in matches(path.read_text("utf-8"))]
    assert found == []


def test_the_scan_sees_every_way_of_matching_a_name() -> None:
    source = """
def f(rules, game, kind):
    a = rules.game == "nein-nine"
    b = game != "nines"
    c = kind in ("nein-nine", "other")
    d = "round" if a else "hand"
    e = "nein-nine" if b else "nines"
    f = {"nines": 1, "nein-nine": 2}
    match game:
        case "nines":
            pass
"""
    assert [line for line, _ in matches(source)] == [3, 4, 5, 7, 8, 10]


def test_the_scan_lets_a_name_be_a_value() -> None:
    source = '''
"""The "nines" game, and "nein-nine"."""
CHOICES = [Choice(name="Nines", value="nines"), Choice(name="Nein Nine", value="nein-nine")]
kind = game_type(game or "nines").name
record["game"] = rules.game
hand["nines"] = [1, 2]
key = f"game.{rules.game}"
'''
    assert list(matches(source)) == []


def test_the_pending_files_still_match_a_name() -> None:
    for where in PENDING:
        path = ROOT.joinpath(where)
        assert path.is_file() and list(matches(path.read_text("utf-8"))), (
            f"{where} no longer matches a game's name: take it out of PENDING"
        )


# -- each game in its own module ---------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_is_registered_whole_from_its_own_module(name: str) -> None:
    game = GAMES[name]
    module = sys.modules[type(game.variant).__module__]
    assert module.__name__.startswith("engine.games.")
    assert game.players.__module__ == module.__name__
    kinds = [v for v in vars(module).values() if v is game.kind]
    assert kinds, f"{module.__name__} does not make {name}'s GameType"
    assert all(r.kind is game.kind and RULESETS[r.name] is r for r in game.rulesets)
    assert game.players().scale > 0  # its players' model builds


def test_the_shared_flow_imports_no_game() -> None:
    """Only ``engine/__init__.py`` imports the games' modules (the list of games); the engine's
    shared modules and the registry import none, at the top or inside a function."""
    games = {p.stem for p in ROOT.joinpath("engine", "games").glob("*.py")} - {"__init__"}
    assert {"nines", "nein_nine"} <= games
    shared = [*ROOT.joinpath("engine").glob("*.py"), ROOT / "engine" / "games" / "__init__.py"]
    offending = []
    for path in shared:
        if path == ROOT / "engine" / "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                named = {module.split(".")[-1], *(a.name for a in node.names)}
                if named & games:
                    offending.append(f"{_relative(path)}:{node.lineno}")
    assert len(shared) > 10 and offending == []


def test_every_trait_is_read() -> None:
    """Each yes-or-no trait of a game's type is read somewhere (the engine, the bot, the cog or
    the web table): one nobody reads (the former ``joker``) goes."""
    flags = [f.name for f in dataclasses.fields(GameType) if f.type == "bool"]
    assert len(flags) >= 5
    sources = "".join(
        p.read_text("utf-8")
        for package in ("engine", "bot", "cogs", "web/src")
        for p in ROOT.joinpath(package).rglob("*.[pt][ys]")
        if p.name != "gametype.py"
    )
    for flag in flags:
        assert re.search(rf"kind\.{flag}\b", sources), f"nothing reads kind.{flag}"


# -- the places that list the games for people -------------------------------------------------


def test_the_cogs_choices_are_the_registered_games_and_rulesets() -> None:
    from cogs.nines.options import GAME_CHOICES, RULE_OPTIONS
    from cogs.nines.rules_text import TEXTS

    (ruleset,) = [o for o in RULE_OPTIONS if o.key == "ruleset"]
    assert [c.value for c in ruleset.choices or []] == list(RULESETS)
    assert [c.value for c in GAME_CHOICES] == list(GAMES)
    assert set(TEXTS) == {game.kind for game in GAMES.values()}


def _web(name: str) -> str:
    return ROOT.joinpath("web", "src", name).read_text("utf-8")


def test_the_web_tables_games_are_the_registered_ones() -> None:
    union = re.search(r"export type GameName = ([^;]+);", _web("protocol.ts"))
    assert union is not None
    assert re.findall(r'"([^"]+)"', union.group(1)) == list(GAMES)
    kind = re.search(r"export interface GameKind \{([^}]*)\}", _web("protocol.ts"))
    assert kind is not None
    fields = re.findall(r"^\s*(\w+):", kind.group(1), re.MULTILINE)
    assert fields == [f.name for f in dataclasses.fields(GameType)]


def test_the_web_table_names_each_game_as_the_bot_does() -> None:
    """The page's names are the catalogues' (web/src/catalogue.ts, generated from them, holds
    every ``game.*`` entry; tests/test_activity_contract.py checks it is current), each read
    in both languages by i18n.ts."""
    shared = _web("catalogue.ts")
    words = _web("i18n.ts")
    assert len(LANGUAGES) == 2  # en and fr, both in catalogue.ts
    for name in GAMES:
        for language in LANGUAGES:
            said = json.dumps(catalogue(language)[f"game.{name}"], ensure_ascii=False)
            assert said in shared, (name, language)
        # Both languages' game record reads it: c[...] in English, f[...] in French.
        assert f'c["game.{name}"]' in words and f'f["game.{name}"]' in words, name
