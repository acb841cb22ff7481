"""Issue 29 (items 9 and 11): only the pings that help, cards that play themselves, the
autoplay preference, a history of games only, and a rematch that calls its players.

People here read only what Discord shows them (testbed/people.py, NotifiedPerson).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bot.app import NinesBot
from bot.storage import Storage
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord
from fakecord.models import Message
from testbed.games import HANG_GUARD, open_game, text_of, wait_for
from testbed.people import NotifiedPerson, enabled_moves, end_message, turn_messages, whose_turn
from testbed.reading import as_read

from .conftest import StartBot
from .test_failover import second_guild
from .test_turns import play_notified

MENTION = re.compile(r"<@!?(\d+)>")


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games dealt from a known seed (the bot draws it from SystemRandom), so a game's course
    is the same on every run."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(2029))


def cards_in(hand: Message) -> int:
    return sum(1 for b in hand.buttons() if ":play:" in (b.custom_id or ""))


def enabled_cards(hand: Message) -> int:
    return sum(1 for m in enabled_moves(hand) if ":play:" in m)


class Watched(NotifiedPerson):
    """A NotifiedPerson whose every turn is checked: never a last card to click; and when the
    answer to their own click gives them the turn, no ping, and no one else's turn message
    left standing."""

    forced_turns = 0  # turns where the hand offered a single card among several

    async def act(self, rng: random.Random) -> None:
        hand = self.hand()
        if hand is not None and enabled_moves(hand):
            assert cards_in(hand) != 1, f"{self.user.name} was asked to click their last card"
            if cards_in(hand) > 1 and enabled_cards(hand) == 1 == len(enabled_moves(hand)):
                self.forced_turns += 1
        await super().act(rng)
        if self.answered_turn:
            await self.fake.settle()
            assert self.notifications() == [], f"{self.user.name} was pinged after their click"
            assert turn_messages(self.fake, self.user, self.channel) == []


async def stored_plays(bot: NinesBot, game_id: int) -> tuple[Game, list[tuple[int, bool]]]:
    """The stored game replayed, and per stored action: its seat and whether it was that
    seat's last card."""
    row = await bot.storage.game(game_id)
    assert row is not None
    game = Game(Rules.from_dict(row.rules), row.seed)
    plays = []
    for action in await bot.storage.actions(game_id):
        plays.append((action.seat, len(game.hands[action.seat]) == 1))
        game.apply(action.seat, parse_action(action.action))
    return game, plays


@pytest.mark.slow(30)
async def test_no_ping_after_ones_own_click_and_the_last_trick_plays_itself(
    fake_discord: FakeDiscord, start_bot: StartBot, seeded: None
) -> None:
    fake = fake_discord
    bot = await start_bot()
    users = [fake.add_user(name) for name in ("alice", "bob", "carol")]
    game_id = await open_game(fake, users[0], people=tuple(users[1:]), start=3)
    people = [Watched(fake, u, fake.channel) for u in users]
    # Every turn reaches its person: by a ping, or by the answer to their own click.
    await play_notified(fake, people)

    # Someone took a trick and led, told by their click's answer alone (checked in act).
    assert sum(p.unnotified for p in people) > 0
    # Everyone else's turns still pinged them: the pings are the turns not so answered.
    pings = [
        m
        for m in fake.store.messages.get(fake.channel.id, [])
        if m.mentions and not m.embeds and MENTION.search(m.content or "")
    ]
    moves = sum(p.moves for p in people)
    assert len(pings) == moves - sum(p.unnotified for p in people)

    # The last cards played themselves: stored like every move, never clicked.
    game, plays = await stored_plays(bot, game_id)
    assert game.over
    last_cards = sum(1 for _seat, last in plays if last)
    assert last_cards >= 3 * len(game.sheet)  # every hand's last trick, three seats
    assert moves == len(plays) - last_cards
    # And shown: every hand's summary lists every trick, the last one included.
    summaries = [
        m
        for m in fake.store.messages.get(fake.channel.id, [])
        for e in m.embeds
        if str(e.get("title", "")).startswith("Hand ")
    ]
    assert len(summaries) == len(game.hands_log)
    for message, hand in zip(summaries, game.hands_log, strict=True):
        (field,) = [f for e in message.embeds for f in e.get("fields", [])]
        assert len(field["value"].splitlines()) == len(hand.tricks)


