"""Issue 44: signing in to the web table asks Discord little, patiently, and trusts only this
application's tokens; an open table is checked again. The real bot against the double, raw
HTTP and websocket clients on loopback as the pages.

- a flood of garbage sign-ins (one address, or many behind a trusted proxy) costs Discord no
  more than the budget bot/activity/discord_api.py states, counted at the double;
- a token of another application, or without ``identify``, is refused (``auth``);
- Discord failing during a hello (503, 429, a timeout) is ``retry`` with ``retry_after``, and
  a later hello gets in;
- an instance whose ``users`` lag a launch is asked afresh: the page's retry gets in;
- a second hello with the same token costs Discord nothing (the cache);
- a person who left the instance, or whose token was revoked or expired, loses the socket at
  the re-check;
- a wrong client secret is logged once, naming DISCORD_CLIENT_SECRET, and asked no more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable

import aiohttp
import pytest

from bot.activity import ActivityServer
from fakecord import FakeDiscord
from testbed.games import HANG_GUARD

from .conftest import StartBot
from .test_activity import Activity, Json, Table, two_people_and_a_computer
from .test_network_faults import free_port

#: The routes a sign-in may ask Discord.
TOKEN, AUTHORIZATION = "/oauth2/token", "/oauth2/@me"
INSTANCE = "/applications/{application_id}/activity-instances/{instance_id}"
#: The defaults of bot/base/settings.py, whose bound bot/activity/discord_api.py states.
DISCORD_BURST, DISCORD_PER_MINUTE = 50, 300
ADDRESS_BURST, ADDRESS_PER_MINUTE = 60, 60
INVALID_LIMIT = 1_000

OpenActivity = Callable[..., Awaitable[Activity]]


@pytest.fixture
async def open_activity(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> AsyncIterator[OpenActivity]:
    """``await open_activity(**env)``: the bot with its Activity on, and a browser's HTTP."""
    fake = fake_discord
    sessions: list[aiohttp.ClientSession] = []

    async def open_(**env: str) -> Activity:
        fake.enable_activities()
        port = free_port()
        settings = {"ACTIVITY_PORT": str(port), "DISCORD_CLIENT_SECRET": fake.client_secret}
        bot = await start_bot(**{**settings, **env})
        http = aiohttp.ClientSession()
        sessions.append(http)
        return Activity(fake, bot, port, http)

    yield open_
    for http in sessions:
        await http.close()


def server(activity: Activity) -> ActivityServer:
    assert activity.bot is not None and activity.bot.activity_server is not None
    return activity.bot.activity_server


def asked(fake: FakeDiscord) -> Counter[str]:
    """The sign-in calls Discord got, by route."""
    return Counter(r.route for r in fake.requests if r.route in (TOKEN, AUTHORIZATION, INSTANCE))


async def hello(
    activity: Activity,
    token: str,
    instance_id: str,
    *,
    headers: dict[str, str] | None = None,
) -> Json:
    """One socket, one hello; the first frame, or ``{"http": status}`` if the upgrade was
    refused. The socket is closed after."""
    fake = activity.fake
    try:
        ws = await activity.http.ws_connect(activity.base + "/api/ws", headers=headers)
    except aiohttp.WSServerHandshakeError as refused:
        return {"http": refused.status, "retry_after": (refused.headers or {}).get("Retry-After")}
    async with ws:
        await ws.send_json(
            {
                "op": "hello",
                "access_token": token,
                "instance_id": instance_id,
                "channel_id": str(fake.channel.id),
                "guild_id": str(fake.guild.id),
                "last_seq": None,
                "locale": "en-US",
            }
        )
        message = await ws.receive(timeout=30)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        frame: Json = message.json()
        return frame


async def exchange(activity: Activity, code: str, headers: dict[str, str] | None = None) -> Json:
    async with activity.http.post(
        activity.base + "/api/token", json={"code": code}, headers=headers
    ) as answer:
        body: Json = await answer.json()
        return {"http": answer.status, "retry_after": answer.headers.get("Retry-After"), **body}


async def flood(
    count: int, send: Callable[[int], Awaitable[Json]], workers: int = 16
) -> list[Json]:
    """``send(i)`` for i in range(count), ``workers`` at a time, each waiting on its answer."""
    numbers = iter(range(count))
    answers: list[Json] = []

    async def worker() -> None:
        for i in numbers:
            answers.append(await send(i))

    await asyncio.gather(*(worker() for _ in range(workers)))
    return answers


