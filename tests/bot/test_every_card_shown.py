"""Issue 29: what people are shown of the play and of its results, end to end.

A game of each ruleset is played by people who act only when notified (and computers). Every
version of every public message the double held is then read back: every card of the game's
record must have stood on a table beside its player's name (a hand's last trick in its
summary, which the table becomes), every private hand must have closed with the game, and no
embed may carry a raw mention.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from dataclasses import replace
from typing import Any

import pytest

from bot.game import GameSession
from bot.table import build, tiebreak_of
from bot.words import and_list, card_label
from cogs.nines import render
from engine import Game, PublicView, Rules, SheetRow, TrickWon, public_view
from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed.games import game_id_of
from testbed.people import NotifiedPerson, end_message, open_hand, table_message
from testbed.reading import as_read

from .conftest import StartBot
from .test_readable_table import session_for


def embed_text(embeds: list[dict[str, Any]]) -> str:
    parts = []
    for embed in embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return as_read("\n".join(parts))


def public(fake: FakeDiscord) -> list[Message]:
    return [m for m in fake.store.messages.get(fake.channel.id, []) if m.ephemeral_for is None]


def beside_players(session: GameSession, trick: TrickWon, *, table: bool) -> str:
    """A completed trick as it must read: each card after its player's name, in play order
    (bold cards on the table; on the summary's line the winner's name and card in bold)."""
    players = len(session.seats)
    parts = []
    for k, card in enumerate(trick.cards):
        seat = (trick.leader + k) % players
        who, label = session.seats[seat].name, card_label(card, "en")
        if table:
            text = f"{who} **{label}**"
        else:
            text = f"**{who} {label}**" if seat == trick.winner else f"{who} {label}"
        if card.suit is None and trick.joker:
            text += f" ({trick.joker}s)"
        parts.append(text)
    return " · ".join(parts)


async def play_whole_game(
    fake: FakeDiscord, start_bot: StartBot, ruleset: str, humans: int
) -> tuple[GameSession, list[User], Message]:
    bot = await start_bot()
    users = [fake.add_user(n) for n in ("Élodie Côté", "Alexandre")[:humans]]
    options: dict[str, Any] = {"ruleset": ruleset}
    options.update({"rounds": 2} if ruleset == "nein-nine" else {"start": 3})
    res = await fake.slash(users[0], fake.channel, "nines start", **options)
    assert res.message is not None, res.errors
    game = game_id_of(res.message)
    computers = Rules.from_settings(ruleset).players - humans
    clicks = [(u, "join") for u in users[1:]] + [(users[0], "cpu-normal")] * computers
    for who, verb in [*clicks, (users[0], "start")]:
        await fake.click(who, res.message, f"nines:1:lobby:{game}:{verb}")
    session = next(iter(bot.sessions.all()))
    people = [NotifiedPerson(fake, u, fake.channel) for u in users]
    rng = random.Random(7)
    for _ in range(3000):
        await fake.settle()
        end = end_message(fake, users[0], fake.channel)
        if end is not None:
            await fake.settle()
            return session, users, end
        # Told by a ping, or by the answer to their own click (no ping then: issue 29).
        due = [p for p in people if p.notifications() or p.answered_turn]
        if due:
            await due[0].act(rng)
        else:
            await asyncio.sleep(0.05)
    raise AssertionError("the game never ended")


@pytest.mark.slow(25)
@pytest.mark.parametrize(
    ("ruleset", "humans"),
    [("classic", 2), ("nein-nine", 2), ("partnership", 2), ("four-player", 1)],
)
async def test_every_card_stands_beside_its_player_and_hands_close(
    fake_discord: FakeDiscord, start_bot: StartBot, ruleset: str, humans: int
) -> None:
    fake = fake_discord
    session, users, end = await play_whole_game(fake, start_bot, ruleset, humans)
    game = session.game
    assert game is not None and game.over and game.winners is not None

    # Every version of every table (a public message with "My hand") and of every summary.
    tables: list[str] = []
    summaries: list[str] = []
    for message in public(fake):
        for _, embeds in message.history:
            text = embed_text(embeds)
            if " is over" in text.split("\n", 1)[0]:
                summaries.append(text)
            elif embeds:
                tables.append(text)
            # Names, not mentions, inside embeds (a phone may show <@123…>).
            assert "<@" not in text, text

    # Nein Nine (G11 amended, issue 38 item 15): a completed trick stands on the table until
    # the next trick's first card, and not after it. When computers play that card at once
    # (one edit brings both), the trick stands beside it in that one edit, so everyone saw it
    # played (R1, PRODUCT 6), and in no later edit.
    if game.rules.kind.hidden_tricks:
        assert any("Last trick, won by " in t for t in tables)
        for message in public(fake):
            drawn = [embed_text(embeds) for _, embeds in message.history if embeds]
            for before, after in itertools.pairwise(drawn):
                if "Current trick" in after and "Last trick" in after:
                    last = after[after.index("Last trick") :].split("\n", 2)[:2]
                    assert "\n".join(last) not in before, after
    # The record holds every card played; a computer's seat view (R1) holds no more of it.
    for hand in game.hands_log:
        tricks = list(hand.tricks)
        assert tricks
        # On a table, at least until the next card was played. The last trick plays itself
        # (every seat holds one card), so the trick before it goes from the table that showed
        # its cards being played straight to the hand's summary, which that table becomes.
        for trick in tricks[:-2]:
            if game.rules.kind.hidden_tricks:
                break  # Nein Nine: checked below (G11 amended)
            expected = beside_players(session, trick, table=True)
            assert any(expected in t for t in tables), (hand.number, expected)
        for trick in tricks:  # and every trick of the hand in its summary, card by card
            line = f"{trick.number}. {beside_players(session, trick, table=False)}"
            assert any(line in s for s in summaries), (hand.number, line)
    for seat, info in enumerate(session.seats):
        if info.is_computer:
            for trick in session.view(seat).played:
                assert trick in game.hands_log[-1].tricks

    # The end: the winners by name, a ranking of everyone, the sheet once, each seat's rating.
    text = embed_text(end.embeds)
    rules = game.rules
    ranking = text.split("Final ranking\n", 1)[1].split("\n")[: rules.units]
    places = [int(line.split(". ", 1)[0]) for line in ranking]
    assert places[0] == 1 and places == sorted(places) and len(places) == rules.units
    first = rules.unit_of(game.winners[0])  # the winners come first
    winners_line = and_list("en", [session.seats[s].name for s in rules.seats_of(first)])
    assert ranking[0].startswith(f"1. {winners_line} **"), ranking
    for unit in range(rules.units):
        who = and_list("en", [session.seats[s].name for s in rules.seats_of(unit)])
        assert any(who in line for line in ranking), who
    assert sum(s.count("```") for s in summaries[-1:]) == 0  # the last summary leaves the sheet
    assert text.count("```") == 2  # to the end message, once

    # Every person's private hand now says the game is over and offers no card.
    winners = and_list("en", [session.seats[s].name for s in game.winners])
    for user in users:
        hands = [m for m in fake.visible(user, fake.channel) if m.ephemeral_for == user.id]
        assert hands
        newest = hands[-1]
        content = as_read(newest.content)
        assert "game over" in content and f"Winner: {winners}" in content
        assert not [b for b in newest.buttons() if not b.disabled and ":play:" in b.custom_id]

    if ruleset == "partnership":  # two computers, one on each team: each its own change
        ratings = text.split("Ratings\n", 1)[1].split("\n")
        bots = [line for line in ratings if line.startswith("🤖")]
        assert len(bots) == 2
        changes = [re.search(r"\(([+\u2212]?\d+)\)$", line) for line in bots]
        signs = {m.group(1)[0] for m in changes if m}
        assert signs == {"+", "\u2212"}, bots


async def test_stop_closes_every_private_hand(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    res = await fake.slash(alice, fake.channel, "nines start", ruleset="nein-nine")
    assert res.message is not None
    game = game_id_of(res.message)
    for who, verb in [(bob, "join"), (alice, "cpu-normal"), (alice, "start")]:
        await fake.click(who, res.message, f"nines:1:lobby:{game}:{verb}")
    await fake.settle()
    assert table_message(fake, alice, fake.channel) is not None
    hands = {u.id: await open_hand(fake, u, fake.channel) for u in (alice, bob)}
    stopped = await fake.slash(alice, fake.channel, "nines stop")
    assert not stopped.errors
    await fake.settle()
    for user in (alice, bob):
        hand = fake.store.message_by_id(hands[user.id].id)
        assert "game over" in hand.content and "alice stopped the game." in as_read(hand.content)
        assert "not rated" in hand.content
        assert hand.buttons() == []


def test_a_tie_break_round_says_so_and_why() -> None:
    game = Game(Rules.from_settings("nein-nine", {"rounds": 2}), seed=1)
    session = session_for(game, ["ann", "bob", "cy"])
    table = public_view(game)
    rows = (SheetRow(1, None, 0, (1, 0, 0)), SheetRow(2, None, 1, (2, 2, -1)))
    tied = replace(table, hand_number=3, scores=(2, 2, -1), sheet=rows)
    text = tiebreak_shown(session, tied)
    assert text is not None and "ann and bob are tied for the lead (+2)" in text
    assert "round 3" in text
    assert tiebreak_shown(session, replace(table, sheet=rows[:1])) is None
    nines = public_view(Game(Rules.from_settings("classic"), seed=1))
    nines_tied = replace(nines, hand_number=5, scores=(0, 0, 4), sheet=rows)
    classic = session_for(Game(Rules.from_settings("classic"), seed=1), ["ann", "bob", "cy"])
    assert "ann and bob are tied for the lowest score (0)" in (
        tiebreak_shown(classic, nines_tied) or ""
    )


def tiebreak_shown(session: Any, table: PublicView) -> str | None:
    """The table's tie-break line (if any) for a public view the test made up."""
    model = replace(
        build(session, None),
        hand_number=table.hand_number,
        scores=table.scores,
        sheet=table.sheet,
        tiebreak=tiebreak_of(table),
    )
    text = render.tiebreak_text("en", model)
    return None if text is None else as_read(text)


