"""Issue 38: the card faces uploaded as application emojis at start, against the Discord
double with the real discord.py client: all at the first start, none at the next, a changed
face replaced, room made from our stale faces only, processes starting together uploading
each face once, and a refused upload leaving one WARNING and a game that plays as before."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from pathlib import Path

import discord
import pytest

from bot.app import NinesBot
from bot.chat import (
    MAX_EMOJIS,
    CardFaces,
    Face,
    emoji_name,
    emojis,
    face_key,
    faces,
    sync_card_faces,
)
from bot.process.run import build_bot
from bot.storage import Storage
from bot.words import card_label
from engine import Card
from fakecord import FakeDiscord
from fakecord.app_emojis import AppEmoji
from fakecord.interactions import Interaction
from fakecord.permissions import Perm
from fakecord.wiring import run_client, stop_client
from testbed.people import play_to_the_end
from tests.storage_backends import TEST_POOL_SIZE

from .conftest import StartBot, bot_settings
from .test_card_faces_shown import card_buttons, record_hands

EMOJIS = "/applications/{application_id}/emojis"
FACES = len(faces())


def creates(fake: FakeDiscord) -> list[int]:
    """The statuses of the emoji creations the bot asked for, in order."""
    return [r.status for r in fake.requests if (r.method, r.route) == ("POST", EMOJIS)]


async def started(fake: FakeDiscord, database: Path) -> tuple[NinesBot, asyncio.Task[None]]:
    """The bot with CARD_EMOJIS on, ready and done with its emojis."""
    bot = await build_bot(bot_settings(fake, database, CARD_EMOJIS="on"))
    task = await run_client(bot, fake)
    assert bot.card_faces_synced is not None
    await asyncio.wait_for(bot.card_faces_synced, 60)
    await fake.settle()
    return bot, task


async def restart(fake: FakeDiscord, database: Path) -> CardFaces:
    bot, task = await started(fake, database)
    found = bot.card_faces
    await stop_client(bot, task)
    return found


def foreign(fake: FakeDiscord, count: int) -> None:
    """Emojis the application's owner uploaded (not ours): never touched by the bot."""
    for i in range(count):
        emoji_id = fake.store.snowflake()
        fake.app_emojis.items[emoji_id] = AppEmoji(
            emoji_id, f"team_emoji_{i}", b"png", "image/png", fake.owner
        )


def redrawn(key: str, png: bytes) -> Mapping[str, Face]:
    """The faces as a later version of the bot draws them: one of them changed."""
    changed = dict(faces())
    old = changed[key]
    changed[key] = Face(key, old.card, old.notation, png)
    return changed


async def test_first_start_uploads_every_face_and_the_next_none(
    fake_discord: FakeDiscord, database: Path
):
    fake = fake_discord
    bot, task = await started(fake, database)
    assert creates(fake) == [201] * FACES == [201] * 156
    assert len(fake.app_emojis.items) == FACES and len(bot.card_faces) == FACES
    for face in faces().values():  # what Discord holds is what we drew, under its hash
        uploaded = fake.app_emojis.named(emoji_name(face))
        assert uploaded is not None and uploaded.image == face.png
    queen = Card.parse("QH")
    emoji = bot.card_faces.button_emoji(queen, "fr", four_colour=False)
    assert isinstance(emoji, discord.PartialEmoji) and emoji.id is not None
    held = fake.app_emojis.items[emoji.id]
    assert held.name == emoji.name == emoji_name(faces()[face_key(queen, "fr", False)])
    assert bot.card_faces.inline(queen, "fr") == f"<:{held.name}:{held.id}>"
    await stop_client(bot, task)

    again = await restart(fake, database)
    assert len(creates(fake)) == FACES, "a second start created an emoji again"
    assert len(again) == FACES
    assert again.inline(queen, "fr") == f"<:{held.name}:{held.id}>"
    lists = [r for r in fake.requests if (r.method, r.route) == ("GET", EMOJIS)]
    assert [r.status for r in lists] == [200, 200]


