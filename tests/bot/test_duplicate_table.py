"""``/nines start duplicate:on`` played whole through the double, in both games (issue 47): the
deals come round to every seat, one game after another; each end says which game of the match
it was, and the last shows every player's raw scores and duplicate result; each game's sheet
shows the raw scores and the running duplicate result, after a restart mid-match too."""

from __future__ import annotations

import functools
import random

import pytest

from bot.app import NinesBot
from bot.game import points_of, score_match
from bot.words import tr
from cogs.nines.render import rules_embed
from engine import Game, Rules, parse_action
from engine.duplicate import Rotations
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


async def play_match(
    fake: FakeDiscord, bot: NinesBot, alice: User, games: int, *, until: int | None = None
) -> None:
    """Alice plays each game of the match whenever it is her turn, until its last end (or,
    ``until``, until that game of the match has begun: that many games ended, the next on)."""
    channel = fake.channel
    rng = random.Random(5)
    for _ in range(5000):
        if len(ends(fake, alice, channel)) == games:
            return
        if until is not None and len(ends(fake, alice, channel)) == until:
            now = bot.sessions.in_channel(channel.id)
            if now is not None and now.game is not None and now.status == "live":
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
    # Each game's sheet: the raw scores, then the running duplicate result.
    assert "Duplicate, hand by hand (game 1 of 3)" in shown[0]
    assert "The first game of the match" in shown[0]
    for number in (2, 3):
        assert f"Duplicate, hand by hand (game {number} of 3)" in shown[number - 1]
        assert duplicate_total(shown[number - 1]) == running_total(games[:number])


def duplicate_total(text: str) -> list[str]:
    """The cells of the duplicate block's last row: each player's share of the match so far
    (``text``: as ``text_of`` reads a message, its embeds as JSON)."""
    block = text.split("Duplicate, hand by hand", 1)[1].split("```")[1].replace("\\n", "\n")
    cells = block.strip().splitlines()[-1].split()
    assert cells[0] == "total", block
    return cells[1:]


def running_total(games: list[Game]) -> list[str]:
    """What the last of ``games`` shows as the match's total so far, seat by seat."""
    rules = games[-1].rules
    match = Rotations(rules.players, tuple(points_of(g) for g in games[:-1]))
    totals = match.standing(points_of(games[-1])).totals
    firsts = [rules.seats_of(u)[0] for u in range(rules.units)]
    return [
        "-" if totals[s][1] == 0 else f"{round(100 * totals[s][0] / totals[s][1])}%" for s in firsts
    ]


async def test_a_restart_mid_match_keeps_the_running_result(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """The process dies in the match's second game: restored, that game still knows the first
    (its sheet's running result), and the match goes on to its end."""
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    channel = fake.channel
    res = await fake.slash(
        alice, channel, "nines start", ruleset="nein-nine", duplicate="on", rounds=1
    )
    assert res.message is not None and not res.errors
    first = game_id_of(res.message)
    for level in ("hard", "easy"):
        await fake.click(alice, res.message, f"nines:1:lobby:{first}:cpu-{level}")
    await fake.click(alice, res.message, "Start")
    await play_match(fake, bot, alice, 3, until=1)
    second = bot.sessions.in_channel(channel.id)
    assert second is not None and second.id != first and second.duplicate is not None
    before = second.duplicate
    await bot.close()
    bot = await start_bot()
    assert await bot.sessions.restored(30)
    again = bot.sessions.get(second.id)
    assert again is not None and again.duplicate == before
    assert again.duplicate.rotation == 1 and again.duplicate.games == 3
    await play_match(fake, bot, alice, 3)
    match = await bot.storage.duplicate_games(first)
    games = []
    for game_id in match:
        row = await bot.storage.game(game_id)
        assert row is not None and row.status == "finished"
        actions = [(a.seat, parse_action(a.action)) for a in await bot.storage.actions(game_id)]
        games.append(Game.replay(Rules.from_dict(row.rules), row.seed, actions))
    shown = [text_of(m) for m in ends(fake, alice, channel)]
    assert len(shown) == 3
    assert duplicate_total(shown[1]) == running_total(games[:2])
    assert duplicate_total(shown[2]) == running_total(games)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("ruleset", ["classic", "nein-nine"])
def test_the_rules_say_how_a_duplicate_match_is_scored(lang: str, ruleset: str) -> None:
    """``/nines rules``: the daily's scoring in a few sentences, and the table of friends'."""
    embed = rules_embed(lang, Rules.from_settings(ruleset))
    field = next(f for f in embed.fields if f.name == tr(lang, "rules.h.daily"))
    text = " ".join((field.value or "").split())
    assert " ".join(tr(lang, "rules.daily").split()) in text
    assert " ".join(tr(lang, "rules.duplicate").split()) in text
    assert ("half for a tie" if lang == "en" else "un demi pour une égalité") in text
