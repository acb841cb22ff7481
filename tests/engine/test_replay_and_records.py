"""Replay (a game is rules, seed, actions) and game records (shared/spec/game-record.md).

``check_record`` reads a record the way an outside checker would: it rebuilds every hand from
"dealt", "spare" and "exchange", replays the trick cards against the rules independently of
the engine (whose seat plays, following suit, who wins, who leads next) and checks that
"tricks_won", the cumulative "scores" and "winners" follow.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    FULL_DECK,
    Game,
    Play,
    ReplayError,
    Rules,
    game_record,
    parse_action,
    public_view,
    seat_view,
)
from engine.cards import Card
from engine.games.nines import MAX_HANDS

from .positions import play_random

CARD_CODE = re.compile(r"^([2-9TJQKA][SHDC]|JK)$")
TOP_KEYS = {"format", "game", "rules", "seed", "players", "first_dealer", "hands", "winners"}
HAND_KEYS = {
    "number",
    "dealer",
    "trump",
    "dealt",
    "spare",
    "exchange",
    "tricks",
    "tricks_won",
    "scores",
}
ALL_RULESETS = ["classic", "partnership", "four-player", "nein-nine"]


def nines_trick_winner(cards: list[str], leader: int, trump: str | None, n: int) -> int:
    """N6: the highest trump, otherwise the highest card of the suit led."""
    ranks = "23456789TJQKA"
    led = cards[0][1]

    def key(code: str) -> tuple[int, int]:
        if trump is not None and code[1] == trump:
            return (2, ranks.index(code[0]))
        if code[1] == led:
            return (1, ranks.index(code[0]))
        return (0, 0)

    best = max(range(len(cards)), key=lambda k: key(cards[k]))
    return (leader + best) % n


def check_record(record: dict[str, Any]) -> None:
    assert set(record) >= TOP_KEYS
    assert record["format"] == "nines-record/1"
    rules = Rules.from_dict(record["rules"])
    assert record["game"] == rules.game
    n = rules.players
    assert len(record["players"]) == n
    if rules.teams:
        assert record["teams"] == [list(t) for t in rules.teams]
    else:
        assert "teams" not in record
    json.dumps(record)  # plain JSON
    nines = rules.game == "nines"
    first = record["first_dealer"]
    assert 0 <= first < n
    scores = [0 if not nines else rules.start] * rules.units
    for i, hand in enumerate(record["hands"]):
        assert set(hand) >= HAND_KEYS
        assert hand["number"] == i + 1
        assert hand["dealer"] == (first + i) % n
        dealer = hand["dealer"]
        for codes in [*hand["dealt"], hand["spare"] or []]:
            assert all(CARD_CODE.match(c) for c in codes)
        for trick in hand["tricks"]:
            assert all(CARD_CODE.match(c) for c in trick["cards"])
        assert len(hand["dealt"]) == n
        held = [list(cards) for cards in hand["dealt"]]
        spare = list(hand["spare"]) if hand["spare"] is not None else None
        everything = [c for h in held for c in h] + (spare or [])
        assert len(set(everything)) == len(everything)
        if nines:
            assert sorted(everything) == sorted(str(c) for c in FULL_DECK)
            assert hand["trump"] == _code(rules.trump_of_hand(i))
            assert all(len(h) == 13 for h in held)
        # The exchange (N4).
        if rules.has_spare:
            assert spare is not None
            assert len(spare) == 13
            start = dealer if rules.exchange == "dealer" else (dealer + 1) % n
            assert [d["seat"] for d in hand["exchange"]] == [(start + k) % n for k in range(n)]
            for decision in hand["exchange"]:
                if decision["swap"]:
                    seat = decision["seat"]
                    held[seat], spare = spare, held[seat]
        else:
            assert hand["spare"] is None
            assert hand["exchange"] == []
        # The tricks, replayed independently.
        leader = (dealer + 1) % n
        won = [0] * n
        for t in hand["tricks"]:
            assert t["leader"] == leader
            cards = t["cards"]
            assert len(cards) == n
            assert ("joker" in t) == ("JK" in cards)
            for k, code in enumerate(cards):
                seat = (leader + k) % n
                assert code in held[seat], f"hand {i + 1}: seat {seat} did not hold {code}"
                if nines and k > 0:
                    led = cards[0][1]
                    if any(c[1] == led for c in held[seat]):
                        assert code[1] == led, f"hand {i + 1}: seat {seat} revoked with {code}"
                held[seat].remove(code)
            if nines:
                assert t["winner"] == nines_trick_winner(cards, leader, hand["trump"], n)
            assert 0 <= t["winner"] < n
            won[t["winner"]] += 1
            leader = t["winner"]
        assert hand["tricks_won"] == won
        instant = hand.get("instant_win", False)
        if nines:
            if instant:
                assert rules.instant_win
                assert len(hand["tricks"]) < 13 or all(not h for h in held)
            else:
                assert len(hand["tricks"]) == 13
                assert all(not h for h in held)
            unit_tricks = [sum(won[s] for s in rules.seats_of(u)) for u in range(rules.units)]
            before = list(scores)
            if instant:
                unit = rules.unit_of(hand["tricks"][-1]["winner"])
                scores[unit] = before[unit] - (unit_tricks[unit] - rules.quota)
                assert scores[unit] <= 0
            else:
                scores = [before[u] + rules.quota - unit_tricks[u] for u in range(rules.units)]
                assert sum(scores) == sum(before) - 1
        else:
            assert len(hand["tricks"]) == 7
            assert sum(won) == 7
            scores = list(hand["scores"])  # Nein Nine's scoring: see test_nein_nine.py
        assert hand["scores"] == scores
        # N8: the game went on after every hand but the last.
        last = i == len(record["hands"]) - 1
        lowest = min(scores)
        tied = [u for u in range(rules.units) if scores[u] == lowest]
        if nines and not last:
            assert lowest > 0 or (len(tied) > 1 and rules.ties == "play-on")
    if nines and record["hands"] and record["winners"]:
        lowest = min(scores)
        tied = [u for u in range(rules.units) if scores[u] == lowest]
        assert record["winners"] == sorted(s for u in tied for s in rules.seats_of(u))
        if len(record["hands"]) < MAX_HANDS:
            assert lowest <= 0
            if rules.ties == "play-on":
                assert len(tied) == 1


def _code(trump: object) -> str | None:
    return None if trump is None else trump.value  # type: ignore[attr-defined]


def _random_game(ruleset: str, seed: int, **settings_: object) -> Game:
    game = Game(Rules.from_settings(ruleset, settings_), seed)
    play_random(game, random.Random(seed))
    return game


# -- golden structure ---------------------------------------------------------------------------


def test_record_of_a_classic_game() -> None:
    game = _random_game("classic", 31, ties="joint")
    record = game_record(game, ["Alice", "Bob", "🤖 Normal"])
    check_record(record)
    assert record["game"] == "nines"
    assert record["players"] == ["Alice", "Bob", "🤖 Normal"]
    assert record["seed"] == 31
    assert record["rules"] == {"ruleset": "classic", **game.rules.settings()}
    assert record["first_dealer"] == game.first_dealer
    assert len(record["hands"]) == game.hand_number
    assert record["winners"] == list(game.winners or ())
    hand = record["hands"][0]
    assert hand["trump"] == "H"
    assert len(hand["exchange"]) == 3
    assert {"seat", "swap"} == set(hand["exchange"][0])
    assert set(hand["tricks"][0]) == {"leader", "cards", "winner"}


def test_record_of_a_partnership_game_has_teams() -> None:
    game = _random_game("partnership", 5)
    record = game_record(game)
    check_record(record)
    assert record["teams"] == [[0, 2], [1, 3]]
    assert record["players"] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    assert record["hands"][0]["spare"] is None
    assert record["hands"][0]["exchange"] == []
    assert len(record["winners"]) == 2
    assert record["winners"] in ([0, 2], [1, 3])


def test_record_of_an_instant_win() -> None:
    for seed in range(40):
        game = _random_game("classic", seed, instant_win="on", start=3)
        record = game_record(game)
        check_record(record)
        if record["hands"][-1].get("instant_win"):
            break
    else:
        pytest.fail("no instant win in 40 games starting at 3")


def test_unfinished_games_need_abandoned() -> None:
    game = Game(Rules.from_settings("classic"), 3)
    with pytest.raises(ValueError, match="finished or abandoned"):
        game_record(game)
    play_random(game, random.Random(0), max_actions=50)
    record = game_record(game, abandoned=True)
    assert record["winners"] == []
    assert len(record["hands"]) == 1  # the hand in progress is not in the record
    check_record(record)
    with pytest.raises(ValueError, match="names for 3 seats"):
        game_record(game, ["a", "b"], abandoned=True)


# -- replay -------------------------------------------------------------------------------------


def _same_state(a: Game, b: Game) -> None:
    assert a.to_json() == b.to_json()
    assert a.scores == b.scores
    assert a.winners == b.winners
    assert public_view(a) == public_view(b)
    for seat in range(a.players):
        assert seat_view(a, seat) == seat_view(b, seat)


@pytest.mark.parametrize("ruleset", ALL_RULESETS)
def test_replay_and_json_round_trip(ruleset: str) -> None:
    game = _random_game(ruleset, 17)
    _same_state(Game.replay(game.rules, game.seed, list(game.log)), game)
    _same_state(Game.from_json(game.to_json()), game)
    data = json.loads(game.to_json())
    assert data["seed"] == 17
    assert data["rules"]["ruleset"] == ruleset
    assert [parse_action(text) for _, text in data["actions"]] == [a for _, a in game.log]


def test_replay_midway() -> None:
    game = Game(Rules.from_settings("classic", {"exchange": "dealer"}), 8)
    play_random(game, random.Random(8), max_actions=100)
    _same_state(Game.from_json(game.to_json()), game)
    copy = game.copy()
    _same_state(copy, game)
    play_random(copy, random.Random(1), max_actions=30)
    assert copy.to_json() != game.to_json()
    _same_state(Game.from_json(game.to_json()), game)  # the original is untouched


def test_replay_rejects_an_illegal_action() -> None:
    rules = Rules.from_settings("classic")
    game = Game(rules, 2)
    wrong = (game.turn + 1) % 3  # type: ignore[operator]
    with pytest.raises(ReplayError, match="Action 0"):
        Game.replay(rules, 2, [(wrong, parse_action("keep"))])
    with pytest.raises(ReplayError):
        Game.from_json("not json")
    with pytest.raises(ReplayError):
        Game.from_json('{"rules": {"ruleset": "classic"}, "seed": 1}')
    with pytest.raises(ReplayError):
        Game.from_json('{"rules": {"ruleset": "classic"}, "seed": 1, "actions": [[0, "ZZ"]]}')


def test_replay_reproduces_an_unusual_play() -> None:
    game = Game(Rules.from_settings("four-player"), 4)
    seat = game.turn
    assert seat is not None
    play = Play(Card.parse(str(game.hands[seat][-1])))
    game.apply(seat, play)
    _same_state(Game.from_json(game.to_json()), game)


@settings(max_examples=60, deadline=None)
@given(
    ruleset=st.sampled_from(ALL_RULESETS),
    seed=st.integers(0, 2**32),
    ties=st.sampled_from(["play-on", "joint"]),
    instant=st.sampled_from(["on", "off"]),
    exchange=st.sampled_from(["left", "dealer"]),
    start=st.integers(3, 12),
)
def test_records_check_and_replay(
    ruleset: str, seed: int, ties: str, instant: str, exchange: str, start: int
) -> None:
    nines = ruleset != "nein-nine"
    options: dict[str, object] = (
        {"ties": ties, "instant_win": instant, "exchange": exchange, "start": start}
        if nines
        else {"rounds": start % 9 + 1}
    )
    game = _random_game(ruleset, seed, **options)
    record = game_record(game)
    check_record(record)
    # The record replays: its rules and seed with the game's actions rebuild the record.
    again = Game.replay(Rules.from_dict(record["rules"]), record["seed"], list(game.log))
    assert game_record(again) == record


def _tampered(record: dict[str, Any], change: str) -> dict[str, Any]:
    bad = json.loads(json.dumps(record))
    hand = bad["hands"][0]
    trick = hand["tricks"][2]
    n = len(bad["players"])
    if change == "winner":
        trick["winner"] = (trick["winner"] + 1) % n
    elif change == "score":
        hand["scores"][0] += 1
    elif change == "card":
        trick["cards"][0] = "1X"
    elif change == "leader":
        trick["leader"] = (trick["leader"] + 1) % n
    elif change == "swap":
        hand["tricks"][0]["cards"][:2] = hand["tricks"][0]["cards"][1::-1]
    elif change == "tricks_won":
        hand["tricks_won"][0] += 1
    elif change == "winners":
        bad["winners"] = [(bad["winners"][0] + 1) % n]
    return bad


@pytest.mark.parametrize(
    "change", ["winner", "score", "card", "leader", "swap", "tricks_won", "winners"]
)
def test_the_record_checker_catches_tampering(change: str) -> None:
    game = _random_game("classic", 44, ties="joint")
    record = game_record(game)
    check_record(record)
    with pytest.raises(AssertionError):
        check_record(_tampered(record, change))
