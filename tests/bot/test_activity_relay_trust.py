"""Issue 44, item 7: the relay between processes (bot/activity/relay.py) trusts only the
processes holding RELAY_KEY, and outlives a dropped connection.

Two real bot processes on one PostgreSQL, the game run by the second; Carol's socket reaches the
first (relayed), Dave's the second. Someone else on the database forges, replays and reads: it
reads nothing, and what it sends is dropped, counted and changes nothing. The relay's listening
connections are terminated from the database: each re-opens, and Carol plays on."""

from __future__ import annotations

import asyncio
import base64
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from bot.activity.relay import APPLICATION_NAME, CHANNEL
from bot.activity.seal import Seal
from bot.words import card_label
from engine import Card
from fakecord import FakeDiscord, User
from fakecord.wiring import discord_pointed_at
from testbed.games import HANG_GUARD, open_game, text_of, wait_for
from testbed.people import table_message
from tests.storage_backends import Backend
from tests.test_relay_seal import readable

from .test_activity import Activity, Json, Table, play_from_sockets_until_a_card, turn_seat
from .test_activity_shards import RELAY_KEY
from .test_failover import second_guild, sharded
from .test_network_faults import free_port
from .test_restart import BotProcess

LISTENING = re.compile(r"listening on nines_activity and nines_activity_([0-9a-f]{16})")
DROPPED = re.compile(r'nines_activity_relay_dropped_total\{reason="(\w+)"\} (\d+)')


@dataclass
class Node:
    """One bot process: its Activity, its metrics' port and its log."""

    process: BotProcess
    activity: Activity
    metrics_port: int

    def relay_ids(self) -> list[str]:
        """The relay's id, once for each connection it listened on (its log)."""
        return LISTENING.findall(self.process.log.read_text())

    async def dropped(self) -> dict[str, int]:
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        async with self.activity.http.get(url) as answer:
            text = await answer.text()
        return {reason: int(n) for reason, n in DROPPED.findall(text)}


@dataclass
class Game:
    fake: FakeDiscord
    id: int
    carol: User
    dave: User
    edge: Node  # Carol's socket reaches it: relayed
    holder: Node  # runs the game; Dave's socket reaches it
    where: dict[str, Any]

    async def open(self) -> dict[int, tuple[Table, Json]]:
        """Carol (seat 0) on the edge, Dave (seat 1) on the holder: their sockets and ready."""
        carols = await self.edge.activity.open(self.carol, **self.where)
        daves = await self.holder.activity.open(self.dave, **self.where)
        for (_, ready), seat in ((carols, 0), (daves, 1)):
            assert ready["op"] == "ready" and ready["you"]["seat"] == seat, ready
        return {0: carols, 1: daves}

    async def shown_in_chat(self, seat: int, card: str) -> None:
        """``seat`` played ``card``: the chat table says so."""
        name, label = ("carol", "dave")[seat], card_label(Card.parse(card), "en")

        def shown() -> bool:
            chat = table_message(self.fake, self.carol, self.where["channel"])
            return chat is not None and f"{name} **{label}**" in text_of(chat)

        await wait_for(self.fake, shown, what=f"{name}'s {label} on the chat table")


