"""Discord requests per card, and the bot's own answer time: `python -m bench.bot_requests [N]`.

Plays N games of classic Nines through the Discord double (fakecord): the real bot, started
through its own startup code with a real SQLite file, two people who click their moves through
their private hands at machine speed (one click a move, no thinking time) and a computer player
in the third seat. For every move a person makes it counts the Discord requests the bot made
because of that click (the click's own answer, table edits, new messages; computer moves that
follow are part of the same click), and the bot's time from the double dispatching the
INTERACTION_CREATE to the double receiving its callback POST (measured in this process).

Targets: at most two requests a card (the answer and one table edit), p99 under 50 ms.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    import discord  # noqa: F401

from bot.base import Settings
from bot.process.run import build_bot
from cogs.nines import ids
from engine import Action, Exchange
from fakecord.interactions import MESSAGE_COMPONENT
from fakecord.models import Message, User
from fakecord.server import FakeDiscord
from fakecord.wiring import discord_pointed_at, run_client, stop_client
from testbed.notebook import delivery

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def move_id(game_id: int, n: int, action: Action) -> str:
    return ids.move_click(game_id, n, action).custom_id


def kind_of(method: str, route: str, path: str, table_id: int | None) -> str:
    if route == CALLBACK:
        return "answer"
    if method == "PATCH" and table_id is not None and path.endswith(f"/messages/{table_id}"):
        return "table edit"
    if method == "POST" and route == "/channels/{channel_id}/messages":
        return "new message"
    return f"{method} {route}"


async def end_posted(fake: FakeDiscord, game_id: int) -> None:
    """settle() can return while the bot draws the score chart (tens of ms without a request):
    wait for the game-over message itself."""
    rematch = ids.RematchClick(game_id).custom_id
    for _ in range(1000):
        messages = fake.store.messages.get(fake.channel.id, [])
        if any(b.custom_id == rematch for m in messages for b in m.buttons()):
            await fake.settle()
            return
        await asyncio.sleep(0.01)
    raise RuntimeError("no game-over message")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(games: int, seed: int) -> None:
    rng = random.Random(seed)
    per_card: list[int] = []  # requests per card, on clicks that did not end a hand
    per_end: list[int] = []  # requests per card that ended a hand (or the game)
    per_decision: list[int] = []  # exchange (keep/swap) clicks
    global_cost: list[int] = []  # of them, under Discord's global limit, per card
    kinds_card: Counter[str] = Counter()
    kinds_end: Counter[str] = Counter()
    answer_ms: list[float] = []
    hands_played = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            with discord_pointed_at(fake):
                settings = Settings.from_mapping(
                    {
                        "DISCORD_TOKEN": fake.token,
                        "DATABASE_PATH": str(Path(tmp) / "nines.sqlite3"),
                        "DISCORD_API_BASE": fake.api_base,
                        "DISCORD_GATEWAY_URL": fake.gateway_url,
                        "COMPUTER_WORKERS": "0",
                        "LOG_LEVEL": "WARNING",
                    }
                )
                bot = await build_bot(settings)
                bot._connection.guild_ready_timeout = 0.05
                task = await run_client(bot, fake)
                await fake.settle()
                people = [fake.add_user("alice"), fake.add_user("bob")]
                by_id = {u.id: u for u in people}
                for number in range(games):
                    host, guest = people[number % 2], people[(number + 1) % 2]
                    res = await fake.slash(host, fake.channel, "nines start", start=5)
                    assert res.message is not None
                    lobby = res.message
                    await fake.click(guest, lobby, "Join")
                    await fake.click(host, lobby, "+ 🤖 Normal")
                    await fake.click(host, lobby, "Start")
                    await fake.settle()  # the table is drawn once the Start is answered
                    session = bot.sessions.in_channel(fake.channel.id)
                    assert session is not None and session.game is not None
                    game = session.game
                    hands: dict[int, Message] = {}
                    while not game.over:
                        seat = game.turn
                        assert seat is not None
                        user: User = by_id[session.seats[seat].user_id or 0]
                        if user.id not in hands:
                            table = fake.store.message_by_id(
                                delivery(session).table_message_id or 0
                            )
                            opened = await fake.click(user, table, "My hand")
                            assert opened.message is not None
                            hands[user.id] = opened.message
                        action = rng.choice(list(game.legal_actions(seat)))
                        table_id = delivery(session).table_message_id
                        hand_before = game.hand_number
                        mark = len(fake.requests)
                        inter = await fake._interact(
                            MESSAGE_COMPONENT,
                            user,
                            fake.channel,
                            {
                                "custom_id": move_id(session.id, session.n, action),
                                "component_type": 2,
                            },
                            wait=True,
                            source=hands[user.id],
                        )
                        assert inter.acknowledged and not inter.errors, inter
                        if session.closed:  # the game is over (or ended)
                            await end_posted(fake, session.id)
                        sent = fake.requests[mark:]
                        # When the callback reached the double (before the double checks its
                        # body against Discord's OpenAPI spec: that is the double's time).
                        arrived = next(
                            r.time for r in sent if r.route == CALLBACK and str(inter.id) in r.path
                        )
                        answer_ms.append(1000 * (arrived - inter.created_at))
                        kinds = Counter(kind_of(r.method, r.route, r.path, table_id) for r in sent)
                        if not isinstance(action, Exchange):
                            global_cost.append(sum(1 for r in sent if r.under_global_limit))
                        if isinstance(action, Exchange):
                            per_decision.append(len(sent))
                        elif game.over or game.hand_number != hand_before:
                            per_end.append(len(sent))
                            kinds_end.update(kinds)
                            if "-v" in sys.argv:
                                print(
                                    "hand", hand_before, "ended; game over:", game.over, dict(kinds)
                                )
                        else:
                            per_card.append(len(sent))
                            kinds_card.update(kinds)
                            if len(sent) > 2 and "-v" in sys.argv:
                                print("card with", len(sent), "requests:", dict(kinds))
                    hands_played += game.hand_number
                await fake.settle()
                failed = [i for i in fake.interactions.values() if i.failed or i.errors]
                violations = list(fake.violations)
                all_requests = list(fake.requests)
                await stop_client(bot, task)
    elapsed = time.perf_counter() - started
    cards = per_card + per_end
    rate_limited = sum(1 for r in all_requests if r.status == 429)
    over_two = sum(1 for n in cards if n > 2)
    print(
        f"games: {games} ({hands_played} hands), person moves: {len(answer_ms)} "
        f"({len(cards)} cards, {len(per_decision)} keep/swap), wall time {elapsed:.1f} s"
    )
    print(
        f"Discord requests per card a person plays: mean {statistics.mean(cards):.3f}, "
        f"max {max(cards)}, over two: {over_two}/{len(cards)} "
        f"({100 * over_two / len(cards):.1f}%)"
    )
    print(
        f"  under Discord's global limit (issue 31: at most 0.25): mean "
        f"{statistics.mean(global_cost):.3f} a card, max {max(global_cost)}; "
        f"responses of 429: {rate_limited}"
    )
    print(
        f"  cards within a hand ({len(per_card)}): mean {statistics.mean(per_card):.3f}, "
        f"max {max(per_card)}; by kind: {dict(kinds_card)}"
    )
    if per_end:
        print(
            f"  cards that end a hand ({len(per_end)}): mean {statistics.mean(per_end):.3f}, "
            f"max {max(per_end)}; by kind: {dict(kinds_end)}"
        )
    if per_decision:
        print(
            f"  keep/swap decisions ({len(per_decision)}): mean "
            f"{statistics.mean(per_decision):.3f}, max {max(per_decision)}"
        )
    print(
        f"bot's answer time, INTERACTION_CREATE dispatched -> callback received (ms): "
        f"p50 {pct(answer_ms, 0.50):.1f}, p95 {pct(answer_ms, 0.95):.1f}, "
        f"p99 {pct(answer_ms, 0.99):.1f}, max {max(answer_ms):.1f}"
    )
    print(
        f"failed or errored interactions: {len(failed)}; requests Discord would refuse: "
        f"{len(violations)}"
    )


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "-v"]
    games = int(args[0]) if args else 5
    seed = int(args[1]) if len(args) > 1 else 1
    asyncio.run(bench(games, seed))


if __name__ == "__main__":
    main()
