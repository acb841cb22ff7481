"""The load run's people (bench/load.py), in the double's process: chat people who click what
they are shown, at machine or human pace, and the Activity's people on web-table sockets."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench import socket_clients
from bench.load_report import Window

ROOT = Path(__file__).resolve().parents[1]

if TYPE_CHECKING:
    from fakecord import FakeDiscord
    from fakecord.models import Guild

# -- the bot side (child process) ------------------------------------------------------------

#: The pause before a person's card (seconds, uniform) by --pace, for the people who pause.
PAUSES = {"mixed": (0.5, 2.0), "human": (3.0, 7.0), "machine": (0.0, 0.0)}
#: How long the double may stay busy with the bot's work before it is quiet (200 tables opened,
#: 600 sockets' hellos, on a shared machine).
SETTLE_WITHIN = 120.0


def paused(pace: str, table: int) -> bool:
    """Whether the people of this table pause before a move (--pace mixed: every other)."""
    return pace == "human" or (pace == "mixed" and table % 2 == 0)


# -- the people (this process) ---------------------------------------------------------------


def shown_text(msg: Any) -> str:
    """Everything a message shows as text: its content, its embeds' titles, descriptions,
    fields and footers, and its text components (components v2)."""
    parts = [msg.content or ""]
    for embed in msg.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    parts += [c.get("content") or "" for c in msg.all_components() if c.get("type") == 10]
    return "\n".join(parts)


@dataclass
class ChatPlayed:
    """What the chat's people did and saw."""

    games_started: int
    person_moves: int
    refusals: int
    unanswered: int
    hand_clicks: dict[str, int]
    table_lags: list[float]
    never_shown: int
    #: Once every game was under way (the weighing at rest over) until new games stopped:
    #: the bot's CPU seconds, the person moves and the games opened in that span.
    steady: tuple[float, int, int] = (0.0, 0, 0)


async def socket_people(
    args: argparse.Namespace,
    fake: FakeDiscord,
    port: int,
    signal_bots: Callable[[int], None],
    bots: list[int],
) -> tuple[Window, dict[str, Any]]:
    """People at the Activity's web tables (``--clients sockets``, bench/socket_clients.py):
    the games opened, the bot weighed with them live and no socket ("baseline"), then with
    every socket open and idle ("rest"), not under play (weighing stops its loop); the
    sockets' own figures."""
    spec = await socket_clients.open_tables(
        fake, args.games, lambda g: PAUSES[args.pace if paused(args.pace, g) else "machine"]
    )
    await fake.settle(SETTLE_WITHIN)
    await asyncio.sleep(1.0)
    signal_bots(signal.SIGUSR1)
    await asyncio.sleep(1.0)
    clients = await socket_clients.SocketClients.start(spec, port, args.seconds)
    try:
        await clients.ready()
        # The hellos' own requests (tokens, users, instances) answered.
        await fake.settle(SETTLE_WITHIN)
        await asyncio.sleep(1.0)
        signal_bots(signal.SIGHUP)
        await asyncio.sleep(1.0)
        window = Window(fake, bots)
        await clients.go()
        figures = await clients.figures()
        played = time.monotonic() - window.started
        await fake.settle(SETTLE_WITHIN)  # the chat tables of the last cards shown
        window.close()
    finally:
        clients.kill()
    return window, {**figures, "sockets": len(spec), "played": played}