@asynccontextmanager
async def relayed_game(postgres_url: str, tmp_path: Path) -> AsyncIterator[Game]:
    fake = FakeDiscord(shards=2)
    await fake.start()
    fake.enable_activities()
    backend = Backend("postgresql", postgres_url)
    database = tmp_path / "data" / "nines.sqlite3"
    processes = [sharded(fake, backend, database, shard) for shard in (0, 1)]
    ports = [(free_port(), free_port()) for _ in processes]
    for process, (port, metrics) in zip(processes, ports, strict=True):
        process.env.update(
            ACTIVITY_PORT=str(port),
            DISCORD_CLIENT_SECRET=fake.client_secret,
            RELAY_KEY=RELAY_KEY,
            METRICS_PORT=str(metrics),
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
                edge, holder = (
                    Node(process, Activity(fake, None, port, http), metrics)
                    for process, (port, metrics) in zip(processes, ports, strict=True)
                )
                where = {"channel": channel, "guild_id": str(guild.id)}
                yield Game(fake, game, carol, dave, edge, holder, where)
    finally:
        for process in processes:
            process.stop()
        await fake.stop()


async def until_the_turn_of(seat: int, sockets: dict[int, tuple[Table, Json]]) -> Json:
    """The people play from their sockets (the computer plays itself) until ``seat`` is to play
    a card; its latest table."""
    latest = {s: ready["table"] for s, (_, ready) in sockets.items()}
    for _ in range(20):
        table = latest[seat]
        turn = turn_seat(table)
        if turn == seat and table["phase"] == "play":
            return table
        if turn in sockets:
            socket, _ = sockets[turn]
            legal = latest[turn]["hand"]["legal"]
            action = "keep" if "keep" in legal else legal[0]
            await socket.send(op="act", key=f"k-{turn}-{action}", action=action)
            assert await socket.next("ack") == {"op": "ack", "key": f"k-{turn}-{action}"}
        moves = max(t["n"] for t in latest.values())
        for s, (socket, _) in sockets.items():
            latest[s] = (await socket.table_where(lambda t, m=moves: t["n"] > m))["table"]
    raise AssertionError(f"seat {seat} never had a card to play")


async def until(fake: FakeDiscord, check: Callable[[], Awaitable[bool]], *, what: str) -> None:
    """``wait_for`` with a check that awaits (the bot's metrics are read over HTTP)."""
    for _ in range(400):
        if await check():
            return
        await wait_for(fake, lambda: True)  # what the double had to do, done
        await asyncio.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


@pytest.mark.slow(50)
async def test_forged_unsigned_and_replayed_messages_are_dropped_counted_and_change_nothing(
    postgres_url: str, tmp_path: Path
) -> None:
    async with relayed_game(postgres_url, tmp_path) as game:
        edge_id, holder_id = game.edge.relay_ids()[0], game.holder.relay_ids()[0]
        to_holder, to_edge = f"{CHANNEL}_{holder_id}", f"{CHANNEL}_{edge_id}"
        # Someone else on the database listens to every channel of the relay.
        heard: list[tuple[str, str]] = []
        spy = await asyncpg.connect(postgres_url)
        try:
            for channel in (CHANNEL, to_holder, to_edge):
                await spy.add_listener(channel, lambda _c, _p, ch, text: heard.append((ch, text)))
            sockets = await game.open()
            carols, _ = sockets[0]
            table = await until_the_turn_of(0, sockets)
            action = table["hand"]["legal"][0]
            # Carol's page sends an action that is not one: refused, through the relay.
            await carols.send(op="act", key="not-one", action="zz")
            assert (await carols.next())["code"] == "bad-request"
            # What the spy heard: each message sealed, no name or hand in sight. (Which is her
            # act, which the answer, is told here with the key, only to choose what to replay.)
            relayed = await wait_for(
                game.fake,
                lambda: (
                    (kinds := {opened(*m)["t"]: m for m in heard}).keys() >= {"act", "frame"}
                    and kinds
                ),
                what="the spy hearing Carol's act and its answer",
            )
            for _, text in heard:
                assert text.startswith("n1.")
                raw = base64.b64decode(text[3:])
                seen = raw + readable(raw)
                assert b"carol" not in seen and b"hand" not in seen and b"frame" not in seen
            assert (await game.holder.dropped(), await game.edge.dropped()) == ({}, {})
            forged = {
                "t": "act",
                "from": edge_id,
                "game": game.id,
                "user": game.carol.id,
                "key": "forged",
                "action": action,
            }
            notify = "SELECT pg_notify($1, $2)"
            await spy.execute(notify, to_holder, json.dumps(forged))  # unsigned
            await spy.execute(notify, to_holder, Seal(RELAY_KEY[::-1]).seal(to_holder, forged))
            await spy.execute(notify, *relayed["act"])  # replayed to the holder
            await spy.execute(notify, *relayed["frame"])  # and to the edge

            async def counted() -> bool:
                return (await game.holder.dropped(), await game.edge.dropped()) == (
                    {"unsigned": 1, "forged": 1, "replayed": 1},
                    {"replayed": 1},
                )

            await until(game.fake, counted, what="the four messages dropped and counted")
        finally:
            await spy.close()
        # Nothing was applied, nothing sent to Carol's socket: the first frame it gets after
        # is the answer to her own move, which is still hers to make.
        await carols.send(op="act", key="carol-1", action=action)
        assert await carols.next() == {"op": "ack", "key": "carol-1"}
        await game.shown_in_chat(0, action)
        for node in (game.holder, game.edge):
            log = node.process.log.read_text()
            warned = [line for line in log.splitlines() if "do not open with RELAY_KEY" in line]
            assert len(warned) == 1 and "WARNING" in warned[0], warned  # once a minute


@pytest.mark.slow(60)
async def test_a_relay_whose_connection_is_terminated_reopens_and_its_socket_plays_on(
    postgres_url: str, tmp_path: Path
) -> None:
    """The holder's listening connection, then the edge's, terminated from the database (the
    edge's while the database refuses new connections, so it tries again, later and later):
    each relay listens again, Carol's relayed socket is closed to resync (its page reconnects
    and gets the table whole), and a move played after is answered and shown."""
    async with relayed_game(postgres_url, tmp_path) as game:
        sockets = await game.open()
        # The server's own database: a database refuses new connections only from another.
        database = postgres_url.rsplit("/", 1)[1]
        admin = await asyncpg.connect(postgres_url.rsplit("/", 1)[0] + "/postgres")
        try:
            for node in (game.holder, game.edge):
                refusing = node is game.edge
                if refusing:
                    await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false')
                name = f"{APPLICATION_NAME}-{node.relay_ids()[0]}"
                terminated = await admin.fetchval(
                    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                    "FROM pg_stat_activity WHERE datname = $1 AND application_name = $2",
                    database,
                    name,
                )
                assert terminated == 1
                if refusing:

                    def retried(n: Node = node) -> bool:
                        return n.process.log.read_text().count("cannot reach PostgreSQL") >= 2

                    await wait_for(game.fake, retried, what="two tries refused")
                    await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
                carols, _ = sockets[0]
                assert await carols.closed(within=HANG_GUARD), "the relayed socket was not resynced"
                await wait_for(game.fake, lambda n=node: len(n.relay_ids()) == 2)
                assert "re-opening it" in node.process.log.read_text()
                await sockets[1][0].ws.close()
                sockets = await game.open()
                seat, card, _ = await play_from_sockets_until_a_card(game.edge.activity, sockets)
                await game.shown_in_chat(seat, card)
                # Listening again, both ends are each other's: no message was taken for forged.
                assert await game.holder.dropped() == {} and await game.edge.dropped() == {}
        finally:
            await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true')
            await admin.close()


def opened(channel: str, payload: str) -> Json:
    """A relayed message, opened with the processes' key (not the spy's to have)."""
    reader = Seal(RELAY_KEY)
    reader.listening_since = 0.0
    return reader.open(channel, payload)
