"""The engine is pure: standard library only, no Discord, storage or bot imports; doctests run."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ENGINE_DIR = Path(engine.__file__).parent
FORBIDDEN = ("discord", "aiosqlite", "bot", "cogs")


def _engine_modules() -> list[str]:
    names = ["engine"]
    for info in pkgutil.walk_packages([str(ENGINE_DIR)], prefix="engine."):
        if info.name == "engine.__main__":
            continue
        names.append(info.name)
    return names


def test_importing_engine_imports_no_discord_storage_or_bot() -> None:
    code = (
        "import sys, engine\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == ""


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


SOURCES = sorted(ENGINE_DIR.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_no_engine_module_imports_forbidden_packages(path: Path) -> None:
    roots = _imported_roots(path)
    assert not roots & set(FORBIDDEN), f"{path} imports {sorted(roots & set(FORBIDDEN))}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE_DIR)))
def test_engine_uses_only_the_standard_library(path: Path) -> None:
    roots = _imported_roots(path) - {"engine", "__future__"}
    outside = sorted(r for r in roots if r not in sys.stdlib_module_names)
    assert not outside, f"{path} imports {outside}"


@pytest.mark.parametrize("name", _engine_modules())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_doctests_exist() -> None:
    total = 0
    for name in _engine_modules():
        finder = doctest.DocTestFinder()
        total += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert total >= 5


def test_positions_helper_doctest() -> None:
    from . import positions

    assert doctest.testmod(positions).failed == 0
