"""The requests bot/base/discord_internals.py sends in place of discord.py's public calls (which
parse Discord's answer into a message object nothing reads) are those calls' own requests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.base import discord_internals
from cogs.nines.ui import Buttons, button


class Sent(Exception):
    """Raised in place of sending: the request as it would have gone."""


async def request_of(
    monkeypatch: pytest.MonkeyPatch, call: Callable[[], Awaitable[Any]]
) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def request(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        seen.update(method=route.method, url=route.url, **kwargs)
        raise Sent

    monkeypatch.setattr(AsyncWebhookAdapter, "request", request)
    with pytest.raises(Sent):
        await call()
    return seen


def client() -> discord.Client:
    bot = discord.Client(intents=discord.Intents.none())
    bot._connection.application_id = 4242
    return bot


def fields() -> dict[str, Any]:
    return {
        "content": "Your hand",
        "embed": discord.Embed(title="Table"),
        "view": Buttons([button("nines:1:x", "9♥")]),
        "allowed_mentions": discord.AllowedMentions.none(),
    }


async def test_a_webhook_edit_is_the_public_calls_request(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = client()
    webhook = discord_internals.interaction_webhook(bot, "tok")
    public = await request_of(monkeypatch, lambda: webhook.edit_message(77, **fields()))
    ours = await request_of(
        monkeypatch, lambda: discord_internals.edit_webhook_message(bot, "tok", 77, **fields())
    )
    assert ours == public
    # "@original": the route's own word for the interaction's message, as the public call
    # sends it.
    here: Any = "@original"
    public = await request_of(monkeypatch, lambda: webhook.edit_message(here, content="x"))
    ours = await request_of(
        monkeypatch,
        lambda: discord_internals.edit_webhook_message(bot, "tok", "@original", content="x"),
    )
    assert ours == public


@pytest.mark.parametrize("ephemeral", [True, False])
@pytest.mark.parametrize("content", ["Your hand", None])
async def test_a_follow_up_is_the_public_calls_request(
    monkeypatch: pytest.MonkeyPatch, content: str | None, ephemeral: bool
) -> None:
    bot = client()
    webhook = discord_internals.interaction_webhook(bot, "tok")
    given = {**fields(), "content": content}
    public = await request_of(
        monkeypatch, lambda: webhook.send(wait=True, ephemeral=ephemeral, **given)
    )
    ours = await request_of(
        monkeypatch,
        lambda: discord_internals.send_webhook_message(bot, "tok", ephemeral=ephemeral, **given),
    )
    assert ours == public


async def test_a_clicked_message_updated_is_the_public_calls_request_without_asking_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = client()
    data: Any = {
        "id": "11",
        "application_id": "4242",
        "type": 3,
        "token": "tok",
        "version": 1,
        "attachment_size_limit": 10485760,
        "channel_id": "5",
        "data": {"custom_id": "nines:1:x", "component_type": 2},
        "user": {"id": "8", "username": "a", "discriminator": "0", "avatar": None},
    }
    public_click = discord.Interaction(data=data, state=bot._connection)
    public = await request_of(monkeypatch, lambda: public_click.response.edit_message(**fields()))
    click = discord.Interaction(data=data, state=bot._connection)
    ours = await request_of(
        monkeypatch, lambda: discord_internals.update_clicked(click, **fields())
    )
    assert public.pop("params") == {"with_response": "1"}
    assert ours == public
    assert not click.response.is_done()  # not sent: the response stays open

    async def answered(self: Any, route: Any, session: Any, **kwargs: Any) -> None:
        return None  # Discord's 204

    monkeypatch.setattr(AsyncWebhookAdapter, "request", answered)
    await discord_internals.update_clicked(click, content="x")
    assert click.response.is_done()
    assert click.response.type is discord.InteractionResponseType.message_update
    with pytest.raises(discord.InteractionResponded):
        await discord_internals.update_clicked(click, content="again")
