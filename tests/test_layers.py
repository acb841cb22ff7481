"""The bot does not know its cog: nothing under bot/ imports cogs/ (at the top of a module or
inside a function), the sessions run a game through any presenter plugged in, and discord.py's
private API is reached only from bot/base/discord_internals.py. The development packages stay
beside the bot: it never imports them, bench/ never imports tests/, and bench/ measures the bot
through its own seams (its metrics, the double's watchers), patching nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.app import NinesBot
from bot.base import PRIVATE_ATTRIBUTES, Settings
from bot.game import Computers
from bot.game.session import Change, GameSession
from bot.storage import Storage
from engine import Rules

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "bot" / "base" / "discord_internals.py"
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


def test_the_installed_packages_import_no_development_package() -> None:
    development = ("fakecord", "testbed", "tests", "bench")
    offending = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sources("engine", "bot", "cogs")
        for line, module in imported(ast.parse(path.read_text(), str(path)))
        if module.split(".")[0] in development
    ]
    assert not offending, offending


def test_bench_imports_nothing_from_tests() -> None:
    """What bench/ shares with the tests lives in fakecord/ and testbed/, not in tests/."""
    offending = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sources("bench", "fakecord", "testbed")
        for line, module in imported(ast.parse(path.read_text(), str(path)))
        if module.split(".")[0] == "tests"
    ]
    assert sources("bench") and not offending, offending


def patches(tree: ast.AST) -> list[tuple[int, str]]:
    """Monkeypatching in a module: ``setattr``; an assignment to an attribute of something
    imported (a module, a class: ``Controller.hold = ...``, ``spec.validate = ...``); an
    assignment to another object's private attribute (``fake.rest._announce = ...``);
    ``unittest.mock``."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "setattr":
                found.append((node.lineno, "setattr"))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not isinstance(target, ast.Attribute):
                    continue
                root: ast.expr = target
                while isinstance(root, ast.Attribute):
                    root = root.value
                owner = root.id if isinstance(root, ast.Name) else ""
                private = target.attr.startswith("_") and owner != "self"
                if owner in bound or private:
                    found.append((node.lineno, f"assigns {owner}...{target.attr}"))
    found += [(line, module) for line, module in imported(tree) if module.startswith("unittest")]
    return found


def test_bench_patches_nothing() -> None:
    """The benchmarks run the bot and the double as they are: a figure they print is the bot's
    own (bot/base/metrics.py, heard through ``Metrics.listen``) or read from outside."""
    offending = [
        f"{path.relative_to(ROOT)}:{line} {what}"
        for path in sources("bench")
        for line, what in patches(ast.parse(path.read_text(), str(path)))
    ]
    assert not offending, offending


def test_the_patch_finder_finds_patches() -> None:
    # What bench/load.py did before its timings came from the bot's metrics.
    before = """
from bot import session as session_module
from cogs.nines.controller import Controller
from fakecord import server as fake_server

def timed_method(owner, name):
    setattr(owner, name, lambda: None)

session_module.GameSession._store = counted_store
Controller.hold = timed_hold
fake_server.spec.validate = sampled
fake.rest._announce = announced
fake.owner.locale = "fr"  # setting up the double's world is not a patch
self._seen = 0
"""
    assert sorted(line for line, _ in patches(ast.parse(before))) == [7, 9, 10, 11, 12]


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

    def lobby_changed(self, session: GameSession) -> None:
        self.calls.append(("lobby_changed", session.id))


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


class RecordingChat(RecordingPresenter):
    """A chat presenter as the extension's is: told when someone left the web table, and with
    calls of its own that the sessions never make."""

    async def web_table_left(self, session: GameSession) -> None:
        self.calls.append(("web_table_left", session.id))

    def remember_hand(self, session: GameSession) -> None:
        self.calls.append(("remember_hand", session.id))


async def test_with_the_activity_on_the_bot_shows_through_a_presenter_and_nothing_more(
    tmp_path: Path,
) -> None:
    """Issue 45, item 4: the fan-out is the sessions' ``Presenter`` and forwards nothing else
    (the extension asks its own presenter for the rest); the hub plays the bot's sessions and
    its one move use case, given by ``plug_in``; and someone leaving the web table reaches
    the chat presenter through its typed ``web_table_left``."""
    from bot.activity import ActivityServer, FanOut

    storage = await Storage.open(tmp_path / "nines.sqlite3")
    computers = Computers(0)
    settings = Settings(token="a.b.c", activity_port=8081, client_secret="secret")
    bot = NinesBot(settings, storage, computers)
    server = ActivityServer(bot, settings)  # as bot/process/run.py builds it beside the bot
    bot.activity_server = server
    try:
        with pytest.raises(RuntimeError, match="plug_in"):
            server.hub.games  # noqa: B018  # nothing to play before the extension plugs in
        chat = RecordingChat()
        sessions = bot.plug_in(chat)
        fan_out = bot.presenter
        assert isinstance(fan_out, FanOut) and fan_out.chat is chat
        assert server.hub.games.sessions is sessions is bot.sessions
        assert server.hub.games.moves is bot.moves
        with pytest.raises(AttributeError):
            fan_out.remember_hand  # type: ignore[attr-defined]  # noqa: B018  # the chat's own
        lobby = await sessions.open_lobby(
            guild_id=1,
            channel_id=2,
            thread_id=None,
            rules=Rules.from_settings("classic"),
            host_id=3,
            host_name="Alice",
            language="en",
            turn_seconds=60,
        )
        assert server.hub.seat_left is not None
        server.hub.seat_left(lobby)
        await server.hub.background.finish(5.0)
        assert ("web_table_left", lobby.id) in chat.calls
        await sessions.close()
    finally:
        await server.api.close()
        await computers.close()
        await storage.close()


def rooms_imported(path: Path) -> set[str]:
    """The rooms (``bot/``'s subpackages) a module under ``bot/`` imports, typing-only imports
    and imports inside functions too: relative ones resolved from its own package."""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            names = [*base, *(node.module or "").split(".")] if node.module else base
            targets = [names] if node.module else [[*names, a.name] for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name.split(".") for alias in node.names]
        else:
            continue
        for target in targets:
            if len(target) > 1 and target[0] == "bot" and (ROOT / "bot" / target[1]).is_dir():
                found.add(target[1])
    return found


def test_the_rooms_of_the_bot_import_one_way() -> None:
    """``bot/``'s rooms (its subpackages: the process, the web table, the game sessions...)
    stand on each other without a circle, typing-only imports included: README's "The bot's
    rooms"."""
    rooms = sorted(p.name for p in (ROOT / "bot").iterdir() if (p / "__init__.py").is_file())
    uses = {
        room: {
            other
            for path in sources(f"bot/{room}")
            for other in rooms_imported(path)
            if other != room
        }
        for room in rooms
    }
    circles = []
    for room in rooms:  # a room that reaches itself through the others
        seen, todo = set(), list(uses[room])
        while todo:
            other = todo.pop()
            if other not in seen:
                seen.add(other)
                todo += uses[other]
        if room in seen:
            circles.append(f"{room} -> {sorted(uses[room])}")
    assert len(rooms) >= 3 and not circles, circles
