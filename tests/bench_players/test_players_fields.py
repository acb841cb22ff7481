"""Fair fields for measuring (issue 19): named fields in the duel, the human-like player."""

from __future__ import annotations

import random

import pytest

from bench.players.duel import fair_fields, field_specs, field_text, make, match, report
from bench.players.human import Habits, HumanLikePlayer, softmax_pick
from engine import Game, Rules, seat_view
from engine.players import SearchPlayer, make_player
from engine.players.rules_player import rule_action


def test_field_names_and_specs() -> None:
    assert field_specs("rules", None) == ["rules"]
    assert field_specs("rules", "ismcts") == ["ismcts:2000"]
    assert field_specs("rules", "mixed") == ["rules", "normal", "ismcts:2000"]
    assert field_specs("rules", "human, hard") == ["human", "hard"]
    assert field_text("rules", None, 3) == "field: rules in every other seat"
    assert field_text("b", "human,hard", 4) == (
        "field: the other seats of seat 0 human, seat 1 hard, seat 2 human, seat 3 hard"
    )


def test_fair_fields_leave_out_the_candidate_and_the_baseline() -> None:
    assert fair_fields("hard", "ismcts:2000") == [None, "mixed", "human"]
    assert fair_fields("rules", "random") == [None, "ismcts", "hard", "mixed", "human"]


def test_a_with_spec_is_hard_with_those_settings_changed() -> None:
    player = make("with:worlds=40+budget_s=0.5+sighted=false+nein_worlds=12", 1)
    hard = make_player("hard", 1)
    assert isinstance(player, SearchPlayer) and isinstance(hard, SearchPlayer)
    assert (player.level.worlds, player.level.budget_s, player.level.sighted) == (40, 0.5, False)
    assert player.level.nein_worlds == 12
    assert (player.level.endgame, player.level.inference) == (
        hard.level.endgame,
        hard.level.inference,
    )
    with pytest.raises(ValueError, match="no setting"):
        make("with:wolds=40", 1)
    with pytest.raises(ValueError, match="key=value"):
        make("with:worlds", 1)


def test_the_report_names_the_field() -> None:
    tally = match("rules", "random", ruleset="classic", deals=3, opponents="human")
    text = report(tally, "rules", "random", "classic", "human")
    assert text.splitlines()[0] == "classic: rules vs random; field: human in every other seat"


def test_a_field_changes_the_other_seats_only() -> None:
    # The same player against itself has no edge, whatever the field.
    for field in ("human", "rules,human"):
        tally = match("rules", "rules", ruleset="four-player", deals=4, opponents=field)
        assert tally.edges == [0.0] * 4


def test_softmax_pick_follows_the_scores() -> None:
    rng = random.Random(1)
    picks = [softmax_pick([0.0, 1.0, 3.0], 0.5, rng) for _ in range(2000)]
    counts = [picks.count(i) for i in range(3)]
    assert counts[2] > counts[1] > counts[0] > 0
    assert all(softmax_pick([0.0, 9.0], 0.05, rng) == 1 for _ in range(100))


def test_human_like_players_differ_from_each_other_and_from_the_rule() -> None:
    assert Habits.of(1) != Habits.of(2)
    for ruleset in ("classic", "nein-nine"):
        game = Game(Rules.from_settings(ruleset), 5)
        players = [HumanLikePlayer(s) for s in range(game.players)]
        decisions = differ = 0
        while not game.over and decisions < 300:
            seat = game.turn
            assert seat is not None
            view = seat_view(game, seat)
            action = players[seat].choose(view)
            assert action in view.legal
            assert players[seat].choose(view) == action  # the same view, the same choice
            if len(view.legal) > 1:
                decisions += 1
                differ += action != rule_action(view)
            game.apply(seat, action)
        assert 0.15 * decisions < differ < 0.85 * decisions, (ruleset, differ, decisions)
