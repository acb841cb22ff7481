"""Nein Nine at the table, end to end against the Discord double.

Three people play a whole game through buttons. Every round deals all 21 cards, so the Joker is
played once a round: the test makes its holder play it "win" in the first round and "lose" in
the second, each with one more click in the same private message.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from engine import JOKER, Card, Play, Rules, public_view
from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed.games import wait_for
from testbed.people import enabled_moves, end_message, open_hand, table_message, whose_turn
from testbed.reading import as_read

from .conftest import StartBot


def stones_shown(score: int) -> str:
    """G10 as the table writes a score: signed in bold, then light or dark stones (none at 0)."""
    if score > 0:
        return f"**+{score}** " + "○" * score
    if score < 0:
        return f"**\u2212{-score}** " + "●" * -score
    return "**0**"


def card_of(custom_id: str) -> Card | None:
    if ":play:" not in custom_id:
        return None
    return Card.parse(custom_id.rsplit(":", 1)[1])


def embed_text(message: Message) -> str:
    return as_read(
        "\n".join(
            str(e.get("title", ""))
            + "\n"
            + str(e.get("description", ""))
            + "\n"
            + "\n".join(f"{f['name']}\n{f['value']}" for f in e.get("fields", []))
            for e in message.embeds
        )
    )


def table_text(fake: FakeDiscord, user: User) -> str:
    table = table_message(fake, user, fake.channel)
    return embed_text(table) if table is not None else ""


async def eventually(fake: FakeDiscord, user: User, needles: list[str]) -> str:
    """The table once it shows every needle: it may lag the game by a moment on a busy
    machine (settle() can return between a click's answer and the table's edit)."""
    text: str = await wait_for(
        fake,
        lambda: all(n in table_text(fake, user) for n in needles) and table_text(fake, user),
        what=f"the table showing {needles}",
    )
    return text


@pytest.mark.slow(23)
async def test_a_whole_nein_nine_game_with_the_joker_played_both_ways(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    people = [alice, bob, carol]
    res = await fake.slash(alice, fake.channel, "nines start", ruleset="nein-nine", rounds=2)
    assert not res.errors and res.message is not None
    lobby = res.message
    assert "Nein Nine" in embed_text(lobby) and "2 rounds" in embed_text(lobby)
    await fake.click(bob, lobby, "Join")
    await fake.click(carol, lobby, "Join")
    await fake.click(alice, lobby, "Start")
    await fake.settle()
    session = next(iter(bot.sessions.all()))
    game = session.game
    assert game is not None and game.rules == Rules.from_settings("nein-nine", {"rounds": 2})

    # G2: the draw for first dealer is shown in one line, and ends on the dealer's 9.
    draw = as_read(fake.store.message_by_id(lobby.id).content or "")
    dealer = session.seats[game.first_dealer].name
    assert draw.startswith("Draw for first dealer") and f"{dealer} deals first" in draw
    assert draw.split(f"{dealer} **9", 1)[0] != draw  # the dealer's card is a 9
    table = table_message(fake, alice, fake.channel)
    assert table is not None
    assert "Nein Nine · Round 1" in embed_text(table)
    assert "none yet (the first 8 sets it)" in embed_text(table)

    rng = random.Random(8)
    calls = ["win", "lose"]
    joker_plays: list[tuple[str, str]] = []  # (who, call)
    trump_announced = 0
    stones_seen: list[str] = []
    for _ in range(1000):
        if end_message(fake, alice, fake.channel) is not None:
            break
        if game.hand_number == 2 and not stones_seen:
            # G10: the running scores as light and dark stones, on the round-2 table.
            scores = public_view(game).scores
            names = [session.seats[s].name for s in range(3)]
            shown = [f"{n} {stones_shown(v)}" for n, v in zip(names, scores, strict=True)]
            text = await eventually(fake, alice, shown)
            stones_seen.append(text)
        user = whose_turn(fake, people, fake.channel)
        if user is None or game.turn is None or session.seats[game.turn].user_id != user.id:
            # The table lags the game by a moment (settle() can return between the answer to
            # a click and the table's edit when the machine is busy): look again.
            await asyncio.sleep(0.05)
            await fake.settle()
            continue
        trump_before = public_view(game).trump
        hand = await open_hand(fake, user, fake.channel)
        moves = enabled_moves(hand)
        joker = [m for m in moves if card_of(m) is JOKER]
        if joker and calls:
            call = calls.pop(0)
            prompt = await fake.click(user, hand, joker[0])
            assert not prompt.errors
            # One more click, in the same private message: Win or Lose, cards disabled.
            assert prompt.message is not None and prompt.message.id == hand.id
            asked = {b.label: b for b in prompt.message.buttons()}
            assert {"Joker wins", "Joker loses"} <= set(asked)
            assert all(b.disabled for b in prompt.message.buttons() if ":play:" in b.custom_id)
            done = await fake.click(user, prompt.message, f"Joker {call}s")
            assert not done.errors
            joker_plays.append((user.name, call))
            await fake.settle()
            # The move stands with its call; the table shows it while the trick is open (a
            # taken trick is face down in Nein Nine, G11).
            assert Play(JOKER, call) in [action for _, action in game.log]
            if any(card is JOKER for _, card in public_view(game).trick):
                await eventually(fake, alice, [f"🃏** ({call}s)"])
            continue
        choice = rng.choice(moves)
        if card_of(choice) is JOKER:  # random play of the Joker after the two tested calls
            prompt = await fake.click(user, hand, choice)
            assert prompt.message is not None
            await fake.click(user, prompt.message, rng.choice(["Joker wins", "Joker loses"]))
            await fake.settle()
            continue
        played = await fake.click(user, hand, choice)
        assert not played.errors
        await fake.settle()
        card = card_of(choice)
        new_trump = public_view(game).trump is not None and not game.over
        same_round = public_view(game).hand_number == len(game.sheet) + 1
        first_eight = trump_before is None and card is not None and card.rank == 8
        if first_eight and new_trump and same_round:
            # G4/G5: the first 8 of the round sets trump; the table says so at once.
            text = await eventually(fake, alice, [f"{user.name} played the first 8"])
            # The Spits named one way, which is big said (issue 46, item 6).
            assert "Big Spit" in text and "Little Spit" in text
            trump_announced += 1
    end = end_message(fake, alice, fake.channel)
    assert end is not None, "the game did not end"
    assert [call for _, call in joker_plays] == ["win", "lose"]
    assert trump_announced >= 1
    assert game.over and game.winners is not None and len(game.winners) == 1
    assert game.hand_number >= 2  # 2 rounds, and more if tied for highest (G9)

    # Round summaries: the 9s each player took, and the score as stones (G10).
    summaries = [
        m
        for m in fake.visible(alice, fake.channel)
        if m.embeds and "Round" in str(m.embeds[0].get("title")) and "is over" in embed_text(m)
    ]
    assert len(summaries) == game.hand_number
    # Each says who took 9s and what they cost (or that nobody did), then the round's points.
    assert all(
        ("9s taken: " in embed_text(m)) != ("Nobody took a 9." in embed_text(m))
        and "This round: " in embed_text(m)
        for m in summaries
    )
    # The sheet and its legend: in each round's summary but the last, whose sheet is the
    # end message's (shown once).
    legend = "Tr is the trump the first 8 set: "
    assert all(legend in embed_text(m) for m in summaries[:-1])
    assert legend in embed_text(end) and "```" not in embed_text(summaries[-1])
    assert len(stones_seen) >= 1

    # The end: winner, the sheet as text and as a picture.
    assert "Winner" in embed_text(end)
    assert "```" in embed_text(end)
    assert [a.filename for a in end.attachments] == ["scores.png"]
    assert end.attachments[0].data.startswith(b"\x89PNG")

    # The leaderboard keeps the two games apart.
    rows, total = await bot.storage.leaderboard(fake.guild.id, "nein-nine")
    assert total == 3 and sum(r.games for r in rows) == 3
    assert (await bot.storage.leaderboard(fake.guild.id, "nines"))[1] == 0
    board = await fake.slash(alice, fake.channel, "nines leaderboard", game="nein-nine")
    assert board.message is not None and "alice" in embed_text(board.message)
    assert "Nein Nine leaderboard" in embed_text(board.message)
    empty = await fake.slash(alice, fake.channel, "nines leaderboard", game="nines")
    assert empty.message is not None and "No rated games yet" in embed_text(empty.message)