# -- the bound ---------------------------------------------------------------------------------


async def test_ten_thousand_garbage_sign_ins_from_one_address_cost_discord_the_bound(
    open_activity: OpenActivity,
):
    activity = await open_activity()
    fake = activity.fake
    instance_id = fake.activity_instance(fake.channel, [])
    started = time.monotonic()

    async def send(i: int) -> Json:
        if i % 2:
            return await exchange(activity, f"garbage-code-{i}")
        return await hello(activity, f"garbage-token-{i}", instance_id)

    answers = await flood(10_000, send)
    minutes = (time.monotonic() - started) / 60
    calls = sum(asked(fake).values())
    print(f"10,000 garbage sign-ins in {minutes * 60:.1f} s: Discord asked {calls} times")
    # The address signed in no more than its bucket lets; past it, it is told 429, with
    # Retry-After and in words.
    limited = [a for a in answers if a.get("http") == 429]
    let_in = len(answers) - len(limited)
    assert let_in <= ADDRESS_BURST + ADDRESS_PER_MINUTE * minutes + 1
    assert all(int(a["retry_after"]) >= 1 for a in limited)
    assert any("too many sign-ins" in a.get("error", "") for a in limited)
    # Discord was asked at most once a sign-in let in, and no more than the budget in all
    # (the address's burst of 60 is more than the budget's 50: a few were told retry).
    assert calls <= let_in
    assert calls <= DISCORD_BURST + DISCORD_PER_MINUTE * minutes
    assert fake.ratelimits.invalid_in_window() <= calls
    # Those let through were refused as Discord refused them: no garbage got in.
    assert not any(a.get("op") == "ready" for a in answers)
    codes = {a.get("code") for a in answers if a.get("op") == "error"}
    assert codes <= {"auth", "retry"}


async def test_a_flood_from_many_addresses_stops_at_the_budget_and_the_refusal_limit(
    open_activity: OpenActivity, caplog: pytest.LogCaptureFixture
):
    """Behind a trusted reverse proxy, every garbage hello claims another address: the
    per-address limit never binds, the budget in all does, and Discord's refusals stop at
    ACTIVITY_INVALID_LIMIT, said once at WARNING; the pages are told ``retry``."""
    activity = await open_activity(ACTIVITY_TRUSTED_PROXIES="1", ACTIVITY_INVALID_LIMIT="30")
    fake = activity.fake
    instance_id = fake.activity_instance(fake.channel, [])
    started = time.monotonic()

    async def send(i: int) -> Json:
        forwarded = {"X-Forwarded-For": f"10.{i // 65536}.{i // 256 % 256}.{i % 256}"}
        return await hello(activity, f"garbage-token-{i}", instance_id, headers=forwarded)

    with caplog.at_level(logging.WARNING, logger="bot.activity"):
        answers = await flood(600, send)
    minutes = (time.monotonic() - started) / 60
    calls = sum(asked(fake).values())
    assert calls <= DISCORD_BURST + DISCORD_PER_MINUTE * minutes
    assert fake.ratelimits.invalid_in_window() == calls == 30  # then it stopped asking
    stopped = [r for r in caplog.records if "stopped asking Discord" in r.getMessage()]
    assert len(stopped) == 1 and stopped[0].levelno == logging.WARNING
    assert not any(a.get("http") == 429 for a in answers)  # no one address signed in twice
    retried = [a for a in answers if a.get("code") == "retry"]
    assert len(retried) == 600 - 30 and all(a["retry_after"] >= 1 for a in retried)
    assert "trying again" in retried[0]["message"]


async def test_made_up_instances_spend_no_more_of_the_bots_budget_than_the_bound(
    open_activity: OpenActivity,
):
    """A real person's token with made-up instance ids, from as many addresses: each id is a
    call with the bot's token (a 404, not a refusal), so they come out of the budget in all."""
    activity = await open_activity(
        ACTIVITY_TRUSTED_PROXIES="1", ACTIVITY_DISCORD_BURST="20", ACTIVITY_DISCORD_PER_MINUTE="60"
    )
    fake = activity.fake
    started = time.monotonic()  # before the exchange, the budget's first call
    token = await activity.token_for(fake.add_user("mallory"))

    async def send(i: int) -> Json:
        forwarded = {"X-Forwarded-For": f"10.1.{i // 256}.{i % 256}"}
        return await hello(activity, token, f"i-{i}-made-up", headers=forwarded)

    answers = await flood(150, send)
    minutes = (time.monotonic() - started) / 60
    spent = asked(fake)
    assert sum(spent.values()) <= 20 + 60 * minutes  # the code's exchange included
    assert spent[AUTHORIZATION] == 1  # the token asked once, cached after
    assert {a["code"] for a in answers} == {"not-in-instance", "retry"}
    assert fake.ratelimits.invalid_in_window() == 0  # 404s: no refusal counted


