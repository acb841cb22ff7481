"""The double's seams for a harness (bench/load.py): message watchers, and checking a sample of
the bodies against the spec. A harness reads and tunes the double through these, not by
replacing its methods."""

from __future__ import annotations

import discord
from discord.http import Route

from fakecord import FakeDiscord, Message


async def test_watchers_see_every_message_event_ephemeral_ones_included(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    seen: list[tuple[str, str, int | None]] = []

    def watch(event: str, message: Message) -> None:
        seen.append((event, message.content or "", message.ephemeral_for))

    fake.message_watchers.append(watch)
    chan = test_client.get_partial_messageable(fake.channel.id)
    sent = await chan.send("hello")
    await sent.edit(content="edited")
    await sent.delete()
    alice = fake.add_user("alice")
    hand = await fake.slash(alice, fake.channel, "nines hand")
    assert hand.ephemeral
    assert seen == [
        ("MESSAGE_CREATE", "hello", None),
        ("MESSAGE_UPDATE", "edited", None),
        ("MESSAGE_DELETE", "edited", None),
        # Never dispatched on the gateway (Discord does not), but shown to alice.
        ("MESSAGE_CREATE", "Your hand: 9♠ 9♥", alice.id),
    ]


async def test_one_body_in_n_is_checked_against_the_spec(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    violations = fake.expect_violations()
    fake.check_bodies_every = 2
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=fake.channel.id)
    wrong = {"content": "hi", "tts": "yes"}  # the spec: tts is a boolean
    refused = []
    for _ in range(2):
        try:
            await test_client.http.request(route, json=wrong)
        except discord.HTTPException as error:
            refused.append((error.status, error.code))
    assert refused == [(400, 50035)]  # one of the two checked, the other served unchecked
    assert len(violations) == 1
