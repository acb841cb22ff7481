"""Nein Nine in the engine: golden cases from the rules text (001), the rulings G1 to G11 and R1,
and property tests over many seeded random games.

Exact positions are built with ``position``: it constructs a seeded ``Game`` and then overwrites
the state of the round in progress directly (hands, dealer, leader, whose turn it is, the trick
in progress, the trump, the tricks already won and the cards already taken, the scores at the
start of the round). Seats are 0, 1, 2 clockwise; ``leader`` defaults to the dealer's left and
the turn to the seat after the cards of ``trick``. Cards given nowhere are simply out of the
round, so positions are for rule checks, not for deck conservation (the property tests cover
that on whole games).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    JOKER,
    JOKER_LOSE,
    JOKER_WIN,
    Card,
    CardPlayed,
    DealerChosen,
    Game,
    GameEnded,
    HandEnded,
    IllegalAction,
    JokerNeedsCall,
    MustFollowSuit,
    NeinNine,
    Play,
    Rules,
    SheetRow,
    Suit,
    TrickWon,
    TrumpSet,
    game_record,
    led_suit,
    public_view,
    round_points,
    seat_view,
    spits,
    stones,
    stones_text,
    suit_under,
)
from engine.actions import PLAYS
from engine.games.nein_nine import DECK, MAX_ROUNDS

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]


def play(code: str) -> Play:
    """``"9H"`` or ``"JK:win"`` as a Play."""
    head, _, call = code.partition(":")
    return Play(Card.parse(head), call or None)  # type: ignore[arg-type]


def position(
    hands: Sequence[str],
    *,
    dealer: int = 2,
    leader: int | None = None,
    trick: str = "",
    trump: Suit | None = None,
    tricks_won: Sequence[int] = (0, 0, 0),
    taken: Sequence[str] = ("", "", ""),
    scores: Sequence[int] = (0, 0, 0),
    seed: int = 0,
    **settings: object,
) -> Game:
    """A Nein Nine game whose round in progress is exactly the one described (see module doc)."""
    game = Game(Rules.from_settings("nein-nine", settings), seed)
    game.hands = [cards(h) for h in hands]
    game.dealer = dealer
    game.leader = (dealer + 1) % 3 if leader is None else leader
    game.trick = cards(trick)
    game.turn = (game.leader + len(game.trick)) % 3
    game.trump = trump
    game.tricks_won = list(tricks_won)
    game.taken = [cards(t) for t in taken]
    game.scores = list(scores)
    game.hand_start_scores = tuple(scores)
    log = game.hands_log[-1]
    log.dealer, log.trump = dealer, trump
    log.dealt = tuple(tuple(h) for h in game.hands)
    return game


def legal(game: Game) -> set[str]:
    assert game.turn is not None
    return {str(a) for a in game.legal_actions(game.turn)}


def events_of(game: Game, *codes: str) -> list[object]:
    events: list[object] = []
    for code in codes:
        assert game.turn is not None
        events.extend(game.apply(game.turn, play(code)))
    return events


def won(events: list[object]) -> TrickWon:
    return next(e for e in events if isinstance(e, TrickWon))


# -- golden cases from the rules text ---------------------------------------------------------


def test_ten_of_clubs_led_must_be_followed() -> None:
    # "Billy leads the first trick with a 10♣. This means that the other two players must play
    # a Club card if they can."
    game = position(["TC 9S", "8C JH", "JK 7C"], dealer=2)
    game.apply(0, play("TC"))
    assert legal(game) == {"8C"}
    with pytest.raises(MustFollowSuit):
        game.check(1, play("JH"))
    game.apply(1, play("8C"))  # an 8 of the suit led: clubs become trump
    # The Joker may always be played (G7), even by a player who can follow.
    assert legal(game) == {"7C", "JK:win", "JK:lose"}


def test_seven_nine_eight_of_diamonds_big_spit_wins() -> None:
    # "Billy leads the trick with the 7♦. Wendy follows suit with the 9♦. Lilly also follows
    # suit with the 8♦. As soon as the 8♦ is played, Diamonds becomes trump. This makes the 7♦
    # the Big Spit and the highest ranking card. Billy wins the trick."
    game = position(["7D JS", "9D TS", "8D 9S"], dealer=2)
    events = events_of(game, "7D", "9D")
    assert public_view(game).trump is None
    assert not any(isinstance(e, TrumpSet) for e in events)
    events = events_of(game, "8D")
    assert events[1] == TrumpSet(D, Card.parse("7D"), Card.parse("7H"), 2)
    assert game.trump is D
    assert won(events).winner == 0


def test_wendy_six_tricks_three_nines_scores_two() -> None:
    # "Wendy captures six tricks ... There are three 9's in the tricks, so she must deduct 4
    # penalty points from that score. Her total score for the round is 2 points."
    assert round_points(6, 3) == 2
    game = position(
        ["TC", "JS", "9D"],
        dealer=0,
        leader=1,
        tricks_won=(1, 5, 0),
        taken=("JC TH 7C", "9S 9H TS 7S 8S", ""),
    )
    events = events_of(game, "JS", "9D", "TC")
    result = next(e for e in events if isinstance(e, HandEnded))
    assert result.tricks_won == (1, 6, 0)
    assert result.nines == (0, 3, 0)
    assert result.points == (1, 2, 0)
    assert result.scores == (1, 2, 0)


def test_stones_example() -> None:
    # "Wendy is in the dark and has two dark stones ... She ends the round with three tricks and
    # no 9's ... Wendy removes the two dark stones from her collection and adds one light stone."
    assert stones(-2) == (0, 2)
    assert stones_text(-2) == "●●"
    game = position(
        ["TC", "JS", "TD"],
        dealer=0,
        leader=1,
        tricks_won=(4, 2, 0),
        taken=("", "TS 7S 8S JH TH 7H", ""),
        scores=(0, -2, 0),
    )
    events = events_of(game, "JS", "TD", "TC")
    result = next(e for e in events if isinstance(e, HandEnded))
    assert result.tricks_won[1] == 3
    assert result.nines[1] == 0
    assert result.points[1] == 3
    assert result.scores[1] == 1
    assert stones(result.scores[1]) == (1, 0)
    assert stones_text(1) == "○"
    assert stones_text(0) == "-"
    assert stones(0) == (0, 0)


# -- rulings where the text is silent ---------------------------------------------------------


def test_little_spit_that_becomes_trump_mid_trick() -> None:
    # G5/G6: JH led, then 8D makes diamonds trump: the 7H is now the Little Spit, no longer a
    # heart. Its holder need not follow hearts with it, and it wins as the second-best trump.
    game = position(["JH 9S", "8D TS", "7H JC"], dealer=2)
    events_of(game, "JH", "8D")
    assert led_suit(game.trick, game.trump) is H  # the suit the JH had when it was led
    assert legal(game) == {"7H", "JC"}  # no heart held any more: anything goes
    assert won(events_of(game, "7H")).winner == 2


def test_suit_led_stays_as_led_when_its_card_becomes_trump() -> None:
    # G6: 7H led with no trump; 8D makes it the Little Spit (a trump). The suit led is still
    # hearts: the third player must follow with a heart; the 7H then wins as a trump.
    game = position(["7H 9S", "8D TS", "9H JD"], dealer=2)
    events_of(game, "7H", "8D")
    assert legal(game) == {"9H"}
    assert won(events_of(game, "9H")).winner == 0


def test_little_spit_led_after_trump_leads_trump() -> None:
    # G5: with hearts trump the 7D belongs to hearts: leading it leads trumps.
    game = position(["7D 9S", "JD TH", "8C JC"], dealer=2, trump=H)
    events_of(game, "7D")
    assert legal(game) == {"TH"}
    assert won(events_of(game, "TH", "8C")).winner == 0  # Little Spit over the 10 of trumps


def test_little_spit_holder_with_nothing_else_of_its_printed_suit() -> None:
    game = position(["9D 9S", "7D JC", "TH 8C"], dealer=2, trump=H)
    events_of(game, "9D")
    assert suit_under(Card.parse("7D"), H) is H
    assert legal(game) == {"7D", "JC"}  # the 7D is a heart now, not a diamond
    events = events_of(game, "JC", "8C")  # clubs discards; a later 8 changes nothing
    assert won(events).winner == 0
    # And when trumps are led, the Little Spit is the trump that must be played.
    game = position(["TH 9S", "7D JC", "9H 8C"], dealer=2, trump=H)
    events_of(game, "TH")
    assert legal(game) == {"7D"}


def test_joker_led_then_declared_lose() -> None:
    # G7: the Joker led is no suit: the next card sets the suit led, and with "lose" every card
    # beats it.
    game = position(["JK 9S", "9C TS", "TC JH"], dealer=2)
    events = events_of(game, "JK:lose")
    assert events == [CardPlayed(0, JOKER, "lose")]
    assert legal(game) == {"9C", "TS"}  # no suit led yet
    events_of(game, "9C")
    assert led_suit(game.trick, game.trump) is C
    assert legal(game) == {"TC"}
    trick = won(events_of(game, "TC"))
    assert trick.winner == 2
    assert trick.joker == "lose"


def test_joker_declared_win_beats_trumps() -> None:
    game = position(["JD 9S", "JK TS", "7H JC"], dealer=2, trump=H)
    trick = won(events_of(game, "JD", "JK:win", "7H"))
    assert trick.winner == 1
    assert trick.joker == "win"


def test_joker_needs_a_call_and_only_the_joker_takes_one() -> None:
    game = position(["JK 9S", "9C TS", "TC JH"], dealer=2)
    with pytest.raises(JokerNeedsCall):
        game.check(0, Play(JOKER))
    with pytest.raises(IllegalAction):
        game.check(0, Play(Card.parse("9S"), "win"))
    assert not game.is_legal(0, Play(JOKER))
    assert game.is_legal(0, JOKER_WIN)
    assert game.is_legal(0, JOKER_LOSE)
    assert Play(JOKER) not in game.legal_actions(0)
    assert legal(game) == {"JK:win", "JK:lose", "9S"}


def test_later_eight_changes_nothing() -> None:
    game = position(["9C 9S", "8S TS", "TC JH"], dealer=2, trump=H)
    game.hands_log[-1].trump = H
    events = events_of(game, "9C", "8S", "TC")
    assert not any(isinstance(e, TrumpSet) for e in events)
    assert game.trump is H
    assert game.hands_log[-1].trump is H
    assert won(events).winner == 2


def test_first_eight_led_sets_trump_for_its_own_trick() -> None:
    game = position(["8S 9D", "7C TD", "JS TS"], dealer=2)
    events = events_of(game, "8S")
    assert isinstance(events[1], TrumpSet)
    assert game.trump is S
    # 7C is the Little Spit: a spade now, and it must be played as one (the only spade held).
    assert legal(game) == {"7C"}
    assert won(events_of(game, "7C", "JS")).winner == 1


def test_eight_off_suit_makes_trump_and_wins() -> None:
    game = position(["JC 9S", "8H TS", "TC JH"], dealer=2)
    trick = won(events_of(game, "JC", "8H", "TC"))
    assert trick.winner == 1  # the 8H is a trump from the moment it is played (G4)


def test_deck_and_deal() -> None:
    assert len(DECK) == 21
    assert len(set(DECK)) == 21
    assert sorted({c.rank for c in DECK if c is not JOKER}) == [7, 8, 9, 10, 11]
    game = Game(Rules.from_settings("nein-nine"), 5)
    assert game.spare is None
    assert [len(h) for h in game.hands] == [7, 7, 7]
    assert {c for h in game.hands for c in h} == set(DECK)
    assert game.trump is None
    assert game.phase == "play"
    assert game.leader == game.turn == (game.dealer + 1) % 3  # G3


@pytest.mark.parametrize("seed", range(20))
def test_first_dealer_is_dealt_the_first_nine(seed: int) -> None:
    game = Game(Rules.from_settings("nein-nine"), seed)
    chosen = game.opening[0]
    assert isinstance(chosen, DealerChosen)
    assert len(chosen.rounds) == 1
    dealt = chosen.rounds[0]
    assert [seat for seat, _ in dealt] == [i % 3 for i in range(len(dealt))]
    assert [c.rank == 9 and c is not JOKER for _, c in dealt].index(True) == len(dealt) - 1
    assert chosen.dealer == dealt[-1][0] == game.dealer == game.first_dealer


def test_spits() -> None:
    assert spits(H) == (Card.parse("7H"), Card.parse("7D"))
    assert spits(D) == (Card.parse("7D"), Card.parse("7H"))
    assert spits(S) == (Card.parse("7S"), Card.parse("7C"))
    assert spits(C) == (Card.parse("7C"), Card.parse("7S"))


def test_game_end_rules() -> None:
    variant = NeinNine()
    game = position(["", "", ""])

    def at(number: int, scores: Sequence[int]) -> tuple[int, ...] | None:
        game.hand_index = number - 1
        game.scores = list(scores)
        return variant.winners(game, False)

    assert at(8, (5, 3, -4)) is None
    assert at(9, (5, 3, -4)) == (0,)
    assert at(9, (4, 4, -4)) is None  # G9: a tie for highest plays on
    assert at(10, (4, 5, -5)) == (1,)
    assert at(3, (9, 0, -1)) == (0,)  # early end at +9
    assert at(3, (2, 3, -9)) == (1,)  # early end at -9: the highest still wins
    assert at(3, (3, 3, -9)) is None
    assert at(MAX_ROUNDS, (3, 3, -1)) == (0, 1)  # the safety cap shares the win
    # Once the end is reached, a tie plays on until a single highest score, even if nobody is
    # at the limit any more.
    game.sheet = [SheetRow(3, D, 2, (9, 9, -4))]
    assert at(4, (8, 7, -3)) == (0,)
    short = position(["", "", ""], rounds=2, limit=4)
    short.hand_index, short.scores = 0, [4, 0, -1]
    assert variant.winners(short, False) == (0,)
    short.scores = [3, 0, -1]
    assert variant.winners(short, False) is None
    short.hand_index = 1
    assert variant.winners(short, False) == (0,)


def test_views_hide_taken_cards_during_the_round() -> None:
    game = position(["9C 9S", "TC TS", "JC JH"], dealer=2, trump=H)
    events_of(game, "9C", "TC", "JC")
    table = public_view(game)
    assert table.last_trick is None
    assert table.trick == ()
    assert table.tricks_won == (0, 0, 1)
    assert table.trump is H
    view = seat_view(game, 0)
    assert [str(c) for t in view.played for c in t.cards] == ["9C", "TC", "JC"]  # R1
    assert view.hand == tuple(cards("9S"))


def test_record_carries_the_trump_set_and_the_joker_call() -> None:
    rules = Rules.from_settings("nein-nine", {"rounds": 2})
    for seed in range(30):
        game = Game(rules, seed)
        _play_out(game, random.Random(seed))
        record = game_record(game, ["Billy", "Wendy", "Lilly"])
        assert record["game"] == "nein-nine"
        for hand in record["hands"]:
            played = [code for t in hand["tricks"] for code in t["cards"]]
            eights = [code for code in played if code[0] == "8"]
            assert hand["trump"] == (eights[0][1] if eights else None)
            assert hand["spare"] is None
            assert hand["exchange"] == []
            assert len(hand["tricks"]) == 7
            assert sum(hand["tricks_won"]) == 7
            for t in hand["tricks"]:
                assert ("joker" in t) == ("JK" in t["cards"])
            assert sum(hand["nines"]) == sum(code[0] == "9" for code in played)


def test_cli_style_joker_text_round_trips() -> None:
    from engine import parse_action

    assert parse_action("JK:win") == JOKER_WIN
    assert parse_action("jk:LOSE") == JOKER_LOSE
    assert str(JOKER_WIN) == "JK:win"


# -- property tests ---------------------------------------------------------------------------


def _play_out(game: Game, rng: random.Random) -> list[object]:
    events: list[object] = list(game.opening)
    while game.turn is not None:
        seat = game.turn
        events.extend(game.apply(seat, rng.choice(game.legal_actions(seat))))
    return events


def _reference_must_play(hand: list[Card], led: Suit | None, trump: Suit | None) -> set[Play]:
    """G6/G7 written out independently of the engine: the plays open to a seat."""
    plays = {PLAYS[c.index] for c in hand if c is not JOKER}
    if JOKER in hand:
        plays |= {JOKER_WIN, JOKER_LOSE}
    if led is None:
        return plays
    little = spits(trump)[1] if trump is not None else None

    def belongs(card: Card) -> Suit | None:
        return trump if card is little else card.suit

    follow = {PLAYS[c.index] for c in hand if c is not JOKER and belongs(c) is led}
    if not follow:
        return plays
    return follow | (plays & {JOKER_WIN, JOKER_LOSE})


def _reference_winner(trick: list[tuple[int, Play]], led: Suit, trump: Suit | None) -> int:
    for seat, p in trick:
        if p.joker == "win":
            return seat
    order = {"J": 5, "T": 4, "9": 3, "8": 2, "7": 1}
    big, little = spits(trump) if trump is not None else (None, None)

    def strength(card: Card) -> int:
        if card is JOKER:
            return -1
        if card is big:
            return 200
        if card is little:
            return 199
        if card.suit is trump:
            return 100 + order[str(card)[0]]
        if card.suit is led:
            return order[str(card)[0]]
        return -1

    return max(trick, key=lambda sp: strength(sp[1].card))[0]


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 9),
    limit=st.integers(1, 12),
)
def test_random_games(seed: int, rounds: int, limit: int) -> None:
    rules = Rules.from_settings("nein-nine", {"rounds": rounds, "limit": limit})
    game = Game(rules, seed)
    rng = random.Random(seed)
    trump_events = 0
    trick: list[tuple[int, Play]] = []
    led: Suit | None = None  # the reference's suit led, fixed when it is played
    first_eight: Suit | None = None
    while game.turn is not None:
        seat = game.turn
        hand = list(game.hands[seat])
        # 21 cards conserved: hands, trick and taken cards are the deck, each once.
        everything = [c for h in game.hands for c in h] + game.trick
        everything += [c for t in game.taken for c in t]
        assert len(everything) == 21
        assert set(everything) == set(DECK)
        actions = game.legal_actions(seat)
        assert all(isinstance(a, Play) for a in actions)
        assert Play(JOKER) not in actions
        assert set(actions) == _reference_must_play(hand, led, game.trump)
        for card in hand:  # the three layers agree
            for p in (PLAYS[card.index], JOKER_WIN, JOKER_LOSE):
                if p.card is card:
                    assert game.is_legal(seat, p) == (p in actions)
        # Views (G11, R1): a seat sees its own hand and every card played, never another hand.
        if rng.random() < 0.2:
            view = seat_view(game, seat)
            others = {c for s in range(3) if s != seat for c in game.hands[s]}
            seen = set(view.hand) | {c for t in view.played for c in t.cards}
            seen |= {c for _, c in view.table.trick}
            assert not seen & others
            assert view.table.last_trick is None
            played = [c for t in game.tricks for c in t.cards] + game.trick
            assert [c for t in view.played for c in t.cards] + [
                c for _, c in view.table.trick
            ] == played
        action = rng.choice(actions)
        assert isinstance(action, Play)
        hand_before = game.hand_number
        events = game.apply(seat, action)
        trump_events += sum(isinstance(e, TrumpSet) for e in events)
        card = action.card
        if first_eight is None and card.rank == 8 and card is not JOKER:
            first_eight = card.suit
            assert any(isinstance(e, TrumpSet) and e.suit is first_eight for e in events)
        else:
            assert not any(isinstance(e, TrumpSet) for e in events)
        if led is None and card is not JOKER:
            little = spits(first_eight)[1] if first_eight is not None else None
            led = first_eight if card is little else card.suit
        trick.append((seat, action))
        if len(trick) == 3:
            done = next(e for e in events if isinstance(e, TrickWon))
            assert led is not None
            assert done.winner == _reference_winner(trick, led, first_eight)
            trick, led = [], None
        ended = [e for e in events if isinstance(e, HandEnded)]
        if ended:
            log = game.hands_log[hand_before - 1]
            assert len(log.tricks) == 7
            assert sum(ended[0].tricks_won) == 7
            assert log.trump is first_eight
            assert trump_events <= 1
            assert trump_events == (first_eight is not None)
            trump_events, first_eight = 0, None
            assert game.trump is None or game.over
    assert game.over
    assert game.winners
    # The game ends after the set rounds or the limit, unless the top was tied.
    reached = False
    for row in game.sheet:
        reached = reached or row.number >= rules.rounds or any(abs(s) >= limit for s in row.scores)
        if row is not game.sheet[-1]:
            assert not reached or list(row.scores).count(max(row.scores)) > 1
    assert reached
    last = game.sheet[-1]
    if last.number < MAX_ROUNDS:
        assert game.winners == (last.scores.index(max(last.scores)),)
    # Replay equals the live game.
    again = Game.replay(rules, seed, game.log)
    assert again.to_json() == game.to_json()
    assert public_view(again) == public_view(game)
    assert game_record(again) == game_record(game)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_with_one_game_ended(seed: int) -> None:
    game = Game(Rules.from_settings("nein-nine"), seed)
    events = _play_out(game, random.Random(seed))
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert len(ended) == 1
    assert ended[0].scores == tuple(game.scores)
    results = [e for e in events if isinstance(e, HandEnded)]
    totals = [0, 0, 0]
    for result in results:
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
        assert tuple(totals) == result.scores
        assert all(
            p == round_points(t, n)
            for p, t, n in zip(result.points, result.tricks_won, result.nines, strict=True)
        )


def test_module_examples() -> None:
    import doctest

    import engine.games.nein_nine

    assert doctest.testmod(engine.games.nein_nine).failed == 0


def test_copy_keeps_the_trump_apart() -> None:
    game = position(["JC 9S", "8H TS", "TC JH"], dealer=2)
    game.apply(0, play("JC"))
    other = game.copy()
    other.apply(1, play("8H"))
    assert other.trump is H
    assert other.hands_log[-1].trump is H
    assert public_view(game).trump is None
    assert game.hands_log[-1].trump is None
