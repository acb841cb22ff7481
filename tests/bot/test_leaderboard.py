"""End of hand and game, ratings and the leaderboard, stats, rules, stopping a game.

Games are short (start=3, instant win on) and mostly computers; the people click their moves
through their private hands (one interaction a move)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.app import NinesBot
from bot.game import GameSession
from bot.storage import GameResult, Seat, SeatResult, player_key
from bot.table import short_codes
from bot.words import and_list
from cogs.nines.render import SUMMARY_ROWS
from engine import HandEnded
from fakecord import FakeDiscord
from fakecord.models import Message, User
from testbed.notebook import delivery
from testbed.people import end_message
from testbed.reading import as_read

from .conftest import StartBot
from .test_lobby import (
    all_acknowledged,
    current,
    full_lobby,
    ok,
    play_fast,
    refused,
    snapshot,
)

SHORT = {"start": 3, "instant_win": "on"}


async def play_game(
    fake: FakeDiscord, bot: NinesBot, people: list[User], computers: int, seed: int, **opts: Any
) -> GameSession:
    host, *others = people
    lobby = await full_lobby(fake, host, *others, computers=computers, **{**SHORT, **opts})
    ok(await fake.click(host, lobby, "Start"))
    session = await play_fast(fake, bot, people, fake.channel, seed=seed)
    await fake.settle()
    assert session.game is not None and session.game.over
    assert bot.sessions.in_channel(fake.channel.id) is None
    return session


def sheet_rows(block: str) -> list[list[str]]:
    """The rows of a score sheet code block, split on spaces."""
    inner = block.split("```")[1]
    return [line.split() for line in inner.strip().splitlines()]


def summaries(fake: FakeDiscord, user: User) -> list[Message]:
    return [
        m
        for m in fake.visible(user, fake.channel)
        if m.embeds and " is over" in str(m.embeds[0].get("title"))
    ]


def person_totals(session: GameSession, user: User) -> dict[str, int]:
    """Tricks, hands, swaps and exchanges of a seat, counted from the engine's own log."""
    game = session.game
    assert game is not None
    seat = session.seat_of(user.id)
    tricks = sum(h.result.tricks_won[seat] for h in game.hands_log if h.result is not None)
    decisions = [swap for h in game.hands_log for s, swap in h.exchange if s == seat]
    return {
        "tricks": tricks,
        "hands": game.hand_number,
        "swaps": sum(decisions),
        "exchanges": len(decisions),
        "won": int(seat in (game.winners or ())),
    }


# -- end of hand and game ----------------------------------------------------------------------