async def chat_people(
    args: argparse.Namespace,
    fake: FakeDiscord,
    guilds: list[Guild],
    signal_bots: Callable[[int], None],
    bots: list[int],
) -> tuple[Window, ChatPlayed]:
    """People in chat (``--clients chat``): each table's games one after another, their people
    clicking in the double; the bots weighed idle before, under load, and at rest."""
    from bot.chat import card_words
    from engine.cards import Card
    from fakecord.errors import UsageRefused
    from fakecord.models import Channel, Message, User

    signal_bots(signal.SIGUSR1)
    await asyncio.sleep(0.5)

    rng = random.Random(1)
    computers = [level.strip() for level in args.computers.split(",")] * 2
    channels = [
        fake.add_channel(guilds[i % len(guilds)], name=f"table-{i}") for i in range(args.games)
    ]
    await asyncio.sleep(0.5)
    person_moves = 0
    refusals = 0
    # Why people clicked "My hand": no hand of this game yet, or the one shown had no move
    # when a notification said it was their turn.
    hand_clicks = {"first": 0, "stale": 0}
    # Clicks on a message the bot had replaced (deleted) since the person last read it: a
    # client no longer shows it; the bench's people hold it a moment longer.
    gone: Counter[str] = Counter()
    games_started = 0
    stop_at = 0.0

    # Event-driven people: a channel's messages changing wakes its people (polling 200
    # tables would make this process, not the bot, the bottleneck). People read only what
    # Discord shows them: notifications (a mention in a newly created message) and their
    # newest private hand.
    changed: dict[int, asyncio.Event] = {ch.id: asyncio.Event() for ch in channels}
    notified: dict[int, list[Message]] = defaultdict(list)
    hands: dict[int, Message] = {}

    def has_cards(msg: Message) -> bool:
        return any(
            ":play:" in (b.custom_id or "") or ":xchg:" in (b.custom_id or "")
            for b in msg.buttons()
        )

    def announced(event: str, msg: Message) -> None:
        if msg.channel_id in changed:
            if event != "MESSAGE_DELETE" and awaited:
                watch_tables(msg)
            if event == "MESSAGE_CREATE" and msg.ephemeral_for is None:
                # A turn message names its person, pinged or not (the bot pings only
                # when it helps): people read the channel, not only their pings.
                named = {int(i) for i in re.findall(r"<@!?(\d+)>", msg.content or "")}
                for user_id in named | {user.id for user in msg.mentions}:
                    notified[user_id].append(msg)
            elif msg.ephemeral_for is not None and has_cards(msg):
                hands[msg.ephemeral_for] = msg
            changed[msg.channel_id].set()

    fake.message_watchers.append(announced)

    # Table lag: from a person's card click until a public message of the channel first
    # shows that card beside the player's name (as the trick and the last trick write
    # it: ``p3a **9♥**``, ``**p3a 9♥**``), read from what the bot sent the double.
    awaited: defaultdict[int, list[tuple[re.Pattern[str], float]]] = defaultdict(list)
    table_lags: list[float] = []
    never_shown = 0

    def card_shown(user: User, custom_id: str) -> re.Pattern[str]:
        # The bot names a seat by the person's display name (the double's is the user
        # name) between Unicode's isolate marks (U+2068, U+2069); a card by its face's emoji
        # (``<:9_of_hearts_1a2b3c:123>``, bot/chat/emojis.py; the Joker's sign has none), or by
        # its label where faces would pass a length limit, in the guild's notation (English).
        card = Card.parse(custom_id.rsplit(":", 1)[1])
        face = "(?!)" if card.suit is None else rf"<:{card_words(card, 'en')}_[0-9a-f]{{6}}:\d+>"
        shown = rf"(?:{re.escape(card.pretty)}|{face})"
        return re.compile(rf"(?<!\w){re.escape(user.name[:32])}\u2069?[ *]{{1,3}}{shown}")

    def watch_tables(msg: Message) -> None:
        nonlocal never_shown
        waiting = awaited.get(msg.channel_id)
        if not waiting or msg.ephemeral_for is not None:
            return
        text = shown_text(msg)
        now = fake.clock.now()
        still = []
        for pattern, clicked in waiting:
            if pattern.search(text):
                table_lags.append(now - clicked)
            elif now - clicked > 60:  # its game moved on without showing it
                never_shown += 1
            else:
                still.append((pattern, clicked))
        awaited[msg.channel_id] = still

    # People make no new move while ``go`` is clear (to weigh the games at rest).
    go = asyncio.Event()
    go.set()

    def over(channel: Channel, since: int) -> bool:
        """Whether the game started at message ``since`` of the channel has ended (only
        its own messages: the last game's end is often among the last three)."""
        for message in fake.store.messages.get(channel.id, [])[since:][-4:]:
            if any(b.label == "Rematch" for b in message.buttons()):
                return True
            if any("ran out of time" in json.dumps(e) for e in message.embeds):
                return True
        return False

    unanswered = 0

    async def answered(inter: Any) -> bool:
        """Whether the bot answered (a failed interaction is counted, not fatal)."""
        nonlocal unanswered
        try:
            await asyncio.wait_for(inter.answered.wait(), 10)
        except TimeoutError:
            unanswered += 1
            return False
        return True

    async def back() -> None:
        """Wait while people are paused; then come back within 2 s, as people would,
        not all in the same millisecond."""
        if not go.is_set():
            await go.wait()
            await asyncio.sleep(rng.uniform(0.0, 2.0))

    def enabled(hand: Message | None) -> list[str]:
        return [
            b.custom_id
            for b in (hand.buttons() if hand is not None else [])
            if b.custom_id and not b.disabled and ":hand:" not in b.custom_id
        ]

    async def person(user: User, channel: Channel, human: bool, since: int) -> None:
        nonlocal person_moves, refusals
        event = changed[channel.id]
        while not over(channel, since):
            await back()
            hand = hands.get(user.id)
            moves = enabled(hand)
            # Their turn shows in a message naming them, or in their own hand: the answer
            # to their last click gives them the turn with no ping (issue 29), and the bot
            # keeps the hand current (its cards enabled) when the turn comes back.
            if not notified[user.id] and not moves:
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), 1.0)
                continue
            note = notified[user.id][-1] if notified[user.id] else None
            notified[user.id].clear()
            if not moves and note is not None:
                hand_clicks["first" if hand is None else "stale"] += 1
                try:
                    inter = await fake.click(user, note, "My hand", wait=False)
                except UsageRefused:  # the turn message was replaced meanwhile: read again
                    gone["turn message"] += 1
                    continue
                await answered(inter)
                if inter.message is not None:
                    hands[user.id] = hand = inter.message
                moves = enabled(hand)
                if not moves:
                    continue
            if human:
                await asyncio.sleep(rng.uniform(*PAUSES[args.pace]))
            choice = rng.choice(moves)
            card = (card_shown(user, choice), fake.clock.now()) if ":play:" in choice else None
            if card is not None:
                awaited[channel.id].append(card)
            try:
                inter = await fake.click(user, hand, choice, wait=False)  # type: ignore[arg-type]
            except UsageRefused:  # the hand was replaced meanwhile (a client shows the new one)
                gone["hand"] += 1
                hands.pop(user.id, None)
                if card in awaited[channel.id]:
                    awaited[channel.id].remove(card)
                continue
            await answered(inter)
            person_moves += 1
            # A deferred answer (the game was busy) edits the hand a little later.
            answer = inter.message if inter.ack_type == 7 else None
            if answer is not None and "out of date" in (answer.content or ""):
                refusals += 1
                if card in awaited[channel.id]:  # refused: no table will show it
                    awaited[channel.id].remove(card)
            calls = [
                b.custom_id
                for b in (answer.buttons() if answer else [])
                if b.custom_id and ":joker:" in b.custom_id
            ]
            if calls:
                inter = await fake.click(user, answer, rng.choice(calls), wait=False)  # type: ignore[arg-type]
                await answered(inter)

    async def table_loop(i: int, channel: Channel) -> None:
        nonlocal games_started
        guild = guilds[i % len(guilds)]
        users = [fake.add_user(f"p{i}a", guild=guild), fake.add_user(f"p{i}b", guild=guild)]
        two = i % 5 == 0  # one game in five has two people
        human = paused(args.pace, i)
        await asyncio.sleep(i * args.ramp / max(args.games, 1))  # tables open over --ramp s
        while time.monotonic() < stop_at:
            await back()
            host = users[0]
            res = await fake.slash(host, channel, "nines start", start=5, wait=False)
            await answered(res)
            lobby = res.message
            if lobby is None or not lobby.buttons():  # the last game is still closing
                await asyncio.sleep(0.2)
                continue
            gid = lobby.buttons()[0].custom_id.split(":")[3]  # type: ignore[union-attr]
            if two:
                await answered(await fake.click(users[1], lobby, "Join", wait=False))
                levels = computers[:1]
            else:
                levels = computers[:2]
            for level in levels:
                await answered(
                    await fake.click(host, lobby, f"nines:1:lobby:{gid}:cpu-{level}", wait=False)
                )
            since = len(fake.store.messages.get(channel.id, []))
            await answered(await fake.click(host, lobby, "Start", wait=False))
            games_started += 1
            people = users[:2] if two else users[:1]
            await asyncio.gather(*(person(u, channel, human, since) for u in people))

    window = Window(fake, bots)
    stop_at = window.started + args.seconds
    tasks = [asyncio.create_task(table_loop(i, ch)) for i, ch in enumerate(channels)]
    await asyncio.sleep(min(args.seconds / 2, 20))
    signal_bots(signal.SIGUSR2)
    await asyncio.sleep(0.5)
    # Then at rest: no new click for a moment, every click answered and every table
    # edited, the games still live.
    go.clear()
    await asyncio.sleep(3.0)
    # ... once the double has heard nothing from the bot for a second (the tables' edits
    # queued under the global limit go out first), at most 30 s more.
    seen, quiet_since = len(fake.requests), time.monotonic()
    until = quiet_since + 30.0
    while time.monotonic() - quiet_since < 1.0 and time.monotonic() < until:
        await asyncio.sleep(0.1)
        if len(fake.requests) != seen:
            seen, quiet_since = len(fake.requests), time.monotonic()
    signal_bots(signal.SIGHUP)
    await asyncio.sleep(0.5)
    go.set()
    # The steady play: every table has long opened its first game (the ramp is over), so a
    # person move's CPU is a card's, not mostly the openings' (200 of them in the first 10 s
    # against a few thousand cards in a minute; a real game has scores of cards an opening).
    steady_from = (window.bots_cpu(), person_moves, games_started)
    ending = asyncio.create_task(asyncio.wait(tasks, timeout=args.seconds + args.drain))
    await asyncio.sleep(max(stop_at - time.monotonic(), 0.0))
    steady_to = (window.bots_cpu(), person_moves, games_started)
    steady = (
        steady_to[0] - steady_from[0],
        steady_to[1] - steady_from[1],
        steady_to[2] - steady_from[2],
    )
    done, pending = await ending
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            print("a table failed:", repr(task.exception()))
    window.close()
    if gone:
        print(f"clicks on a message the bot had replaced meanwhile (read again): {dict(gone)}")
    never_shown += sum(len(waiting) for waiting in awaited.values())
    return window, ChatPlayed(
        games_started,
        person_moves,
        refusals,
        unanswered,
        hand_clicks,
        table_lags,
        never_shown,
        steady,
    )
