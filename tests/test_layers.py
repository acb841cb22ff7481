"""The bot does not know its cog: nothing under bot/ imports cogs/ (at the top of a module or
inside a function), the sessions run a game through any presenter plugged in, and discord.py's
private API is reached only from bot/discord_internals.py."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.app import NinesBot
from bot.computer import Computers
from bot.discord_internals import PRIVATE_ATTRIBUTES
from bot.session import Change, GameSession
from bot.settings import Settings
from bot.storage import Storage
from engine import Rules

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


class RecordingPresenter:
    """A presenter that is not the cog's: what the sessions asked of it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    async def show(self, session: GameSession, change: Change) -> None:
        self.calls.append(("show", session.id))

    async def lobby_expired(self, session: GameSession) -> None:
        self.calls.append(("lobby_expired", session.id))

    async def refresh_lobby(self, session: GameSession) -> None:
        self.calls.append(("refresh_lobby", session.id))


async def test_the_bot_runs_games_through_any_presenter_plugged_in(tmp_path: Path) -> None:
    # No extension loaded: the sessions restore and resume a lobby through the protocol alone.
    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    bot = NinesBot(Settings(token="a.b.c"), storage, computers)
    try:
        before = bot.plug_in(RecordingPresenter())
        lobby = await before.open_lobby(
            guild_id=1,
            channel_id=2,
            thread_id=None,
            rules=Rules.from_settings("classic"),
            host_id=3,
            host_name="Alice",
            language="fr",
            turn_seconds=60,
        )
        await before.close()  # as a stopped process
        presenter = RecordingPresenter()
        after = bot.plug_in(presenter)
        restored = await after.restore()
        await after.resume(restored)
        assert bot.sessions is after and bot.presenter is presenter
        assert [s.id for s in restored] == [lobby.id]
        assert presenter.calls == [("refresh_lobby", lobby.id)]
        assert after.get(lobby.id) is restored[0]  # open again
        await after.close()
    finally:
        await computers.close()
        await storage.close()
