"""A compact Nines hand for playouts: cards as bits of an int, one int per hand.

``Card.index`` (suit * 13 + rank - 2) is the bit, so within a suit a higher bit is a higher
card and "the highest card of a suit in a hand" is one ``bit_length``. The engine's
``Game.copy``/``apply`` build events and check every action; a search plays hundreds of
thousands of cards a move and needs none of that. A test plays this against the engine on many
random positions (same legal moves, same trick winners).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .state import Tricks

FULL: Final = (1 << 52) - 1
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
SUIT_OF: Final = tuple(i // 13 for i in range(53))
NO_TRUMP: Final = -1


def bits(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# High-card points (A 4, K 3, Q 2, J 1) per card, for the exchange rule.
_HCP_MASKS: Final = tuple(
    sum(1 << (s * 13 + rank - 2) for s in range(4)) for rank in (14, 13, 12, 11)
)


def hcp(mask: int) -> int:
    a, k, q, j = _HCP_MASKS
    return (
        4 * (mask & a).bit_count()
        + 3 * (mask & k).bit_count()
        + 2 * (mask & q).bit_count()
        + (mask & j).bit_count()
    )


def hand_value(mask: int, trump: int) -> float:
    """A hand's strength for keep-or-swap: points, plus length in trumps beyond three."""
    value = float(hcp(mask))
    if trump != NO_TRUMP:
        value += 1.5 * max(0, (mask & SUIT_MASKS[trump]).bit_count() - 3)
    return value


#: A random 13-card hand's mean ``hand_value`` is about 10.6 with a trump, 10 without; a hand
#: an earlier player put down is weaker than that, since a player only discards a weak hand.
SWAP_BELOW: Final = 10.0
SWAP_BELOW_DISCARD: Final = 6.5


