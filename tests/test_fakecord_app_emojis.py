"""The double's application emoji routes answer as Discord's docs say (fakecord/
app_emojis.py), driven by discord.py's own client methods."""

from __future__ import annotations

import base64
import io
from collections.abc import AsyncIterator

import discord
import pytest
from PIL import Image

from fakecord import FakeDiscord
from fakecord.app_emojis import MAX_BYTES, MAX_EMOJIS, AppEmoji


def png(side: int = 128) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (side, side), (200, 0, 0, 255)).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
async def client(fake_discord: FakeDiscord) -> AsyncIterator[discord.Client]:
    client = discord.Client(intents=discord.Intents.none())
    await client.login(fake_discord.token)
    yield client
    await client.close()


async def test_create_list_rename_delete(fake_discord: FakeDiscord, client: discord.Client):
    fake = fake_discord
    created = await client.create_application_emoji(name="nines_ah_0123abcd", image=png())
    assert created.name == "nines_ah_0123abcd" and created.id in fake.app_emojis.items
    assert fake.app_emojis.items[created.id].image == png()
    listed = await client.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(created.id, "nines_ah_0123abcd")]
    assert listed[0].user is not None and listed[0].user.id == fake.bot.id
    fetched = await client.fetch_application_emoji(created.id)
    assert fetched.name == created.name
    renamed = await fetched.edit(name="nines_ah_renamed")
    assert renamed.name == "nines_ah_renamed"
    await fetched.delete()
    assert fake.app_emojis.items == {}
    with pytest.raises(discord.NotFound) as gone:
        await client.fetch_application_emoji(created.id)
    assert gone.value.code == 10014
    assert not fake.violations


@pytest.mark.parametrize(
    ("name", "words"),
    # Lengths: the spec's minLength 2 and maxLength 32; the characters: the double's check.
    [("x", "too short"), ("a" * 33, "too long"), ("card-face", "letters, digits")],
)
async def test_names_outside_discords_rule_are_refused(
    fake_discord: FakeDiscord, client: discord.Client, name: str, words: str
):
    with pytest.raises(discord.HTTPException) as refused:
        await client.create_application_emoji(name=name, image=png())
    assert refused.value.status == 400 and refused.value.code == 50035
    assert words in refused.value.text
    assert fake_discord.expect_violations() and fake_discord.app_emojis.items == {}


async def test_a_name_taken_an_image_too_large_or_not_an_image_is_refused(
    fake_discord: FakeDiscord, client: discord.Client
):
    fake = fake_discord
    await client.create_application_emoji(name="twice", image=png())
    with pytest.raises(discord.HTTPException) as taken:
        await client.create_application_emoji(name="twice", image=png())
    assert taken.value.code == 50035 and "already exists" in taken.value.text
    large = png() + b"\0" * MAX_BYTES
    with pytest.raises(discord.HTTPException) as too_big:
        await client.create_application_emoji(name="large", image=large)
    assert too_big.value.code == 50035 and "256" in too_big.value.text
    raw = {"name": "raw", "image": base64.b64encode(png()).decode()}  # no data URI
    route = discord.http.Route(
        "POST", "/applications/{application_id}/emojis", application_id=fake.app_id
    )
    with pytest.raises(discord.HTTPException) as not_data:
        await client.http.request(route, json=raw)
    assert not_data.value.code == 50035
    assert len(fake.app_emojis.items) == 1
    assert len(fake.expect_violations()) == 3


async def test_the_2000th_is_the_last_and_refusals_can_be_switched_on(
    fake_discord: FakeDiscord, client: discord.Client
):
    fake = fake_discord
    for i in range(MAX_EMOJIS - 1):
        fake.app_emojis.items[-i - 1] = AppEmoji(-i - 1, f"e{i:04}", b"", "image/png", fake.bot)
    await client.create_application_emoji(name="last_one", image=png())
    with pytest.raises(discord.HTTPException) as full:
        await client.create_application_emoji(name="one_more", image=png())
    assert (full.value.status, full.value.code) == (400, 30008)
    fake.app_emojis.items.clear()
    fake.app_emojis.refuse_uploads = 50013
    with pytest.raises(discord.Forbidden) as refused:
        await client.create_application_emoji(name="refused", image=png())
    assert refused.value.code == 50013 and fake.app_emojis.items == {}
    assert not fake.violations


async def test_a_button_may_show_only_the_applications_own_emojis(
    fake_discord: FakeDiscord, client: discord.Client
):
    fake = fake_discord
    ours = await client.create_application_emoji(name="nines_9h_0123abcd", image=png())
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=fake.channel.id
    )

    def message(emoji_id: int) -> dict[str, object]:
        button = {
            "type": 2,
            "style": 2,
            "label": "9",
            "custom_id": "play:9H",
            "emoji": {"id": str(emoji_id), "name": "nines_9h_0123abcd"},
        }
        return {"content": "hand", "components": [{"type": 1, "components": [button]}]}

    await client.http.request(route, json=message(ours.id))
    sent = fake.visible(fake.add_user("alice"), fake.channel)
    assert sent[-1].components[0]["components"][0]["emoji"]["id"] == str(ours.id)
    await ours.delete()  # a deleted emoji is an unknown one
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.request(route, json=message(ours.id))
    assert refused.value.code == 50035 and "Invalid emoji" in refused.value.text
    (violation,) = fake.expect_violations()
    assert violation.where == "components.0.components.0.emoji.id"