@pytest.mark.slow(35)
async def test_hand_summaries_end_message_and_rematch(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    bot = await start_bot()
    alice, bob, eve = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("eve")
    session = await play_game(fake, bot, [alice, bob], computers=1, seed=3, start=4)
    game = session.game
    assert game is not None
    # Each player's column is headed by a short code, unique, spelled out under the sheet.
    # A computer's code is made from its name, as people's are (issue 46: not N1).
    codes = short_codes("en", [s.name for s in session.seats])
    computers = [c for c, s in zip(codes, session.seats, strict=True) if s.is_computer]
    assert computers and not any(re.fullmatch(r"[EFNHD]\d", c) for c in computers), codes

    # One summary per hand, spare revealed, and the sheet so far (N12): a head row, the start
    # row, then one row per hand (the latest ones) with its number, trump, dealer and every
    # score; no column adds them up (issue 46). The last hand's sheet is the end message's:
    # shown once.
    shown = summaries(fake, alice)
    assert len(shown) == game.hand_number
    assert "The spare hand was:" in shown[-1].embeds[0]["description"]
    assert "```" not in shown[-1].embeds[0]["description"]
    for number, message in enumerate(shown[:-1], start=1):
        text = message.embeds[0]["description"]
        result = game.hands_log[number - 1].result
        assert isinstance(result, HandEnded)
        assert "The spare hand was:" in text
        rows = sheet_rows(text)
        assert rows[0] == ["#", "Tr", "Dl", *codes]
        start = game.start_scores
        assert rows[1] == ["start", *map(str, start)]
        kept = game.sheet[max(0, number - SUMMARY_ROWS) : number]
        assert rows[2:] == ([["..."]] if number > SUMMARY_ROWS else []) + [
            [
                str(sheet.number),
                "NT" if sheet.trump is None else sheet.trump.value,
                codes[sheet.dealer],
                *map(str, sheet.scores),
            ]
            for sheet in kept
        ]
        assert all(
            f"{s.name} ({c})" in as_read(text) for c, s in zip(codes, session.seats, strict=True)
        )

    # The end: winners named, the final sheet, ratings, and Rematch.
    end = end_message(fake, alice, fake.channel)
    assert end is not None
    text = as_read(end.embeds[0]["description"])
    winners = and_list("en", [session.seats[s].name for s in game.winners or ()])  # names
    assert f"Winner: {winners}" in text
    last = game.sheet[-1]  # the last hand's row, which its summary leaves to this message
    assert sheet_rows(text)[-1] == [
        str(last.number),
        "NT" if last.trump is None else last.trump.value,
        codes[last.dealer],
        *map(str, last.scores),
    ]
    assert len(sheet_rows(text)) == 2 + game.hand_number
    assert any(f["name"] == "Ratings" for f in end.embeds[0]["fields"])

    # Rematch: someone who did not play is refused; a player opens a lobby with the same seats.
    refused(await fake.click(eve, end, "Rematch"), eve, "Only the players")
    assert bot.sessions.in_channel(fake.channel.id) is None
    res = ok(await fake.click(bob, end, "Rematch"))
    assert res.message is not None and not res.ephemeral
    rematch = bot.sessions.in_channel(fake.channel.id)
    assert rematch is not None and rematch.id != session.id and rematch.status == "lobby"
    assert rematch.host_id == bob.id
    assert {(s.user_id, s.difficulty) for s in rematch.seats} == {
        (s.user_id, s.difficulty) for s in session.seats
    }
    assert rematch.seats[0].user_id == bob.id
    assert "(host)" in str(res.message.embeds[0]) and rematch.rules == session.rules
    # A second Rematch click finds the new lobby, privately: she is seated in it (issue 29).
    refused(await fake.click(alice, end, "Rematch"), alice, "already seated in the rematch")
    all_acknowledged(fake)


# -- ratings, leaderboard, stats ---------------------------------------------------------------


@pytest.mark.slow(45)
async def test_leaderboard_and_stats_after_several_games(
    fake_discord: FakeDiscord, start_bot: StartBot
):
    fake = fake_discord
    bot = await start_bot()
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    played = [
        await play_game(fake, bot, [alice, bob], computers=1, seed=1),
        await play_game(fake, bot, [carol, bob], computers=1, seed=2),
        await play_game(fake, bot, [alice, bob], computers=1, seed=4),
    ]
    # A stopped game is never counted.
    lobby = await full_lobby(fake, alice, bob, computers=1, **SHORT)
    ok(await fake.click(alice, lobby, "Start"))
    ok(await fake.slash(alice, fake.channel, "nines stop"))

    expected: dict[int, dict[str, int]] = {}
    for session in played:
        for user in (alice, bob, carol):
            if session.seat_of(user.id) is None:
                continue
            mine = expected.setdefault(
                user.id,
                dict.fromkeys(("games", "wins", "tricks", "hands", "swaps", "exchanges"), 0),
            )
            totals = person_totals(session, user)
            mine["games"] += 1
            mine["wins"] += totals["won"]
            for key in ("tricks", "hands", "swaps", "exchanges"):
                mine[key] += totals[key]
    rows, total = await bot.storage.leaderboard(fake.guild.id, "nines")
    assert total == 3
    for row in rows:
        user_id = int(row.player_key.split(":")[1]) if ":" in row.player_key else None
        mine = expected[next(u for u in expected if player_key(u, None) == row.player_key)]
        assert (row.games, row.wins, row.tricks, row.hands, row.swaps, row.exchanges) == (
            mine["games"],
            mine["wins"],
            mine["tricks"],
            mine["hands"],
            mine["swaps"],
            mine["exchanges"],
        ), user_id
    history = await bot.storage.history(fake.guild.id)
    assert sorted(h.status for h in history) == ["abandoned", "finished", "finished", "finished"]

    # /nines leaderboard: people ranked by rating, computers apart.
    res = ok(await fake.slash(carol, fake.channel, "nines leaderboard"))
    assert res.message is not None
    embed = res.message.embeds[0]
    lines = as_read(embed["description"]).splitlines()
    assert len(lines) == 3
    for rank, (line, row) in enumerate(zip(lines, rows, strict=True), start=1):
        games = f"{row.games} game" + ("" if row.games == 1 else "s")  # "1 game", "2 games"
        wins = f"{row.wins} win" + ("" if row.wins == 1 else "s")
        rating = f"{round(row.rating):,}"  # "1,058": the language's own grouping
        assert line.startswith(f"{rank}. **{row.name}** · {rating} · {games}")
        assert f"{wins} ({100 * row.wins / row.games:.0f}%)" in line
    assert [row.rating for row in rows] == sorted((row.rating for row in rows), reverse=True)
    robots = next(f for f in embed["fields"] if f["name"] == "Computer players")
    with_computer = sum(1 for s in played if any(seat.is_computer for seat in s.seats))
    assert as_read(robots["value"]).startswith("🤖 Easy bot")
    assert f"· {with_computer} games" in robots["value"]
    assert "🤖" not in embed["description"]
    assert embed["footer"]["text"] == "Page 1 of 1"

    # /nines stats [member]: games, wins, average tricks per hand, swap rate, rating.
    for user, who in ((alice, None), (bob, bob), (carol, carol)):
        options = {} if who is None else {"member": who}
        res = ok(
            await fake.slash(user if who is None else alice, fake.channel, "nines stats", **options)
        )
        assert res.message is not None
        text = res.message.embeds[0]["description"]
        mine = expected[user.id]
        row = await bot.storage.stats(fake.guild.id, "nines", player_key(user.id, None))
        assert row is not None
        rate = 100 * mine["wins"] / mine["games"]
        assert f"Games: {mine['games']} · wins: {mine['wins']} ({rate:.0f}%)" in text
        assert f"Average tricks per hand: {mine['tricks'] / mine['hands']:.2f}" in text
        assert mine["exchanges"]  # classic games: everyone was offered the spare hand
        swaps = 100 * mine["swaps"] / mine["exchanges"]
        assert f"Swapped for the spare hand: {swaps:.0f}% of the times they could" in text
        assert f"Rating: {round(row.rating):,}" in text
        assert user.name in as_read(res.message.embeds[0]["title"])
    eve = fake.add_user("eve")
    res = ok(await fake.slash(eve, fake.channel, "nines stats"))
    assert res.message is not None and "No rated games yet" in str(res.message.embeds[0])
    all_acknowledged(fake)


async def test_leaderboard_pages(fake_discord: FakeDiscord, start_bot: StartBot):
    """Twelve ranked people (results stored directly: the page layout is under test)."""
    fake = fake_discord
    bot = await start_bot()
    storage = bot.storage
    people = [fake.add_user(f"p{i:02}") for i in range(12)]
    for g in range(4):
        trio = people[3 * g : 3 * g + 3]
        row = await storage.create_game(
            guild_id=fake.guild.id,
            channel_id=1000 + g,
            kind="nines",
            rules={"ruleset": "classic"},
            seed=g,
            host_id=trio[0].id,
        )
        await storage.set_seats(
            row.id, [Seat(i, u.name, u.id, False, None) for i, u in enumerate(trio)]
        )
        await storage.update_game(row.id, status="live")
        await storage.finish_game(
            row.id,
            GameResult(
                (0,),
                2,
                tuple(
                    SeatResult(i, player_key(u.id, None), u.name, False, i + 1, 8 - i, 2, 0, 2, i)
                    for i, u in enumerate(trio)
                ),
            ),
        )
    res = ok(await fake.slash(people[0], fake.channel, "nines leaderboard"))
    assert res.message is not None
    first = res.message.embeds[0]
    assert len(first["description"].splitlines()) == 10
    assert first["footer"]["text"] == "Page 1 of 2"
    res = ok(await fake.slash(people[0], fake.channel, "nines leaderboard", page=2))
    assert res.message is not None
    second = as_read(res.message.embeds[0]["description"]).splitlines()
    assert [line.split(".")[0] for line in second] == ["11", "12"]
    assert res.message.embeds[0]["footer"]["text"] == "Page 2 of 2"
    shown = {
        re.search(r"\*\*(.+?)\*\*", line).group(1)  # type: ignore[union-attr]
        for line in as_read(first["description"]).splitlines() + second
    }
    assert shown == {p.name for p in people}
    res = ok(await fake.slash(people[0], fake.channel, "nines leaderboard", page=9))
    assert res.message is not None and "No rated games yet" in str(res.message.embeds[0])
    all_acknowledged(fake)


async def test_rules_command(fake_discord: FakeDiscord, start_bot: StartBot):
    fake = fake_discord
    bot = await start_bot()
    alice = fake.add_user("alice")
    res = ok(await fake.slash(alice, fake.channel, "nines rules"))
    assert res.ephemeral and res.message is not None
    embed = res.message.embeds[0]
    assert embed["title"] == "Nines: the rules in short"
    score = next(f["value"] for f in embed["fields"] if f["name"] == "Scoring")
    assert "quota of 4 tricks" in score
    here = embed["footer"]["text"]
    assert here.startswith("Settings: Classic (3 players)") and "trumps: classic" in here
    await bot.storage.set_guild_settings(fake.guild.id, {"trumps": "quebec"})
    res = ok(await fake.slash(alice, fake.channel, "nines rules"))
    assert res.message is not None and "trumps: quebec" in str(res.message.embeds[0])
    res = ok(await fake.slash(alice, fake.channel, "nines rules", game="nein-nine"))
    assert res.message is not None and "Nein Nine" in res.message.embeds[0]["title"]
    all_acknowledged(fake)


# -- stopping ----------------------------------------------------------------------------------


async def test_stop_by_host_or_moderator_only(fake_discord: FakeDiscord, start_bot: StartBot):
    from fakecord.permissions import Perm

    fake = fake_discord
    bot = await start_bot()
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    mods = fake.add_role(fake.guild, "mods", int(Perm.MANAGE_MESSAGES))
    mod = fake.add_user("mod", roles=[mods])
    eve = fake.add_user("eve")

    # A live game: bob (a player, not the host) and eve are refused; nothing changes.
    lobby = await full_lobby(fake, alice, bob, computers=1, **SHORT)
    ok(await fake.click(alice, lobby, "Start"))
    session = bot.sessions.in_channel(fake.channel.id)
    assert session is not None
    table_id = delivery(session).table_message_id
    before = await snapshot(bot, session)
    refused(await fake.slash(bob, fake.channel, "nines stop"), bob, "Only the host")
    refused(await fake.slash(eve, fake.channel, "nines stop"), eve, "Only the host")
    assert await snapshot(bot, session) == before and not session.closed

    # The host stops it: said publicly, the table shows the end, the game is abandoned, unrated.
    res = ok(await fake.slash(alice, fake.channel, "nines stop"))
    assert res.message is not None and not res.ephemeral
    # Named, not mentioned: no notification is meant (issue 29).
    assert as_read(res.message.content) == "alice stopped the game."
    table = fake.store.message_by_id(table_id or 0)
    assert "Game ended" in str(table.embeds[0]) and "not rated" in str(table.embeds[0])
    assert not table.buttons()
    row = await bot.storage.game(session.id)
    assert row is not None and row.status == "abandoned" and row.end_reason == "stopped"
    assert not row.rated
    assert bot.sessions.in_channel(fake.channel.id) is None
    assert await bot.storage.leaderboard(fake.guild.id, "nines") == ([], 0)
    refused(await fake.slash(alice, fake.channel, "nines stop"), alice, "no game in this channel")

    # A moderator (Manage Messages) stops a lobby they are not in.
    lobby = await full_lobby(fake, bob)
    ok(await fake.slash(mod, fake.channel, "nines stop"))
    assert "Game ended" in str(current(fake, lobby).embeds[0])
    assert bot.sessions.in_channel(fake.channel.id) is None
    all_acknowledged(fake)
