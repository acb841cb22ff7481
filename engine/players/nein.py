"""Nein Nine players: a compact round for playouts, the rule-based policy and the searches.

Moves are ints: a card's index, or ``JOKER_WIN_MOVE``/``JOKER_LOSE_MOVE`` for the Joker with
its call (G7). Trump starts unset and the first 8 played sets it at once (G4), which also moves
the Little Spit into the trump suit (G5); the tables below give every card's suit and strength
under each trump, as the engine's do, and a test plays this against the engine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

from ..actions import JOKER_LOSE, JOKER_WIN, PLAYS, Action
from ..cards import JOKER, Suit
from ..games.nein_nine import DECK, NINES_PENALTY, spits
from ..views import SeatView
from .determinized import Prune, best_move, until
from .sampling import Knowledge, NeinFollows, count_misfits, knowledge_of, sample_world
from .simulate import bits
from .state import Tricks

JOKER_BIT: Final = JOKER.index  # 52
JOKER_WIN_MOVE: Final = 52
JOKER_LOSE_MOVE: Final = 53
SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
NINES_MASK: Final = sum(1 << c.index for c in DECK if c.rank == 9)
EIGHTS: Final = tuple(s * 13 + 6 for s in range(4))  # the 8 of each suit, by suit index
RANK: Final = tuple(i % 13 + 2 for i in range(53))


def _tables(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    suit_of = [-1] * 53
    value = [-1] * 53
    big = little = -1
    if trump >= 0:
        b, lt = spits(SUITS[trump])
        big, little = b.index, lt.index
    for card in DECK:
        i = card.index
        if card is JOKER:
            continue
        s = i // 13
        suit = trump if i == little else s
        suit_of[i] = suit
        if i == big:
            value[i] = 113
        elif i == little:
            value[i] = 112
        elif suit == trump:
            value[i] = 100 + card.rank
        else:
            value[i] = card.rank
    return tuple(suit_of), tuple(value)


# Index 0..3 a trump suit, 4 (== NO_TRUMP % 5) no trump.
SUIT_UNDER: Final = tuple(_tables(t)[0] for t in (0, 1, 2, 3, -1))
VALUE: Final = tuple(_tables(t)[1] for t in (0, 1, 2, 3, -1))
SUIT_MASK_UNDER: Final = tuple(
    tuple(sum(1 << c.index for c in DECK if SUIT_UNDER[t][c.index] == s) for s in range(4))
    for t in range(5)
)


def led_of(trick: list[int], trump: int) -> int:
    """G6/G7: the suit led (-1 none yet), as the first card had it when it was led."""
    if not trick:
        return -1
    pos = 0
    first = trick[0]
    if first == JOKER_BIT:
        if len(trick) == 1:
            return -1
        pos, first = 1, trick[1]
    if trump < 0:
        return first // 13
    eight = EIGHTS[trump]
    for i in range(pos + 1, len(trick)):
        if trick[i] == eight:
            return first // 13
    return SUIT_UNDER[trump][first]


def winner_pos(trick: list[int], trump: int, call: int) -> int:
    if call == 1:
        return trick.index(JOKER_BIT)
    suit_of, value = SUIT_UNDER[trump], VALUE[trump]
    led = led_of(trick, trump)
    best_i, best_v = 0, -2
    for i, c in enumerate(trick):
        s = suit_of[c]
        if s < 0:
            v = -1
        elif s in (trump, led):
            v = value[c]
        else:
            continue
        if v > best_v:
            best_i, best_v = i, v
    return best_i


@dataclass(slots=True, eq=False)
class NeinHand(Tricks):
    """One Nein Nine round in play. ``call``: 0 none, 1 the Joker won, 2 it lost; ``nines``:
    the 9s each seat has taken."""

    call: int
    nines: list[int]

    def copy(self) -> NeinHand:
        return NeinHand(*self.copied(), self.call, list(self.nines))

    @property
    def over(self) -> bool:
        return not self.trick and not self.hands[self.leader]

    def legal_moves(self) -> list[int]:
        hand = self.hands[self.turn]
        joker = hand >> JOKER_BIT & 1
        plain = hand & ~(1 << JOKER_BIT)
        if self.trick:
            led = led_of(self.trick, self.trump)
            if led >= 0:
                follow = plain & SUIT_MASK_UNDER[self.trump][led]
                if follow:
                    plain = follow
        moves = bits(plain)
        if joker:
            moves += (JOKER_WIN_MOVE, JOKER_LOSE_MOVE)
        return moves

    def points(self, seat: int) -> int:
        return self.tricks[seat] - NINES_PENALTY[self.nines[seat]]

    def score(self, seat: int) -> float:
        """Own round points less the others' mean: the highest total wins (G9)."""
        others = sum(self.points(s) for s in range(self.n) if s != seat)
        return self.points(seat) - others / (self.n - 1)

    def play(self, move: int) -> None:
        seat = (self.leader + len(self.trick)) % self.n
        card = JOKER_BIT if move >= JOKER_BIT else move
        if move >= JOKER_BIT:
            self.call = 1 if move == JOKER_WIN_MOVE else 2
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick.append(card)
        if self.trump < 0 and card != JOKER_BIT and RANK[card] == 8:
            self.trump = card // 13
        if len(self.trick) == self.n:
            w = (self.leader + winner_pos(self.trick, self.trump, self.call)) % self.n
            self.tricks[w] += 1
            for c in self.trick:
                if (NINES_MASK >> c) & 1:
                    self.nines[w] += 1
            self.trick = []
            self.call = 0
            self.leader = w

    def rule_move(self) -> int:
        return nein_rule_move(self)

    def playout(self) -> None:
        while self.trick or self.hands[self.leader]:
            self.play(nein_rule_move(self))


