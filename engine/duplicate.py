"""Duplicate scoring: each hand a person played, scored against everyone who held the same cards.

Pure: no storage, no clock. The daily deal (``bot/game/daily.py``) and the duplicate table of
friends (seats rotated over the same deals) both score with it.

What is compared
    A *board* is one hand of one deal held from one seat: ``(hand, seat)`` of a game started
    from one seed under one set of rules. A deal's hands are a pure function of the seed and
    the hand's number (``Game._deal``: ``Random(f"{seed}:hand:{index}")``, dealt from the
    dealer, who is drawn from the seed too and passes left after every hand, N2/G2), so every
    person holding a board got the same cards, with the same dealer, the same lead, the same
    place in the exchange order (N4) and the same quota (N7, N10, N11): whatever a hand's
    quotas or order owe to the dealer, "the same seat" holds it in common. The hand's number is
    counted from the first hand of the game, so hand 3 is hand 3 whatever happened before it.

A board's result
    The seat's *points* for the hand, higher better: in Nines the tricks taken over the quota
    (the score's fall that hand, N7; a team's for a partnership seat, N10), in Nein Nine the
    round's score (G8). A hand stopped by the instant-win house rule (N9) counts as played:
    its score is what the sheet shows.

Matchpoints
    On a board, a person gets one point for every other person of the field who scored less,
    and half a point for each who scored the same; the *top* is the number of others. The
    share ``matchpoints / top`` is "you beat that share of the players who held this hand".
    A person's result over several boards is the sum of their matchpoints over the sum of the
    tops (a board with a larger field weighs more, as in a bridge pairs event); with nobody
    else in the field yet it is not defined (None), never 0 or 100%.

The field
    The people whose *finished* game includes the board. A game that ended before a hand was
    dealt (Nines ends once someone reaches 0) never held that board, and is not in its field;
    an unfinished game (still being played, or abandoned) is in no field: a daily left alone is
    finished by the computers (``bot/game/session.py``) and then scored like any other. The field
    grows while the day lasts, so a share is "so far"; it depends only on which results are in,
    never on the order they arrived (``Field`` keeps, per board, how many scored each points:
    a count, the same whatever the order).

A match at one table (``Rotations``)
    The table of friends (``bot/game/duplicate_match.py``) plays one deal once per seat, everyone
    one seat further round each game: the person of seat ``s`` holds seat ``s + 1`` the next
    game. Its field is the match's games so far, the game in play included with the hands it
    has scored: a hand of the second game is scored against the first game's holder of that
    seat as soon as it ends (the sheet's running result), and the first holder's result on it
    moves with it. Once the last game ends this is the same field as above.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .game import Game

#: One hand held from one seat: ``(hand number from 1, seat)``.
Board = tuple[int, int]


def board_points(game: Game, seat: int) -> dict[int, int]:
    """The points (higher better) of ``seat`` on each hand of ``game`` that was scored, by the
    hand's number: the change of its unit's score that hand, turned so that better is more."""
    rules = game.rules
    unit = rules.unit_of(seat)
    sign = 1 if rules.kind.higher_wins else -1  # Nines: a falling score is the good one
    before = game.start_scores[unit]
    points: dict[int, int] = {}
    for hand in game.hands_log:
        if hand.result is None:
            continue
        after = hand.result.scores[unit]
        points[hand.number] = sign * (after - before)
        before = after
    return points


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One person's standing on one board: ``matchpoints`` out of ``top`` (the others)."""

    hand: int
    points: int
    matchpoints: float
    top: int

    @property
    def share(self) -> float | None:
        """The share of the field beaten (ties half), or None with nobody else in it."""
        return None if self.top == 0 else self.matchpoints / self.top


def score_board(points: int, counts: Mapping[int, int]) -> tuple[float, int]:
    """``(matchpoints, top)`` of a result of ``points`` on a board whose field (this result
    included) scored ``counts`` (points: how many people)."""
    others = sum(counts.values()) - 1
    if counts.get(points, 0) < 1:
        raise ValueError(f"the field of this board holds no result of {points} points")
    below = sum(n for p, n in counts.items() if p < points)
    same = counts[points] - 1
    return below + same / 2, others


def total_share(boards: Iterable[BoardScore]) -> float | None:
    """A person's result over boards: their matchpoints over the tops (None: no field yet)."""
    matchpoints = top = 0.0
    for board in boards:
        matchpoints += board.matchpoints
        top += board.top
    return None if top == 0 else matchpoints / top


@dataclass(slots=True)
class Field:
    """Every result of one deal, as counts: per board, how many people scored each points.
    Adding a result is a few counter increments; scoring one reads its boards' counts only."""

    counts: dict[Board, Counter[int]] = field(default_factory=dict)

    def add(self, seat: int, points: Mapping[int, int]) -> None:
        """A finished game's results from ``seat`` (``board_points``) join the field."""
        for hand, p in points.items():
            self.counts.setdefault((hand, seat), Counter())[p] += 1

    def score(self, seat: int, points: Mapping[int, int]) -> list[BoardScore]:
        """A result already in the field, scored board by board against it, by hand."""
        scored = []
        for hand, p in sorted(points.items()):
            matchpoints, top = score_board(p, self.counts.get((hand, seat), Counter()))
            scored.append(BoardScore(hand, p, matchpoints, top))
        return scored


#: One game's board points, seat by seat (``board_points`` of each seat).
GamePoints = tuple[Mapping[int, int], ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A match at one table as one of its games stands: per seat of that game, its hands'
    boards (scored against the match so far) and its person's matchpoints and tops over
    every board of theirs in the match so far."""

    boards: tuple[tuple[BoardScore, ...], ...]
    totals: tuple[tuple[float, int], ...]


@dataclass(frozen=True, slots=True)
class Rotations:
    """A duplicate match at one table as its game number ``len(played) + 1`` sees it:
    ``games`` in all (one a seat), and each earlier game's board points (finished games)."""

    games: int
    played: tuple[GamePoints, ...] = ()

    @property
    def rotation(self) -> int:
        """The current game's place in the match, from 0."""
        return len(self.played)

    def scored(self, current: GamePoints | None = None) -> list[list[list[BoardScore]]]:
        """Every board of the match so far (``current``: the game in play's points so far),
        per game, per seat, scored against the match's field."""
        games = [*self.played, *([] if current is None else [current])]
        field = Field()
        for points in games:
            for seat, board in enumerate(points):
                field.add(seat, board)
        return [[field.score(seat, board) for seat, board in enumerate(g)] for g in games]

    def standing(self, current: GamePoints) -> Standing:
        """The current game's standing: ``current`` its seats' points so far."""
        scored = self.scored(current)
        n, r = len(current), self.rotation
        totals = []
        for seat in range(n):
            # The person at ``seat`` now held seat ``seat - r + earlier`` in each earlier game.
            mine = [b for g, game in enumerate(scored) for b in game[(seat - r + g) % n]]
            totals.append((sum(b.matchpoints for b in mine), sum(b.top for b in mine)))
        return Standing(tuple(tuple(b) for b in scored[r]), tuple(totals))


__all__ = [
    "Board",
    "BoardScore",
    "Field",
    "GamePoints",
    "Rotations",
    "Standing",
    "board_points",
    "score_board",
    "total_share",
]
