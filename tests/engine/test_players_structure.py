"""The players' package keeps its shape (issues 30 and 36): no import circle among its modules,
no algorithm branching on the game's name (each game's module registers its model, asked
through ``games.game_of``), one determinized search, and no argument parsing, logging or
process pool (the bot's worker pool is ``bot/computer_pool.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import engine.players

PLAYERS = Path(engine.players.__file__).parent
MODULES = {p.stem: p for p in PLAYERS.glob("*.py")}


def _tree(name: str) -> ast.Module:
    return ast.parse(MODULES[name].read_text(encoding="utf-8"))


def _siblings(name: str) -> set[str]:
    """The modules of the package ``name`` imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out & set(MODULES)


def test_no_import_circle_among_the_players() -> None:
    graph = {name: _siblings(name) for name in MODULES}
    assert graph["search"] and graph["nines"]  # the walk sees the imports
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, f"import circle: {' -> '.join([*path, name])}"
        if name in done:
            return
        for child in sorted(graph[name]):
            visit(child, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_no_player_branches_on_the_games_name() -> None:
    for name in MODULES:
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                named = [s for s in sides if isinstance(s, ast.Attribute) and s.attr == "game"]
                assert not named, f"{name}.py:{node.lineno} compares a game's name"


def test_the_laboratory_stays_out_of_the_engine() -> None:
    lab = {"argparse", "logging", "multiprocessing", "concurrent"}
    for name in MODULES:
        roots: set[str] = set()
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots.add(node.module.split(".")[0])
        assert not roots & lab, f"{name}.py imports {sorted(roots & lab)}"


def test_one_search_for_both_games() -> None:
    """Both games' searches go through ``determinized.best_move``; nothing else in the package
    tries moves world by world (a loop that copies a state, plays a move on the copy and plays
    the hand out)."""
    users = {name for name in MODULES if "determinized" in _siblings(name)}
    assert {"nines", "nein"} <= users
    for name in MODULES:
        if name == "determinized":
            continue
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.For):
                calls = {
                    c.func.attr
                    for c in ast.walk(node)
                    if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                }
                assert not {"copy", "play", "playout"} <= calls, (
                    f"{name}.py:{node.lineno} searches itself"
                )
