"""The /nines commands exactly as Discord is sent them: names, options, descriptions, choices and
every localisation. A change here is a change every server sees (and a resync at start-up), so
it is made on purpose: regenerate ``command_payload.json`` from ``bot.command_payload(None)``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import StartBot

EXPECTED: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "command_payload.json").read_text("utf-8")
)


async def test_the_commands_discord_is_sent_are_the_expected_ones(start_bot: StartBot) -> None:
    bot = await start_bot()
    assert await bot.command_payload(None) == EXPECTED
