"""The double's body checks: no false alarms on what discord.py builds, Discord's error shape."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from fakecord import spec

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


# Bodies of the kinds the bot sends (recorded from the suite), to mutate below.
_ROW = {
    "type": 1,
    "components": [{"type": 2, "style": 2, "label": "↻ Refresh", "custom_id": "n:1"}],
}
_SENT: list[tuple[str, str, dict[str, Any]]] = [
    (
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "POST",
        {
            "type": 7,
            "data": {
                "content": "**Your hand**",
                "components": [_ROW],
                "embeds": [],
                "allowed_mentions": {"replied_user": True, "parse": ["users"]},
            },
        },
    ),
    (
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "POST",
        {"type": 4, "data": {"content": "", "flags": 64, "components": [_ROW]}},
    ),
    (
        MESSAGES,
        "POST",
        {
            "content": "table",
            "components": [_ROW],
            "nonce": "7",
            "enforce_nonce": True,
            "embeds": [{"type": "rich", "title": "Lobby", "color": 6323595, "description": "d"}],
        },
    ),
    (
        "/webhooks/{webhook_id}/{webhook_token}",
        "POST",
        {
            "content": "<@1>, your turn.",
            "components": [_ROW],
            "tts": False,
            "allowed_mentions": {"users": [1], "replied_user": True, "parse": []},
        },
    ),
    (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        "PATCH",
        {"content": "**Nines: game over**", "components": [], "tts": False},
    ),
]
_ODD_VALUES: list[Any] = [
    None, 0, 1, 2, 4, 7, 9, 17, -1, True, False, "", "x", "x" * 5000, [], {}, [1], 1.5,
    {"type": 2}, {"type": 1, "components": []}, "123",
]  # fmt: skip


def _mutated(body: Any, rng: random.Random) -> Any:
    body = copy.deepcopy(body)
    spots: list[tuple[Any, Any]] = []
    stack: list[Any] = [body]
    while stack:
        node = stack.pop()
        keys = list(node) if isinstance(node, dict) else range(len(node))
        for key in keys:
            spots.append((node, key))
            if isinstance(node[key], dict | list):
                stack.append(node[key])
    node, key = rng.choice(spots)
    roll = rng.random()
    if roll < 0.6:
        node[key] = rng.choice(_ODD_VALUES)
    elif isinstance(node, dict) and roll < 0.8:
        del node[key]
    elif isinstance(node, list):
        node.append(copy.deepcopy(node[key]))
    else:
        node["unknown_field"] = 1
    return body


def test_the_quick_check_agrees_with_the_full_validator() -> None:
    """The quick validator only skips union branches that would fail anyway: on valid bodies
    and on hundreds of broken ones it answers exactly as jsonschema's own does."""
    rng = random.Random(5)
    invalid = 0
    for _ in range(600):
        template, method, body = rng.choice(_SENT)
        for _ in range(rng.randint(0, 2)):
            body = _mutated(body, rng)
        full = spec._validator(template, method)
        assert full is not None
        expected = full.is_valid(body)
        assert spec._quick_validator(template, method).is_valid(body) == expected, body
        invalid += not expected
    assert 200 < invalid < 550  # both answers were exercised
