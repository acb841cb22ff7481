"""Issue 31: the game's traffic on interaction endpoints, off the bot's global limit.

A card a person plays costs the global limit (50 requests a second, every route but an
interaction's) at most 0.25 requests, with turn pings on, hands current by themselves and the
table current; within Discord's per-route limits (the double's), with no 429. With no live
token the game falls back to the channel routes and reads the same.
"""

from __future__ import annotations

import pytest

from bot.app import NinesBot
from cogs.nines.delivery import FOLLOWUP_BUDGET
from engine import Play, parse_action
from fakecord import FakeDiscord
from fakecord.ratelimit import DISCORD_GLOBAL_LIMIT, FOLLOWUP, WEBHOOK_CHANNEL_LIMIT
from fakecord.server import RequestRecord
from testbed.games import open_game, play_one, wait_for
from testbed.people import NotifiedPerson, table_message, turn_messages, whose_turn

from .conftest import StartBot
from .test_turns import play_notified

CHANNEL_POST = "/channels/{channel_id}/messages"
CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"


async def person_cards(bot: NinesBot, game_id: int) -> int:
    """The cards people played themselves (not a computer, not a keep/swap decision)."""
    actions = await bot.storage.actions(game_id)
    return sum(1 for a in actions if not a.by_computer and isinstance(parse_action(a.action), Play))


def discord_limits(fake: FakeDiscord) -> None:
    fake.ratelimits.use_discord_route_limits()
    fake.ratelimits.limit_global(DISCORD_GLOBAL_LIMIT)


#: A test plays a card every ~0.1 s, people every few seconds: the channel's follow-up window
#: (Discord's 30 a minute, the bot's budget of 25) is scaled by this, so the game in the test
#: meets it as a game at a person's pace would (a card every ~2 s).
PACE = 1 / 20


async def play_three(
    fake: FakeDiscord, start_bot: StartBot, *, budget: tuple[int, float]
) -> tuple[list[NotifiedPerson], int, list[RequestRecord]]:
    """A three-person game, pings on, played to its end by people who act on what Discord
    shows them, the bot posting at most ``budget`` follow-ups (count, seconds) into the
    channel; returns the people, the cards they played and the game's requests."""
    bot = await start_bot()
    bot.presenter.followups.budget = budget
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    mark = len(fake.requests)
    game_id = await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    people = [NotifiedPerson(fake, u, fake.channel) for u in users]
    await play_notified(fake, people)
    await fake.settle()
    # Hands were current by themselves, no turn message is left standing.
    assert [p.stale for p in people] == [[], [], []]
    assert turn_messages(fake, users[0], fake.channel) == []
    return people, await person_cards(bot, game_id), fake.requests[mark:]


def pings(sent: list[RequestRecord], route: str) -> list[RequestRecord]:
    return [
        r
        for r in sent
        if r.method == "POST"
        and r.route == route
        and r.status == 200
        and "your turn" in str(r.body.get("content"))
        and not r.body.get("embeds")
    ]


