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
from typing import Final

from ..actions import JOKER_LOSE, JOKER_WIN, PLAYS, Action
from ..cards import JOKER, Suit
from ..nein_nine import DECK, NINES_PENALTY, spits
from ..views import SeatView
from .sampling import Knowledge, knowledge, sample_world

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


def bit_list(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class NeinHand:
    """One Nein Nine round in play. ``call``: 0 none, 1 the Joker won, 2 it lost."""

    __slots__ = ("call", "hands", "leader", "n", "nines", "played", "trick", "tricks", "trump")

    def __init__(
        self,
        hands: list[int],
        trump: int,
        leader: int,
        trick: list[int],
        call: int,
        tricks: list[int],
        nines: list[int],
        played: int,
    ) -> None:
        self.hands = hands
        self.n = len(hands)
        self.trump = trump
        self.leader = leader
        self.trick = trick
        self.call = call
        self.tricks = tricks
        self.nines = nines
        self.played = played

    def copy(self) -> NeinHand:
        return NeinHand(
            list(self.hands),
            self.trump,
            self.leader,
            list(self.trick),
            self.call,
            list(self.tricks),
            list(self.nines),
            self.played,
        )

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.n

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
        moves = bit_list(plain)
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
    """Rules of thumb: win tricks cheaply, never capture 9s you can avoid, dump 9s on others."""
    moves = st.legal_moves()
    if len(moves) == 1:
        return moves[0]
    seat = st.turn
    out = DECK_MASK & ~st.played & ~st.hands[seat]
    nines_in = sum(1 for c in st.trick if (NINES_MASK >> c) & 1)
    best_m, best_v = moves[0], -1e9
    for m in moves:
        v = _move_value(st, seat, m, out, nines_in)
        if v > best_v:
            best_m, best_v = m, v
    return best_m


DECK_MASK: Final = sum(1 << c.index for c in DECK)


def _move_value(st: NeinHand, seat: int, move: int, out: int, nines_in: int) -> float:
    card = JOKER_BIT if move >= JOKER_BIT else move
    trick = [*st.trick, card]
    call = st.call
    if move >= JOKER_BIT:
        call = 1 if move == JOKER_WIN_MOVE else 2
    trump = st.trump
    sets_trump = trump < 0 and card != JOKER_BIT and RANK[card] == 8
    if sets_trump:
        trump = card // 13
    is_nine = (NINES_MASK >> card) & 1
    mine = st.nines[seat]
    # Taking this trick: +1, less the extra penalty for its 9s (the rest may add more 9s).
    cost = NINES_PENALTY[min(4, mine + nines_in + is_nine)] - NINES_PENALTY[mine]
    gain = 1.0 - cost
    pos = winner_pos(trick, trump, call)
    winning = pos == len(trick) - 1
    last = len(trick) == st.n
    if not winning:
        p_win = 0.0
    elif last or call == 1:
        p_win = 1.0
    else:
        # Still to be played over: safe if no unseen card of the suits that count beats it.
        value = VALUE[trump]
        mine_v = value[card] if card != JOKER_BIT else -1
        led = led_of(trick, trump)
        masks = SUIT_MASK_UNDER[trump]
        rivals = out & (masks[trump] if trump >= 0 else 0) | (out & masks[led] if led >= 0 else 0)
        threat = 0
        while rivals:
            low = rivals & -rivals
            if value[low.bit_length() - 1] > mine_v:
                threat = 1
                break
            rivals ^= low
        p_win = 0.35 if threat else 0.85
        gain -= 0.6  # the others may still add 9s to it
    v = p_win * gain
    if not winning and is_nine:
        v += 0.3  # a 9 thrown on someone else's trick
    if card == JOKER_BIT:
        v -= 0.4  # the Joker is worth keeping for a trick that matters
    elif is_nine and winning:
        v -= 0.2
    if sets_trump:
        # G4: an 8 makes its suit trump; good when the rest of the hand is long or high in it.
        rest = st.hands[seat] & ~(1 << card) & SUIT_MASK_UNDER[trump][trump]
        strength = sum(1.0 + (VALUE[trump][c] - 108) * 0.15 for c in bit_list(rest))
        v += 0.3 * (strength - 2.0)
    # Spend low cards first; keep the strong ones.
    return v - (VALUE[trump][card] if card != JOKER_BIT else 50) * 0.002


def nein_state(k: Knowledge, world: list[int], view: SeatView) -> NeinHand:
    nines = [0] * k.n
    for t in view.played:
        nines[t.winner] += sum(1 for c in t.cards if c.rank == 9)
    call = {"win": 1, "lose": 2}.get(view.table.joker_call or "", 0)
    return NeinHand(
        world[: k.n], k.trump, k.leader, list(k.trick), call, list(k.tricks), nines, k.played
    )


def move_action(move: int) -> Action:
    if move == JOKER_WIN_MOVE:
        return JOKER_WIN
    if move == JOKER_LOSE_MOVE:
        return JOKER_LOSE
    return PLAYS[move]


def nein_rule_action(view: SeatView) -> Action:
    k = knowledge(view)
    world = [0] * (k.n + 1)
    world[k.seat] = k.hand  # the others' cards are not needed for the rule
    action = move_action(nein_rule_move(nein_state(k, world, view)))
    assert action in view.legal, (action, view.legal)
    return action


#: Worlds on demand: the search stops when the iterator does (at a deadline, say).
Draw = Callable[[Knowledge], Iterator[list[int]]]


def nein_search_worlds(
    view: SeatView, worlds: list[list[int]] | None = None, *, draw: Draw | None = None
) -> Action:
    """The best mean over the given worlds, or over worlds from ``draw`` until it says stop."""
    k = knowledge(view)
    me = k.seat
    moves: list[int] = []
    totals: list[float] = []
    first: list[int] | None = None
    source = iter(worlds) if worlds is not None else draw(k) if draw is not None else iter(())
    for world in source:
        base = nein_state(k, world, view)
        if first is None:
            first = world
            moves = base.legal_moves()
            totals = [0.0] * len(moves)
        for i, m in enumerate(moves):
            st = base.copy()
            st.play(m)
            st.playout()
            totals[i] += st.score(me)
    assert first is not None
    rule = nein_rule_move(nein_state(k, first, view))
    best = max(totals)
    if totals[moves.index(rule)] >= best - 1e-9:
        return move_action(rule)
    return move_action(moves[totals.index(best)])


def nein_search(view: SeatView, rng: random.Random, worlds: int, budget_s: float) -> Action:
    deadline = time.perf_counter() + budget_s

    def draw(k: Knowledge) -> Iterator[list[int]]:
        for i in range(worlds):
            if i and time.perf_counter() > deadline:
                return
            yield sample_world(k, rng)

    return nein_search_worlds(view, draw=draw)


def nein_ismcts(view: SeatView, k: Knowledge, rng: random.Random, iterations: int) -> Action:
    from .ismcts import State, ismcts

    def fresh() -> State:
        return nein_state(k, sample_world(k, rng), view)

    return move_action(ismcts(fresh, iterations, rng, scale=7.0))
