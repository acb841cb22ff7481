"""Rate limits, injected server errors and gateway drops that the bot must ride through."""

from __future__ import annotations

import time

import aiohttp
import discord
import pytest

from fakecord import FakeDiscord
from fakecord.fixtures import StartClient
from fakecord.wiring import run_client

MESSAGES = "/channels/{channel_id}/messages"


async def test_429_carries_discords_headers(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.ratelimits.limit_route("POST", MESSAGES, limit=2, window=5.0)
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        statuses = []
        for _ in range(3):
            async with http.post(url, json={"content": "spam"}, headers=headers) as resp:
                statuses.append(resp.status)
                last_headers, body = resp.headers, await resp.json()
    assert statuses == [200, 200, 429]
    assert last_headers["Content-Type"] == "application/json"
    assert last_headers["X-RateLimit-Limit"] == "2"
    assert last_headers["X-RateLimit-Remaining"] == "0"
    assert float(last_headers["X-RateLimit-Reset-After"]) > 4
    assert "X-RateLimit-Bucket" in last_headers
    assert "X-RateLimit-Reset" in last_headers
    assert body["global"] is False
    assert body["retry_after"] > 4
    assert fake.ratelimits.sent_429 == 1


async def test_global_limit(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.ratelimits.limit_global(1, window=5.0)
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        for expected in (200, 429):
            async with http.get(f"{fake.api_base}/users/@me", headers=headers) as resp:
                assert resp.status == expected
                body = await resp.json()
        assert resp.headers["X-RateLimit-Global"] == "true"
        assert body["global"] is True


async def test_discord_py_waits_out_an_exhausted_bucket(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    fake.ratelimits.limit_route("POST", MESSAGES, limit=1, window=0.15)
    chan = test_client.get_partial_messageable(fake.channel.id)
    started = time.monotonic()
    for i in range(3):
        await chan.send(f"m{i}")
    assert time.monotonic() - started >= 0.25  # it slept on Remaining: 0 instead of hammering
    assert fake.ratelimits.sent_429 == 0


@pytest.mark.parametrize("is_global", [False, True])
async def test_discord_py_retries_after_a_429(
    fake_discord: FakeDiscord, test_client: discord.Client, is_global: bool
) -> None:
    fake = fake_discord
    fake.ratelimits.inject(429, "POST", MESSAGES, count=1, retry_after=0.05, is_global=is_global)
    await test_client.get_partial_messageable(fake.channel.id).send("patient")
    sent = [r.status for r in fake.requests if r.route == MESSAGES]
    assert sent == [429, 200]
    assert fake.ratelimits.sent_429 == 1


async def test_interaction_answer_rides_through_a_webhook_429(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    fake.ratelimits.inject(429, "POST", "/webhooks/{webhook_id}/{webhook_token}", retry_after=0.05)
    res = await fake.slash(fake.add_user("alice"), fake.channel, "nines stats")
    assert res.message is not None
    assert res.message.content == "Wins: 3"


async def test_500_then_success(fake_discord: FakeDiscord, test_client: discord.Client) -> None:
    fake = fake_discord
    fake.ratelimits.inject(500, "POST", f"/channels/{fake.channel.id}/messages", count=1)
    msg = await test_client.get_partial_messageable(fake.channel.id).send("after a hiccup")
    assert msg.content == "after a hiccup"
    assert [r.status for r in fake.requests if r.route == MESSAGES] == [500, 200]
    assert fake.ratelimits.sent_faults == 1


async def test_gateway_reconnect_request_resumes(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    await fake.gateway.request_reconnect()
    await fake.settle()
    assert (fake.gateway.identifies, fake.gateway.resumes) == (1, 1)
    res = await fake.slash(fake.add_user("alice"), fake.channel, "nines start", mode="nines")
    assert res.acknowledged


async def test_gateway_drop_resumes_and_replays_missed_events(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    await fake.gateway.drop(code=4000)
    # Sent while the bot is away: it arrives in the RESUME replay.
    res = await fake.slash(alice, fake.channel, "nines start", mode="nines")
    assert res.acknowledged
    assert res.message is not None
    assert (fake.gateway.identifies, fake.gateway.resumes) == (1, 1)
    assert test_client.is_ready()


async def test_unknown_session_is_invalidated_and_identifies_again(
    fake_discord: FakeDiscord, test_client: discord.Client
) -> None:
    fake = fake_discord

    async def no_identify_pause(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a re-IDENTIFY (Discord's limit); not needed here."""

    test_client.before_identify_hook = no_identify_pause  # type: ignore[method-assign]
    fake.gateway.sessions.clear()  # as if Discord forgot the session
    await fake.gateway.drop(code=4000)
    await fake.settle()
    assert fake.gateway.identifies == 2
    res = await fake.slash(fake.add_user("alice"), fake.channel, "nines hand")
    assert res.acknowledged


class MembersClient(discord.Client):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)


async def make_members_client(fake: FakeDiscord) -> discord.Client:
    return MembersClient()


async def test_members_intent_chunks_and_member_adds(
    fake_discord: FakeDiscord, start_client: StartClient
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    client = await start_client(make_members_client)
    guild = client.get_guild(fake.guild.id)
    assert guild is not None
    assert guild.chunked
    assert guild.get_member(alice.id) is not None
    bob = fake.add_user("bob")
    await fake.settle()
    assert guild.get_member(bob.id) is not None


async def test_privileged_intent_not_enabled_closes_4014(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.gateway.allowed_privileged = 0
    client = MembersClient()
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await run_client(client, fake)
    await client.close()


async def test_fail_share_fails_about_that_share_of_matching_requests(
    fake_discord: FakeDiscord,
) -> None:
    """``fail_share``: a standing fault on a share of the matching requests (seeded), the
    others answered as usual; other routes untouched."""
    fake = fake_discord
    fake.enable_activities()
    fake.ratelimits.fail_share(503, 0.10, path="/oauth2/@me", seed=7)
    token = fake.activities.mint(fake.add_user("carol"))
    statuses: list[int] = []
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            url = f"{fake.api_base}/oauth2/@me"
            async with http.get(url, headers={"Authorization": f"Bearer {token}"}) as resp:
                statuses.append(resp.status)
        url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.post(url, json={"content": "hi"}, headers=headers) as resp:
            assert resp.status == 200
    assert set(statuses) == {200, 503}
    assert 15 <= statuses.count(503) <= 45  # about 30 of 300 (a seeded draw)
    assert fake.ratelimits.sent_faults == statuses.count(503)
