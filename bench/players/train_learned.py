"""Fit the learned play model (bench/players/learned.py) to self-play logs; write its weights.

    .venv/bin/python -m bench.players.train_learned [--hands 1200] [--write]

Hands of classic Nines and four-player Nines, each seat a player drawn from a mixed table of
our own (rules, normal, hard, human-like people each with their own habits, ISMCTS-300): every
card played is a decision, recorded from the player's own hand. Four hands in five train the
model, the fifth is held out: the script prints the held-out log-likelihood per play of the
model, of a uniform choice and of "the rule's card, else uniform", and how often each model's
likeliest card is the one played. ``--write`` writes bench/players/learned_weights.py.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.players.duel import deal_rules, make
from bench.players.learned import (
    FEATURES,
    Decision,
    card_features,
    fit,
    log_likelihood,
    plays_of_hand,
    probabilities,
)
from engine.game import Game
from engine.players.simulate import rule_play

TABLE = ("rules", "normal", "hard", "human", "human", "ismcts:300")
WEIGHTS_FILE = Path(__file__).resolve().parent / "learned_weights.py"


def decisions_of_hand(ruleset: str, index: int, seed: int) -> list[Decision]:
    rules = deal_rules(ruleset, index, {})
    rng = random.Random(seed)
    seats = [make(rng.choice(TABLE), seed * 10 + s) for s in range(rules.players)]
    return plays_of_hand(Game(rules, seed), seats)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1200)
    parser.add_argument("--epochs", type=int, default=150)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    train: list[Decision] = []
    held: list[Decision] = []
    for i in range(args.hands):
        ruleset = "classic" if i % 3 else "four-player"
        got = decisions_of_hand(ruleset, i, 7_000_000 + i)
        (held if i % 5 == 4 else train).extend(got)
    print(
        f"{len(train)} plays to train, {len(held)} held out, "
        f"in {time.perf_counter() - started:.0f} s"
    )
    weights = fit(train, epochs=args.epochs)

    def report(name: str, lls: list[float], hits: int) -> None:
        print(
            f"  {name:28s} log-likelihood a play {sum(lls) / len(lls):+.4f}, "
            f"likeliest card played {hits / len(lls):.1%}"
        )

    multi = [
        d for d in held if len(card_features(d.hand, d.trick, d.played, d.trump, d.n, d.teams)) > 1
    ]
    model_ll, model_hits, uni_ll, rule_ll, rule_hits = [], 0, [], [], 0
    for d in multi:
        rows = card_features(d.hand, d.trick, d.played, d.trump, d.n, d.teams)
        model_ll.append(log_likelihood(weights, d, share=0.0))
        probs = probabilities(weights, rows)
        model_hits += rows[probs.index(max(probs))][0] == d.card
        uni_ll.append(-math.log(len(rows)))
        rule = rule_play(d.hand, list(d.trick), d.n, d.trump, d.played, d.teams)
        rule_hits += rule == d.card
        p = 0.85 * (rule == d.card) + 0.15 / len(rows)
        rule_ll.append(math.log(p))
    print(f"held out, {len(multi)} plays with a choice:")
    report("learned model", model_ll, model_hits)
    report("uniform", uni_ll, 0)
    report("the rule's card (85%)", rule_ll, rule_hits)
    for name, w in zip(FEATURES, weights, strict=True):
        print(f"  {w:+.3f}  {name}")
    if args.write:
        lines = [
            '"""Weights of the learned play model (bench/players/learned.py), one per feature.',
            "",
            "Written by ``bench/players/train_learned.py "
            f"--hands {args.hands} --epochs {args.epochs} --write``:",
            f"{len(train)} plays of a mixed table of our players, held-out log-likelihood a play",
            f"{sum(model_ll) / len(model_ll):+.4f} (uniform {sum(uni_ll) / len(uni_ll):+.4f}, "
            f"the rule's card at 85% {sum(rule_ll) / len(rule_ll):+.4f}).",
            '"""',
            "",
            "from typing import Final",
            "",
            "WEIGHTS: Final = (",
            *(f"    {w:.4f},  # {name}" for name, w in zip(FEATURES, weights, strict=True)),
            ")",
            "",
        ]
        WEIGHTS_FILE.write_text("\n".join(lines))
        print(f"wrote {WEIGHTS_FILE}")
    print(f"done in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