async def autoplay(fake: FakeDiscord, user: Any, channel: Any, choice: str | None = None) -> str:
    options = {} if choice is None else {"choice": choice}
    res = await fake.slash(user, channel, "nines autoplay", **options)
    assert not res.errors and res.message is not None, res.errors
    assert res.message.ephemeral_for == user.id
    return res.message.content or ""


async def test_the_autoplay_preference_is_off_by_default_and_kept_across_servers(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    guild2, channel2 = second_guild(fake)
    fake.add_member(guild2, alice)
    await fake.settle()

    assert "Autoplay is off" in await autoplay(fake, alice, fake.channel)
    assert await bot.storage.autoplay_users([alice.id]) == set()
    said = await autoplay(fake, alice, fake.channel, "on")
    assert "Autoplay is on" in said and "no choice" in said  # what it does, and its cost
    assert await bot.storage.autoplay_users([alice.id]) == {alice.id}
    # Another server reads the same preference, and may change it for every server.
    assert "Autoplay is on" in await autoplay(fake, alice, channel2)
    assert "Autoplay is off" in await autoplay(fake, alice, channel2, "off")
    assert "Autoplay is off" in await autoplay(fake, alice, fake.channel)
    assert await bot.storage.autoplay_users([alice.id]) == set()


@pytest.mark.parametrize("on", [False, True])
async def test_forced_cards_play_themselves_only_for_who_chose_it(
    fake_discord: FakeDiscord, start_bot: StartBot, seeded: None, on: bool
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    if on:
        await autoplay(fake, alice, fake.channel, "on")
    game_id = await open_game(fake, alice, computers=("easy", "easy"), start=3)
    person = Watched(fake, alice, fake.channel)
    await play_notified(fake, [person])

    game, plays = await stored_plays(bot, game_id)
    assert game.over
    mine = [last for seat, last in plays if seat == 0]  # the host sits first
    by_itself = len(mine) - person.moves
    last_cards = sum(mine)
    assert last_cards >= len(game.sheet)
    if on:
        # Never asked to click a forced card; some played themselves beyond the last cards.
        assert person.forced_turns == 0
        assert by_itself > last_cards
    else:
        # Off by default: forced cards are clicked (this seed has some); last cards are not.
        assert person.forced_turns > 0
        assert by_itself == last_cards


@pytest.mark.slow(33)
async def test_history_lists_no_lobby_and_a_rematch_calls_its_players(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    # A lobby cancelled before it started is no game.
    res = await fake.slash(alice, fake.channel, "nines start")
    assert res.message is not None
    cancel = await fake.click(alice, res.message, "Cancel")
    assert not cancel.errors, cancel.errors
    history = await fake.slash(alice, fake.channel, "nines history")
    assert "No finished games yet." in text_of(history.message)

    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), start=3)
    await play_notified(fake, [NotifiedPerson(fake, u, fake.channel) for u in (alice, bob)])
    end = end_message(fake, alice, fake.channel)
    assert end is not None
    history = await fake.slash(alice, fake.channel, "nines history")
    listed = re.findall(r"\*\*#(\d+)\*\*", text_of(history.message))
    assert listed == [str(game_id)]

    # Rematch: the new lobby calls the people it seats (not the clicker), and nobody else.
    rematch = await fake.click(alice, end, "Rematch")
    assert not rematch.errors, rematch.errors
    lobby = rematch.message
    assert lobby is not None and lobby.ephemeral_for is None
    assert lobby.mentions == [bob] and MENTION.findall(lobby.content) == [str(bob.id)]
    assert "Rematch!" in lobby.content
    posted = [r.body for r in fake.requests if r.body and "Rematch!" in str(r.body)]
    allowed = posted[-1]["data"]["allowed_mentions"]
    assert allowed["parse"] == [] and [str(u) for u in allowed["users"]] == [str(bob.id)]
    # A second click, by either of them: they are seated already, and where.
    for user in (bob, alice):
        again = await fake.click(user, end, "Rematch")
        assert again.message is not None and again.message.ephemeral_for == user.id
        assert "already seated in the rematch" in (again.message.content or "")
        assert str(lobby.id) in (again.message.content or "")
        assert "already a game" not in (again.message.content or "")
    await wait_for(fake, lambda: True)


async def test_a_forced_card_due_at_a_restart_plays_itself_after_it(
    fake_discord: FakeDiscord, start_bot: StartBot, database: Path, seeded: None
) -> None:
    """Stopped with a forced card due (the preference set while the bot was down): the
    restored game plays it by itself, stored like any move, and goes on."""
    fake = fake_discord
    first = await start_bot()
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "easy"), start=3)
    person = NotifiedPerson(fake, alice, fake.channel)
    rng = random.Random(4)
    for _ in range(100):
        await wait_for(fake, lambda: whose_turn(fake, [alice], fake.channel), what="my turn")
        hand = person.hand()
        moves = [] if hand is None else enabled_moves(hand)
        if hand is not None and cards_in(hand) > 1 and len(moves) == 1 and ":play:" in moves[0]:
            break
        await person.act(rng)
    else:
        raise AssertionError("no forced card in 100 turns")
    (card,) = enabled_moves(hand)
    before = len(await first.storage.actions(game_id))
    await first.close()
    async with await Storage.open(database) as storage:
        await storage.set_autoplay(alice.id, True)

    second = await start_bot()
    actions = await wait_for(
        fake,
        lambda: (
            second.sessions.get(game_id) is not None
            and len(second.sessions.get(game_id).game.log) > before  # type: ignore[union-attr]
            and second.sessions.get(game_id).game.log
        ),  # type: ignore[union-attr]
        what="the forced card played",
    )
    seat, action = actions[before]
    assert seat == 0 and card.endswith(":" + str(action))
    # A move is applied in memory, then stored: read the storage once the write is done.
    stored = await second.storage.actions(game_id)
    waited = time.monotonic() + HANG_GUARD
    while len(stored) <= before and time.monotonic() < waited:
        await asyncio.sleep(0.05)
        stored = await second.storage.actions(game_id)
    assert len(stored) > before and (stored[before].seat, stored[before].by_computer) == (0, False)


