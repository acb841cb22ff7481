"""What the search's card-play worlds are fitted to (issue 19): the others' plays as the rule
would have made them, only those of seats that never provably left the rule, their exchange
decisions alone, or nothing but the voids."""

from __future__ import annotations

import math

import pytest

from engine import Game, Rules, seat_view
from engine.players import RulesPlayer, SearchPlayer
from engine.players.base import Player
from engine.players.duel import Openings, make
from engine.players.human import HumanLikePlayer
from engine.players.omniscient import true_world
from engine.players.sampling import (
    EVIDENCE,
    RULE_LIKE,
    Knowledge,
    keep_evidence,
    knowledge,
    rule_breakers,
    rule_shares,
)
from engine.players.simulate import rule_play


def _positions(ruleset: str, players: list[Player], count: int) -> list[tuple[Game, int]]:
    """Card-play positions after 1 to 11 tricks of seeded games of ``players``."""
    out = []
    for i in range(count):
        game = Game(Rules.from_settings(ruleset), 60 + i)
        turns = 0
        stop = 6 + (i * 7) % 30
        while game.turn is not None and turns < stop:
            seat = game.turn
            view = seat_view(game, seat)
            game.apply(seat, players[seat].choose(view))
            turns += 0 if view.table.phase == "exchange" else 1
        if game.turn is not None:
            out.append((game, game.turn))
    return out


def _left_the_rule(k: Knowledge, world: list[int], seat: int) -> bool:
    """Whether one of ``seat``'s plays this hand was not the rule's card in the true deal."""
    for s, card, trick, before in k.history:
        held = world[s] | (k.played_by[s] & ~before)
        if s == seat and rule_play(held, trick, k.n, k.trump, before, k.teams) != card:
            return True
    return False


@pytest.mark.parametrize("ruleset", ["classic", "four-player"])
def test_rule_players_never_break_the_rule(ruleset: str) -> None:
    n = 3 if ruleset == "classic" else 4
    rules = [RulesPlayer(s) for s in range(n)]
    for game, seat in _positions(ruleset, rules, 40):
        k = knowledge(seat_view(game, seat))
        assert k.history
        assert rule_breakers(k) == set()


@pytest.mark.parametrize("ruleset", ["classic", "four-player"])
def test_a_breaker_provably_left_the_rule(ruleset: str) -> None:
    n = 3 if ruleset == "classic" else 4
    people: list[Player] = [HumanLikePlayer(s) for s in range(n)]
    flagged = 0
    for game, seat in _positions(ruleset, people, 60):
        k = knowledge(seat_view(game, seat))
        world = true_world(game)
        for breaker in rule_breakers(k):
            assert breaker != seat
            assert _left_the_rule(k, world, breaker)
            flagged += 1
    assert flagged >= 20


def test_each_kind_keeps_its_evidence() -> None:
    people: list[Player] = [HumanLikePlayer(s) for s in range(3)]
    trusted_dropped = 0
    for game, seat in _positions("classic", people, 40):
        view = seat_view(game, seat)
        kept = {}
        for kind in EVIDENCE:
            k = knowledge(view)
            keep_evidence(k, kind)
            kept[kind] = k
        full = knowledge(view)
        assert kept["plays"].history == full.history
        assert kept["plays"].decisions == full.decisions
        broken = rule_breakers(full)
        assert kept["trusted"].history == [h for h in full.history if h[0] not in broken]
        assert kept["trusted"].decisions == full.decisions
        trusted_dropped += len(full.history) - len(kept["trusted"].history)
        assert kept["decisions"].history == []
        assert kept["decisions"].decisions == full.decisions
        assert kept["voids"].history == [] and kept["voids"].decisions == []
        # The voids stay: they are certain.
        assert all(kept[kind].excluded == full.excluded for kind in EVIDENCE)
    assert trusted_dropped > 0


def test_unknown_evidence_is_refused_and_the_spec_sets_it() -> None:
    with pytest.raises(ValueError, match="play_evidence"):
        SearchPlayer(1, play_evidence="hunches")
    player = make("evidence:voids:80", 1)
    assert isinstance(player, SearchPlayer)
    assert (player.play_evidence, player.worlds) == ("voids", 80)


