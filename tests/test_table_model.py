"""The table model (bot/table/table_model.py): what one seat, or a watcher, may see of a game.

Seeded games of every ruleset are played with random legal actions; after every action the
model of the public table and of each seat is built and checked against the engine's own
views: a watcher holds no hand, a seat holds exactly its own, nothing of another seat's cards
leaks, and the counts, turn, sheet and ranking are the game's.
"""

from __future__ import annotations

import dataclasses
import doctest
import functools
import itertools
import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

import bot.table.sheet_codes
from bot.game.session import SeatInfo
from bot.table import TableModel, build, build_lobby, trick_of
from bot.words import distinct
from engine import RULESETS, Card, Game, Play, Rules, public_view, seat_view, sort_hand

SETTINGS = {"nein-nine": {"rounds": 2}}  # short games: two rounds, or a start of 3
NAMES = ["Élodie Côté", "Alexandre", "🤖 Robot normal", "🤖 Robot normal 2"]
SEEDS = range(6)

#: Fields that name cards by what they are, not where they lie: the Spits (which cards the
#: trump makes big and little), the first-dealer draw and the previous hand's revealed spare
#: (its cards were dealt again since). Every other card in a model is one the reader saw.
#: Fields whose cards are no secret of this deal: the Spits, the draw, the rules, and the hand
#: that ended (its result with its spare, its tricks: ``last_tricks``, checked in
#: ``check_shared``), whose cards are dealt again.
IDENTITY_FIELDS = {"spits", "draw", "last_result", "last_tricks", "rules", "kind"}


def session_for(game: Game, names: list[str] = NAMES, language: str = "en") -> Any:
    """The public attributes of a session that the model reads, as a plain namespace."""
    seats = [
        SeatInfo(n, user_id=None if n.startswith("🤖") else 10**17 + i, difficulty=None)
        for i, n in enumerate(names[: game.rules.players])
    ]
    return SimpleNamespace(
        id=7,
        seats=seats,
        game=game,
        rules=game.rules,
        language=language,
        host_id=seats[0].user_id,
        status="live",
        deadline=1_800_000_000.0,
    )


def rules_of(ruleset: str) -> Rules:
    return Rules.from_settings(ruleset, SETTINGS.get(ruleset, {"start": 3}))


def positions(ruleset: str) -> Iterator[Game]:
    """Every position of a few seeded random games of ``ruleset`` (the same game object,
    moved on between yields), the finished one last."""
    for seed in SEEDS:
        game = Game(rules_of(ruleset), seed)
        rng = random.Random(seed)
        yield game
        while game.turn is not None:
            seat = game.turn
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            yield game


@functools.cache
def _searched_fields(kind: type) -> tuple[str, ...]:
    """A dataclass's fields that may hold cards (its identity fields left out); () for any
    other type. Cached by type: the test walks every model of thousands of positions."""
    if not dataclasses.is_dataclass(kind):
        return ()
    return tuple(f.name for f in dataclasses.fields(kind) if f.name not in IDENTITY_FIELDS)


def cards_in(value: object, found: set[Card] | None = None) -> set[Card]:
    """Every card a model holds outside ``IDENTITY_FIELDS``."""
    found = set() if found is None else found
    if isinstance(value, Card):
        found.add(value)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            cards_in(item, found)
    elif not isinstance(value, str | int | float | type(None)):
        for name in _searched_fields(type(value)):
            cards_in(getattr(value, name), found)
    return found