async def test_a_changed_face_is_uploaded_and_the_old_one_kept_while_there_is_room(
    fake_discord: FakeDiscord, database: Path, monkeypatch: pytest.MonkeyPatch
):
    fake = fake_discord
    await restart(fake, database)
    queen = Card.parse("QS")
    key = face_key(queen, "en", False)
    old = fake.app_emojis.named(emoji_name(faces()[key]))
    assert old is not None
    changed = redrawn(key, faces()["ks_en"].png)  # any other picture will do
    monkeypatch.setattr(emojis, "faces", lambda: changed)
    found = await restart(fake, database)
    assert creates(fake) == [201] * (FACES + 1), "only the changed face is uploaded"
    new = fake.app_emojis.named(emoji_name(changed[key]))
    assert new is not None and new.image == faces()["ks_en"].png
    assert found.inline(queen, "en") == f"<:{new.name}:{new.id}>"
    # Older messages still show the old face: it stays, there is room.
    assert old.id in fake.app_emojis.items and fake.app_emojis.deleted == 0


async def test_room_is_made_from_our_stale_faces_only(
    fake_discord: FakeDiscord, database: Path, monkeypatch: pytest.MonkeyPatch
):
    fake = fake_discord
    foreign(fake, MAX_EMOJIS - FACES)
    await restart(fake, database)
    assert len(fake.app_emojis.items) == MAX_EMOJIS
    key = face_key(Card.parse("9D"), "en", True)
    stale = fake.app_emojis.named(emoji_name(faces()[key]))
    assert stale is not None
    monkeypatch.setattr(emojis, "faces", lambda: redrawn(key, faces()["8d_en_4c"].png))
    found = await restart(fake, database)
    assert found and fake.app_emojis.deleted == 1
    assert stale.id not in fake.app_emojis.items  # ours, no longer drawn: made room
    names = [e.name for e in fake.app_emojis.items.values()]
    assert sum(n.startswith("team_emoji_") for n in names) == MAX_EMOJIS - FACES
    assert len(names) == MAX_EMOJIS


async def test_no_room_without_stale_faces_is_one_warning_and_text(
    fake_discord: FakeDiscord, database: Path, caplog: pytest.LogCaptureFixture
):
    fake = fake_discord
    foreign(fake, MAX_EMOJIS - 10)
    with caplog.at_level(logging.WARNING, logger="bot.chat.emojis"):
        found = await restart(fake, database)
    assert not found and creates(fake) == []
    warnings = [r for r in caplog.records if r.name == "bot.chat.emojis"]
    assert len(warnings) == 1 and "room for 10" in warnings[0].getMessage()
    assert fake.app_emojis.deleted == 0  # the owner's emojis are never ours to delete


async def test_two_processes_starting_together_upload_each_face_once(
    fake_discord: FakeDiscord, postgres_url: str
):
    """Two processes on one PostgreSQL database: each has its own connections and its own
    HTTP session; the second waits for the first, then finds every face there."""
    fake = fake_discord
    storages = [await Storage.open(postgres_url, pool_size=TEST_POOL_SIZE) for _ in range(2)]
    clients = [discord.Client(intents=discord.Intents.none()) for _ in range(2)]
    try:
        for client in clients:
            await client.login(fake.token)
        found = await asyncio.gather(
            *(sync_card_faces(c, s) for c, s in zip(clients, storages, strict=True))
        )
    finally:
        for client in clients:
            await client.close()
        for storage in storages:
            await storage.close()
    assert creates(fake) == [201] * FACES
    assert len(fake.app_emojis.items) == FACES
    # One after the other: a list, every creation, then the other's list (nothing to create).
    routes = [(r.method, r.route) for r in fake.requests if r.route == EMOJIS]
    assert routes == [("GET", EMOJIS)] + [("POST", EMOJIS)] * FACES + [("GET", EMOJIS)]
    card = Card.parse("TC")
    assert found[0].inline(card, "en", True) == found[1].inline(card, "en", True) is not None


