"""Issue 37 with several processes on PostgreSQL: a web table's socket may reach a process that
does not run its game; the hello, the actions and the frames travel between the two through
PostgreSQL's LISTEN/NOTIFY (bot/activity/relay.py), and the person plays as if it were local."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.process.shards import LEASE_SECONDS
from fakecord import FakeDiscord
from fakecord.wiring import discord_pointed_at
from testbed.games import HANG_GUARD, open_game, text_of, wait_for
from testbed.people import table_message
from tests.storage_backends import Backend

from .test_activity import Activity, Json, Table, play_from_sockets_until_a_card, turn_seat
from .test_failover import second_guild, sharded
from .test_network_faults import free_port

#: The key the processes share (bot/activity/seal.py), as .env.example says to make one.
RELAY_KEY = "k7W1vQ3y9Zp2RrC8tHnXa4LmE6sJdB0uGfKcYoTiV5w"


@pytest.mark.slow(40)
async def test_a_socket_on_another_process_plays_through_the_relay(
    postgres_url: str, tmp_path: Path
) -> None:
    fake = FakeDiscord(shards=2)
    await fake.start()
    fake.enable_activities()
    backend = Backend("postgresql", postgres_url)
    database = tmp_path / "data" / "nines.sqlite3"
    ports = (free_port(), free_port())
    processes = [sharded(fake, backend, database, shard) for shard in (0, 1)]
    for process, port in zip(processes, ports, strict=True):
        process.env.update(
            ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret, RELAY_KEY=RELAY_KEY
        )
    guild, channel = second_guild(fake)  # on shard 1: the second process runs its games
    carol, dave = fake.add_user("carol", guild=guild), fake.add_user("dave", guild=guild)
    try:
        with discord_pointed_at(fake):
            for process in processes:
                await process.start()
            game = await open_game(
                fake, carol, people=(dave,), computers=("easy",), start=3, channel=channel
            )
            async with aiohttp.ClientSession() as http:
                edge = Activity(fake, None, ports[0], http)
                holder = Activity(fake, None, ports[1], http)
                where: dict[str, Any] = {"channel": channel, "guild_id": str(guild.id)}
                # Carol's socket reaches the first process; Dave's the one running the game.
                carols = await edge.open(carol, **where)
                daves = await holder.open(dave, **where)
                for (_, ready), seat in ((carols, 0), (daves, 1)):
                    assert ready["op"] == "ready", ready
                    assert ready["you"]["seat"] == seat and ready["table"]["game_id"] == game
                assert turn_seat(carols[1]["table"]) == turn_seat(daves[1]["table"])
                # The first process runs none of the guild's games: it relayed Carol's socket.
                assert "relaying its socket" in processes[0].log.read_text()
                sockets = {0: carols, 1: daves}
                seat, card, table = await play_from_sockets_until_a_card(edge, sockets)
                assert card not in table["hand"]["cards"]
                name = ("carol", "dave")[seat]

                def shown() -> bool:
                    chat = table_message(fake, carol, channel)
                    return chat is not None and f"{name} **" in text_of(chat)

                await wait_for(fake, shown, what=f"{name}'s card on the chat table")
                # A key resent through the relay is answered again, not applied twice.
                mover, _ = sockets[seat]
                await mover.send(op="act", key=f"k-{seat}-{card}", action=card)
                assert (await mover.next("ack"))["key"] == f"k-{seat}-{card}"
                # A channel with no game: refused and closed (issue 44: a game another process
                # opens there is not heard here, so the page asks again minutes later).
                empty = fake.add_channel(guild, "empty")
                lone, refused = await edge.open(carol, channel=empty, guild_id=str(guild.id))
                assert (refused["op"], refused["code"]) == ("error", "no-game")
                assert await lone.closed(within=HANG_GUARD)
    finally:
        for process in processes:
            process.stop()
        await fake.stop()


@pytest.mark.slow(60)
async def test_a_relayed_socket_follows_its_game_to_the_process_taking_over(
    postgres_url: str, tmp_path: Path
) -> None:
    """The process running the game is killed; the other takes its shard over, with the game:
    the socket it relayed gets the table again and plays on, through the new holder."""
    fake = FakeDiscord(shards=2)
    await fake.start()
    fake.enable_activities()
    backend = Backend("postgresql", postgres_url)
    database = tmp_path / "data" / "nines.sqlite3"
    ports = (free_port(), free_port())
    processes = [sharded(fake, backend, database, shard) for shard in (0, 1)]
    for process, port in zip(processes, ports, strict=True):
        process.env.update(
            ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret, RELAY_KEY=RELAY_KEY
        )
    guild, channel = second_guild(fake)
    carol, dave = fake.add_user("carol", guild=guild), fake.add_user("dave", guild=guild)
    try:
        with discord_pointed_at(fake):
            for process in processes:
                await process.start()
            await open_game(
                fake, carol, people=(dave,), computers=("easy",), start=3, channel=channel
            )
            async with aiohttp.ClientSession() as http:
                edge = Activity(fake, None, ports[0], http)
                where: dict[str, Any] = {"channel": channel, "guild_id": str(guild.id)}
                carols = await edge.open(carol, **where)
                assert carols[1]["op"] == "ready"
                processes[1].kill()
                # Taken over within the lease (15 s) and a renewal; the socket hears the
                # new holder within one more JOIN_EVERY.
                table, _ = carols
                frame = await table.next(within=LEASE_SECONDS + HANG_GUARD)
                assert frame["op"] in ("ready", "table"), frame
                daves = await edge.open(dave, **where)
                assert daves[1]["op"] == "ready" and daves[1]["you"]["seat"] == 1
                latest = frame["table"]
                sockets = {0: (table, {"seq": 0, "table": latest}), 1: daves}
                seat, card, _ = await play_from_sockets_until_a_card(edge, sockets)
                name = ("carol", "dave")[seat]
                await wait_for(
                    fake,
                    lambda: f"{name} **" in text_of(table_message(fake, carol, channel)),
                    within=HANG_GUARD,
                    what=f"{name}'s {card} on the chat table",
                )
    finally:
        for process in processes:
            process.stop()
        await fake.stop()


@pytest.mark.slow(60)
async def test_a_key_resent_to_the_process_taking_over_gets_its_first_answer(
    postgres_url: str, tmp_path: Path
) -> None:
    """Keys are stored with the moves they made (migration 0012): the process running the game
    is killed after a person's moves; each key resent to the process that took the game over
    is acknowledged as the first time, and no move is made twice."""
    fake = FakeDiscord(shards=2)
    await fake.start()
    fake.enable_activities()
    backend = Backend("postgresql", postgres_url)
    database = tmp_path / "data" / "nines.sqlite3"
    ports = (free_port(), free_port())
    processes = [sharded(fake, backend, database, shard) for shard in (0, 1)]
    for process, port in zip(processes, ports, strict=True):
        process.env.update(
            ACTIVITY_PORT=str(port), DISCORD_CLIENT_SECRET=fake.client_secret, RELAY_KEY=RELAY_KEY
        )
    guild, channel = second_guild(fake)  # on shard 1: the second process runs its games
    carol, dave = fake.add_user("carol", guild=guild), fake.add_user("dave", guild=guild)
    storage = await backend.open()
    try:
        with discord_pointed_at(fake):
            for process in processes:
                await process.start()
            game = await open_game(
                fake, carol, people=(dave,), computers=("easy",), start=3, channel=channel
            )
            async with aiohttp.ClientSession() as http:
                edge = Activity(fake, None, ports[0], http)
                where: dict[str, Any] = {"channel": channel, "guild_id": str(guild.id)}
                sockets = {
                    0: await edge.open(carol, **where),
                    1: await edge.open(dave, **where),
                }
                seat, card, _ = await play_from_sockets_until_a_card(edge, sockets)
                people = [a for a in await storage.actions(game) if not a.by_computer]
                keys = [(s, f"k-{s}-{a.action}") for s in (0, 1) for a in people if a.seat == s]
                assert (seat, f"k-{seat}-{card}") in keys
                processes[1].kill()
                # The first process takes the shard over and the game with it; the sockets
                # it relayed get their table from it.
                for table, _ in sockets.values():
                    frame = await table.next(within=LEASE_SECONDS + HANG_GUARD)
                    assert frame["op"] in ("ready", "table"), frame
                for s, key in keys:
                    table, _ = sockets[s]
                    await table.send(op="act", key=key, action=key.split("-", 2)[2])
                    answer = await answered(table, key)
                    assert answer == {"op": "ack", "key": key}, answer
                # Each of the people's moves is stored once, whoever answered its resend.
                after = [a for a in await storage.actions(game) if not a.by_computer]
                assert after[: len(people)] == people
                assert len(after) == len(people)
    finally:
        await storage.close()
        for process in processes:
            process.stop()
        await fake.stop()


async def answered(table: Table, key: str) -> Json:
    """The answer (ack or error) to ``key``, the table frames before it skipped."""
    while True:
        frame = await table.next(within=HANG_GUARD)
        if frame["op"] in ("ack", "error") and frame.get("key") == key:
            return frame