# -- whose token -------------------------------------------------------------------------------


async def test_a_token_of_another_application_or_without_identify_is_refused(
    open_activity: OpenActivity,
):
    activity = await open_activity()
    fake = activity.fake
    _game, alice, _bob = await two_people_and_a_computer(activity)
    users_me = sum(r.route == "/users/@me" for r in fake.requests)
    # Minted by another application's "Login with Discord", for the same person.
    foreign = fake.activities.mint(alice, application_id=fake.app_id + 1)
    _, refused = await activity.open(alice, token=foreign)
    assert (refused["op"], refused["code"]) == ("error", "auth")
    assert "another app" in refused["message"]
    # This application's, but without identify: no person named.
    unnamed = fake.activities.mint(alice, scope="guilds")
    _, refused = await activity.open(alice, token=unnamed)
    assert refused["code"] == "auth" and "allow" in refused["message"]
    # One call a hello: /oauth2/@me names application, scopes and person together (the bot's
    # own /users/@me is its login's).
    assert asked(fake)[AUTHORIZATION] == 2
    assert sum(r.route == "/users/@me" for r in fake.requests) == users_me
    _, ready = await activity.open(alice, token=fake.activities.mint(alice))
    assert ready["op"] == "ready" and ready["you"]["user_id"] == str(alice.id)


# -- Discord failing ---------------------------------------------------------------------------


@pytest.mark.parametrize("failure", ["503 token", "429 token", "503 instance", "timeout"])
async def test_an_upstream_failure_is_retry_and_a_later_hello_gets_in(
    open_activity: OpenActivity, failure: str
):
    activity = await open_activity()
    fake = activity.fake
    _game, alice, _bob = await two_people_and_a_computer(activity)
    token = await activity.token_for(alice)
    instance_id = fake.activity_instance(fake.channel, [alice.id])
    if failure == "503 token":
        fake.ratelimits.inject(503, "GET", AUTHORIZATION)
    elif failure == "429 token":
        fake.ratelimits.inject(429, "GET", AUTHORIZATION, retry_after=0.01)
    elif failure == "503 instance":
        fake.ratelimits.inject(503, "GET", INSTANCE)
    else:
        stall = fake.stall("GET", AUTHORIZATION, seconds=None)
        server(activity).api.timeout, timeout = 0.3, server(activity).api.timeout
    refused = await hello(activity, token, instance_id)
    assert (refused["op"], refused["code"]) == ("error", "retry"), refused
    assert refused["retry_after"] >= 1 and "trying again" in refused["message"]
    if failure == "timeout":
        assert stall.arrived == 1
        # Only the stalled call is timed out: a starved machine may take 0.3 s to answer one.
        server(activity).api.timeout = timeout
    # The page's retry, as the frame says (without its wait: nothing here needs it but the
    # 429's own retry_after, 0.01 s, which the server keeps). HANG_GUARD: a stuck test only.
    deadline = time.monotonic() + HANG_GUARD
    while (again := await hello(activity, token, instance_id))["op"] != "ready":
        assert again["code"] == "retry", again
        assert time.monotonic() < deadline, again
        await asyncio.sleep(0.02)
    assert again["you"]["user_id"] == str(alice.id)


async def test_an_instance_whose_people_lag_is_asked_afresh(open_activity: OpenActivity):
    activity = await open_activity()
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    bobs, ready = await activity.open(bob)  # the instance's record is cached: bob alone
    assert ready["op"] == "ready"
    before = asked(fake)[INSTANCE]
    # Alice launched it, but Discord does not list her yet: asked afresh, then refused.
    token = await activity.token_for(alice)
    _, refused = await activity.open(alice, token=token, in_instance=False)
    assert refused["code"] == "not-in-instance"
    assert asked(fake)[INSTANCE] == before + 1  # the cached copy was not trusted to refuse
    # Discord catches up: the page's retry gets in (the cached copy lacks her: asked again).
    _, ready = await activity.open(alice, token=token)
    assert ready["op"] == "ready" and ready["you"]["seat"] == 0
    assert asked(fake)[INSTANCE] == before + 2
    await bobs.ws.close()


