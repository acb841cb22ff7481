"""Issue 16.1-16.2: the turn reaches its person, and their hand is current when it does.

People here read only what Discord shows them (testbed/people.py, NotifiedPerson): they act
when a newly created message notifies them, from their newest private hand.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.app import NinesBot
from fakecord import FakeDiscord
from testbed.games import open_game, wait_for
from testbed.people import NotifiedPerson, enabled_moves, end_message, turn_messages, whose_turn

from .conftest import StartBot

MENTION = re.compile(r"<@!?(\d+)>")
#: Where public messages are posted: the channel, or a click's follow-up (issue 31).
PUBLIC_POSTS = ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}")


async def play_notified(
    fake: FakeDiscord, people: list[NotifiedPerson], *, seed: int = 3, limit: int = 2000
) -> None:
    """Play to the end: whoever was notified acts; checks what every turn looked like."""
    rng = random.Random(seed)
    users = [p.user for p in people]
    for _ in range(limit):
        await fake.settle()
        if end_message(fake, users[0], fake.channel) is not None:
            return
        due = whose_turn(fake, users, fake.channel)
        notified = [p for p in people if p.notifications()]
        # The turn messages standing in the channel: one at most, naming the person due.
        standing = turn_messages(fake, users[0], fake.channel)
        assert len(standing) <= 1, [m.content for m in standing]
        if due is None:
            await wait_for(
                fake,
                lambda: (
                    whose_turn(fake, users, fake.channel)
                    or end_message(fake, users[0], fake.channel)
                ),
                what="a person's turn or the end",
            )
            continue
        person = next(p for p in people if p.user == due)
        if not notified and person.answered_turn:
            # The answer to their own click gave them the turn: a ping would be noise.
            await person.act(rng)
            continue
        assert [p.user for p in notified] == [due], (
            f"{due.name}'s turn: notified {[p.user.name for p in notified]}"
        )
        note = notified[0].notifications()[-1]
        assert note.mentions == [due] and MENTION.findall(note.content) == [str(due.id)]
        await notified[0].act(rng)
    raise AssertionError("the game did not end")


@pytest.mark.slow(32)
async def test_every_turn_notifies_its_person_with_a_current_hand(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    people = [NotifiedPerson(fake, u, fake.channel) for u in users]
    await play_notified(fake, people)

    moves = sum(p.moves for p in people)
    clicks = sum(p.opened + len(p.stale) for p in people)
    assert moves > 30
    # Their first hand came through their own Join / Start click: not one "My hand" click.
    assert [p.stale for p in people] == [[], [], []]
    assert clicks / moves < 0.02, (clicks, moves)
    # Every turn message asked Discord to notify its one person, nobody else.
    posts = [r for r in fake.requests if r.method == "POST" and r.route in PUBLIC_POSTS and r.body]
    mentioning = [r.body for r in posts if MENTION.search(r.body.get("content") or "")]
    pings = [body for body in mentioning if not body.get("embeds")]
    # Every turn was pinged but those the answer to the person's own click gave them.
    unnotified = sum(p.unnotified for p in people)
    assert unnotified > 0
    assert len(pings) >= moves - unnotified
    for body in mentioning:
        allowed = body["allowed_mentions"]
        assert allowed["parse"] == []
        # A turn message notifies its person, the end message each seated person (its content
        # ranks them, issue 38 item 8); a table that names them notifies nobody.
        named = not body.get("embeds") or body["content"].startswith("🏁")
        wanted = MENTION.findall(body["content"]) if named else []
        assert sorted(str(u) for u in allowed.get("users", [])) == sorted(wanted)
    # The game is over: no turn message is left standing.
    assert turn_messages(fake, users[0], fake.channel) == []


async def test_a_person_with_computers_is_notified_after_the_computers_play(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    person = NotifiedPerson(fake, alice, fake.channel)
    await play_notified(fake, [person])
    assert person.stale == [] and person.opened == 0
    assert person.moves > 10


async def test_pings_off_notifies_nobody(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    bot = await start_bot()
    await bot.storage.set_guild_settings(fake.guild.id, {"pings": False})
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    people = [NotifiedPerson(fake, u, fake.channel) for u in (alice, bob)]
    rng = random.Random(5)
    for _ in range(12):
        await fake.settle()
        due = whose_turn(fake, [alice, bob], fake.channel)
        assert due is not None
        assert [p.notifications() for p in people] == [[], []]
        assert turn_messages(fake, alice, fake.channel) == []
        person = people[0] if due == alice else people[1]
        # Told by the table alone; the hand the bot keeps current is there to play from.
        hand = person.hand()
        assert hand is not None
        moves = enabled_moves(hand)
        assert moves, hand.content
        res = await fake.click(due, hand, rng.choice(moves))
        assert not res.errors


async def test_an_old_hand_falls_back_to_the_turn_messages_button(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """Past 15 minutes the click's token is dead: the turn message still notifies, and its
    button opens a fresh hand with the cards to play."""
    fake = fake_discord
    bot: NinesBot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    people = {u.id: NotifiedPerson(fake, u, fake.channel) for u in (alice, bob)}
    rng = random.Random(11)
    fake.clock.advance(16 * 60)  # every token the bot holds is now too old for Discord
    for _ in range(3):
        await fake.settle()
        due = whose_turn(fake, [alice, bob], fake.channel)
        assert due is not None
        person = people[due.id]
        assert person.notifications(), f"{due.name} was not notified"
        await person.act(rng)
    assert sum(len(p.stale) + p.opened for p in people.values()) >= 1
    assert bot.is_ready()
