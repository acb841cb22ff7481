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
from engine import Play, parse_action
from fakecord.models import User
from fakecord.server import RequestRecord
from testbed.games import HANG_GUARD, open_game

from .test_activity import Activity, Json, Table, activity, drain, turn_seat  # noqa: F401

#: Past an interaction token's life on Discord's side (15 minutes; the double's TOKEN_LIFETIME).
PAST_TOKENS = 16 * 60.0


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
    bot.presenter.token_seconds = -1  # the lobby's clicks give the game no live token
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


@pytest.mark.slow(30)
async def test_a_game_played_only_at_the_web_table_with_dead_tokens(
    activity: Activity,  # noqa: F811
) -> None:
    fake, bot = activity.fake, activity.bot
    assert bot is not None
    people = tuple(fake.add_user(name) for name in ("alice", "bob", "carol"))
    game = await without_live_tokens(activity, people, start=3)
    sockets, latest = await open_tables(activity, people)
    mark = len(fake.requests)
    await play_from_sockets(sockets, latest, random.Random(7), cards=None)
    await fake.settle()
    sent = fake.requests[mark:]
    cards = await person_cards(bot, game)
    counted = under_global(sent)
    routes: dict[tuple[str, str], int] = {}
    for r in counted:
        routes[(r.method, r.route)] = routes.get((r.method, r.route), 0) + 1
    print(
        f"\n{len(counted)} requests under the global limit for {cards} cards: "
        f"{len(counted) / cards:.2f} a card; {routes}"
    )
    assert cards > 30
