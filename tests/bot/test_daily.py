"""``/nines daily`` end to end through the double (issue 47): two people on two servers get the
same cards in the same seat and the same computer answers to the same moves, privately (no
public table, no ping), each sees their result only once finished, a short public line with no
card, a second try refused in words, resumed after a restart, and no daily without a secret."""

from __future__ import annotations

from dataclasses import replace

from bot.app import NinesBot
from fakecord import FakeDiscord
from fakecord.interactions import Interaction
from fakecord.models import Channel, Message, User
from testbed.games import text_of, wait_for
from testbed.people import enabled_moves

from .conftest import StartBot
from .test_failover import second_guild

SECRET = "d" * 43


def public_messages(fake: FakeDiscord, user: User, channel: Channel) -> list[Message]:
    return [m for m in fake.visible(user, channel) if m.ephemeral_for is None]


def hand_of(fake: FakeDiscord, user: User, channel: Channel) -> Message:
    """The person's newest private message in the channel (their daily's hand)."""
    mine = [m for m in fake.visible(user, channel) if m.ephemeral_for == user.id]
    assert mine, "no private message"
    return mine[-1]


async def move(fake: FakeDiscord, user: User, hand: Message, index: int) -> Interaction:
    """Click the ``index``-th enabled move of the hand (the Joker's first call after it)."""
    res = await fake.click(user, hand, enabled_moves(hand)[index])
    assert not res.errors, res.errors
    calls = [
        b.custom_id
        for b in (res.message.buttons() if res.message else ())
        if b.custom_id and ":joker:" in b.custom_id
    ]
    if calls:
        assert res.message is not None
        res = await fake.click(user, res.message, calls[0])
        assert not res.errors, res.errors
    return res


def labels(hand: Message) -> list[str | None]:
    return [b.label for b in hand.buttons()]