async def test_a_second_hello_costs_discord_nothing(open_activity: OpenActivity):
    activity = await open_activity()
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    fake.activity_instance(fake.channel, [alice.id, bob.id])  # both launched it
    token = await activity.token_for(alice)
    first, ready = await activity.open(alice, token=token)
    assert ready["op"] == "ready"
    await first.ws.close()
    before = asked(fake)
    assert before[AUTHORIZATION] == 1 and before[INSTANCE] == 1
    again, ready = await activity.open(alice, token=token)
    assert ready["op"] == "ready"
    assert asked(fake) == before
    # Bob at the same instance: his token is asked, the instance (listing him) is not.
    _, ready = await activity.open(bob)
    assert ready["op"] == "ready"
    assert asked(fake)[INSTANCE] == before[INSTANCE]
    await again.ws.close()


# -- checked again -----------------------------------------------------------------------------


async def closed_with(table: Table) -> Json:
    """The error frame the server closes the socket with."""
    frame = await table.next("error")
    assert await table.closed(within=HANG_GUARD)
    return frame


async def test_a_participant_who_left_loses_the_socket_on_the_recheck(
    open_activity: OpenActivity,
):
    activity = await open_activity()
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    alices, _ = await activity.open(alice)
    bobs, _ = await activity.open(bob)
    instance_id = fake.activity_instance(fake.channel, [])
    # Bob closes the Activity; Discord tells the others (the page's hint): re-checked afresh.
    fake.activities.leave(bob, instance_id)
    assert await server(activity).hub.recheck(instance_id) == 1
    frame = await closed_with(bobs)
    assert frame["code"] == "not-in-instance" and frame["message"]
    # Alice stays.
    await alices.send(op="ping")
    assert await alices.next("pong") == {"op": "pong"}


async def test_a_revoked_or_expired_token_loses_the_socket_at_the_periodic_recheck(
    open_activity: OpenActivity,
):
    activity = await open_activity(ACTIVITY_RECHECK_SECONDS="1")
    fake = activity.fake
    _game, alice, bob = await two_people_and_a_computer(activity)
    carol = fake.add_user("carol")
    tokens: dict[int, str] = {}
    sockets: dict[int, Table] = {}
    for person in (alice, bob, carol):
        tokens[person.id] = await activity.token_for(person)
        sockets[person.id], ready = await activity.open(person, token=tokens[person.id])
        assert ready["op"] == "ready"
    fake.activities.revoke(tokens[alice.id])
    fake.activities.tokens[tokens[carol.id]].expires_at = fake.clock.now() - 1
    # The re-check runs every second by itself: no one calls it here.
    for person in (alice, carol):
        frame = await closed_with(sockets[person.id])
        assert frame["code"] == "auth" and frame["message"]
    # Bob's token was checked again too, and still holds.
    server(activity).gate.recheck_seconds = 300.0
    await sockets[bob.id].send(op="ping")
    assert await sockets[bob.id].next("pong") == {"op": "pong"}
    assert asked(fake)[AUTHORIZATION] >= 6


# -- the client secret -------------------------------------------------------------------------


async def test_a_wrong_client_secret_is_logged_once_and_asked_no_more(
    open_activity: OpenActivity, caplog: pytest.LogCaptureFixture
):
    activity = await open_activity(DISCORD_CLIENT_SECRET="not-the-applications-secret")
    fake = activity.fake
    alice = fake.add_user("alice")
    with caplog.at_level(logging.WARNING, logger="bot.activity"):
        answers = [await exchange(activity, fake.authorize(alice)) for _ in range(3)]
    assert [a["http"] for a in answers] == [503] * 3
    assert all("cannot sign anyone in" in a["error"] for a in answers)
    assert "SECRET" not in str(answers)  # people get no detail
    said = [r for r in caplog.records if "DISCORD_CLIENT_SECRET" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert asked(fake)[TOKEN] == 1  # one invalid request, not one per person
