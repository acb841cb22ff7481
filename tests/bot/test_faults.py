"""Issue 7.5: Discord misbehaving (429, 5xx, gateway drops, expired tokens, deleted messages
and channels, lost permissions) never loses or corrupts a game."""

from __future__ import annotations

import gc
import random

import discord
import pytest

from bot.app import NinesBot
from fakecord import FakeDiscord
from fakecord.permissions import Perm
from testbed.games import finish, open_game, play_one, text_of, wait_for
from testbed.notebook import delivery
from testbed.people import enabled_moves, open_hand, table_message, whose_turn

from .conftest import StartBot

EDIT = "/channels/{channel_id}/messages/{message_id}"


def channel_routes_only(bot: NinesBot) -> None:
    """No click token is ever live: the table is edited on the channel route, as after a
    restart or a timer's move (the routes these faults are injected on)."""
    bot.presenter.token_seconds = -1


async def test_429s_are_waited_out_not_stormed(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    channel_routes_only(await start_bot())
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    fake.ratelimits.inject(429, "PATCH", EDIT, count=2, retry_after=0.2)
    start = len(fake.requests)
    played = await play_one(fake, [alice], fake.channel, random.Random(1))
    assert played is not None and not played[1].errors
    await fake.settle()
    edits = [r for r in fake.requests[start:] if r.method == "PATCH" and r.route == EDIT]
    assert fake.ratelimits.sent_429 == 2
    assert [r.status for r in edits][:3] == [429, 429, 200]  # retried after the wait, once
    assert edits[1].time - edits[0].time >= 0.15
    await finish(fake, [alice], fake.channel)


async def test_a_server_error_is_retried_and_the_game_goes_on(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    channel_routes_only(await start_bot())
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    fake.ratelimits.inject(500, "PATCH", EDIT, count=1)
    played = await play_one(fake, [alice], fake.channel, random.Random(2))
    assert played is not None
    await fake.settle()
    assert fake.ratelimits.sent_faults == 1
    await finish(fake, [alice], fake.channel)


@pytest.mark.slow(14)
async def test_a_gateway_drop_is_resumed_and_clicks_meanwhile_are_answered(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    table = table_message(fake, alice, fake.channel)
    assert table is not None
    await fake.gateway.drop(code=4000)
    res = await fake.click(alice, table, "My hand")  # dispatched while the bot is away
    assert fake.gateway.resumes == 1
    assert res.acknowledged and res.ephemeral and not res.errors
    await finish(fake, [alice], fake.channel)


@pytest.mark.slow(16)
async def test_an_expired_interaction_token_never_breaks_a_hand(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    await wait_for(fake, lambda: whose_turn(fake, [alice], fake.channel))
    hand = await open_hand(fake, alice, fake.channel)
    fake.clock.advance(16 * 60)  # the hand's token is dead; its buttons still work
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    res = await fake.click(alice, hand, move)
    assert res.acknowledged and not res.errors
    await finish(fake, [alice], fake.channel)


@pytest.mark.slow(14)
async def test_a_deleted_table_message_is_posted_again(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "easy"), start=3)
    await wait_for(fake, lambda: whose_turn(fake, [alice], fake.channel))
    hand = await open_hand(fake, alice, fake.channel)
    table = table_message(fake, alice, fake.channel)
    assert table is not None
    await fake.delete_message(table)
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    res = await fake.click(alice, hand, move)
    assert not res.errors
    fresh = await wait_for(fake, lambda: table_message(fake, alice, fake.channel))
    assert fresh.id != table.id
    session = nines.sessions.get(game_id)
    assert session is not None and delivery(session).table_message_id == fresh.id
    await finish(fake, [alice], fake.channel)


async def test_a_deleted_channel_ends_the_game_unrated(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    room = fake.add_channel(name="room")
    await fake.settle()
    game_id = await open_game(fake, alice, people=(bob,), computers=("easy",), channel=room)
    await fake.delete_channel(room)
    await wait_for(fake, lambda: nines.sessions.get(game_id) is None, what="the game to end")
    row = await nines.storage.game(game_id)
    assert row is not None and row.status == "abandoned" and not row.rated
    assert row.end_reason == "channel_lost"
    assert await nines.storage.live_games() == []


async def test_lost_permission_mid_game_ends_it_cleanly(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    room = fake.add_channel(name="room")
    await fake.settle()
    game_id = await open_game(fake, alice, computers=("easy", "easy"), channel=room)
    fake.set_permissions(room, fake.bot_role, deny=Perm.SEND_MESSAGES)
    await wait_for(fake, lambda: nines.sessions.get(game_id) is None, what="the game to end")
    row = await nines.storage.game(game_id)
    assert row is not None and row.status == "abandoned" and row.end_reason == "channel_lost"
    assert await nines.storage.live_games() == []


async def test_a_permission_refused_on_the_next_edit_also_ends_the_game(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    """Even when no channel update reaches the bot, the next refused edit ends the game."""
    fake = fake_discord
    nines = await start_bot()
    alice = fake.add_user("alice")
    game_id = await open_game(fake, alice, computers=("easy", "easy"), start=3)
    await wait_for(fake, lambda: whose_turn(fake, [alice], fake.channel))
    hand = await open_hand(fake, alice, fake.channel)
    fake.store.set_overwrite(fake.channel, fake.bot_role, allow=0, deny=int(Perm.VIEW_CHANNEL))
    move = next(b.custom_id for b in hand.buttons() if b.custom_id and not b.disabled)
    res = await fake.click(alice, hand, move)
    assert res.acknowledged
    await wait_for(fake, lambda: nines.sessions.get(game_id) is None, what="the game to end")
    row = await nines.storage.game(game_id)
    assert row is not None and row.status == "abandoned"


async def test_private_hands_are_not_kept_by_discord_py(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    """discord.py keeps a view sent in a private message, with a task, for 15 minutes unless
    it is finished. Ours are routed by their DynamicItem patterns alone: none is kept, and
    timing out whatever discord.py does keep (what 15 minutes would do) leaves every kind of
    button working."""
    fake = fake_discord
    await start_bot()
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "easy"), start=3)
    rng = random.Random(5)
    for _ in range(3):  # hands sent in new private messages and updated in place
        assert await play_one(fake, [alice], fake.channel, rng) is not None
    tracked = [
        o
        for o in gc.get_objects()
        if isinstance(o, discord.ui.view.BaseView)
        and getattr(o, "_BaseView__timeout_task", None) is not None
    ]
    for view in tracked:  # what 15 minutes do to every view discord.py tracks
        view._dispatch_timeout()
    await fake.settle()
    hand = await open_hand(fake, alice, fake.channel)  # a HandButton
    moves = enabled_moves(hand)
    assert moves, text_of(hand)
    played = await fake.click(alice, hand, moves[0])  # a PlayButton
    assert not played.errors and played.message is not None, played.errors
    assert tracked == [], f"{len(tracked)} views kept (each with a task) for 15 minutes"
    await finish(fake, [alice], fake.channel, seed=5)


async def test_a_click_is_routed_without_rebuilding_the_clicked_message(
    fake_discord: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
):
    """Our buttons are routed by their custom_id alone: discord.py's own dispatch, which
    rebuilds the clicked message's whole view first, is never used (it cost CPU and memory on
    every click, and left a click on an older render of a message unanswered)."""
    fake = fake_discord
    await start_bot()

    def rebuilt(*_args: object, **_kw: object) -> None:
        raise AssertionError("discord.py rebuilt a clicked message's view")

    monkeypatch.setattr(discord.ui.View, "from_message", rebuilt)
    alice = fake.add_user("alice")
    await open_game(fake, alice, computers=("easy", "normal"), start=3)  # lobby buttons
    rng = random.Random(3)
    for _ in range(4):  # 'My hand' and card buttons
        assert await play_one(fake, [alice], fake.channel, rng) is not None
