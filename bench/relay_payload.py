"""How large, and how dear, the relay's sealed table frames are (a script, not a test).

    PYTHONPATH=. python bench/relay_payload.py [--games 3]

A NOTIFY payload must be under 8000 bytes (bot/activity/relay.py's PAYLOAD_LONGEST, 7900): a
longer frame is not relayed. For each ruleset, ``--games`` random games are played to their end
with every seat's name 32 emoji long (the longest a seat stores) and an avatar for each; every
seventh move, the table frame of seat 0 and of a watcher is built with the Activity's own
``table_json``, then relayed two ways: as before issue 44 (zlib, base64, in the message's JSON)
and sealed (bot/activity/seal.py: the whole message compressed, padded to 256 bytes, AES-256-GCM,
base64). Printed:
the largest of each, with its frame's JSON size and hand number, then the time to seal and to
open one such frame (this machine, one core).
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import time
import zlib
from typing import Any

from bot.activity.model import table_for
from bot.activity.protocol import table_json
from bot.activity.relay import PAYLOAD_LONGEST
from bot.activity.seal import Seal
from bot.game.session import GameSession, SeatInfo
from bot.storage.values import GameRow
from engine import RULESETS, Game, Rules

CHANNEL = "nines_activity_0123456789abcdef"
NAME = "\N{PLAYING CARD ACE OF SPADES}" * 32
AVATAR = "https://cdn.discordapp.com/avatars/{}/" + "a" * 32 + ".png"


def session(rules: Rules, game: Game) -> GameSession:
    row = GameRow(
        id=10**6, guild_id=1, channel_id=2, thread_id=None, kind=rules.game,
        rules=rules.to_dict(), seed=0, status="live", host_id=10**18, language="en",
        lobby_message_id=None, table_message_id=None, turn_deadline=None, created_at=0.0,
        updated_at=0.0, ended_at=None, end_reason=None, hands_played=None, rated=True,
    )  # fmt: skip
    seats = [SeatInfo(NAME, 10**18 + i) for i in range(rules.players)]
    deps: Any = None  # building a table touches none of its dependencies
    return GameSession(row, seats, deps, players=rules.players, game=game)


def message(text: str) -> dict[str, Any]:
    return {"t": "frame", "from": "0123456789abcdef", "game": 10**6, "user": 10**18, "frame": text}


def before(text: str) -> str:
    """The message as relayed before issue 44: the frame zlib'd and base64'd in plain JSON."""
    packed = base64.b64encode(zlib.compress(text.encode(), 6)).decode()
    plain = {**message(text), "z": packed}
    del plain["frame"]
    return json.dumps(plain, separators=(",", ":"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    seal = Seal("k" * 43)
    largest = ""
    print(
        f"ruleset: largest sealed / before (bytes), its frame's JSON, hand; limit {PAYLOAD_LONGEST}"
    )
    for name in RULESETS:
        rules = Rules.from_settings(name)
        worst = (0, 0, 0, 0)
        for seed in range(args.games):
            game, rng = Game(rules, seed), random.Random(seed)
            live = session(rules, game)
            avatars = {
                10**18 + i: f"https://cdn.discordapp.com/avatars/{10**18 + i}/{'a' * 32}.png"
                for i in range(rules.players)
            }
            moves = 0
            while not game.over and game.turn is not None:
                game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
                moves += 1
                if moves % 7:
                    continue
                for viewer in (0, None):
                    table = table_json(table_for(live, viewer), avatars)
                    text = json.dumps({"op": "table", "seq": 99999, "table": table})
                    sealed = seal.seal(CHANNEL, message(text))
                    measured = (len(sealed), len(before(text)), len(text), game.hand_number)
                    worst = max(worst, measured)
                    if len(text) > len(largest):
                        largest = text
        print(f"{name}: {worst[0]} / {worst[1]}, frame {worst[2]}, hand {worst[3]}")
    reader = Seal("k" * 43)
    rounds = 2000
    sealed_ones = []
    started = time.perf_counter()
    for _ in range(rounds):
        sealed_ones.append(seal.seal(CHANNEL, message(largest)))
    sealing = (time.perf_counter() - started) / rounds
    started = time.perf_counter()
    for payload in sealed_ones:
        reader.open(CHANNEL, payload)
    opening = (time.perf_counter() - started) / rounds
    print(
        f"the largest frame ({len(largest)} bytes of JSON): sealed in {sealing * 1e6:.0f} us, "
        f"opened in {opening * 1e6:.0f} us"
    )


if __name__ == "__main__":
    main()
