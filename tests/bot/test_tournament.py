"""A tournament through the Discord double (issue 48): created by the server's owner, ten
people joining by button, round one's tables opened in threads of their own with their people
pinged, a late join and a drop, a restart during round one, each round's deadline passing
(computers finish the games left), a restart in the break between rounds one and two (the
standings not posted again), a restart during round two, final standings in the channel that
are the scoring rule's over the stored tables, the games marked in history and records and
counted on the leaderboard, and a click on the old registration message answered in words."""

from __future__ import annotations

import functools
import json

import pytest

import bot.tournament.runner as runner_module
from bot.app import NinesBot
from bot.tournament.standings import TableResult, standings
from fakecord import FakeDiscord
from fakecord.models import Message
from fakecord.permissions import Perm
from testbed.games import text_of, wait_for

from .conftest import StartBot


def registration(fake: FakeDiscord) -> Message:
    found = [
        m
        for m in fake.visible(fake.owner, fake.channel)
        if m.ephemeral_for is None and "Tournament" in text_of(m) and "🏆 Cup" in text_of(m)
    ]
    assert found
    return found[0]


def keys(players: tuple[int | None, ...]) -> list[str | None]:
    return [None if p is None else str(p) for p in players]


async def round_over(fake: FakeDiscord, bot: NinesBot, tid: int, number: int) -> None:
    """Move the tournament's clock past round ``number``'s deadline: computers finish it."""
    t = await bot.storage.tournament(tid)
    assert t is not None and t.current_round == number and t.round_deadline is not None
    await clock_to(fake, bot, t.round_deadline + 1)


async def break_over(fake: FakeDiscord, bot: NinesBot, tid: int) -> None:
    """Move the tournament's clock past the break after its round: the next round starts."""
    t = await bot.storage.tournament(tid)
    assert t is not None and t.next_round_at is not None
    await clock_to(fake, bot, t.next_round_at + 1)


async def clock_to(fake: FakeDiscord, bot: NinesBot, later: float) -> None:
    runner = bot.tournaments
    assert runner is not None
    runner.clock = lambda: later  # the tournament's clock only: the games' own timers run on
    await runner.recheck()
    await runner.idle()
    await fake.settle()


def standings_posts(fake: FakeDiscord, title: str) -> list[Message]:
    return [
        m
        for m in fake.visible(fake.owner, fake.channel)
        if m.ephemeral_for is None and title in text_of(m)
    ]


