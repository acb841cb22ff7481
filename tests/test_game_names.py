"""Each game is described once (issue 36): no code outside ``engine/gametype.py`` matches a
game's name as a string; it asks the game's type (``Rules.kind``) instead.

A name may still be written where it is a value, not a test: a command option's choice, a
default (``game or "nines"``), a call's argument, a docstring, a locale key built from
``rules.game``. What is forbidden is deciding by the name: comparing with it (``==``, ``!=``,
``in``), choosing between names in a conditional expression, keying a registry by it (a dict
or a ``match`` case).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot", "cogs", "bench")
NAMES = frozenset({"nines", "nein-nine"})
#: Where each game is described: the one place its name is matched.
DESCRIPTION = "engine/gametype.py"

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
    if where == DESCRIPTION or where in PENDING:
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


def test_the_description_matches_names_and_the_pending_files_still_do() -> None:
    assert list(matches(ROOT.joinpath(DESCRIPTION).read_text("utf-8")))  # the one place
    for where in PENDING:
        path = ROOT.joinpath(where)
        assert path.is_file() and list(matches(path.read_text("utf-8"))), (
            f"{where} no longer matches a game's name: take it out of PENDING"
        )
