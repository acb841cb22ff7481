"""Every private name bot/base/discord_internals.py relies on is in the installed discord.py,
aiohttp and asyncio; an upgrade that removes one fails here, naming it."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from bot.base import HANDLER_TASKS, PRIVATE_ATTRIBUTES, PrivateAttribute


def resolve(owner: str) -> object:
    """``module`` or ``module.Class`` (the longest importable prefix is the module)."""
    parts = owner.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(owner)


@contextlib.asynccontextmanager
async def instances() -> AsyncIterator[dict[type, object]]:
    """One of each class whose relied-on attribute is set in ``__init__``, not on the class."""
    client = discord.Client(intents=discord.Intents.none())
    sharded = discord.AutoShardedClient(intents=discord.Intents.none())
    async with aiohttp.ClientSession() as session:
        yield {
            discord.Client: client,
            discord.AutoShardedClient: sharded,
            type(client.http): client.http,
            type(client._connection): client._connection,
            type(sharded._connection): sharded._connection,
            aiohttp.ClientSession: session,
            asyncio.Lock: asyncio.Lock(),
        }


def described(entry: PrivateAttribute) -> str:
    return f"{entry.owner}.{entry.attribute} (used by bot.discord_internals.{entry.used_by})"


async def missing() -> list[str]:
    """The relied-on names the installed libraries do not have."""
    gone = []
    async with instances() as samples:
        for entry in PRIVATE_ATTRIBUTES:
            try:
                owner = resolve(entry.owner)
            except (ImportError, AttributeError):
                gone.append(described(entry))
                continue
            sample = samples.get(owner) if isinstance(owner, type) else None
            if not hasattr(owner, entry.attribute) and not (
                sample is not None and hasattr(sample, entry.attribute)
            ):
                gone.append(described(entry))
    return gone


def versions() -> str:
    return f"discord.py {discord.__version__}, aiohttp {aiohttp.__version__}"


async def test_every_private_name_relied_on_is_installed() -> None:
    gone = await missing()
    assert not gone, f"{versions()} no longer have: " + "; ".join(gone)


async def test_a_removed_name_fails_with_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # As an upgrade would: a class attribute and a slot of the interaction both gone.
    monkeypatch.delattr(discord.http.Route, "BASE")
    monkeypatch.delattr(discord.interactions.Interaction, "_cs_response")
    assert await missing() == [
        "discord.http.Route.BASE (used by bot.discord_internals.point_at)",
        "discord.interactions.Interaction._cs_response "
        "(used by bot.discord_internals.release_interaction)",
    ]
    with pytest.raises(AssertionError, match=r"no longer have: discord\.http\.Route\.BASE"):
        await test_every_private_name_relied_on_is_installed()


async def test_an_instance_attribute_removed_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # One set in __init__ (asyncio's lock waiters): looked for on an instance.
    init = asyncio.Lock.__init__

    def without_waiters(lock: asyncio.Lock) -> None:
        init(lock)
        del lock._waiters

    monkeypatch.setattr(asyncio.Lock, "__init__", without_waiters)
    assert await missing() == [
        "asyncio.Lock._waiters (used by bot.discord_internals.lock_contended)",
        "asyncio.Lock._waiters (used by bot.discord_internals.QueueFreeLock)",
    ]


def test_every_entry_names_a_function_of_the_adapter_or_an_override() -> None:
    import bot.base.discord_internals as internals

    for entry in PRIVATE_ATTRIBUTES:
        assert callable(getattr(internals, entry.used_by, None)) or "overrides" in entry.used_by, (
            entry
        )


def test_discord_py_still_names_its_handler_tasks_so() -> None:
    gone = [
        f"{name.prefix!r} in {name.module}"
        for name in HANDLER_TASKS
        if name.prefix not in inspect.getsource(importlib.import_module(name.module))
    ]
    assert not gone, f"{versions()} no longer names these tasks: " + "; ".join(gone)


def test_a_prebuilt_view_is_sent_as_its_rows_and_never_tracked() -> None:
    """What discord.py reads of a view when it sends one: the rows as given (empty ones left
    out), no components-v2 flag, and nothing that makes it track the view."""
    from discord.http import handle_message_parameters

    from bot.base import PrebuiltView

    row = [{"type": 2, "style": 1, "label": "A", "custom_id": "nines:1:x", "disabled": False}]
    view = PrebuiltView(row, [])
    params = handle_message_parameters(content="hi", view=view)
    assert params.payload is not None
    assert params.payload["components"] == [{"type": 1, "components": row}]
    assert "flags" not in params.payload
    assert view.is_finished() and not view.is_dispatchable() and view.timeout is None