@pytest.mark.slow(60)
async def test_a_tournament_through_discord(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    fake = fake_discord
    bot = await start_bot()
    people = [fake.add_user(f"player{i}") for i in range(10)]

    made = await fake.slash(
        fake.owner,
        fake.channel,
        "nines tournament create",
        name="Cup",
        ruleset="classic",
        rounds=3,
        seats=3,
        minutes=5,
        **{"break": 10},
    )
    assert not made.errors and made.message is not None and not made.ephemeral
    # Someone without Manage Server may not run one.
    denied = await fake.slash(people[0], fake.channel, "nines tournament start")
    assert denied.ephemeral and "Manage Server" in text_of(denied.message)

    message = registration(fake)
    for person in people:
        res = await fake.click(person, message, "Join")
        assert res.ephemeral and "round 1" in text_of(res.message)
    again = await fake.click(people[0], message, "Join")
    assert "registered already" in text_of(again.message)
    assert "10 players" in text_of(await wait_for(fake, lambda: registration(fake)))

    started = await fake.slash(fake.owner, fake.channel, "nines tournament start")
    assert not started.errors
    (t,) = await bot.storage.open_tournaments(fake.guild.id)
    tables = await bot.storage.tournament_tables(t.id, 1)
    assert len(tables) == 4  # ten people at tables of three: two computers, nobody out
    for table in tables:
        assert table.thread_id is not None and table.game_id is not None
        thread = fake.store.channels[table.thread_id]
        assert thread.is_thread and thread.parent_id == fake.channel.id
        said = [m for m in fake.store.messages.get(thread.id, []) if m.ephemeral_for is None]
        pinged = {u.id for m in said for u in m.mentions}
        assert pinged == {p for p in table.players if p is not None}

    # A click on the registration message after the start: answered in words.
    res = await fake.click(people[0], registration(fake), "Check in")
    assert res.ephemeral and "check-in is over" in text_of(res.message)

    # A late join and a drop during round one.
    late = fake.add_user("late")
    res = await fake.click(late, registration(fake), "Join")
    assert "round 2" in text_of(res.message)
    res = await fake.click(people[3], registration(fake), "Leave")
    assert "games you played stand" in text_of(res.message)

    # A restart during round one: the tables are neither lost nor paired again.
    await bot.close()
    bot = await start_bot()
    await wait_for(fake, lambda: bot.sessions.get(tables[0].game_id or 0), what="restored games")
    assert await bot.storage.tournament_tables(t.id, 1) == tables

    await round_over(fake, bot, t.id, 1)
    assert len(standings_posts(fake, "standings after round 1")) == 1
    assert await bot.storage.tournament_tables(t.id, 2) == []  # the break runs

    # A restart between rounds: the standings are not posted again, the break keeps its time.
    paused = await bot.storage.tournament(t.id)
    await bot.close()
    bot = await start_bot()
    await wait_for(
        fake, lambda: bot.tournaments and t.id in bot.tournaments.armed(), what="resumed"
    )
    await fake.settle()
    assert len(standings_posts(fake, "standings after round 1")) == 1
    assert await bot.storage.tournament(t.id) == paused
    await break_over(fake, bot, t.id)
    second = await bot.storage.tournament_tables(t.id, 2)
    seated = {p for x in second for p in x.players if p}
    assert late.id in seated and people[3].id not in seated

    await bot.close()  # during round two
    bot = await start_bot()
    await wait_for(fake, lambda: bot.sessions.get(second[0].game_id or 0), what="restored games")
    await round_over(fake, bot, t.id, 2)
    await break_over(fake, bot, t.id)
    await round_over(fake, bot, t.id, 3)
    assert len(standings_posts(fake, "standings after round 2")) == 1

    done = await bot.storage.tournament(t.id)
    assert done is not None and done.status == "finished"
    every = await bot.storage.tournament_tables(t.id)
    entrants = [str(e.user_id) for e in await bot.storage.entrants(t.id)]
    expected = standings(
        entrants,
        [TableResult(x.round, tuple(keys(x.players)), x.scores or (), False) for x in every],
        duplicate=False,
        scale=2,  # classic: two opponents
    )
    final = [
        m
        for m in fake.visible(fake.owner, fake.channel)
        if m.ephemeral_for is None and "final standings" in text_of(m)
    ]
    assert len(final) == 1
    names = {str(u.id): u.name for u in [*people, late]}
    lines = final[0].embeds[0]["description"].splitlines()
    shown = [
        line.split(". ", 1)[1].split(":")[0].removesuffix(" ✗").strip("\u2068\u2069")
        for line in lines
    ]
    assert shown == [names[s.person] for s in expected]
    best = expected[0]
    shown_points = f"{round(best.points, 2):g} (opponents' average"
    average = f"{round(best.opponents_points, 2):g}, games {best.games})"
    ids = "".join(f" · #{x.game_id}" for x in every if int(best.person) in x.players)
    assert lines[0].endswith(f": {shown_points} {average}{ids}")  # and each person's games

    # Its games are marked in history and in their records.
    history = await fake.slash(people[0], fake.channel, "nines history")
    assert f"tournament {t.id}" in text_of(history.message)
    rows = await bot.storage.history(fake.guild.id, limit=50)
    assert {r.game_id for r in rows if r.tournament_id == t.id} == {x.game_id for x in every}
    record = await fake.slash(people[0], fake.channel, "nines record", number=every[0].game_id)
    assert not record.errors and record.message is not None
    (attachment,) = record.message.attachments
    assert json.loads(attachment.data)["tournament"] == t.id
    # They count on the leaderboard as other games do: each person's games, all of them.
    ranked, _total = await bot.storage.leaderboard(fake.guild.id, "nines", 1, 50)
    games = {row.name: row.games for row in ranked}
    assert games == {names[s.person]: s.games for s in expected if s.games}
    board = await fake.slash(people[0], fake.channel, "nines leaderboard")
    assert names[expected[0].person] in text_of(board.message)

    # The old registration message, clicked after the end: answered in words.
    res = await fake.click(people[0], registration(fake), "Join")
    assert res.ephemeral and "over" in text_of(res.message)


@pytest.mark.slow(30)
async def test_a_timed_start_offered_as_an_event_and_a_champion_role(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """With Manage Events the start is offered as a scheduled event; the tournament starts by
    itself at its time; the winner gets the champion role where the bot may give it (Manage
    Roles, the role below the bot's own), and where it may not the channel is told."""
    fake = fake_discord
    fake.bot_role.permissions |= Perm.MANAGE_EVENTS | Perm.MANAGE_ROLES
    fake.bot_role.position = 5
    champion = fake.add_role(fake.guild, "Champion", 0)
    champion.position = 2  # below the bot's role: may be given
    too_high = fake.add_role(fake.guild, "Legend", 0)
    too_high.position = 9  # above it: may not
    bot = await start_bot()
    people = [fake.add_user(f"solo{i}") for i in range(3)]
    for role, name in ((champion, "Cup"), (too_high, "Shield")):
        made = await fake.slash(
            fake.owner,
            fake.channel,
            "nines tournament create",
            name=name,
            ruleset="classic",
            rounds=1,
            champion_role=role,
            start_in=30,
        )
        assert not made.errors, made.errors
        (t,) = [x for x in await bot.storage.open_tournaments(fake.guild.id) if x.name == name]
        message = await wait_for(
            fake,
            lambda t=t: next(  # type: ignore[misc]
                (
                    m
                    for m in fake.visible(fake.owner, fake.channel)
                    if m.ephemeral_for is None and f"Tournament {t.id}" in text_of(m)
                ),
                None,
            ),
        )
        for person in people:
            await fake.click(person, message, "Join")
        found = await bot.storage.tournament(t.id)
        assert found is not None and found.event_id is not None
        event = fake.store.scheduled_events[found.event_id]
        assert event["name"] == name and event["entity_type"] == 3
        assert event["entity_metadata"] == {"location": f"<#{fake.channel.id}>"}

        runner = bot.tournaments
        assert runner is not None and found.start_at is not None
        runner.clock = functools.partial(float, found.start_at + 1)  # its start time comes
        await runner.recheck()
        await runner.idle()
        started = await bot.storage.tournament(t.id)
        assert started is not None and started.status == "running"
        await round_over(fake, bot, t.id, 1)
        done = await bot.storage.tournament(t.id)
        assert done is not None and done.status == "finished"
        _, rows = await runner.standings_now(t.id)
        winner = fake.guild.members[int(rows[0].person)]
        if role is champion:
            assert champion.id in winner.role_ids
        else:
            assert too_high.id not in winner.role_ids
            await wait_for(
                fake,
                lambda: any(
                    "Legend" in m.content and "could not be given" in m.content
                    for m in fake.visible(fake.owner, fake.channel)
                ),
            )


async def test_the_servers_tournament_role_may_run_one(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    hosts = fake.add_role(fake.guild, "Hosts", 0)
    host = fake.add_user("host", roles=[hosts])
    other = fake.add_user("other")
    await start_bot()
    refused = await fake.slash(
        host, fake.channel, "nines tournament create", name="Cup", ruleset="classic"
    )
    assert refused.ephemeral and "tournament role" in text_of(refused.message)
    named = await fake.slash(fake.owner, fake.channel, "nines settings set", tournament_role=hosts)
    assert not named.errors and f"<@&{hosts.id}>" in text_of(named.message)
    made = await fake.slash(
        host, fake.channel, "nines tournament create", name="Cup", ruleset="classic"
    )
    assert not made.errors and not made.ephemeral and "🏆 Cup" in text_of(made.message)
    denied = await fake.slash(other, fake.channel, "nines tournament start")
    assert denied.ephemeral and "Manage Server" in text_of(denied.message)


async def test_the_hosts_commands_through_discord(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    fake = fake_discord
    bot = await start_bot()
    people = [fake.add_user(f"p{i}") for i in range(4)]
    nothing = await fake.slash(fake.owner, fake.channel, "nines tournament start")
    assert nothing.ephemeral and "no tournament open" in text_of(nothing.message)
    await fake.slash(
        fake.owner, fake.channel, "nines tournament create", name="Cup", ruleset="classic"
    )
    message = registration(fake)
    for person in people:
        await fake.click(person, message, "Join")
    await fake.slash(fake.owner, fake.channel, "nines tournament start")
    (t,) = await bot.storage.open_tournaments(fake.guild.id)

    paused = await fake.slash(fake.owner, fake.channel, "nines tournament pause")
    assert paused.ephemeral and "paused" in text_of(paused.message)
    again = await fake.slash(fake.owner, fake.channel, "nines tournament pause")
    assert again.ephemeral and "not running" in text_of(again.message)
    removed = await fake.slash(
        fake.owner, fake.channel, "nines tournament remove", member=people[0]
    )
    assert removed.ephemeral and "no longer paired" in text_of(removed.message)
    resumed = await fake.slash(fake.owner, fake.channel, "nines tournament resume")
    assert resumed.ephemeral and not resumed.errors

    table = await fake.slash(people[1], fake.channel, "nines tournament standings")
    assert not table.ephemeral and "standings so far (round 1)" in text_of(table.message)
    rules = await fake.slash(people[1], fake.channel, "nines tournament help")
    assert rules.ephemeral and "Swiss" in text_of(rules.message)

    cancelled = await fake.slash(fake.owner, fake.channel, "nines tournament cancel")
    assert not cancelled.ephemeral and "cancelled" in text_of(cancelled.message)
    found = await bot.storage.tournament(t.id)
    assert found is not None and found.status == "cancelled"
    for x in await bot.storage.tournament_tables(t.id, 1):
        game = await bot.storage.game(x.game_id or 0)
        assert game is not None and game.status == "abandoned"


class Crash(BaseException):
    """The bot dies at a seam (no ``except Exception`` of the runner's catches it)."""


@pytest.mark.slow(40)
@pytest.mark.parametrize("seam", ["tournament_table_called", "tournament_standings_posted"])
async def test_a_restart_between_a_post_and_its_mark_shows_it_once(
    fake_discord: FakeDiscord,
    start_bot: StartBot,
    monkeypatch: pytest.MonkeyPatch,
    seam: str,
) -> None:
    """The bot dies after pinging a table's people, or after posting a round's standings,
    before storing that it did: the restarted bot posts it again with the same nonce, which
    Discord answers with the message it made (the double as Discord: ``enforce_nonce``), so
    the thread shows one call and the channel one set of standings."""
    fake = fake_discord
    dead: list[str] = []

    def failpoint(name: str) -> None:
        if name == seam or dead:
            dead.append(name)
            raise Crash(name)

    monkeypatch.setattr(runner_module, "failpoint", failpoint)
    bot = await start_bot()
    people = [fake.add_user(f"seat{i}") for i in range(3)]
    await fake.slash(
        fake.owner, fake.channel, "nines tournament create", name="Cup", ruleset="classic", rounds=2
    )
    message = registration(fake)
    for person in people:
        await fake.click(person, message, "Join")
    await fake.slash(fake.owner, fake.channel, "nines tournament start")
    (t,) = await bot.storage.open_tournaments(fake.guild.id)
    if not dead:
        await round_over(fake, bot, t.id, 1)
    assert dead, "the seam was never reached"
    monkeypatch.setattr(runner_module, "failpoint", lambda name: None)
    await bot.close()
    bot = await start_bot()
    await wait_for(
        fake,
        lambda: bot.tournaments is not None and t.id in bot.tournaments.armed(),
        what="the tournament resumed",
    )
    await fake.settle()
    (table,) = await bot.storage.tournament_tables(t.id, 1)
    assert table.called and table.thread_id is not None
    thread = fake.store.messages.get(table.thread_id, [])
    calls = [m for m in thread if "is dealt" in (m.content or "")]
    assert len(calls) == 1 and {u.id for u in calls[0].mentions} == {p.id for p in people}
    if seam == "tournament_standings_posted":
        assert len(standings_posts(fake, "standings after round 1")) == 1

        def calls() -> int:  # a table's people called, in its thread: after it is stored
            return sum(
                "is dealt" in (m.content or "") for ms in fake.store.messages.values() for m in ms
            )

        # Round two is paired and called after the break, in the runner's own time.
        await wait_for(fake, lambda: calls() >= 2, what="round two's table called")
        assert len(await bot.storage.tournament_tables(t.id, 2)) == 1  # round two goes on
