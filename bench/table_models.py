"""The tables of one change, built as each medium used to build its own and as they share them now
(bot/table/table_models.py), in CPU time: a ratio that holds on a busy machine.

    .venv/bin/python bench/table_models.py [--changes 400]

Seeded games of each ruleset are played move by move; at each change the readers a card has:

- chat: the clicker's hand (``hand_answer``), the chat table (``TableMessage.show``) and the next
  player's refreshed hand (``refresh_hand``);
- web: the same, and each web viewer (every seat, and a watcher) sent its table's JSON text
  (``push_tables``).

"each its own" builds every model afresh (``table_model.build``) and serializes each viewer's
JSON whole (``table_json``, ``json.dumps``), as before; "shared" reads them through the store
and ``table_texts``. Printed: microseconds of CPU a change, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.activity.model import table_texts
from bot.activity.protocol import table_json
from bot.game.session import SeatInfo
from bot.table import TableModels, build
from engine import RULESETS, Game, Rules

NAMES = ["Élodie Côté", "Alexandre", "Sam", "Robin"]
AVATARS = {10**17 + i: f"https://cdn.example/{i}.png" for i in range(4)}


def session_for(game: Game, game_id: int) -> Any:
    seats = [SeatInfo(n, user_id=10**17 + i) for i, n in enumerate(NAMES[: game.rules.players])]
    return SimpleNamespace(
        id=game_id,
        seats=seats,
        game=game,
        rules=game.rules,
        language="en",
        host_id=seats[0].user_id,
        status="live",
        deadline=1_800_000_000.0,
    )


def changes(count: int) -> list[tuple[Any, int, int]]:
    """(session, clicker, next seat) at ``count`` changes of seeded games, each change its own
    game state (copies), as many live games are."""
    out: list[tuple[Any, int, int]] = []
    seed = 0
    while len(out) < count:
        for ruleset in RULESETS:
            game = Game(Rules.from_settings(ruleset, {}), seed)
            rng = random.Random(seed)
            while game.turn is not None and len(out) < count:
                seat = game.turn
                game.apply(seat, rng.choice(game.legal_actions(seat)))
                if rng.random() < 0.3:
                    nxt = game.turn if game.turn is not None else seat
                    out.append((session_for(game.copy(), len(out)), seat, nxt))
        seed += 1
    return out


def own(session: Any, clicker: int, nxt: int, web: bool) -> None:
    build(session, clicker)
    build(session, None, shown_tricks=0)
    build(session, nxt)
    if web:
        for viewer in [None, *range(session.game.rules.players)]:
            table = table_json(build(session, viewer, shown_tricks=0), AVATARS)
            json.dumps({"op": "table", "seq": 1, "table": table})


def shared(store: TableModels) -> Callable[[Any, int, int, bool], None]:
    def read(session: Any, clicker: int, nxt: int, web: bool) -> None:
        store.table(session, clicker)
        store.table(session, None, shown_tricks=0)
        store.table(session, nxt)
        if web:
            viewers = [None, *range(session.game.rules.players)]
            # Through the process's store, as the hub reads it.
            for text in table_texts(session, viewers, AVATARS, shown_tricks=0).values():
                f'{{"op":"table","seq":1,"table":{text}}}'

    return read


def timed(changes: list[tuple[Any, int, int]], read: Callable[..., None], web: bool) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for session, clicker, nxt in changes:
            read(session, clicker, nxt, web)
        best = min(best, time.process_time() - start)
    return best / len(changes) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=400)
    args = parser.parse_args()
    sample = changes(args.changes)
    for web in (False, True):
        before = timed(sample, own, web)
        from bot.table import MODELS

        after = timed(sample, shared(MODELS), web)
        kind = "web (chat and every socket)" if web else "chat"
        print(
            f"{kind}: each its own {before:.0f} us a change, shared {after:.0f} us "
            f"({before / after:.1f}x less CPU)"
        )


if __name__ == "__main__":
    main()