@pytest.mark.slow(17)
async def test_a_three_person_game_costs_at_most_a_quarter_request_a_card_on_the_global_limit(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    discord_limits(fake)
    limit, window = WEBHOOK_CHANNEL_LIMIT
    fake.ratelimits.webhook_channel_limit = (limit, window * PACE)
    budget, seconds = FOLLOWUP_BUDGET
    people, cards, sent = await play_three(fake, start_bot, budget=(budget, seconds * PACE))

    under_global = [r for r in sent if r.under_global_limit]
    assert cards > 30
    assert len(under_global) / cards <= 0.25, (
        len(under_global),
        cards,
        sorted({(r.method, r.route) for r in under_global}),
    )
    assert fake.ratelimits.sent_429 == 0, fake.ratelimits.sent_429_by_scope
    # The pings went through the clicks' tokens (the ones to people who clicked nothing yet
    # excepted); the table's edits too.
    turns = sum(p.moves - p.unnotified for p in people)
    assert len(pings(sent, FOLLOWUP)) >= turns - 3
    assert not [r for r in sent if r.method == "PATCH" and r.route == CHANNEL_MESSAGE]


@pytest.mark.slow(110)
async def test_pings_past_the_channels_follow_up_budget_take_the_channel_route(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """Cards faster than a channel's follow-ups allow (Discord: 30 a minute, answered with a
    shared 429): past the bot's budget, pings are posted on the channel route; no 429."""
    fake = fake_discord
    discord_limits(fake)
    # A budget that a game's first few pings use up, whatever the machine's pace.
    fake.ratelimits.webhook_channel_limit = (14, 600.0)  # room for the first hands
    people, _cards, sent = await play_three(fake, start_bot, budget=(6, 600.0))
    assert fake.ratelimits.sent_429 == 0, fake.ratelimits.sent_429_by_scope
    by_token, by_channel = pings(sent, FOLLOWUP), pings(sent, CHANNEL_POST)
    assert 0 < len(by_token) <= 6 < len(by_channel)
    assert len(by_token) + len(by_channel) >= sum(p.moves - p.unnotified for p in people)


@pytest.mark.slow(40)
async def test_expired_tokens_fall_back_to_the_channel_routes_and_the_game_reads_the_same(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """Discord refuses a token after 15 minutes (50027): the table's edits and the turn
    message's delete go on the channel routes, and the game still reads right."""
    import random

    fake = fake_discord
    discord_limits(fake)
    await start_bot()
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    rng = random.Random(5)
    for _ in range(4):  # the table and the pings move onto the clicks' tokens
        assert await play_one(fake, users, fake.channel, rng) is not None
    await fake.settle()
    table = table_message(fake, users[0], fake.channel)
    assert table is not None and table.interaction_token is not None
    fake.clock.advance(16 * 60)  # every token so far has expired on Discord's side
    mark = len(fake.requests)
    due = whose_turn(fake, users, fake.channel)
    assert due is not None
    played = await play_one(fake, users, fake.channel, rng)
    assert played is not None and played[0] == due
    await fake.settle()
    sent = fake.requests[mark:]
    refused = [r for r in sent if r.status == 401]
    assert refused, "an expired token was not tried"
    # What the expired tokens could not do was done on the channel routes.
    assert any(r.method in ("PATCH", "DELETE") and r.route == CHANNEL_MESSAGE for r in sent) or (
        any(r.method == "DELETE" and r.route == FOLLOWUP + "/messages/{message_id}" for r in sent)
    )
    # The table reads right: one table, naming whose turn it is, current.
    now = await wait_for(
        fake, lambda: whose_turn(fake, users, fake.channel), what="the next person's turn"
    )
    assert now is not None
    tables = [
        m
        for m in fake.visible(users[0], fake.channel)
        if m.ephemeral_for is None and m.embeds and any(b.label == "My hand" for b in m.buttons())
    ]
    assert len(tables) == 1
    assert len(turn_messages(fake, users[0], fake.channel)) <= 1
    # And the game plays on to its end.
    for _ in range(400):
        if await play_one(fake, users, fake.channel, rng) is None:
            break
    assert fake.ratelimits.sent_429 == 0


async def test_with_no_live_token_the_game_uses_the_channel_routes(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """No token lives (a timer's move, a long hand, right after a restart): everything goes
    on the channel routes, as before, with nonces."""
    import random

    fake = fake_discord
    bot = await start_bot()
    bot.presenter.token_seconds = -1
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    mark = len(fake.requests)
    await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    rng = random.Random(6)
    for _ in range(6):
        assert await play_one(fake, users, fake.channel, rng) is not None
    await fake.settle()
    sent = fake.requests[mark:]
    assert not [
        r for r in sent if r.method == "POST" and r.route == FOLLOWUP and not r.body.get("flags")
    ]
    posts = [r for r in sent if r.method == "POST" and r.route == CHANNEL_POST]
    assert posts and all("nonce" in r.body for r in posts)
    assert table_message(fake, users[0], fake.channel) is not None
    assert whose_turn(fake, users, fake.channel) is not None