def nein_rule_move(st: NeinHand) -> int:
    """Rules of thumb, scored per legal move (see ``_move_value``); the others' cards unused."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    seat = st.turn
    hand = st.hands[seat]
    out = DECK_MASK & ~st.played & ~hand
    best_m, best_v = moves[0], -1e9
    for m in moves:
        v = _move_value(st, seat, hand, out, m)
        if v > best_v:
            best_m, best_v = m, v
    return best_m


DECK_MASK: Final = sum(1 << c.index for c in DECK)
JOKER_MASK: Final = 1 << JOKER_BIT

# Weights of the rules of thumb, fitted by paired play against random and rule-based seats
# (the fit kept what raised the mean; most are chances "per unseen card").
BEATER: Final = 0.49  # an unseen higher card of the suit that counts, held by someone to play
TRUMPER: Final = 0.02  # an unseen trump that could ruff a plain suit
JOKER_THREAT: Final = 0.11  # the unseen Joker may still be called "win"
NINE_WORTH: Final = -0.07  # a 9 in hand is a liability: it can only win its own penalty
SPEND: Final = 0.65  # how much a card's later worth counts against playing it now
DUMP_NINE: Final = 0.3  # a 9 thrown where someone else takes it
OTHERS_NINE: Final = 0.26  # chance an unseen 9 is added by a player still to play
SET_TRUMP: Final = 0.22  # weight of the hand's gain in worth when an 8 makes its suit trump


# Bit masks for counting instead of looping (the rule runs inside every playout), in the
# tables' order (a trump suit 0..3, then no trump, reached with index -1):
# ABOVE[t][v + 1]: the cards worth more than v under t; TRUMPS[t]: the trump suit, Spits in.
ABOVE: Final = tuple(
    tuple(sum(1 << c.index for c in DECK if VALUE[t][c.index] > v) for v in range(-1, 114))
    for t in range(5)
)
TRUMPS: Final = (*(SUIT_MASK_UNDER[t][t] for t in range(4)), 0)


def card_worth(card: int, trump: int, out: int) -> float:
    """A card's worth for a later trick, about its chance to take one: 1 for the Joker and a
    card nothing unseen beats, less for each unseen card that would beat it; 9s slightly below
    nothing. ``trump`` -1 is no trump."""
    if card == JOKER_BIT:
        return 1.0
    if (NINES_MASK >> card) & 1:
        return NINE_WORTH
    suit = SUIT_UNDER[trump][card]
    worth = 1.0 - (JOKER_THREAT if out & JOKER_MASK else 0.0)
    worth -= (
        BEATER
        * (out & SUIT_MASK_UNDER[trump][suit] & ABOVE[trump][VALUE[trump][card] + 1]).bit_count()
    )
    if suit != trump:
        worth -= TRUMPER * (out & TRUMPS[trump]).bit_count()
    return max(0.0, worth)


def _move_value(st: NeinHand, seat: int, hand: int, out: int, move: int) -> float:
    """Expected points of the trick for this move, less the later worth of the card spent.

    Win chance: certain when last or calling the Joker "win", otherwise lowered by each unseen
    card that would beat it in the hands still to play. Penalty: the 9s in the trick plus
    those the others may add (G8's table is steep, so the marginal cost grows). A 9 thrown
    where another takes it scores; an 8 that sets trump (G4) scores the worth it adds to the
    rest of the hand, Spits (G5) included.
    """
    card = JOKER_BIT if move >= JOKER_BIT else move
    call = st.call
    if move >= JOKER_BIT:
        call = 1 if move == JOKER_WIN_MOVE else 2
    trump = st.trump
    sets_trump = trump < 0 and card != JOKER_BIT and RANK[card] == 8
    if sets_trump:
        trump = card // 13
    trick = [*st.trick, card]
    to_play = st.n - len(trick)
    nines_in = sum(1 for c in trick if (NINES_MASK >> c) & 1)
    p_win = exp_nines = 0.0
    lost_joker = card == JOKER_BIT and call == 2  # G7: every card beats it, led or not
    if not lost_joker and winner_pos(trick, trump, call) == len(trick) - 1:
        p_win = 1.0
        if to_play:
            share = to_play / 2.0  # of the unseen cards, the share the players to come hold
            if call != 1:
                p_win -= _threat(trick, trump, card, out) * share
                p_win = max(0.05, p_win)
            exp_nines = (out & NINES_MASK).bit_count() * OTHERS_NINE * share
    had = st.nines[seat] + nines_in
    pen: float = NINES_PENALTY[min(4, had)] - NINES_PENALTY[st.nines[seat]]
    pen += exp_nines * (NINES_PENALTY[min(4, had + 1)] - NINES_PENALTY[min(4, had)])
    v = p_win * (1.0 - pen)
    if (NINES_MASK >> card) & 1:
        v += (1.0 - p_win) * DUMP_NINE
    v -= SPEND * card_worth(card, trump, out)
    if sets_trump:
        gain = 0.0
        for c in bits(hand & ~(1 << card)):
            gain += card_worth(c, trump, out) - card_worth(c, -1, out)
        v += SET_TRUMP * gain
    return v


def _threat(trick: list[int], trump: int, card: int, out: int) -> float:
    """Summed chances that an unseen card beats ``card``, now winning ``trick``."""
    led = led_of(trick, trump)
    above = out & ABOVE[trump][(VALUE[trump][card] if card != JOKER_BIT else -1) + 1]
    threat = JOKER_THREAT if out & JOKER_MASK else 0.0
    if led >= 0:
        threat += BEATER * (above & SUIT_MASK_UNDER[trump][led]).bit_count()
    if led != trump:
        threat += TRUMPER * (above & TRUMPS[trump]).bit_count()
    return threat


def nein_knowledge(view: SeatView) -> Knowledge:
    """What the seat knows: voids as the suits stood when each card was played (G4-G7)."""
    return knowledge_of(view, NeinFollows())


def nein_state(k: Knowledge, world: list[int], view: SeatView) -> NeinHand:
    nines = [0] * k.n
    for t in view.played:
        nines[t.winner] += sum(1 for c in t.cards if c.rank == 9)
    call = {"win": 1, "lose": 2}.get(view.table.joker_call or "", 0)
    return NeinHand(
        world[: k.n], k.trump, k.leader, list(k.trick), list(k.tricks), k.played, call, nines
    )


def move_action(move: int) -> Action:
    if move == JOKER_WIN_MOVE:
        return JOKER_WIN
    if move == JOKER_LOSE_MOVE:
        return JOKER_LOSE
    return PLAYS[move]


def own_round(k: Knowledge, view: SeatView) -> NeinHand:
    """The round with the seat's own hand alone: enough for its moves and the rule's (the
    others' cards are not needed)."""
    world = [0] * (k.n + 1)
    world[k.seat] = k.hand
    return nein_state(k, world, view)


def nein_rule_action(view: SeatView) -> Action:
    action = move_action(nein_rule_move(own_round(nein_knowledge(view), view)))
    assert action in view.legal, (action, view.legal)
    return action


#: Worlds on demand: the search stops when the iterator does (at a deadline, say).
Draw = Callable[[Knowledge], Iterator[list[int]]]


#: After 6 worlds, moves whose mean trails the best by more than 0.75 points are dropped;
#: when one move is left, it is played.
PRUNE: Final = Prune(after=6, gap=0.75)


def nein_search_worlds(
    view: SeatView, worlds: list[list[int]] | None = None, *, draw: Draw | None = None
) -> Action:
    """The best mean over the given worlds, or over worlds from ``draw`` until it says stop."""
    k = nein_knowledge(view)
    me = k.seat
    source = iter(worlds) if worlds is not None else draw(k) if draw is not None else iter(())
    here = own_round(k, view)
    moves = here.legal_moves()

    def played_out(state: NeinHand) -> float:
        state.playout()
        return state.score(me)

    states = (nein_state(k, world, view) for world in source)
    rule = moves.index(nein_rule_move(here))
    return move_action(
        moves[best_move(states, moves, lambda _: played_out, rule=rule, prune=PRUNE, tie=1e-9)]
    )


#: The others' plays this round: (seat, move, the round just before it, cards played before).
Seen = list[tuple[int, int, NeinHand, int]]


def others_plays(view: SeatView) -> Seen:
    """Every play of another seat this round, with the public round state it was made in."""
    n = view.table.rules.players
    tricks: list[tuple[list[int], str | None]] = [
        ([c.index for c in t.cards], t.joker) for t in view.played
    ]
    tricks.append(([c.index for _, c in view.table.trick], view.table.joker_call))
    first = view.played[0].leader if view.played else view.table.leader
    st = NeinHand([0] * n, -1, first, [], [0] * n, 0, 0, [0] * n)
    seen: Seen = []
    for cards, call in tricks:
        for card in cards:
            move = card
            if card == JOKER_BIT:
                move = JOKER_WIN_MOVE if call == "win" else JOKER_LOSE_MOVE
            seat = st.turn
            if seat != view.seat:
                seen.append((seat, move, st.copy(), st.played))
            st.play(move)
    return seen


def misfits(k: Knowledge, seen: Seen, world: list[int], enough: int) -> int:
    """How many of the others' plays the rule would not have made in ``world`` (stops at
    ``enough``); the play that broke a world is checked first next time."""

    def misplayed(play: tuple[int, int, NeinHand, int]) -> bool:
        seat, move, st, before = play
        st.hands[seat] = world[seat] | (k.played_by[seat] & ~before)
        return nein_rule_move(st) != move

    return count_misfits(seen, misplayed, enough)


def fitted_worlds(
    k: Knowledge, rng: random.Random, view: SeatView, worlds: int, tries: int
) -> Iterator[list[int]]:
    """``worlds`` worlds, each the best fit to the others' plays (as a rule-based player
    would have made them) of ``tries`` draws."""
    seen = others_plays(view) if tries > 1 else []
    for _ in range(worlds):
        best: list[int] = []
        best_bad = 1 << 30
        for _ in range(tries):
            world = sample_world(k, rng)
            if not seen:
                break
            bad = misfits(k, seen, world, best_bad)
            if bad < best_bad:
                best, best_bad = world, bad
            if bad == 0:
                break
        yield best if best else world


def nein_search(
    view: SeatView, rng: random.Random, worlds: int, budget_s: float, tries: int = 1
) -> Action:
    """The search over ``worlds`` worlds, each the best fit of ``tries`` draws."""
    deadline = time.perf_counter() + budget_s

    def draw(k: Knowledge) -> Iterator[list[int]]:
        return until(deadline, fitted_worlds(k, rng, view, worlds, tries))

    return nein_search_worlds(view, draw=draw)