def check_shared(model: TableModel, game: Game) -> None:
    """What every reader's model says alike, against the game."""
    table = public_view(game)
    rules = game.rules
    assert model.kind.name == rules.game
    assert model.status == "playing" and model.n == len(game.log)
    assert [s.cards_left for s in model.seats] == [len(h) for h in game.hands]
    assert [s.tricks_won for s in model.seats] == game.tricks_won
    if model.kind.has_quota:
        for s in model.seats:
            won = sum(game.tricks_won[o] for o in rules.seats_of(s.team))
            assert s.quota_left == max(0, rules.quota - won)
    else:
        assert all(s.quota_left is None for s in model.seats)
    assert model.turn is None if game.turn is None else model.turn.seat == game.turn
    if model.turn is not None:
        assert model.turn.kind == ("exchange" if game.phase == "exchange" else "play")
        person = model.seats[model.turn.seat].user_id is not None
        assert model.turn.deadline == (1_800_000_000.0 if person else None)
    # The trick in play, each card beside its player, a Joker with its call.
    played = [(c.seat, c.card) for c in model.trick.cards] if model.trick else []
    assert played == list(table.trick)
    if model.trick:
        assert model.trick.number == len(game.tricks) + 1 and model.trick.winner is None
        calls = {c.call for c in model.trick.cards if c.card.suit is None}
        assert calls <= {table.joker_call}
    # This hand's completed tricks, nothing of an earlier hand's; in Nein Nine (G11 amended)
    # only the last, until the next trick's first card (issue 38, item 15).
    every = tuple(trick_of(t, rules.players) for t in game.tricks)
    if model.kind.hidden_tricks and not game.over:
        assert model.tricks == (every[-1:] if not table.trick else ())
    else:
        assert model.tricks == every
        assert [t.number for t in model.tricks] == list(range(1, len(game.tricks) + 1))
    # The hand that ended, every trick of it, until this hand's first trick is taken: its
    # last cards came with this deal (issue 46, item 13).
    ended = game.hands_log[-2] if len(game.hands_log) > 1 and not game.over else None
    if ended is not None and not game.tricks:
        assert model.last_tricks == tuple(trick_of(t, rules.players) for t in ended.tricks)
    else:
        assert model.last_tricks == ()
    for t in model.tricks:
        assert t.winner is not None and (t.winner, t.winning_card) in [
            (c.seat, c.card) for c in t.cards
        ]
    assert model.scores == tuple(game.scores) and model.sheet == tuple(game.sheet)
    assert model.winners == game.winners
    if model.spits is not None:
        assert model.kind.trump_from_play and model.trump is not None
    names = [s.name for s in model.seats]
    assert names == distinct(NAMES[: rules.players], [s.computer for s in model.seats])
    assert len(set(names)) == len(names)
    assert len({s.code.casefold() for s in model.seats}) == len(model.seats)
    assert [s.host for s in model.seats] == [i == 0 for i in range(rules.players)]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_each_reader_sees_what_the_engine_lets_them(ruleset: str) -> None:
    finished = 0
    for game in positions(ruleset):
        session = session_for(game)
        held = [set(h) for h in game.hands]
        watcher = build(session, None)
        check_shared(watcher, game)
        # A watcher holds no hand, and no card that is in anyone's hand.
        assert watcher.hand is None and watcher.viewer is None
        assert not cards_in(watcher) & set().union(*held)
        for seat in range(game.rules.players):
            model = build(session, seat)
            view = seat_view(game, seat)
            check_shared(model, game)
            hand = model.hand
            assert hand is not None and model.viewer == seat == hand.seat
            # Exactly its own hand, in the order the private hand shows it, with the
            # engine's legal actions (empty off turn) and the cards they play.
            assert list(hand.cards) == sort_hand(view.hand)
            assert hand.legal == view.legal
            assert hand.playable == {a.card for a in view.legal if isinstance(a, Play)}
            assert hand.put_down == (tuple(sort_hand(view.put_down[-1])) if view.put_down else None)
            # No other seat's card, but one this seat put down in an exchange (N4).
            others = set().union(*(h for o, h in enumerate(held) if o != seat))
            leaked = cards_in(model) & others
            assert leaked <= set(hand.put_down or ()), (seat, leaked)
            # Its own model differs from the watcher's by its hand alone.
            assert dataclasses.replace(model, viewer=None, hand=None) == watcher
        finished += game.winners is not None
    assert finished == len(SEEDS)  # whole games were walked, to their ends


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_finished_game_ranks_its_units(ruleset: str) -> None:
    for seed in SEEDS:
        *_, game = positions_of_one(ruleset, seed)
        model = build(session_for(game), None)
        rules = game.rules
        assert model.winners is not None and model.ranking is not None
        assert model.turn is None and model.last_result is not None
        ranks = model.ranking
        assert sorted(r.unit for r in ranks) == list(range(rules.units))
        assert {s for r in ranks if r.winner for s in r.seats} == set(model.winners)
        assert ranks[0].winner and ranks[0].place == 1
        # Winners first, then the better score first; a tie shares its place.
        sign = 1 if model.kind.higher_wins else -1
        standing = {r.unit: (r.winner, sign * r.score) for r in ranks}
        for a, b in itertools.pairwise(ranks):
            assert standing[a.unit] >= standing[b.unit]
        for r in ranks:
            ahead = [o for o in ranks if standing[o.unit] > standing[r.unit]]
            assert r.place == 1 + len(ahead)
        assert all(r.score == game.scores[r.unit] for r in ranks)


def positions_of_one(ruleset: str, seed: int) -> list[Game]:
    game = Game(rules_of(ruleset), seed)
    rng = random.Random(seed)
    while game.turn is not None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    return [game]


