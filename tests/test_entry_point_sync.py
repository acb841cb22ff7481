"""bot.base.discord_internals.sync_commands: the bulk overwrite that keeps the Entry Point command
Discord makes once Activities are on (discord.py's ``tree.sync`` drops it and is refused)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.base import discord_internals
from fakecord import FakeDiscord


def payload(client: Any) -> list[dict[str, Any]]:
    tree = client.tree
    return [command.to_dict(tree) for command in tree.get_commands()]


async def test_the_entry_point_survives_a_sync(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    entry = fake.enable_activities()
    client: Any = test_client
    # discord.py's own sync overwrites with the tree's commands alone: Discord refuses it.
    with pytest.raises(discord.HTTPException) as refused:
        await client.tree.sync()
    assert refused.value.code == 50240
    count = await discord_internals.sync_commands(client, None, payload(client))
    stored = fake.commands.global_commands
    assert count == len(stored) == len(payload(client)) + 1
    assert stored["launch"]["id"] == entry["id"] and stored["launch"]["handler"] == 2
    # Again: nothing doubles, the same Entry Point stays.
    await discord_internals.sync_commands(client, None, payload(client))
    assert stored["launch"]["id"] == entry["id"] and len(stored) == count
    # A guild's commands have no Entry Point: synced as they are.
    await discord_internals.sync_commands(client, fake.guild.id, payload(client))
    assert "launch" not in fake.commands.scope(fake.guild.id)


def test_an_entry_point_is_sent_back_as_the_overwrite_takes_it() -> None:
    fetched = {
        "id": "11",
        "application_id": "22",
        "version": "33",
        "type": 4,
        "name": "launch",
        "description": "",
        "handler": 2,
        "default_member_permissions": "8",
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }
    assert discord_internals.entry_point_body(fetched) == {
        "id": "11",
        "type": 4,
        "name": "launch",
        "description": "",
        "handler": 2,
        "default_member_permissions": 8,
        "integration_types": [0, 1],
        "contexts": [0, 1, 2],
    }
