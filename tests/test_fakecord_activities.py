"""The double's Activities, as Discord's docs and OpenAPI spec describe them: the OAuth2 code
exchange (form-encoded, the app's secret, a code good once), /users/@me with a person's bearer
token, the activity-instances route (bot token), and the Entry Point command Discord keeps
(a bulk overwrite without it refused with 50240)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from fakecord import FakeDiscord, spec
from fakecord.activities import TOKEN_SECONDS


async def _exchange(fake: FakeDiscord, **form: str) -> tuple[int, Any]:
    base = {
        "client_id": str(fake.app_id),
        "client_secret": fake.client_secret,
        "grant_type": "authorization_code",
    }
    async with (
        aiohttp.ClientSession() as http,
        http.post(fake.api_base + "/oauth2/token", data={**base, **form}) as answer,
    ):
        return answer.status, await answer.json()


async def _get(fake: FakeDiscord, path: str, authorization: str) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(fake.api_base + path, headers={"Authorization": authorization}) as answer,
    ):
        return answer.status, await answer.json()


async def _put(fake: FakeDiscord, path: str, body: Any) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.put(fake.api_base + path, json=body, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


async def test_a_code_is_exchanged_once_for_a_token_of_its_person(fake_discord: FakeDiscord):
    fake = fake_discord
    alice = fake.add_user("alice", locale="fr")
    code = fake.authorize(alice)
    status, body = await _exchange(fake, code=code)
    assert status == 200
    assert body["token_type"] == "Bearer" and body["expires_in"] == int(TOKEN_SECONDS)
    assert {"access_token", "refresh_token", "scope"} <= set(body)
    status, me = await _get(fake, "/users/@me", f"Bearer {body['access_token']}")
    assert status == 200 and me["id"] == str(alice.id) and me["locale"] == "fr"
    # The same code again: refused, as OAuth2 says (invalid_grant).
    status, again = await _exchange(fake, code=code)
    assert (status, again["error"]) == (400, "invalid_grant")


async def test_a_wrong_secret_or_grant_is_refused(fake_discord: FakeDiscord):
    fake = fake_discord
    code = fake.authorize(fake.add_user("alice"))
    status, body = await _exchange(fake, code=code, client_secret="not-it")
    assert (status, body["error"]) == (401, "invalid_client")
    status, body = await _exchange(fake, code=code, grant_type="client_credentials")
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    status, body = await _exchange(fake, code="made-up")
    assert (status, body["error"]) == (400, "invalid_grant")
    # The code was not spent by the refusals.
    assert (await _exchange(fake, code=code))[0] == 200


async def test_a_foreign_or_expired_bearer_token_is_unauthorized(fake_discord: FakeDiscord):
    fake = fake_discord
    status, _ = await _get(fake, "/users/@me", "Bearer forged")
    assert status == 401
    code = fake.authorize(fake.add_user("bob"))
    token = (await _exchange(fake, code=code))[1]["access_token"]
    assert (await _get(fake, "/users/@me", f"Bearer {token}"))[0] == 200
    fake.clock.advance(TOKEN_SECONDS + 1)
    assert (await _get(fake, "/users/@me", f"Bearer {token}"))[0] == 401
    # A bearer token opens no bot route.
    status, _ = await _get(fake, f"/channels/{fake.channel.id}", f"Bearer {token}")
    assert status == 401


async def test_an_instance_is_read_with_the_bot_token_as_the_spec_shapes_it(
    fake_discord: FakeDiscord,
):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    instance_id = fake.activity_instance(fake.channel, [alice.id])
    # Opening it again in the same channel joins the same instance.
    assert fake.activity_instance(fake.channel, [bob.id]) == instance_id
    path = f"/applications/{fake.app_id}/activity-instances/{instance_id}"
    status, body = await _get(fake, path, f"Bot {fake.token}")
    assert status == 200
    assert body == {
        "application_id": str(fake.app_id),
        "instance_id": instance_id,
        "launch_id": body["launch_id"],
        "location": {
            "id": body["location"]["id"],
            "kind": "gc",
            "channel_id": str(fake.channel.id),
            "guild_id": str(fake.guild.id),
        },
        "users": [str(alice.id), str(bob.id)],
    }
    unknown = f"/applications/{fake.app_id}/activity-instances/i-0-gc-1-2"
    assert (await _get(fake, unknown, f"Bot {fake.token}"))[0] == 404
    code = fake.authorize(alice)
    token = (await _exchange(fake, code=code))[1]["access_token"]
    assert (await _get(fake, path, f"Bearer {token}"))[0] == 401  # the bot's route only


@pytest.mark.parametrize("keep", [False, True])
async def test_a_bulk_overwrite_must_keep_the_entry_point(fake_discord: FakeDiscord, keep: bool):
    fake = fake_discord
    entry = fake.enable_activities()
    assert (entry["type"], entry["name"], entry["handler"]) == (4, "launch", 2)
    ours: list[dict[str, Any]] = [{"name": "nines", "description": "Play", "type": 1}]
    kept = [{"id": entry["id"], "name": "launch", "type": 4, "handler": 2}] if keep else []
    status, body = await _put(fake, f"/applications/{fake.app_id}/commands", ours + kept)
    if keep:
        assert status == 200
        assert {(c["name"], c["type"]) for c in body} == {("nines", 1), ("launch", 4)}
        assert next(c for c in body if c["type"] == 4)["id"] == entry["id"]  # the same command
    else:
        assert (status, body["code"]) == (400, 50240)
        assert "Entry Point" in body["message"]
        assert [c["name"] for c in fake.commands.global_commands.values()] == ["launch"]


async def test_a_tokens_authorization_names_its_application_and_scopes_as_the_spec_shapes_it(
    fake_discord: FakeDiscord,
):
    """``GET /oauth2/@me``: the token's application, scopes and expiry, and its user with
    ``identify``; another application's token names that one; a revoked token is 401. The
    answers as the spec shapes them, a 429 with the body of Discord's docs."""
    fake = fake_discord
    alice = fake.add_user("alice")
    token = (await _exchange(fake, code=fake.authorize(alice)))[1]["access_token"]
    status, body = await _get(fake, "/oauth2/@me", f"Bearer {token}")
    assert status == 200 and spec.answer_problem("/oauth2/@me", "GET", 200, body) is None
    assert body["application"]["id"] == str(fake.app_id) and body["scopes"] == ["identify"]
    assert body["user"]["id"] == str(alice.id)
    other = fake.activities.mint(alice, application_id=1234, scope="guilds")
    status, body = await _get(fake, "/oauth2/@me", f"Bearer {other}")
    assert status == 200 and spec.answer_problem("/oauth2/@me", "GET", 200, body) is None
    assert body["application"]["id"] == "1234" and body["scopes"] == ["guilds"]
    assert "user" not in body  # no identify, no person
    fake.activities.revoke(token)
    status, body = await _get(fake, "/oauth2/@me", f"Bearer {token}")
    assert status == 401 and spec.answer_problem("/oauth2/@me", "GET", 401, body) is None
    fake.ratelimits.inject(429, "GET", "/oauth2/@me", retry_after=2.5)
    async with (
        aiohttp.ClientSession() as http,
        http.get(fake.api_base + "/oauth2/@me", headers={"Authorization": "Bearer x"}) as answer,
    ):
        assert answer.status == 429 and answer.headers["Retry-After"] == "3"
        body = await answer.json()
    # As the rate-limit docs show it ("Exceeding A Rate Limit"; the spec also wants a code).
    assert body == {"message": "You are being rate limited.", "retry_after": 2.5, "global": False}
    # The 401 and the 429 are invalid requests, as Discord counts them.
    assert fake.ratelimits.invalid_in_window() == 2


async def test_a_participant_leaves_an_instance(fake_discord: FakeDiscord):
    fake = fake_discord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    instance_id = fake.activity_instance(fake.channel, [alice.id, bob.id])
    fake.activities.leave(bob, instance_id)
    path = f"/applications/{fake.app_id}/activity-instances/{instance_id}"
    status, body = await _get(fake, path, f"Bot {fake.token}")
    assert status == 200 and body["users"] == [str(alice.id)]
    assert (
        spec.answer_problem(
            "/applications/{application_id}/activity-instances/{instance_id}", "GET", 200, body
        )
        is None
    )
    # The last one out ends it.
    fake.activities.leave(alice, instance_id)
    assert (await _get(fake, path, f"Bot {fake.token}"))[0] == 404