def test_tricks_no_table_edit_showed_are_listed_and_the_hand_shows_the_last() -> None:
    """Computers' cards come in one edit: if a whole trick passed since the table was last
    drawn, the table lists it before the last one. The private hand shows the last trick;
    not in Nein Nine, whose last trick stands on the public table only, until the next card
    (G11 amended, issue 38 item 15)."""
    game = Game(Rules.from_settings("four-player"), seed=5)
    while len(game.tricks) < 2:
        game.apply(game.turn, game.legal_actions(game.turn)[0])
    session = session_for(game, ["ann", "bob", "cy", "dee"])
    first, second = (beside_players(session, t, table=True) for t in game.tricks)
    text = as_read(str(render.table_embed("en", build(session, None), shown_tricks=0).description))
    assert "Trick 1, won by " in text and first in text
    assert "Last trick, won by " in text and second in text
    # Drawn once this hand already, after the first trick: only the last is listed.
    text = as_read(str(render.table_embed("en", build(session, None), shown_tricks=1).description))
    assert "Trick 1, won by " not in text and first not in text and second in text
    for seat in range(4):  # every seat's private hand
        assert second in as_read(render.hand_content("en", build(session, seat)))
    nein = Game(Rules.from_settings("nein-nine"), seed=5)
    while not nein.tricks:
        nein.apply(nein.turn, nein.legal_actions(nein.turn)[0])
    session = session_for(nein, ["ann", "bob", "cy"])
    last = beside_players(session, nein.tricks[0], table=True)
    assert not nein.trick  # no card of the next trick yet: the trick stands on the table
    assert last in as_read(str(render.table_embed("en", build(session, None)).description))
    assert last not in as_read(render.hand_content("en", build(session, 0)))
