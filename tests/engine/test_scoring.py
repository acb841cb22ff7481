"""Scoring (N7), end and ties (N8), instant win (N9), partnership (N10), four players (N11),
the score sheet (N12) and the end-of-hand events."""

from __future__ import annotations

import random

import pytest

from engine import (
    KEEP,
    GameEnded,
    HandEnded,
    HandStarted,
    Play,
    TrickWon,
    public_view,
)
from engine.cards import Card
from engine.games.nines import MAX_HANDS

from .positions import new_game, play_random, set_hand


def _finish_with(game, winner: int, rest: str = "") -> list[object]:  # type: ignore[no-untyped-def]
    """Play one trick that ``winner`` leads with AH and wins (trump is hearts); every other
    seat discards a club. ``rest`` is extra cards each seat keeps (for a hand that goes on)."""
    n = game.players
    hands = []
    for seat in range(n):
        mine = "AH" if seat == winner else f"{'23456789'[seat]}C"
        extra = rest.split()[seat] if rest else ""
        hands.append(f"{mine} {extra}".strip())
    set_hand(
        game,
        hands,
        leader=winner,
        trump="H",
        scores=game.hand_start_scores,
        tricks_won=game.tricks_won,
    )
    events: list[object] = []
    for k in range(n):
        seat = (winner + k) % n
        events += game.apply(seat, Play(Card.parse(hands[seat].split()[0])))
    return events


def _hand_ended(events: list[object]) -> HandEnded:
    found = [e for e in events if isinstance(e, HandEnded)]
    assert len(found) == 1
    return found[0]


def _position(ruleset: str, scores: list[int], tricks_won: list[int], **settings: object):  # type: ignore[no-untyped-def]
    game = new_game(ruleset, 1, **settings)
    n = game.players
    set_hand(game, [""] * n, scores=scores, tricks_won=tricks_won)
    return game


def test_three_tricks_raise_by_one_six_lower_by_two() -> None:
    """000: one point per trick short of four added, one per trick over four deducted."""
    game = _position("classic", [9, 9, 9], [3, 5, 4])
    events = _finish_with(game, 1)  # seat 1 takes its sixth trick
    ended = _hand_ended(events)
    assert ended.tricks_won == (3, 6, 4)
    assert ended.scores == (10, 7, 9)
    assert game.scores == [10, 7, 9]
    assert sum(ended.scores) == 27 - 1
    assert not ended.instant_win


def test_exactly_four_tricks_neither_win_nor_lose() -> None:
    game = _position("classic", [5, 6, 7], [4, 4, 4])
    ended = _hand_ended(_finish_with(game, 2))
    assert ended.scores == (5, 6, 6)


def test_partnership_quota_six_per_team_n10() -> None:
    game = _position("partnership", [9, 9], [3, 3, 3, 3])
    events = _finish_with(game, 2)  # seats 0 and 2 take 7 tricks, seats 1 and 3 take 6
    ended = _hand_ended(events)
    assert ended.tricks_won == (3, 3, 4, 3)
    assert ended.scores == (8, 9)
    assert game.scores == [8, 9]


def test_partnership_team_drop_and_rise() -> None:
    game = _position("partnership", [9, 9], [1, 4, 0, 7])
    ended = _hand_ended(_finish_with(game, 3))  # team 1&3 take 12, team 0&2 take 1
    assert ended.scores == (14, 3)


def test_partnership_first_team_at_zero_wins_with_both_seats() -> None:
    game = _position("partnership", [4, 3], [1, 5, 1, 5])
    events = _finish_with(game, 1)  # team 1 takes 11: 3 - 5
    ended = _hand_ended(events)
    assert ended.scores == (8, -2)
    over = [e for e in events if isinstance(e, GameEnded)]
    assert over == [GameEnded((1, 3), (8, -2))]
    assert game.winners == (1, 3)


def test_four_player_quota_three_n11() -> None:
    game = _position("four-player", [9, 9, 9, 9], [3, 3, 3, 3])
    ended = _hand_ended(_finish_with(game, 0))
    assert ended.scores == (8, 9, 9, 9)
    game = _position("four-player", [9, 9, 9, 9], [0, 1, 6, 5])
    ended = _hand_ended(_finish_with(game, 3))
    assert ended.scores == (12, 11, 6, 6)
    assert sum(ended.scores) == 35


