"""How long pairing a large tournament's round takes (a script, not a test).

    PYTHONPATH=. python bench/tournament_pairing.py [--players 1000] [--rounds 5] [--size 4]
        [--threes]

Issue 48: "a benchmark pairs 1,000 players in a stated time". Pairs ``--rounds`` Swiss rounds
of ``--players`` people at tables of ``--size`` (round one at random, then by a made-up
standing that changes each round; ``--threes``: a four-seat field's remainder at tables of
three, as a four-player tournament seats it), printing each round's pairing time, its repeat
meetings and the widest spread of any person's seat positions (1 is the rule's bound; with
``--threes``, of positions 0-2).
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from bot.tournament.pairing import History, Table, pair_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, choices=(3, 4), default=4)
    parser.add_argument("--threes", action="store_true", help="a remainder at tables of three")
    args = parser.parse_args()
    people = [f"p{i:05d}" for i in range(args.players)]
    rng = random.Random(48)
    played: list[Table] = []
    for number in range(1, args.rounds + 1):
        history = History.of(played)
        standings = list(people)
        rng.shuffle(standings)
        started = time.perf_counter()
        tables = pair_round(
            people,
            standings,
            history,
            size=args.size,
            allow_three=args.threes,
            seed="bench",
            round_number=number,
        )
        took = time.perf_counter() - started
        repeats = sum(
            history.meetings(a, b)
            for t in tables
            for a, b in itertools.combinations([p for p in t if p is not None], 2)
        )
        played += tables
        spread = max(
            max(c[:3]) - min(c[:3]) if args.threes else max(c[: args.size]) - min(c[: args.size])
            for c in History.of(played).positions.values()
        )
        print(
            f"round {number}: {len(tables)} tables for {args.players} people in {took:.3f} s,"
            f" {repeats} repeat meetings, seat spread {spread}"
        )


if __name__ == "__main__":
    main()
