"""Issues 38 and 39 end to end: whole games against the Discord double with the card faces
synced (``CARD_EMOJIS=on``), read as people read them.

Two games (the other rulesets and languages are played at the render level,
tests/test_card_faces_in_messages.py and tests/test_names_in_messages.py): a Nines game in
English between four people whose names were chosen to break things (two ``Alex``, a code
fence, markdown, ``@everyone``, a right-to-left name), and a Nein Nine game in French on the
four-colour deck. Every hand a person opens shows each card as its application emoji with the
rank as label (Discord refuses a button's emoji the application does not have: the double
does too), every trick on the table and in the summaries shows faces, and no name breaks a
message, pings anybody or reads like another's. A refused upload (tests/bot/
test_card_emojis.py) leaves every card as text.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bot.app import NinesBot
from bot.chat import card_words, emoji_name, face_key, faces
from bot.words import tr
from cogs.nines import ids
from cogs.nines.ui import spoken
from engine import Card
from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed import people
from testbed.games import game_id_of
from testbed.people import play_to_the_end
from testbed.reading import words
from tests.test_names import assert_inert

from .conftest import StartBot

EMOJI = re.compile(r"<:([a-z0-9_]+_[0-9a-f]{6}):(\d+)>")
CARD_TEXT = re.compile(r"(?<![\w])(?:10|[2-9AKQJRDV])[♠♥♦♣]")
TRICK_LINES = re.compile(
    r"^(?:Current trick|Last trick|Trick \d+|Pli en cours|Dernier pli|Pli \d+)", re.M
)
SPAN = re.compile("\u2068(.*?)\u2069", re.S)
MENTION = re.compile(r"<@[!&]?(\d+)>|@everyone|@here")


async def synced(start_bot: StartBot, **settings: str) -> NinesBot:
    bot = await start_bot(CARD_EMOJIS="on", **settings)
    assert bot.card_faces_synced is not None
    await asyncio.wait_for(bot.card_faces_synced, 60)
    assert len(bot.card_faces) == len(faces())
    return bot


def record_hands(monkeypatch: pytest.MonkeyPatch) -> list[Message]:
    """Every hand a person opens while ``play_to_the_end`` plays, as the double showed it."""
    opened: list[Message] = []
    open_hand = people.open_hand

    async def recording(fake: FakeDiscord, user: User, channel: Any) -> Message:
        hand = await open_hand(fake, user, channel)
        opened.append(hand)
        return hand

    monkeypatch.setattr(people, "open_hand", recording)
    return opened


def card_buttons(hand: Message) -> list[tuple[Card, dict[str, Any]]]:
    out = []
    for component in hand.all_components():
        fields = ids.PLAY.parse(component.get("custom_id") or "")
        if component.get("type") == 2 and fields is not None:
            out.append((Card.parse(fields["card"]), component))
    return out


def assert_faces_on_buttons(
    fake: FakeDiscord, hands: list[Message], notation: str, four_colour: bool
) -> int:
    checked = 0
    for hand in hands:
        for card, button in card_buttons(hand):
            emoji = button.get("emoji")
            assert emoji is not None, button
            if card.suit is None:  # the Joker: 🃏 and its word (issue 46)
                assert emoji["name"] == "🃏" and emoji.get("id") is None
                assert button["label"] == tr(notation, "button.joker")
                continue
            held = fake.app_emojis.items[int(emoji["id"])]  # the application's own emoji
            face = faces()[face_key(card, notation, four_colour)]
            assert held.name == emoji["name"] == emoji_name(face) and held.image == face.png
            # No label beside a face: its name says the card (issue 46).
            assert "label" not in button and spoken(button).startswith(
                card_words(card, notation).replace("_", " ")
            )
            checked += 1
    return checked


def public_versions(fake: FakeDiscord) -> list[tuple[str, list[str]]]:
    """Every version of every public message: (content, the embeds' markdown texts)."""
    out = []
    for message in fake.store.messages.get(fake.channel.id, []):
        if message.ephemeral_for is not None:
            continue
        for content, embeds in message.history:
            texts = []
            for embed in embeds:
                texts += [str(embed.get("title", "")), str(embed.get("description", ""))]
                texts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
            out.append((content or "", texts))
    return out


def assert_faces_in_public(fake: FakeDiscord) -> None:
    """Every trick line and every summary's list of tricks shows faces the application has."""
    trick_lines = summaries = 0
    for _, texts in public_versions(fake):
        for text in texts:
            for name, emoji_id in EMOJI.findall(text):
                assert fake.app_emojis.items[int(emoji_id)].name == name
            for line in (ln for ln in text.split("\n") if TRICK_LINES.match(ln)):
                assert EMOJI.search(line) or "🃏" in line, line  # the Joker's sign alone
                assert not CARD_TEXT.search(line), line
                trick_lines += 1
            if re.match(r"^(?:Every trick|Tous les plis|Tricks 1 to|Plis 1 à)", text):
                assert EMOJI.search(text) and not CARD_TEXT.search(text), text
                summaries += 1
    assert trick_lines and summaries, (trick_lines, summaries)


async def play_by_ids(
    fake: FakeDiscord, user: User, game: int, rng: random.Random
) -> list[Message]:
    """``user`` plays whenever the table names them, by the buttons' ids (the people of
    testbed.people read English labels), until the end message (its Rematch button).
    The table names whose turn it is in words, in the game's language (French here), and
    carries no mention (issue 38, item 3). Returns every hand they opened."""
    hand_id, rematch_id = ids.HAND.format(game=game), ids.REMATCH.format(game=game)
    due = tr("fr", "table.turn", who=user.global_name or user.name)
    opened: list[Message] = []
    for _ in range(3000):
        await fake.settle()
        public = [m for m in fake.visible(user, fake.channel) if m.ephemeral_for is None]
        if any(b.custom_id == rematch_id for m in public for b in m.buttons()):
            return opened
        tables = [
            m for m in public if m.embeds and any(b.custom_id == hand_id for b in m.buttons())
        ]
        table = words(tables[-1]).splitlines() if tables else []
        if not any(line == due or line.startswith(due + " ") for line in table):
            await asyncio.sleep(0.05)
            continue
        res = await fake.click(user, tables[-1], hand_id)
        assert not res.errors and res.message is not None, res.errors
        opened.append(res.message)
        moves = people.enabled_moves(res.message)
        if not moves:
            continue
        res = await fake.click(user, res.message, rng.choice(moves))
        assert not res.errors, res.errors
        calls = [b.custom_id for b in (res.message.buttons() if res.message else ()) if b.custom_id]
        calls = [c for c in calls if ":joker:" in c]
        if calls and res.message is not None:
            res = await fake.click(user, res.message, rng.choice(calls))
            assert not res.errors, res.errors
    raise AssertionError("the game did not end")


@pytest.mark.slow(60)
async def test_a_nines_game_with_faces_and_names_chosen_to_break_things(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    await synced(start_bot)
    names = ["Alex", "Alex", "``` @everyone", "**Zoé** _x_ ||s|| نادية"]
    users = [fake.add_user(n) for n in names]
    res = await fake.slash(users[0], fake.channel, "nines start", ruleset="four-player", start=3)
    assert res.message is not None, res.errors
    game = game_id_of(res.message)
    for user in users[1:]:
        await fake.click(user, res.message, f"nines:1:lobby:{game}:join")
    await fake.click(users[0], res.message, f"nines:1:lobby:{game}:start")
    hands = record_hands(monkeypatch)
    await play_to_the_end(fake, users, fake.channel, seed=3)
    await fake.settle()

    assert assert_faces_on_buttons(fake, hands, "en", four_colour=False)
    assert_faces_in_public(fake)

    # The names, as every person reads every message they were shown.
    seated = {u.id for u in users}
    texts = [(content, [content, *embeds]) for content, embeds in public_versions(fake)]
    for user in users:
        for message in fake.visible(user, fake.channel):
            if message.ephemeral_for == user.id:
                texts += [(message.content or "", [message.content or ""])]
    told_apart = False
    for content, parts in texts:
        for text in parts:
            assert text.count("```") % 2 == 0, text
            for span in SPAN.findall(text):
                assert_inert("\u2068" + span + "\u2069")
            for raw in ("**Zoé**", "``` @everyone", "||s||"):
                assert raw not in SPAN.sub("", text).replace("```\n", ""), text
            for mention in MENTION.finditer(text):
                assert mention.group(1) is not None and int(mention.group(1)) in seated, text
                assert text == content, "a mention in an embed"
            told_apart |= "\u2068Alex\u2069" in text and "\u2068Alex (2)\u2069" in text
    assert told_apart, "the two Alex read the same"
    for message in fake.store.messages.get(fake.channel.id, []):
        assert {u.id for u in message.mentions} <= seated


@pytest.mark.slow(40)
async def test_a_nein_nine_game_in_french_on_the_four_colour_deck(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    bot = await synced(start_bot)
    marie = fake.add_user("marie", locale="fr")
    await bot.storage.set_guild_settings(fake.guild.id, {"four_colour": True, "language": "fr"})
    res = await fake.slash(marie, fake.channel, "nines start", ruleset="nein-nine", rounds=2)
    assert res.message is not None, res.errors
    game = game_id_of(res.message)
    for verb in ("cpu-normal", "cpu-easy", "start"):
        await fake.click(marie, res.message, f"nines:1:lobby:{game}:{verb}")
    hands = await play_by_ids(fake, marie, game, random.Random(5))

    assert assert_faces_on_buttons(fake, hands, "fr", four_colour=True)
    assert_faces_in_public(fake)
    # The four-colour faces: a diamond or a club in blue or green somewhere on the table.
    shown = " ".join(" ".join(texts) for _, texts in public_versions(fake))
    four = {emoji_name(f) for f in faces().values() if f.key.endswith("_4c")}
    assert any(name in four for name, _ in EMOJI.findall(shown))
