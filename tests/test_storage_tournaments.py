"""A tournament's state on both databases (issue 48): created and found again after the storage
is reopened (a restart), registration with late joins and drops, a round paired once only (a
second pairing of the same round, as after a restart or by another process, writes nothing),
a table's game attached and its end recorded once, the game marked a tournament game."""

from __future__ import annotations

import asyncio

from bot.storage import Seat
from bot.storage.tournament_values import PairedTable, TournamentSpec
from tests.storage_backends import Backend

NOW = 1_700_000_000.0


def spec(**changes: object) -> TournamentSpec:
    values: dict[str, object] = {
        "guild_id": 100,
        "channel_id": 200,
        "host_id": 1,
        "name": "Winter cup",
        "ruleset": "classic",
        "seats": 3,
        "rounds": 3,
        "move_timer": 60,
        "round_minutes": 45,
        "duplicate": False,
        "seed": 4242,
        "settings": {"trumps": "quebec"},
        "start_at": NOW + 3600,
    }
    values.update(changes)
    return TournamentSpec(**values)  # type: ignore[arg-type]


async def test_a_tournament_survives_a_restart(backend: Backend) -> None:
    store = await backend.open(now=lambda: NOW)
    created = await store.create_tournament(spec())
    assert await store.join_tournament(created.id, 11, "Ann", 1)
    assert await store.join_tournament(created.id, 12, "Bob", 1)
    assert not await store.join_tournament(created.id, 11, "Ann", 1)  # registered already
    await store.set_tournament_messages(created.id, registration_message_id=900, event_id=901)
    await store.close()

    store = await backend.open(now=lambda: NOW)
    try:
        found = await store.tournament(created.id)
        assert found is not None
        assert (found.name, found.settings, found.status, found.current_round) == (
            "Winter cup",
            {"trumps": "quebec"},
            "registration",
            0,
        )
        assert (found.registration_message_id, found.event_id) == (900, 901)
        assert [t.id for t in await store.open_tournaments(100)] == [created.id]
        assert await store.open_tournaments(999) == []
        assert [e.name for e in await store.entrants(created.id)] == ["Ann", "Bob"]
    finally:
        await store.close()


async def test_joins_drops_and_status(backend: Backend) -> None:
    store = await backend.open(now=lambda: NOW)
    try:
        t = await store.create_tournament(spec())
        for user in (11, 12, 13):
            await store.join_tournament(t.id, user, f"p{user}", 1)
        assert await store.leave_tournament(t.id, 13, 1)  # before round one: off the list
        assert [e.user_id for e in await store.entrants(t.id)] == [11, 12]
        assert await store.check_in(t.id, 11)
        assert not await store.check_in(t.id, 13)
        assert await store.set_tournament_status(t.id, "running", was=["registration"])
        assert not await store.set_tournament_status(t.id, "running", was=["registration"])
        assert await store.join_tournament(t.id, 14, "late", 2)
        assert await store.leave_tournament(t.id, 12, 3)
        assert not await store.leave_tournament(t.id, 12, 3)
        entrants = {e.user_id: e for e in await store.entrants(t.id)}
        assert entrants[11].checked_in and not entrants[12].checked_in
        assert [u for u, e in entrants.items() if e.plays(1)] == [11, 12]
        assert [u for u, e in entrants.items() if e.plays(3)] == [11, 14]
        # Coming back after a drop: paired again from the round given.
        assert await store.join_tournament(t.id, 12, "p12", 4)
        assert (await store.entrants(t.id))[1].plays(4)
    finally:
        await store.close()


async def test_a_round_is_paired_once_and_a_table_ends_once(backend: Backend) -> None:
    store = await backend.open(now=lambda: NOW)
    try:
        t = await store.create_tournament(spec())
        await store.set_tournament_status(t.id, "running", was=["registration"])
        tables = [PairedTable(1, 1, 77, (11, None, 12)), PairedTable(1, 2, 78, (13, 14, 15))]
        other = [PairedTable(1, 1, 79, (15, 14, 13))]
        # Two pairings of round one at once (a failover's two processes): one wins whole.
        won = await asyncio.gather(
            store.pair_round(t.id, 1, tables, NOW + 60),
            store.pair_round(t.id, 1, other, NOW + 60),
        )
        assert sorted(won) == [False, True]
        stored = await store.tournament_tables(t.id, 1)
        assert stored in (tables, [*other])
        if stored != tables:  # the test's own pairing lost the race: carry on with the other
            tables = stored
        assert not await store.pair_round(t.id, 3, tables, NOW)  # not the next round
        found = await store.tournament(t.id)
        assert found is not None and (found.current_round, found.round_deadline) == (1, NOW + 60)

        game = await store.create_game(
            guild_id=100,
            channel_id=300,
            kind="nines",
            rules={"ruleset": "classic"},
            seed=77,
            host_id=11,
            seats=[Seat(0, "p11", user_id=11)],
        )
        assert await store.attach_table_game(t.id, 1, 1, game.id, 555)
        assert not await store.attach_table_game(t.id, 1, 1, game.id, 556)
        assert await store.tournament_of_game(game.id) == t.id
        assert await store.finish_table(t.id, 1, 1, [0, 5, 7])
        assert not await store.finish_table(t.id, 1, 1, [1, 1, 1])
        first = (await store.tournament_tables(t.id, 1))[0]
        assert (first.game_id, first.thread_id, first.scores, first.finished) == (
            game.id,
            555,
            (0, 5, 7),
            True,
        )
        assert first.players == tables[0].players
        assert await store.set_tournament_status(t.id, "finished", was=["running", "paused"])
        assert await store.open_tournaments() == []
    finally:
        await store.close()