def rule_exchange(mask: int, trump: int, spare_discarded: bool) -> bool:
    """The rule-based keep-or-swap: True to swap."""
    return hand_value(mask, trump) < (SWAP_BELOW_DISCARD if spare_discarded else SWAP_BELOW)


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` beats the trick's current ``best`` (N6)."""
    s = SUIT_OF[card]
    b = SUIT_OF[best]
    if s == b:
        return card > best
    return s == trump


def best_position(trick: list[int], trump: int) -> int:
    best_i, best = 0, trick[0]
    for i in range(1, len(trick)):
        if beats(trick[i], best, trump):
            best_i, best = i, trick[i]
    return best_i


def legal_mask(hand: int, trick: list[int]) -> int:
    if trick:
        follow = hand & SUIT_MASKS[SUIT_OF[trick[0]]]
        if follow:
            return follow
    return hand


def rule_play(hand: int, trick: list[int], n: int, trump: int, played: int, teams: bool) -> int:
    """The rule-based card: also the playout policy, so it must stay cheap.

    ``played`` holds every card played this hand (the trick in progress too): the cards the
    seat cannot see are everything else, so it reasons only from what it may know.
    """
    out = FULL & ~played & ~hand  # cards another seat (or the spare) may hold
    k = len(trick)
    if k == 0:
        return _lead(hand, trump, out, n)
    led = SUIT_OF[trick[0]]
    follow = hand & SUIT_MASKS[led]
    bi = best_position(trick, trump)
    best = trick[bi]
    last = k == n - 1
    # Partner winning: do not overtake a card that will hold (last to play, or a master).
    if teams and k >= 2 and bi == k - 2 and (last or _is_master(best, out, trump)):
        return lowest(follow) if follow else _discard(hand, trump)
    if follow:
        if SUIT_OF[best] != led:  # trumped: a card of the suit led cannot win
            return lowest(follow)
        above = follow & ~((2 << best) - 1)
        if not above:
            return lowest(follow)
        if last:
            return lowest(above)
        out_suit = out & SUIT_MASKS[led]
        sure = above & ~((2 << highest(out_suit)) - 1) if out_suit else above
        return lowest(sure) if sure else lowest(follow)
    if trump != NO_TRUMP:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            over = trumps & ~((2 << best) - 1) if SUIT_OF[best] == trump else trumps
            if over:
                return lowest(over)
    return _discard(hand, trump)


def sighted_play(hands: list[int], seat: int, trick: list[int], n: int, trump: int) -> int:
    """The rule-based card played with sight of every hand in this world, players each for
    themselves: "a sure winner" and "a safe lead" are judged against the real holdings of the
    others still to play instead of every card not yet seen (the spare's too)."""
    hand = hands[seat]
    k = len(trick)
    if k == 0:
        return _sighted_lead(hands, seat, n, trump)
    led = SUIT_OF[trick[0]]
    led_mask = SUIT_MASKS[led]
    trump_mask = SUIT_MASKS[trump] if trump != NO_TRUMP else 0
    # The cards the seats after me could beat with: their cards of the suit led, and the
    # trumps of those who have none.
    follows = ruffs = 0
    for j in range(1, n - k):
        h = hands[(seat + j) % n]
        if h & led_mask:
            follows |= h & led_mask
        else:
            ruffs |= h & trump_mask
    follow = hand & led_mask
    best = trick[best_position(trick, trump)]
    if follow:
        if SUIT_OF[best] != led:
            return lowest(follow)
        above = follow & ~((2 << best) - 1)
        if not above or ruffs:
            return lowest(follow)
        sure = above & ~((2 << highest(follows)) - 1) if follows else above
        return lowest(sure) if sure else lowest(follow)
    if trump_mask:
        trumps = hand & trump_mask
        if trumps:
            over = trumps & ~((2 << best) - 1) if SUIT_OF[best] == trump else trumps
            if over:
                sure = over & ~((2 << highest(ruffs)) - 1) if ruffs else over
                return lowest(sure) if sure else lowest(over)
    return _discard(hand, trump)


def _sighted_lead(hands: list[int], seat: int, n: int, trump: int) -> int:
    out = ruffable = 0  # the others' cards; the side suits one of them could ruff
    for j in range(1, n):
        h = hands[(seat + j) % n]
        out |= h
        if trump != NO_TRUMP and h & SUIT_MASKS[trump]:
            for s in range(4):
                if not h & SUIT_MASKS[s]:
                    ruffable |= 1 << s
    return _lead(hands[seat], trump, out, n, ruffable)


def _is_master(card: int, out: int, trump: int) -> bool:
    s = SUIT_OF[card]
    higher = out & SUIT_MASKS[s] & ~((2 << card) - 1)
    if higher:
        return False
    return s == trump or trump == NO_TRUMP or not (out & SUIT_MASKS[trump])


def _discard(hand: int, trump: int) -> int:
    # The lowest card outside trumps, from the shortest suit on ties (to make a void).
    best_key: tuple[int, int] | None = None
    card = -1
    for s in range(4):
        if s == trump:
            continue
        cards = hand & SUIT_MASKS[s]
        if cards:
            low = lowest(cards)
            key = (low - 13 * s, cards.bit_count())
            if best_key is None or key < best_key:
                best_key, card = key, low
    return card if card >= 0 else lowest(hand)


def _lead(hand: int, trump: int, out: int, n: int, ruffable: int | None = None) -> int:
    """``ruffable``: the side suits (bits) someone could ruff, when known (``sighted_play``)."""
    trumps_out = out & SUIT_MASKS[trump] if trump != NO_TRUMP else 0
    # A master in a side suit wins if nobody can ruff it: no trumps out, or they can follow
    # (guessed from how many cards of the suit are out, unless ``ruffable`` says).
    pick, pick_key = -1, -1
    for s in range(4):
        if s == trump:
            continue
        cards = hand & SUIT_MASKS[s]
        if not cards:
            continue
        top = highest(cards)
        o = out & SUIT_MASKS[s]
        if o and top < highest(o):
            continue
        length = o.bit_count()
        if ruffable is None:
            if trumps_out and length < n - 1:
                continue
        elif ruffable >> s & 1:
            continue
        if length > pick_key:
            pick, pick_key = top, length
    if pick >= 0:
        return pick
    if trump != NO_TRUMP:
        mine = hand & SUIT_MASKS[trump]
        if mine and trumps_out and highest(mine) > highest(trumps_out):
            return highest(mine)  # draw trumps with the master trump
    # Otherwise low from the longest side suit.
    longest, length = -1, 0
    for s in range(4):
        if s == trump:
            continue
        count = (hand & SUIT_MASKS[s]).bit_count()
        if count > length:
            longest, length = s, count
    if longest >= 0:
        return lowest(hand & SUIT_MASKS[longest])
    return lowest(hand)


@dataclass(slots=True, eq=False)
class NinesHand(Tricks):
    """One Nines hand in play, from some trick on: mutable, cheap to copy. ``start_scores``:
    set only with the instant-win house rule (N9), which may stop the hand early."""

    teams: bool
    quota: int
    start_scores: tuple[int, ...] | None
    units: int = field(init=False)
    stopped: bool = field(init=False)

    def __post_init__(self) -> None:
        Tricks.__post_init__(self)  # (a slotted dataclass's methods cannot call super())
        self.units = self.n // 2 if self.teams else self.n
        self.stopped = False

    def copy(self) -> NinesHand:
        return NinesHand(*self.copied(), self.teams, self.quota, self.start_scores)

    @property
    def over(self) -> bool:
        return self.stopped or (not self.trick and not self.hands[self.leader])

    def unit_tricks(self, seat: int) -> int:
        if self.teams:
            return self.tricks[seat % 2] + self.tricks[seat % 2 + 2]
        return self.tricks[seat]

    def legal_moves(self) -> list[int]:
        return bits(legal_mask(self.hands[(self.leader + len(self.trick)) % self.n], self.trick))

    def score(self, seat: int) -> float:
        return float(self.unit_tricks(seat))

    def play(self, card: int) -> None:
        seat = (self.leader + len(self.trick)) % self.n
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick.append(card)
        if len(self.trick) == self.n:
            winner = (self.leader + best_position(self.trick, self.trump)) % self.n
            self.tricks[winner] += 1
            self.trick = []
            self.leader = winner
            if self.start_scores is not None:
                over = self.unit_tricks(winner) - self.quota
                unit = winner % 2 if self.teams else winner
                self.stopped = over > 0 and self.start_scores[unit] - over <= 0

    def rule_move(self) -> int:
        seat = (self.leader + len(self.trick)) % self.n
        return rule_play(self.hands[seat], self.trick, self.n, self.trump, self.played, self.teams)

    def playout(self, sighted: bool = False) -> None:
        """Finish the hand with every seat playing the rule-based card (``sighted``: the rule
        judged against the world's hands, ``sighted_play``; not with teams)."""
        n, trump, teams = self.n, self.trump, self.teams
        hands, tricks = self.hands, self.tricks
        trick, leader, played = self.trick, self.leader, self.played
        stop = self.start_scores is not None
        assert not (sighted and teams), "sighted_play knows no partners"
        while hands[leader] or trick:
            seat = (leader + len(trick)) % n
            hand = hands[seat]
            if sighted:
                card = sighted_play(hands, seat, trick, n, trump)
            else:
                card = rule_play(hand, trick, n, trump, played, teams)
            hands[seat] = hand & ~(1 << card)
            played |= 1 << card
            trick.append(card)
            if len(trick) == n:
                leader = (leader + best_position(trick, trump)) % n
                tricks[leader] += 1
                trick = []
                if stop:
                    self.trick, self.leader, self.played = trick, leader, played
                    over = self.unit_tricks(leader) - self.quota
                    unit = leader % 2 if teams else leader
                    assert self.start_scores is not None
                    if over > 0 and self.start_scores[unit] - over <= 0:
                        self.stopped = True
                        return
        self.trick, self.leader, self.played = trick, leader, played
