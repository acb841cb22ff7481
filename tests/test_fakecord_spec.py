"""The double's body checks: no false alarms on what discord.py builds, Discord's error shape."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fakecord import spec

MESSAGES = "/channels/{channel_id}/messages"


def test_literal_segments_win_over_parameters() -> None:
    original = spec.match_route("/webhooks/1/tok/messages/@original")
    assert original is not None
    assert original.template.endswith("/@original")
    by_id = spec.match_route("/webhooks/1/tok/messages/42")
    assert by_id is not None
    assert by_id.params == {"webhook_id": "1", "webhook_token": "tok", "message_id": "42"}
    assert spec.match_route("/no/such/route") is None


def test_errors_come_in_discords_tree() -> None:
    problem = spec.validate(MESSAGES, "POST", {"content": "x" * 2001})
    assert problem is not None
    assert problem.errors["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


def _components(labels: list[str], styles: list[int]) -> list[dict[str, Any]]:
    async def build() -> list[dict[str, Any]]:
        view = discord.ui.View()
        for i, (label, style) in enumerate(zip(labels, styles, strict=False)):
            view.add_item(
                discord.ui.Button(label=label, custom_id=f"c{i}", style=discord.ButtonStyle(style))
            )
        return view.to_components()

    return asyncio.run(build())


@settings(max_examples=25, deadline=None, database=None)
@given(
    labels=st.lists(st.text(min_size=1, max_size=80), min_size=1, max_size=25),
    styles=st.lists(st.integers(1, 4), min_size=25, max_size=25),
    content=st.text(max_size=2000),
)
def test_any_view_discord_py_lays_out_is_accepted(
    labels: list[str], styles: list[int], content: str
) -> None:
    body = {"content": content, "components": _components(labels, styles)}
    assert spec.validate(MESSAGES, "POST", body) is None
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    assert spec.validate(callback, "POST", {"type": 4, "data": body}) is None