async def test_two_servers_play_the_same_daily_privately_and_are_scored(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot(DAILY_SECRET=SECRET)
    other, elsewhere = second_guild(fake)
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", guild=other)
    here = fake.channel
    first = await fake.slash(alice, here, "nines daily", game="nein-nine")
    second = await fake.slash(bob, elsewhere, "nines daily", game="nein-nine")
    assert first.ephemeral and second.ephemeral
    a, b = hand_of(fake, alice, here), hand_of(fake, bob, elsewhere)
    # The same cards, in the same seat; the table in the hand's own message.
    assert labels(a) == labels(b) and enabled_moves(a)
    assert a.embeds and "Nein Nine" in text_of(a)
    assert "/nines daily opens it again" in text_of(a)  # after the token's 15 minutes
    # Both play the same moves: the computers answer them alike.
    while enabled_moves(a):
        assert labels(a) == labels(b)
        await move(fake, alice, a, 0)
        await move(fake, bob, b, 0)
        await fake.settle()
        a, b = hand_of(fake, alice, here), hand_of(fake, bob, elsewhere)
        if enabled_moves(a):  # nothing public while it is played: no table, no ping
            assert public_messages(fake, alice, here) == []
    logs = []
    for person in (alice, bob):
        found = await bot.storage.daily_try(bot.daily.today(), "nein-nine", person.id)
        assert found is not None and found.game_id is not None
        logs.append([(x.seat, x.action) for x in await bot.storage.actions(found.game_id)])
    assert logs[0] == logs[1] and logs[0]
    # Each sees their result, privately, once finished; the first alone, the second against her.
    first_result = await wait_for(
        fake, lambda: "Daily Nein Nine" in text_of(hand_of(fake, alice, here)), what="a result"
    )
    assert first_result
    await wait_for(fake, lambda: "Daily Nein Nine" in text_of(hand_of(fake, bob, elsewhere)))
    bobs = text_of(hand_of(fake, bob, elsewhere))
    assert "1 other player who held this hand" in bobs and "You beat 50%" in bobs
    assert "How the others played your hand" in bobs and "100% of those who held it" in bobs
    assert not hand_of(fake, bob, elsewhere).buttons()
    # The one public line: who played and their share, no card.
    line = await wait_for(fake, lambda: public_messages(fake, bob, elsewhere), what="the line")
    assert "played today's daily Nein Nine: 50% of the field beaten" in text_of(line[-1])
    assert not line[-1].embeds and not line[-1].buttons()
    alices = public_messages(fake, alice, here)
    assert len(alices) == 1 and "the first to finish it" in text_of(alices[0])
    # A second try is refused in words, with the result again.
    again = await fake.slash(alice, here, "nines daily", game="nein-nine")
    said = text_of(hand_of(fake, alice, here))
    assert again.ephemeral and "played today's daily Nein Nine already" in said
    assert "You beat 50% of the 1 other player" in said
    # Daily games move no rating: nothing on the leaderboard.
    assert (await bot.storage.leaderboard(here.guild_id, "nein-nine", 1, 10))[1] == 0
    await standings_as_the_scoring_says(fake, bot, alice, bob, here, elsewhere)


def standings_of(fake: FakeDiscord, user: User, channel: Channel) -> str:
    return text_of(hand_of(fake, user, channel))


async def standings_as_the_scoring_says(
    fake: FakeDiscord, bot: NinesBot, alice: User, bob: User, here: Channel, elsewhere: Channel
) -> None:
    """Today's standings: to those who played it, privately; per server and, for those who
    said yes, across servers; yesterday's open to everyone, in public, with the deal's seed."""
    carol = fake.add_user("carol")
    await fake.slash(carol, here, "nines daily-standings", game="nein-nine")
    assert "Play today's daily first" in standings_of(fake, carol, here)
    await fake.slash(alice, here, "nines daily-standings", game="nein-nine")
    mine = standings_of(fake, alice, here)
    assert "1. alice: 50% (1)" in mine and "bob" not in mine
    await fake.slash(alice, here, "nines daily-standings", game="nein-nine", where="everywhere")
    assert "Nobody here has finished it yet" in standings_of(fake, alice, here)
    await fake.slash(bob, elsewhere, "nines daily-name", name="Bobby")
    assert "show you as" in standings_of(fake, bob, elsewhere)
    await fake.slash(alice, here, "nines daily-standings", game="nein-nine", where="everywhere")
    everywhere = standings_of(fake, alice, here)
    assert "Bobby" in everywhere and "alice" not in everywhere
    assert public_messages(fake, carol, here)[-1:] and all(
        "standings" not in text_of(m) for m in public_messages(fake, carol, here)
    )
    # Today's cards are nobody's to read: not in the history, not as a record.
    found = await bot.storage.daily_try(bot.daily.today(), "nein-nine", alice.id)
    assert found is not None and found.game_id is not None
    assert await bot.storage.history(here.guild_id) == []
    await fake.slash(carol, here, "nines record", number=found.game_id)
    assert "open to everyone at 00:00 UTC" in standings_of(fake, carol, here)
    # Midnight: yesterday's deal is open to everyone, in public, with its seed.
    day, clock = bot.daily.today(), bot.sessions.deps.clock
    bot.sessions.deps = replace(bot.sessions.deps, clock=lambda: clock() + 86_400)
    res = await fake.slash(
        carol, here, "nines daily-standings", game="nein-nine", period="yesterday"
    )
    assert res.message is not None and res.message.ephemeral_for is None
    said = text_of(res.message)
    assert "the final standings" in said and "alice" in said
    assert str(bot.daily.seed(day, "nein-nine")) in said
    record = await fake.slash(carol, here, "nines record", number=found.game_id)
    assert record.message is not None and "open to everyone" not in text_of(record.message)


async def test_a_daily_resumes_after_a_restart_and_the_day_rolls_over(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot(DAILY_SECRET=SECRET)
    alice = fake.add_user("alice")
    here = fake.channel
    await fake.slash(alice, here, "nines daily", game="nines")
    hand = hand_of(fake, alice, here)
    before = labels(hand)
    await move(fake, alice, hand, 0)  # keep or swap, or a card
    await fake.settle()
    day = bot.daily.today()
    found = await bot.storage.daily_try(day, "nines", alice.id)
    assert found is not None and found.game_id is not None
    played = len(await bot.storage.actions(found.game_id))
    await bot.close()
    bot = await start_bot(DAILY_SECRET=SECRET)
    # /nines daily again: the same game, where it was, privately.
    res = await fake.slash(alice, here, "nines daily", game="nines")
    assert res.ephemeral and not res.errors
    hand = hand_of(fake, alice, here)
    assert enabled_moves(hand)  # their turn again, with the cards as they were left
    assert labels(hand) != before or played > 1
    session = bot.sessions.get(found.game_id)
    assert session is not None and session.private and session.n == played
    assert public_messages(fake, alice, here) == []
    # The next day holds another deal and another try.
    today = bot.daily.seed(day, "nines")
    clock = bot.sessions.deps.clock
    bot.sessions.deps = replace(bot.sessions.deps, clock=lambda: clock() + 86_400)
    assert bot.daily.today() != day and bot.daily.seed(bot.daily.today(), "nines") != today
    await fake.slash(alice, here, "nines daily", game="nines")
    tomorrow = await bot.storage.daily_try(bot.daily.today(), "nines", alice.id)
    assert tomorrow is not None and tomorrow.game_id not in (None, found.game_id)


async def test_no_daily_without_its_secret(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    res = await fake.slash(alice, fake.channel, "nines daily")
    assert res.ephemeral
    assert "does not offer the daily deal" in text_of(hand_of(fake, alice, fake.channel))
