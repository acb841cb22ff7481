"""Issue 37: "no request under Discord's global limit added per card", for a game played only
at the web table once no interaction token of it lives (15 minutes after its last chat click).

The chat presenter sends the chat table's edits and the turn pings through the game's click
tokens while one lives (off the global limit); with none, each goes on a channel route, which
counts. People play here from their sockets only, every token long dead on both sides (the
bot's and the double's, whose clock is moved past Discord's 15 minutes), and the requests
under the global limit are counted per card they played.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.app import NinesBot
from bot.words import card_label
from cogs.nines.delivery import TOKEN_SECONDS
from engine import Card, Play, parse_action
from fakecord import FakeDiscord
from fakecord.models import User
from fakecord.server import RequestRecord
from testbed.games import HANG_GUARD, open_game, play_one, text_of, wait_for
from testbed.people import end_message, open_hand, table_message, turn_messages

from .test_activity import Activity, Json, Table, activity, drain, turn_seat  # noqa: F401

CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
#: Past an interaction token's life on Discord's side (15 minutes; the double's TOKEN_LIFETIME).
PAST_TOKENS = 16 * 60.0
#: The three people of every game here, by name.
NAMES = ("alice", "bob", "carol")


def three_people(fake: FakeDiscord) -> tuple[User, ...]:
    return tuple(fake.add_user(name) for name in NAMES)


async def person_cards(bot: NinesBot, game_id: int) -> int:
    """The cards people played (not a computer's, not an exchange decision)."""
    actions = await bot.storage.actions(game_id)
    return sum(1 for a in actions if not a.by_computer and isinstance(parse_action(a.action), Play))


async def without_live_tokens(at: Activity, people: tuple[User, ...], **options: Any) -> int:
    """A game of these people opened in chat (the lobby's clicks), then every token made dead:
    the bot takes none of them (``token_seconds``), and Discord's side has moved past their
    15 minutes. Returns the game's id."""
    fake, bot = at.fake, at.bot
    assert bot is not None
    chat = bot.presenter.chat  # type: ignore[attr-defined]  # the fan-out's chat presenter
    chat.token_seconds = -1  # the lobby's clicks give the game no live token
    game = await open_game(fake, people[0], people=people[1:], **options)
    fake.clock.advance(PAST_TOKENS)  # nor do the private hands' links work any more
    await fake.settle()
    return game


async def play_from_sockets(
    sockets: dict[int, Table], latest: dict[int, Json], rng: random.Random, *, cards: int | None
) -> int:
    """The seats at ``sockets`` play from them (legal actions at random) until the game ends,
    or until ``cards`` cards were played; returns the actions sent."""
    acted = played = 0
    for _ in range(5000):
        for seat, table in sockets.items():
            latest[seat] = await drain(table, latest[seat])
        view = next(iter(latest.values()))["table"]
        if view["status"] != "playing" or (cards is not None and played >= cards):
            return acted
        seat = turn_seat(view)
        if seat not in sockets or turn_seat(latest[seat]["table"]) != seat:
            first = next(iter(sockets))
            latest[first] = await sockets[first].next("table", within=HANG_GUARD)
            continue
        action = rng.choice(latest[seat]["table"]["hand"]["legal"])
        key = f"move-{seat}-{acted}"
        await sockets[seat].send(op="act", key=key, action=action)
        answer = await sockets[seat].next(within=HANG_GUARD)
        while answer["op"] not in ("ack", "error"):
            if answer["op"] == "table":
                latest[seat] = answer
            answer = await sockets[seat].next(within=HANG_GUARD)
        assert answer == {"op": "ack", "key": key}, answer
        acted += 1
        played += isinstance(parse_action(action), Play)
        seen = latest[seat]["seq"]
        latest[seat] = await sockets[seat].next("table", within=HANG_GUARD)
        assert latest[seat]["seq"] > seen
    raise AssertionError("the game did not end")


async def open_tables(
    at: Activity, people: tuple[User, ...]
) -> tuple[dict[int, Table], dict[int, Json]]:
    sockets: dict[int, Table] = {}
    latest: dict[int, Json] = {}
    for seat, person in enumerate(people):
        table, ready = await at.open(person)
        assert ready["op"] == "ready" and ready["you"]["seat"] == seat, ready
        sockets[seat], latest[seat] = table, {"seq": ready["seq"], "table": ready["table"]}
    return sockets, latest


def under_global(sent: list[RequestRecord]) -> list[RequestRecord]:
    return [r for r in sent if r.under_global_limit]


def chat_pings(sent: list[RequestRecord], user: User) -> list[RequestRecord]:
    """The turn messages posted that mention ``user`` (on whichever route)."""
    return [
        r
        for r in sent
        if r.method == "POST"
        and r.status == 200
        and f"<@{user.id}>" in str(r.body.get("content"))
        and "your turn" in str(r.body.get("content"))
    ]


def edits_on_the_channel_route(sent: list[RequestRecord]) -> list[RequestRecord]:
    return [r for r in sent if r.method == "PATCH" and r.route == CHANNEL_MESSAGE]


def shown_in_chat(fake: FakeDiscord, user: User, card: Json) -> bool:
    """Whether the chat table shows this card played by its seat ("alice **10♥**"), the seats
    being NAMES."""
    chat = table_message(fake, user, fake.channel)
    label = card_label(Card.parse(card["card"]), "en")
    return chat is not None and f"{NAMES[card['seat']]} **{label}**" in text_of(chat)


async def act(sockets: dict[int, Table], latest: dict[int, Json], seat: int, action: str) -> Json:
    """The seat sends ``action`` from its socket; the table its move made (after the ack)."""
    key = f"act-{seat}-{latest[seat]['seq']}-{action}"
    await sockets[seat].send(op="act", key=key, action=action)
    answer = await sockets[seat].next(within=HANG_GUARD)
    while answer["op"] not in ("ack", "error"):
        answer = await sockets[seat].next(within=HANG_GUARD)
    assert answer == {"op": "ack", "key": key}, answer
    latest[seat] = await sockets[seat].next("table", within=HANG_GUARD)
    n = latest[seat]["table"]["n"]
    for other, table in sockets.items():
        if latest[other]["table"]["n"] < n:  # each socket gets the move's table too
            latest[other] = await table.table_where(lambda t: t["n"] >= n, within=HANG_GUARD)
        latest[other] = await drain(table, latest[other])
    return latest[seat]["table"]


@pytest.mark.slow(30)
@pytest.mark.parametrize(
    ("ruleset", "options"), [("classic", {"start": 3}), ("nein-nine", {"rounds": 1})]
)
async def test_a_game_played_only_at_the_web_table_costs_a_request_a_trick_at_most(
    activity: Activity,  # noqa: F811
    ruleset: str,
    options: dict[str, Any],
) -> None:
    """The figure: everyone at the web table, every token dead. Before: the chat table edited
    and a turn message posted and deleted on the channel routes at each card (2.4 requests a
    card under the global limit). Now: no ping (the web table tells each their turn), the
    chat table edited once a trick, at each hand's end and at the game's end; watchers in
    chat read every trick and the end."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    people = three_people(fake)
    game = await without_live_tokens(activity, people, ruleset=ruleset, **options)
    sockets, latest = await open_tables(activity, people)
    mark = len(fake.requests)
    await play_from_sockets(sockets, latest, random.Random(7), cards=None)
    await wait_for(
        fake, lambda: end_message(fake, people[0], fake.channel), within=HANG_GUARD, what="end"
    )
    await fake.settle()
    sent = fake.requests[mark:]
    cards = await person_cards(bot, game)
    counted = under_global(sent)
    routes: dict[tuple[str, str], int] = {}
    for r in counted:
        routes[(r.method, r.route)] = routes.get((r.method, r.route), 0) + 1
    print(
        f"\n{ruleset}: {len(counted)} requests under the global limit for {cards} cards: "
        f"{len(counted) / cards:.2f} a card; {routes}"
    )
    assert cards >= 20
    assert len(counted) / cards <= 0.6, routes
    # Nobody was pinged: each had the web table open.
    assert not [p for person in people for p in chat_pings(sent, person)]
    assert turn_messages(fake, people[0], fake.channel) == []
    # What watchers read in chat: each hand's summary (every trick), then the end.
    finished = await bot.storage.game_result(game)
    assert finished is not None
    hands = finished.result.hands_played
    summaries = [
        m
        for m in fake.visible(people[0], fake.channel)
        if m.embeds and "is over" in str(m.embeds[0].get("title", ""))
    ]
    assert len(summaries) >= hands, [m.embeds[0].get("title") for m in summaries]
    assert "game over" in text_of(end_message(fake, people[0], fake.channel))


@pytest.mark.slow(30)
async def test_the_web_table_tells_its_people_their_turn_and_the_chat_pings_the_others(
    activity: Activity,  # noqa: F811
) -> None:
    """Alice and Bob play at the web table, Carol in chat: Carol is pinged at each of her
    turns, Alice and Bob never (their web table shows it); the chat table, which Carol reads,
    shows every card as it is played."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    alice, bob, carol = people = three_people(fake)
    await without_live_tokens(activity, people, start=3)
    sockets, latest = await open_tables(activity, people[:2])
    mark = len(fake.requests)
    rng = random.Random(3)
    carols_turns = 0
    carol_again = False
    for _ in range(40):
        table = latest[0]["table"]
        seat = turn_seat(table)
        if table["status"] != "playing":
            break
        if seat == 2:
            # Carol's turn: the chat tells her (unless the answer to her own last click
            # did: she leads the trick she won), she plays from her hand in chat.
            if not carol_again:
                ping = await wait_for(
                    fake,
                    lambda: [
                        m for m in turn_messages(fake, carol, fake.channel) if carol in m.mentions
                    ],
                    within=HANG_GUARD,
                    what="Carol's ping",
                )
                assert len(ping) == 1
                carols_turns += 1
            played = await play_one(fake, list(people), fake.channel, rng)
            assert played is not None and played[0] == carol
            for other, socket in sockets.items():
                latest[other] = await socket.table_where(
                    lambda t, n=table["n"]: t["n"] > n, within=HANG_GUARD
                )
            carol_again = True
            continue
        carol_again = False
        assert seat in (0, 1), table["turn"]
        action = rng.choice(latest[seat]["table"]["hand"]["legal"])
        after = await act(sockets, latest, seat, action)
        on_table = after["status"] == "playing" and after["hand_number"] == table["hand_number"]
        if isinstance(parse_action(action), Play) and on_table:
            # The card is on the chat table (in the trick, or the trick it completed). A card
            # that ends the hand (the last trick then plays itself) is in the hand's summary,
            # and one that ends the game too is in the summary the end message follows.
            card = {"seat": seat, "card": action.partition(":")[0]}
            await wait_for(
                fake,
                lambda c=card: shown_in_chat(fake, carol, c),
                within=HANG_GUARD,
                what=f"{action} in chat",
            )
        assert after["n"] > table["n"]
    await fake.settle()
    sent = fake.requests[mark:]
    assert carols_turns >= 3
    # (her first ping may be older than the sockets: the game's first turn)
    assert len(chat_pings(fake.requests, carol)) >= carols_turns
    assert chat_pings(sent, alice) == [] and chat_pings(sent, bob) == []


@pytest.mark.slow(30)
async def test_closing_the_web_table_brings_the_chat_table_up_to_date_and_pings(
    activity: Activity,  # noqa: F811
) -> None:
    """Everyone at the web table, no token: cards within a trick are not edited onto the
    chat table (coalesced), a trick's end shows every card of it, with a line saying the
    table catches up each trick; when the person whose turn it is closes the web table, the
    chat table shows the trick so far at once, and the chat pings them."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    people = three_people(fake)
    await without_live_tokens(activity, people, start=3)
    sockets, latest = await open_tables(activity, people)
    rng = random.Random(11)
    # Through the exchange, to the first card of a trick after the first.
    completed = 0
    while True:
        table = latest[0]["table"]
        seat = turn_seat(table)
        assert seat is not None and table["status"] == "playing"
        mark = len(fake.requests)
        action = rng.choice(latest[seat]["table"]["hand"]["legal"])
        after = await act(sockets, latest, seat, action)
        await fake.settle()
        if len(after["tricks"]) > completed:
            completed = len(after["tricks"])
            # The trick's end: one edit shows all of its cards, and says why it is so.
            for card in after["tricks"][-1]["cards"]:
                await wait_for(
                    fake,
                    lambda c=card: shown_in_chat(fake, people[0], c),
                    within=HANG_GUARD,
                    what="a trick",
                )
            chat = table_message(fake, people[0], fake.channel)
            assert "catches up at the end of each trick" in text_of(chat)
            assert len(edits_on_the_channel_route(fake.requests[mark:])) == 1
        elif after["trick"] is not None and completed >= 1:
            break  # a card within a trick
    # That card was not edited onto the chat table, and nobody was pinged.
    card = after["trick"]["cards"][-1]
    assert edits_on_the_channel_route(fake.requests[mark:]) == []
    assert not shown_in_chat(fake, people[0], card)
    assert turn_messages(fake, people[0], fake.channel) == []
    # The person whose turn it is closes the web table: the chat takes over for them.
    due = turn_seat(after)
    assert due is not None
    await sockets[due].ws.close()
    await wait_for(
        fake, lambda: shown_in_chat(fake, people[0], card), within=HANG_GUARD, what="card"
    )
    pinged = await wait_for(
        fake,
        lambda: turn_messages(fake, people[due], fake.channel),
        within=HANG_GUARD,
        what="the ping",
    )
    assert [m.mentions for m in pinged] == [[people[due]]]
    chat = table_message(fake, people[0], fake.channel)
    assert "catches up at the end of each trick" not in text_of(chat)


@pytest.mark.slow(30)
async def test_a_chat_click_brings_back_an_edit_a_card_through_its_token(
    activity: Activity,  # noqa: F811
) -> None:
    """Everyone at the web table, no token: coalesced. Someone opens their hand in chat: its
    token lives, and every later card is on the chat table as it is played, through that
    token, off the global limit."""
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    people = three_people(fake)
    await without_live_tokens(activity, people, start=3)
    sockets, latest = await open_tables(activity, people)
    rng = random.Random(13)
    # A click from now on lives as on Discord.
    bot.presenter.chat.token_seconds = TOKEN_SECONDS  # type: ignore[attr-defined]
    await open_hand(fake, people[1], fake.channel)
    mark = len(fake.requests)
    plays = 0
    while plays < 6:
        table = latest[0]["table"]
        seat = turn_seat(table)
        assert seat is not None and table["status"] == "playing"
        action = rng.choice(latest[seat]["table"]["hand"]["legal"])
        await act(sockets, latest, seat, action)
        if isinstance(parse_action(action), Play):
            plays += 1
            card = {"seat": seat, "card": action.partition(":")[0]}
            await wait_for(
                fake,
                lambda c=card: shown_in_chat(fake, people[0], c),
                within=HANG_GUARD,
                what=action,
            )
    await fake.settle()
    sent = fake.requests[mark:]
    assert edits_on_the_channel_route(sent) == []
    # The table moved onto the click's token (a follow-up), the old one deleted: that delete
    # and a hand's end are all the global limit saw.
    assert len(under_global(sent)) <= 3, [(r.method, r.route) for r in under_global(sent)]