@pytest.mark.parametrize("kind", EVIDENCE)
def test_every_kind_plays_legal_cards_the_same_each_time(kind: str) -> None:
    """(That a decision depends on the seat's view alone: ``test_players``.)"""
    player = SearchPlayer(2, worlds=12, play_evidence=kind, budget_s=math.inf)
    people: list[Player] = [HumanLikePlayer(s) for s in range(3)]
    for game, seat in _positions("classic", people, 12):
        view = seat_view(game, seat)
        action = player.choose(view)
        assert action in view.legal
        assert player.choose(seat_view(game, seat)) == action


def _second_hand(ruleset: str, first: list[Player], seed: int) -> Game:
    """A game at its second hand, the first played by ``first``."""
    specs = [p.name for p in first]
    openings = Openings(Rules.from_settings(ruleset), seed, None, True, 0)
    game = openings.start(specs)
    assert seat_view(game, 0).table.last_hand_tricks
    return game


@pytest.mark.parametrize("ruleset", ["classic", "partnership", "four-player"])
def test_rule_shares_are_exact_for_rule_players_and_low_for_random_ones(ruleset: str) -> None:
    n = Rules.from_settings(ruleset).players
    for seed in range(4):
        first: list[Player] = [RulesPlayer(s) for s in range(n)]
        first[1] = make("random", 1)
        game = _second_hand(ruleset, first, seed)
        for seat in range(n):
            shares = rule_shares(seat_view(game, seat))
            assert shares is not None
            assert [s for i, s in enumerate(shares) if i != 1] == [1.0] * (n - 1)
            assert shares[1] < RULE_LIKE
    game = Game(Rules.from_settings("classic"), 1)
    assert rule_shares(seat_view(game, 0)) is None  # the first hand: nothing seen yet


def test_the_table_kind_drops_the_seats_unlike_the_rule() -> None:
    first: list[Player] = [RulesPlayer(0), make("random", 1), RulesPlayer(2)]
    checked = 0
    for seed in range(6):
        game = _second_hand("classic", first, seed)
        players: list[Player] = [RulesPlayer(0), HumanLikePlayer(1), RulesPlayer(2)]
        while game.turn is not None and len(seat_view(game, 0).played) < 6:
            seat = game.turn
            game.apply(seat, players[seat].choose(seat_view(game, seat)))
        view = seat_view(game, 0)
        shares = rule_shares(view)
        assert shares is not None
        k = knowledge(view)
        full = (list(k.history), list(k.decisions))
        keep_evidence(k, "table", shares)
        assert k.history == [h for h in full[0] if h[0] == 2]
        assert k.decisions == [d for d in full[1] if d[0] == 2]
        checked += len(full[0]) - len(k.history)
    assert checked > 0


def test_later_deals_start_both_arms_from_one_second_hand() -> None:
    openings = Openings(Rules.from_settings("classic"), 3, None, True, 0)
    one, two = openings.start(["rules"] * 3), openings.start(["rules"] * 3)
    assert one is not two
    assert seat_view(one, 0) == seat_view(two, 0)
    assert len(seat_view(one, 0).table.sheet) == 1
    seat = one.turn
    assert seat is not None
    one.apply(seat, seat_view(one, seat).legal[0])
    assert seat_view(one, 0) != seat_view(two, 0)  # copies: one arm's play leaves the other
    first = Openings(Rules.from_settings("classic"), 3, None, False, 0).start(["rules"] * 3)
    assert seat_view(first, 0).table.sheet == ()


def test_pruning_plays_out_fewer_cards_and_keeps_the_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards far behind after 16 paired worlds are dropped: fewer playouts, and the card
    chosen is nearly always the one the full search chooses (two seeds of the full search
    agree on about 86% of these positions)."""
    from engine.players import simulate

    calls = [0]
    playout = simulate.NinesHand.playout

    def counted(self: simulate.NinesHand, sighted: bool = False) -> None:
        calls[0] += 1
        playout(self, sighted)

    monkeypatch.setattr(simulate.NinesHand, "playout", counted)
    people: list[Player] = [HumanLikePlayer(s) for s in range(3)]
    views = [seat_view(g, s) for g, s in _positions("classic", people, 80)]
    views = [v for v in views if len(v.legal) > 2]
    full = SearchPlayer(1, worlds=48, play_evidence="voids", budget_s=math.inf)
    pruned = SearchPlayer(1, worlds=48, play_evidence="voids", budget_s=math.inf, prune=0.2)
    chosen = [full.choose(v) for v in views]
    full_calls, calls[0] = calls[0], 0
    same = sum(pruned.choose(v) == c for v, c in zip(views, chosen, strict=True))
    assert calls[0] < 0.85 * full_calls
    assert same >= 0.9 * len(views)