async def test_two_processes_on_one_sqlite_file_share_the_faces_created_once(
    fake_discord: FakeDiscord, database: Path
):
    """SQLite's lock is the process's own: two processes on one file race, Discord refuses
    the second creation of a name, and the loser takes the winner's emoji."""
    fake = fake_discord
    storages = [await Storage.open(database) for _ in range(2)]
    clients = [discord.Client(intents=discord.Intents.none()) for _ in range(2)]
    try:
        for client in clients:
            await client.login(fake.token)
        found = await asyncio.gather(
            *(sync_card_faces(c, s) for c, s in zip(clients, storages, strict=True))
        )
    finally:
        for client in clients:
            await client.close()
        for storage in storages:
            await storage.close()
    assert fake.app_emojis.created == len(fake.app_emojis.items) == FACES
    assert all(len(f) == FACES for f in found)
    card = Card.parse("JD")
    assert found[0].inline(card, "fr", True) == found[1].inline(card, "fr", True) is not None
    # The refusals were Discord's "name already taken", each answered by a fresh list.
    refused = fake.expect_violations()
    assert all("APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in v.reason for v in refused)


async def test_a_refused_upload_is_one_warning_and_the_game_plays_as_text(
    fake_discord: FakeDiscord,
    start_bot: StartBot,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
):
    fake = fake_discord
    fake.app_emojis.refuse_uploads = 50013  # Missing Permissions
    with caplog.at_level(logging.WARNING, logger="bot.chat.emojis"):
        bot = await start_bot(CARD_EMOJIS="on")
        assert bot.card_faces_synced is not None
        await asyncio.wait_for(bot.card_faces_synced, 60)
    warnings = [r for r in caplog.records if r.name == "bot.chat.emojis"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "403" in warnings[0].getMessage() and "cards show as text" in warnings[0].getMessage()
    assert creates(fake) == [403], "one refusal, and no second try"
    assert not bot.card_faces and bot.card_faces.button_emoji(Card.parse("AS"), "en") is None
    # The game is unharmed.
    alice = fake.add_user("alice")
    lobby = await fake.slash(alice, fake.channel, "nines start", start=3)
    assert lobby.message is not None
    await fake.click(alice, lobby.message, "+ 🤖 Easy")
    await fake.click(alice, lobby.message, "+ 🤖 Normal")
    await fake.click(alice, lobby.message, "Start")
    hands = record_hands(monkeypatch)
    end = await play_to_the_end(fake, [alice], fake.channel)
    assert "Winner" in end.embeds[0]["description"]
    assert len([r for r in caplog.records if r.name == "bot.chat.emojis"]) == 1
    # Every card as today's text: no emoji on a button, its label the card with its suit.
    buttons = [b for hand in hands for b in card_buttons(hand)]
    assert buttons
    for card, button in buttons:
        assert "emoji" not in button and button["label"] == card_label(card, "en")
    for message in fake.store.messages.get(fake.channel.id, []):
        for content, embeds in message.history:
            assert "<:" not in content + str(embeds)


async def test_the_four_colour_deck_is_a_server_setting(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    bot = await start_bot()
    managers = fake.add_role(fake.guild, "managers", Perm.MANAGE_GUILD)
    marie = fake.add_user("marie", locale="fr", roles=[managers])

    def said(res: Interaction) -> str:
        assert not res.errors and res.ephemeral and res.message is not None
        return str(res.message.embeds[0]["description"])

    shown = said(await fake.slash(fake.owner, fake.channel, "nines settings show"))
    assert "Four-colour deck: **off** (default)" in shown
    changed = said(await fake.slash(marie, fake.channel, "nines settings set", four_colour="on"))
    assert "Jeu à quatre couleurs\u00a0: **oui**" in changed
    assert await bot.storage.get_guild_settings(fake.guild.id) == {"four_colour": True}
    await fake.slash(fake.owner, fake.channel, "nines settings reset", setting="four_colour")
    assert await bot.storage.get_guild_settings(fake.guild.id) == {}