async def test_stop_names_who_stopped_without_a_mention(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """A mention only where a notification is meant: "X stopped the game" names X."""
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    res = await fake.slash(alice, fake.channel, "nines stop")
    assert not res.errors and res.message is not None, res.errors
    assert as_read(res.message.content) == "alice stopped the game."
    assert res.message.mentions == []


async def test_the_autoplay_command_speaks_both_languages(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    await start_bot()
    registered = fake.commands.find(fake.guild.id, "nines")
    assert registered is not None
    command = {o["name"]: o for o in registered["options"]}["autoplay"]
    assert command["name_localizations"]["fr"] == "cartes-forcées"
    assert command["description_localizations"]["fr"].startswith("Quand une seule carte")
    (option,) = command["options"]
    assert option["name_localizations"]["fr"] == "choix" and not option.get("required")
    assert [c["name_localizations"]["fr"] for c in option["choices"]] == ["Oui", "Non"]
    marie = fake.add_user("marie", locale="fr")
    said = await autoplay(fake, marie, fake.channel, "on")
    assert said.startswith("Le jeu automatique est activé, sur tous les serveurs\u00a0:")
    assert "vous n'aviez pas le choix" in said
    assert (await autoplay(fake, marie, fake.channel)).startswith("Le jeu automatique est activé")
