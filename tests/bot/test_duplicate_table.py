"""``/nines start duplicate:on`` played whole through the double, in both games (issue 47): the
deals come round to every seat, one game after another; each end says which game of the match
it was, and the last shows every player's raw scores and duplicate result."""

from __future__ import annotations

import functools
import random

import pytest

from bot.app import NinesBot
from bot.duplicate_match import score_match
from engine import Game, Rules, parse_action
from fakecord import FakeDiscord
from fakecord.models import Channel, Message, User
from testbed.games import game_id_of, text_of, wait_for
from testbed.people import table_message, take_turn

from .conftest import StartBot


def ends(fake: FakeDiscord, user: User, channel: Channel) -> list[Message]:
    return [
        m
        for m in fake.visible(user, channel)
        if any("game over" in str(e.get("title", "")) for e in m.embeds)
    ]


def table_of(fake: FakeDiscord, user: User, game_id: int) -> bool:
    table = table_message(fake, user, fake.channel)
    return table is not None and game_id_of(table) == game_id


async def play_match(fake: FakeDiscord, bot: NinesBot, alice: User, games: int) -> None:
    """Alice plays each game of the match whenever it is her turn, until its last end."""
    channel = fake.channel
    rng = random.Random(5)
    for _ in range(5000):
        if len(ends(fake, alice, channel)) == games:
            return
        session = bot.sessions.in_channel(channel.id)
        game = None if session is None else session.game
        if session is None or game is None or game.over or session.plays_itself():
            await fake.settle()
            continue
        if game.turn == session.seat_of(alice.id):
            shown = functools.partial(table_of, fake, alice, session.id)
            await wait_for(fake, shown, what="its table")
            await take_turn(fake, alice, channel, rng)
        else:
            await fake.settle()
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("ruleset", "options"), [("classic", {"start": 3}), ("nein-nine", {"rounds": 1})]
)
async def test_a_duplicate_match_is_played_whole(
    fake_discord: FakeDiscord, start_bot: StartBot, ruleset: str, options: dict[str, int]
) -> None:
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    channel = fake.channel
    res = await fake.slash(
        alice, channel, "nines start", ruleset=ruleset, duplicate="on", **options
    )
    assert res.message is not None and not res.errors
    lobby = res.message
    first = game_id_of(lobby)
    said = await wait_for(
        fake,
        lambda: [m for m in fake.visible(alice, channel) if "duplicate match" in text_of(m)],
        what="the duplicate note",
    )
    assert "played 3 times" in text_of(said[0])
    for level in ("hard", "easy"):
        await fake.click(alice, lobby, f"nines:1:lobby:{first}:cpu-{level}")
    start = await fake.click(alice, lobby, "Start")
    assert not start.errors, start.errors
    await play_match(fake, bot, alice, 3)
    # Three games of the same deals, alice one seat further round each time.
    match = await bot.storage.duplicate_games(first)
    assert len(match) == 3 and match[0] == first
    games, seats = [], []
    for game_id in match:
        row = await bot.storage.game(game_id)
        assert row is not None and row.status == "finished"
        assert row.seed == (await bot.storage.game(first)).seed  # type: ignore[union-attr]
        stored = await bot.storage.seats(game_id)
        seats.append(next(s.seat for s in stored if s.user_id == alice.id))
        actions = [(a.seat, parse_action(a.action)) for a in await bot.storage.actions(game_id)]
        games.append(Game.replay(Rules.from_dict(row.rules), row.seed, actions))
    assert seats == [0, 1, 2]
    assert games[0].hands_log[0].dealt == games[1].hands_log[0].dealt  # the same cards
    # Each end says where the match stands; the last, everyone's raw scores and result.
    shown = [text_of(m) for m in ends(fake, alice, channel)]
    assert "game 1 of 3" in shown[0] and "The next game starts now" in shown[0]
    assert "game 2 of 3" in shown[1]
    last = shown[2]
    assert "game 3 of 3" in last and "alice: scores" in last and "duplicate" in last
    expected = score_match(games, [s.name for s in await bot.storage.seats(first)])
    mine = expected[0]
    assert mine.name == "alice" and len(mine.raw) == 3
    raw = ", ".join(str(r) for r in mine.raw)
    assert f"alice: scores {raw}" in last
    assert f"duplicate {round(100 * (mine.share or 0))}%" in last
