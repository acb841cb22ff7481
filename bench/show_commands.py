"""Print what the informational commands show, as Discord would (a script, not a test).

    .venv/bin/python bench/show_commands.py [--lang fr]

The real bot against the Discord double, the reader and the server in the chosen language:
the lobby of each ruleset, ``/nines rules`` for each ruleset (default settings, then changed
ones), ``/nines settings show`` (default, then changed), and after one played game
``/nines leaderboard``, ``/nines stats`` (a newcomer's, a player's, Nein Nine's),
``/nines history`` and a lobby stopped by ``/nines stop``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.show_game import bot_against_double, ends, shown  # noqa: E402
from engine import RULESETS  # noqa: E402

#: Changed server settings, to see every setting spelled out.
CHANGED: dict[str, Any] = {
    "trumps": "quebec",
    "start": 7,
    "exchange": "dealer",
    "ties": "joint",
    "instant_win": "on",
    "rounds": 5,
    "limit": 4,
    "turn_timer": 90,
    "difficulty": "hard",
    "pings": "off",
}


async def main(args: argparse.Namespace) -> None:
    from testbed.games import game_id_of
    from testbed.people import NotifiedPerson

    async with bot_against_double(args.lang) as fake:
        fake.owner.locale = args.lang
        alice = fake.add_user("Élodie Côté", locale=args.lang)
        bob = fake.add_user("Alexandre", locale=args.lang)

        async def show(title: str, user: Any, command: str, **options: Any) -> Any:
            res = await fake.slash(user, fake.channel, command, **options)
            print(f"=== {title}")
            assert res.message is not None, res.errors
            print(shown(res.message))
            return res

        for name in RULESETS:
            res = await show(f"lobby {name}", alice, "nines start", ruleset=name)
            await show(f"rules {name} (its lobby open)", alice, "nines rules")
            await fake.click(alice, res.message, f"nines:1:lobby:{game_id_of(res.message)}:cancel")
            await fake.settle()
        await show("settings show (defaults)", fake.owner, "nines settings show")
        await show("settings set", fake.owner, "nines settings set", **CHANGED)
        await show(
            "settings show (changed)", fake.owner, "nines settings set", ruleset="four-player"
        )
        await show("settings show (changed)", fake.owner, "nines settings show")
        await show("rules (server: four-player, changed)", alice, "nines rules")
        await show("rules nein-nine (changed)", alice, "nines rules", game="nein-nine")
        await show("settings reset", fake.owner, "nines settings reset")

        await show("leaderboard (empty)", alice, "nines leaderboard")
        await show("stats (none)", alice, "nines stats")
        for ruleset in ("classic", "nein-nine"):
            await play(fake, alice, bob, ruleset, game_id_of, NotifiedPerson)
        await show("leaderboard", alice, "nines leaderboard")
        await show("leaderboard nein-nine", alice, "nines leaderboard", game="nein-nine")
        await show("stats", alice, "nines stats")
        await show("stats nein-nine", alice, "nines stats", game="nein-nine")
        await show("history", alice, "nines history")
        res = await show("lobby to stop", alice, "nines start")
        await show("stop", alice, "nines stop")
        await fake.settle()
        print("=== the lobby, stopped")
        print(shown(fake.store.message_by_id(res.message.id)))


async def play(
    fake: Any, alice: Any, bob: Any, ruleset: str, game_id_of: Any, person: Any
) -> list[Any]:
    """One quick game (start 3, or one round) played by the two people and a computer, to its
    end; returns the two people (``testbed.people.NotifiedPerson``)."""
    options = {"start": 3} if "start" in RULESETS[ruleset].settings else {"rounds": 1}
    res = await fake.slash(alice, fake.channel, "nines start", ruleset=ruleset, **options)
    game = game_id_of(res.message)
    for who, verb in ((bob, "join"), (alice, "cpu-normal"), (alice, "start")):
        await fake.click(who, res.message, f"nines:1:lobby:{game}:{verb}")
    people = [person(fake, u, fake.channel) for u in (alice, bob)]
    for someone in people:  # the games before this one notified them already
        someone.seen.update(m.id for m in fake.store.messages.get(fake.channel.id, [])[:-1])
    rng = random.Random(1)
    before = ends(fake)
    for _ in range(3000):
        await fake.settle()
        if ends(fake) > before:
            break
        # Whoever was notified acts; with no notification, whoever's own click was answered
        # with their turn again (they took the trick and lead: no ping comes then, by design).
        due = [p for p in people if p.notifications()] or [p for p in people if p.answered_turn]
        if due:
            await due[0].act(rng)
        else:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the {ruleset} game did not end")
    return people


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="fr")
    asyncio.run(main(parser.parse_args()))
