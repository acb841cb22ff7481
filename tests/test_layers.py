"""The bot does not know its cog: nothing under bot/ imports cogs/ (at the top of a module or
inside a function), and discord.py's private API is reached only from bot/discord_internals.py."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.discord_internals import PRIVATE_ATTRIBUTES

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "bot" / "discord_internals.py"
#: discord.py's modules that are not its public API.
PRIVATE_MODULES = ("discord.http", "discord.gateway", "discord.state", "discord.webhook")


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module an ``import`` or ``from ... import`` names, anywhere in the tree."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def test_nothing_under_bot_imports_cogs() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sources("bot")
        for line, module in imported(ast.parse(path.read_text(), str(path)))
        if module == "cogs" or module.startswith("cogs.")
    ]
    assert sources("bot") and not offending, offending


def test_private_api_is_reached_only_from_the_adapter() -> None:
    private_names = {e.attribute for e in PRIVATE_ATTRIBUTES if e.attribute.startswith("_")}
    offending = []
    for path in sources("bot", "cogs"):
        if path == ADAPTER:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for line, module in imported(tree):
            if module.startswith(PRIVATE_MODULES):
                offending.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                name: object = node.attr
            elif isinstance(node, ast.Constant):
                name = node.value  # getattr(x, "_name")
            else:
                continue
            if name in private_names:
                offending.append(f"{path.relative_to(ROOT)}:{node.lineno} uses {name}")
    assert not offending, offending