def test_game_ends_when_someone_reaches_zero() -> None:
    game = _position("classic", [2, 9, 9], [5, 4, 3])
    events = _finish_with(game, 0)
    assert _hand_ended(events).scores == (0, 9, 10)
    assert events[-1] == GameEnded((0,), (0, 9, 10))
    assert game.phase == "over"
    assert game.turn is None
    assert game.winners == (0,)


def test_furthest_below_zero_wins() -> None:
    game = _position("classic", [1, 1, 9], [6, 4, 2])
    events = _finish_with(game, 1)  # seat 0: 6 tricks -> -1; seat 1: 5 tricks -> 0
    assert _hand_ended(events).scores == (-1, 0, 11)
    assert events[-1] == GameEnded((0,), (-1, 0, 11))


def test_no_one_at_zero_deals_again() -> None:
    game = _position("classic", [3, 9, 9], [5, 4, 3])
    dealer = game.dealer
    events = _finish_with(game, 0)
    assert _hand_ended(events).scores == (1, 9, 10)
    started = events[-1]
    assert isinstance(started, HandStarted)
    assert started.number == 2
    assert started.dealer == (dealer + 1) % 3
    assert game.phase == "exchange"
    assert game.winners is None


@pytest.mark.parametrize("ties", ["joint", "play-on"])
def test_ties_at_or_below_zero(ties: str) -> None:
    game = _position("classic", [1, 1, 9], [6, 5, 1], ties=ties)
    events = _finish_with(game, 1)  # both at -1
    assert _hand_ended(events).scores == (-1, -1, 12)
    if ties == "joint":
        assert events[-1] == GameEnded((0, 1), (-1, -1, 12))
        assert game.winners == (0, 1)
    else:
        # Play on: another hand, by everyone (N8).
        assert isinstance(events[-1], HandStarted)
        assert game.winners is None
        assert game.hand_start_scores == (-1, -1, 12)
        # The next hand ends with one alone at the lowest: that player wins.
        set_hand(game, ["", "", ""], scores=[-1, -1, 12], tricks_won=[4, 5, 3])
        events = _finish_with(game, 2)
        assert _hand_ended(events).scores == (-1, -2, 12)
        assert events[-1] == GameEnded((1,), (-1, -2, 12))


def test_play_on_tie_again_keeps_playing() -> None:
    game = _position("classic", [-1, -1, 12], [5, 5, 2], ties="play-on")
    events = _finish_with(game, 2)  # seats 0 and 1 both drop to -2
    assert _hand_ended(events).scores == (-2, -2, 13)
    assert isinstance(events[-1], HandStarted)


def test_ties_above_zero_do_not_end_the_game() -> None:
    game = _position("classic", [2, 2, 9], [5, 5, 2], ties="joint")
    events = _finish_with(game, 2)
    assert _hand_ended(events).scores == (1, 1, 10)
    assert isinstance(events[-1], HandStarted)


@pytest.mark.parametrize("ties", ["joint", "play-on"])
def test_safety_cap_after_sixty_hands(ties: str) -> None:
    game = _position("classic", [-1, -1, 12], [5, 5, 2], ties=ties)
    game.hand_index = MAX_HANDS - 1  # this is hand 60
    assert game.hand_number == 60
    events = _finish_with(game, 2)
    assert events[-1] == GameEnded((0, 1), (-2, -2, 13))


def test_hand_fifty_nine_does_not_cap() -> None:
    game = _position("classic", [-1, -1, 12], [5, 5, 2], ties="play-on")
    game.hand_index = MAX_HANDS - 2
    events = _finish_with(game, 2)
    assert isinstance(events[-1], HandStarted)
    assert MAX_HANDS == 60


# -- N9: instant win ----------------------------------------------------------------------------


@pytest.mark.parametrize("fifth", [1, 2])
def test_instant_win_example_from_000(fifth: int) -> None:
    """Scores 3, 1, 1: a fifth trick for the second or third player wins at once."""
    game = _position("classic", [3, 1, 1], [3, 4, 4], instant_win="on")
    events = _finish_with(game, fifth, rest="2D 3D 4D")
    ended = _hand_ended(events)
    assert ended.instant_win
    expected = [3, 1, 1]
    expected[fifth] = 0
    assert ended.scores == tuple(expected)
    assert events[-1] == GameEnded((fifth,), tuple(expected))
    assert game.phase == "over"
    # The final sheet row: the winner's new score, the others' unchanged.
    row = game.sheet[-1]
    assert row.scores == tuple(expected)
    assert row.total == 4
    # The hand stopped with cards still in hand: fewer than 13 tricks.
    assert all(len(h) == 1 for h in game.hands)