def test_nein_nine_shows_no_taken_trick_of_an_earlier_round() -> None:
    """G11 (amended): taken tricks go face down. What a reader's model holds of completed
    tricks is the last one of this round, and only until the next trick's first card (as
    people at a real table see it gathered); the 9s each took come with the round's result,
    never while it runs."""
    rounds_seen = standing = gathered = 0
    for game in positions("nein-nine"):
        if game.winners is not None:
            continue
        for viewer in (None, *range(game.rules.players)):
            model = build(session_for(game), viewer)
            assert model.kind.hidden_tricks
            shown = {c.card for t in model.tricks for c in t.cards}
            if game.tricks and not game.trick:  # the last trick still stands
                assert shown == set(game.tricks[-1].cards)
                standing += 1
            else:  # the next trick's first card is down, or none was taken yet
                assert shown == set()
                gathered += bool(game.tricks)
            result = model.last_result
            assert result is None or result.number == model.hand_number - 1
        if game.tricks and len(game.tricks) == 1:
            rounds_seen += 1
    assert rounds_seen >= len(SEEDS) and standing and gathered


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("classic", 161), ("four-player", 40), ("nein-nine", 9)]
)
def test_a_tied_end_plays_on_and_the_model_says_who_is_tied(ruleset: str, seed: int) -> None:
    """N8, G9: the game would have ended but for a tie for the best score: the model names
    the tied units (seeds found among the first 300 whose game has such a hand)."""
    game = Game(rules_of(ruleset), seed)
    rng = random.Random(seed)
    tied_hands = set()
    while game.turn is not None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        model = build(session_for(game), None)
        best = (max if model.kind.higher_wins else min)(game.scores)
        if model.tiebreak is not None:
            assert game.winners is None and len(model.tiebreak) >= 2
            assert model.tiebreak == tuple(u for u, v in enumerate(game.scores) if v == best)
            tied_hands.add(game.hand_number)
        elif not model.kind.higher_wins and game.winners is None:
            assert best > 0  # Nines: a score at 0 or below ends the game, or ties it
    assert tied_hands


def test_same_names_still_get_their_own_codes() -> None:
    game = Game(rules_of("four-player"), 1)
    model = build(session_for(game, ["Alex", "Alex", "🎉", "✨"], language="fr"), 0)
    # Two people called Alex read apart (bot/words/names.py), in their names and their codes; a name
    # with no letter in it gets a numbered code, in the game's language.
    assert [s.name for s in model.seats[:2]] == ["Alex", "Alex (2)"]
    assert [s.code[:1] for s in model.seats] == ["A", "A", "J", "J"]
    assert len({s.code.casefold() for s in model.seats}) == 4
    assert model.notation == "fr"


def test_the_first_dealer_draw_is_in_the_model() -> None:
    for ruleset in RULESETS:
        game = Game(rules_of(ruleset), 5)
        model = build(session_for(game), None)
        assert model.draw and model.first_dealer == game.first_dealer
        last = model.draw[-1]
        assert model.first_dealer in [seat for seat, _ in last]


def test_a_game_not_dealt_has_only_a_lobby_model() -> None:
    rules = rules_of("partnership")
    seats = [SeatInfo("ann", user_id=1), SeatInfo("🤖 Robot", difficulty="hard")]
    lobby = SimpleNamespace(
        id=9,
        seats=seats,
        game=None,
        rules=rules,
        language="en",
        host_id=1,
        status="lobby",
        deadline=None,
        players=4,
        channel_id=5,
        lobby_channel_id=4,
        closed=False,
        lobby_deadline=123.0,
    )
    with pytest.raises(ValueError, match="build_lobby"):
        build(lobby, None)  # type: ignore[arg-type]
    model = build_lobby(lobby)  # type: ignore[arg-type]
    assert [(s.name, s.host, s.computer, s.level) for s in model.seats] == [
        ("ann", True, False, None),
        ("🤖 Robot", False, True, "hard"),
    ]
    assert model.thread == 5 and model.waiting and model.closes == 123.0 and not model.full
    assert model.kind.name == "nines" and model.status == "lobby"
    lobby.closed = True
    assert not build_lobby(lobby).waiting  # type: ignore[arg-type]


def test_sheet_codes_docstring_examples() -> None:
    result = doctest.testmod(bot.table.sheet_codes)
    assert result.attempted >= 3 and result.failed == 0


def test_a_nein_nine_trick_followed_at_once_by_the_next_lead_is_drawn_that_once() -> None:
    """G11 amended with R1: a trick completed and followed by the next trick's first card in
    one step (computers play on at once) stands beside that card in the drawing that brings
    both, and in no later one; a medium that does not know what it drew shows none."""
    game = Game(rules_of("nein-nine"), 4)
    while not game.tricks:
        game.apply(game.turn, game.legal_actions(game.turn)[0])
    game.apply(game.turn, game.legal_actions(game.turn)[0])  # the next trick's first card
    assert len(game.tricks) == 1 and game.trick
    session = session_for(game, NAMES[:3])
    first = build(session, None, shown_tricks=0)  # drawn last before the trick was complete
    assert [t.number for t in first.tricks] == [1]
    assert build(session, None, shown_tricks=1).tricks == ()  # drawn once already
    assert build(session, None).tricks == ()  # not known what was drawn: G11 alone
    for seat in range(3):  # the same public table for a seat's medium
        assert [t.number for t in build(session, seat, shown_tricks=0).tricks] == [1]
