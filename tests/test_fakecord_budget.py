"""Discord's request budget as the double models it: the global limit, per-route buckets per
top-level resource (an interaction token's among them), 429s by scope, the invalid request
count, and what an interaction token may edit or delete."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from fakecord import FakeDiscord, Perm
from fakecord.interactions import Interaction
from fakecord.ratelimit import DISCORD_GLOBAL_LIMIT, WEBHOOK_TOKEN_LIMIT

pytestmark = pytest.mark.usefixtures("test_client")


async def _send(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, bot: bool = True
) -> tuple[int, dict[str, str], Any]:
    """One raw request, as a client that does not wait out rate limits would send it."""
    headers = {"Authorization": f"Bot {fake.token}"} if bot else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as resp,
    ):
        payload = await resp.json() if resp.status != 204 else None
        return resp.status, dict(resp.headers), payload


def _token_path(fake: FakeDiscord, res: Interaction, tail: str = "") -> str:
    return f"/webhooks/{fake.app_id}/{res.token}{tail}"


async def test_the_51st_channel_request_in_a_second_is_refused_globally(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.ratelimits.limit_global(DISCORD_GLOBAL_LIMIT)
    before = fake.ratelimits.under_global
    path = f"/channels/{fake.channel.id}"
    answers = await asyncio.gather(
        *(_send(fake, "GET", path) for _ in range(DISCORD_GLOBAL_LIMIT + 1))
    )
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    assert len(refused) == 1
    headers, body = refused[0]
    # As the docs' "Example Exceeded Global Rate Limit Response".
    assert body["global"] is True
    assert body["retry_after"] > 0
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert int(headers["Retry-After"]) >= 1
    assert fake.ratelimits.under_global - before == DISCORD_GLOBAL_LIMIT
    assert fake.ratelimits.sent_429_by_scope == {"global": 1}
    assert fake.ratelimits.invalid_requests == 1  # a global 429 counts toward Cloudflare's


async def test_interaction_routes_never_consume_the_global_window(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.ratelimits.limit_global(1, window=30.0)
    before = fake.ratelimits.under_global
    alice = fake.add_user("alice")
    for _ in range(3):  # a callback and a follow-up each
        res = await fake.slash(alice, fake.channel, "nines stats")
        assert res.message is not None
        assert res.message.content == "Wins: 3"
        assert not res.errors
    assert fake.ratelimits.under_global == before
    assert all(not r.under_global_limit for r in fake.requests[-6:])
    # The window is still whole for the bot's own routes: one request, then none.
    assert (await _send(fake, "GET", f"/channels/{fake.channel.id}"))[0] == 200
    assert (await _send(fake, "GET", f"/channels/{fake.channel.id}"))[0] == 429
    assert fake.ratelimits.under_global == before + 1


async def test_a_burst_through_one_token_meets_its_bucket_and_tokens_do_not_share(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.ratelimits.use_discord_route_limits()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    first = await fake.slash(alice, fake.channel, "nines hand")
    second = await fake.slash(bob, fake.channel, "nines hand")
    limit, window = WEBHOOK_TOKEN_LIMIT
    burst = await asyncio.gather(
        *(
            _send(fake, "PATCH", _token_path(fake, first, "/messages/@original"), {"content": n})
            for n in "abcdef"
        )
    )
    statuses = sorted(status for status, _, _ in burst)
    assert statuses == [200] * limit + [429]
    headers, body = next((h, b) for s, h, b in burst if s == 429)
    assert headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Limit"] == str(limit)
    assert 0 < float(headers["X-RateLimit-Reset-After"]) <= window
    assert body["global"] is False
    # @original and the message's own id are one route, one bucket.
    assert first.message is not None
    followup_route = _token_path(fake, first, f"/messages/{first.message.id}")
    assert (await _send(fake, "PATCH", followup_route, {"content": "g"}))[0] == 429
    # Another interaction's token has its own bucket.
    other = _token_path(fake, second, "/messages/@original")
    assert (await _send(fake, "PATCH", other, {"content": "mine"}))[0] == 200
    assert fake.ratelimits.sent_429_by_scope == {"user": 2}
    assert fake.ratelimits.invalid_requests == 2


async def test_followups_into_one_channel_share_its_limit_and_are_not_invalid(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.ratelimits.use_discord_route_limits()
    fake.ratelimits.webhook_channel_limit = (2, 2.0)  # 30 a minute, made small and short
    clicks = [await fake.slash(fake.add_user(f"p{i}"), fake.channel, "nines hand") for i in "abc"]
    answers = [
        await _send(fake, "POST", _token_path(fake, res), {"content": "hello"}) for res in clicks
    ]
    assert [status for status, _, _ in answers] == [204, 204, 429]
    _, headers, body = answers[-1]
    assert headers["X-RateLimit-Scope"] == "shared"
    assert body == {
        "message": "The resource is being rate limited.",
        "retry_after": body["retry_after"],
        "global": False,
    }
    assert fake.ratelimits.sent_429_by_scope == {"shared": 1}
    assert fake.ratelimits.invalid_requests == 0
    # Another channel's webhook messages are not limited by this one's.
    elsewhere = fake.add_channel(name="elsewhere")
    await fake.settle()
    res = await fake.slash(fake.add_user("d"), elsewhere, "nines hand")
    assert (await _send(fake, "POST", _token_path(fake, res), {"content": "hi"}))[0] == 204


async def test_401_and_403_are_invalid_requests_and_404_is_not(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    secret = fake.add_channel(name="secret")
    fake.set_permissions(secret, fake.bot, deny=Perm.VIEW_CHANNEL)
    await fake.settle()
    before = fake.ratelimits.invalid_requests
    assert (await _send(fake, "GET", "/users/@me", bot=False))[0] == 401
    assert (await _send(fake, "GET", f"/channels/{secret.id}"))[0] == 403
    assert (await _send(fake, "GET", f"/channels/{fake.channel.id}/messages/1"))[0] == 404
    assert fake.ratelimits.invalid_requests - before == 2
    assert fake.ratelimits.invalid_in_window() >= 2


async def test_a_token_reaches_only_its_own_answer_and_followups(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    mine = await fake.slash(alice, fake.channel, "nines start", mode="nines")
    theirs = await fake.slash(bob, fake.channel, "nines stats", private=False)
    assert mine.message is not None
    assert theirs.message is not None
    status, _, body = await _send(
        fake, "POST", _token_path(fake, mine) + "?wait=true", {"content": "follow"}
    )
    assert status == 200
    followup = body["id"]
    # Its @original and its own follow-up: yes.
    for tail in ("/messages/@original", f"/messages/{followup}"):
        assert (await _send(fake, "PATCH", _token_path(fake, mine, tail), {"content": "x"}))[
            0
        ] == 200
    # Another interaction's answer, or any other message in the channel: Unknown Message.
    sent = await _send(fake, "POST", f"/channels/{fake.channel.id}/messages", {"content": "bot"})
    for message_id in (theirs.message.id, sent[2]["id"]):
        tail = f"/messages/{message_id}"
        for method, body_ in (("PATCH", {"content": "y"}), ("DELETE", None), ("GET", None)):
            status, _, answer = await _send(fake, method, _token_path(fake, mine, tail), body_)
            assert (status, answer["code"]) == (404, 10008)
    assert not theirs.message.deleted
    assert (await _send(fake, "DELETE", _token_path(fake, mine, f"/messages/{followup}")))[0] == 204


async def test_after_15_minutes_the_bot_reaches_a_public_answer_through_the_channel(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    alice = fake.add_user("alice")
    public = await fake.slash(alice, fake.channel, "nines start", mode="nines")
    private = await fake.slash(alice, fake.channel, "nines hand")
    assert public.message is not None
    assert private.message is not None
    fake.clock.advance(15 * 60 + 1)
    edit = _token_path(fake, public, "/messages/@original")
    status, _, body = await _send(fake, "PATCH", edit, {"content": "late"})
    assert (status, body["code"]) == (401, 50027)
    # The answer is the bot's own message: the channel routes edit and delete it as any other.
    channel_path = f"/channels/{fake.channel.id}/messages/{public.message.id}"
    assert (await _send(fake, "PATCH", channel_path, {"content": "edited"}))[0] == 200
    assert public.message.content == "edited"
    # An ephemeral answer exists only behind its token, now expired.
    hidden = f"/channels/{fake.channel.id}/messages/{private.message.id}"
    status, _, body = await _send(fake, "PATCH", hidden, {"content": "x"})
    assert (status, body["code"]) == (404, 10008)
    assert (await _send(fake, "DELETE", channel_path))[0] == 204
    assert public.message.deleted