def test_instant_win_needs_the_score_to_reach_zero() -> None:
    game = _position("classic", [3, 1, 1], [4, 3, 4], instant_win="on")
    events = _finish_with(game, 0, rest="2D 3D 4D")  # seat 0 at 3 takes a fifth trick: 2
    assert not any(isinstance(e, HandEnded) for e in events)
    assert game.turn == 0


def test_without_the_house_rule_the_hand_goes_on() -> None:
    game = _position("classic", [3, 1, 1], [3, 4, 4])
    events = _finish_with(game, 1, rest="2D 3D 4D")
    assert [type(e) for e in events].count(TrickWon) == 1
    assert not any(isinstance(e, HandEnded) for e in events)


def test_instant_win_in_partnership() -> None:
    game = _position("partnership", [1, 9], [3, 3, 3, 3], instant_win="on")
    events = _finish_with(game, 2, rest="2D 3D 4D 5D")  # team 0&2 take a seventh trick
    ended = _hand_ended(events)
    assert ended.instant_win
    assert ended.scores == (0, 9)
    assert events[-1] == GameEnded((0, 2), (0, 9))


# -- N12: the score sheet; events at the end of a hand ------------------------------------------


@pytest.mark.parametrize(("ruleset", "start"), [("classic", 9), ("classic", 5), ("partnership", 9)])
def test_score_sheet(ruleset: str, start: int) -> None:
    game = new_game(ruleset, 3, start=start, ties="joint")
    table = public_view(game)
    assert table.start_scores == (start,) * game.rules.units
    assert sum(table.start_scores) == start * game.rules.units  # 27 in the classic game
    if ruleset == "classic" and start == 9:
        assert sum(table.start_scores) == 27
    play_random(game, random.Random(3))
    table = public_view(game)
    assert len(table.sheet) == game.hand_number
    total = sum(table.start_scores)
    for i, row in enumerate(table.sheet):
        assert row.number == i + 1
        assert row.trump == game.rules.trump_of_hand(i)
        assert row.dealer == (game.first_dealer + i) % game.players
        assert row.total == sum(row.scores) == total - (i + 1)
        assert row.scores == game.hands_log[i].result.scores  # type: ignore[union-attr]
    assert table.sheet[-1].scores == tuple(game.scores)


def test_hand_ended_reveals_the_final_spare() -> None:
    game = new_game("classic", 12)
    a = game.turn
    assert a is not None
    original = list(game.spare or [])
    held = list(game.hands[a])
    events: list[object] = []
    rng = random.Random(0)
    game.apply(a, game.legal_actions(a)[1])  # a swaps: the spare is now a's old hand
    assert game.spare == held
    while game.phase == "exchange":
        events += game.apply(game.turn, KEEP)  # type: ignore[arg-type]
    while game.hand_number == 1:
        seat = game.turn
        assert seat is not None
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    ended = _hand_ended(events)
    assert ended.spare == tuple(held)
    assert ended.number == 1
    assert set(ended.spare).isdisjoint(original)
    assert sum(ended.tricks_won) == 13


def test_events_for_a_whole_game() -> None:
    game = new_game("classic", 6, ties="joint")
    rng = random.Random(6)
    events = list(game.opening)
    while game.turn is not None:
        seat = game.turn
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "DealerChosen"
    assert kinds[1] == "HandStarted"
    assert kinds[-1] == "GameEnded"
    hands = game.hand_number
    assert kinds.count("HandStarted") == hands
    assert kinds.count("HandEnded") == hands
    assert kinds.count("ExchangeDecided") == 3 * hands
    assert kinds.count("TrickWon") == 13 * hands
    assert kinds.count("CardPlayed") == 39 * hands
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.winners == game.winners
    assert ended.scores == tuple(game.scores)


def test_instant_win_on_the_last_trick_leaves_the_others_unchanged() -> None:
    """N9 read literally: when the thirteenth trick is the one that takes a player to 0, the
    hand is an instant win and the others' scores stay as they were (here seat 1 would have
    gone up by one and seat 2 down by one under ordinary scoring)."""
    game = _position("classic", [1, 5, 5], [4, 3, 5], instant_win="on")
    ended = _hand_ended(_finish_with(game, 0))
    assert ended.tricks_won == (5, 3, 5)
    assert ended.instant_win
    assert ended.scores == (0, 5, 5)
    assert game.winners == (0,)
