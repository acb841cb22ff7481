"""Player ratings: openskill's Plackett-Luce model for free-for-all games.

A player's skill is a normal belief ``(mu, sigma)``; a new player starts at openskill's defaults
(``mu = 25``, ``sigma = 25/3``). What the leaderboard shows is the *display rating*, the
conservative estimate ``ordinal = mu - 3 * sigma`` scaled to a familiar chess-like range::

    display = 1000 + 40 * ordinal

so a newcomer shows 1000 and climbs as the system becomes both surer and more impressed. Pure and
deterministic: the same inputs always give the same outputs.

>>> new = rate([None, None, None], [1, 2, 3])
>>> round(new[0].display), round(new[2].display)
(1130, 890)
>>> new[0].mu > 25 > new[2].mu
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["DISPLAY_BASE", "DISPLAY_SCALE", "Rating", "display_rating", "initial", "rate"]

DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0

# openskill's defaults; kept in one model so every game is rated on the same scale.
_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill belief and the number the leaderboard shows for it."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """Skill the player very probably exceeds (mean minus three deviations)."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> float:
        """The rating shown to players: ``1000 + 40 * ordinal``."""
        return display_rating(self.mu, self.sigma)


def display_rating(mu: float, sigma: float) -> float:
    """Scale openskill's ordinal to the shown range (a new player shows 1000).

    >>> display_rating(25.0, 25.0 / 3.0)
    1000.0
    """
    return DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma)


def initial() -> Rating:
    """The rating of a player who has never played."""
    return Rating(_MODEL.mu, _MODEL.sigma)


def rate(
    ratings: Sequence[Rating | tuple[float, float] | None], places: Sequence[int]
) -> list[Rating]:
    """New ratings after one game, in the order given.

    ``ratings[i]`` is seat *i*'s player's current rating (``None`` for a new player) and
    ``places[i]`` its finishing place, 1 being best; equal places are ties, which openskill
    treats as draws between those players. Every seat is its own team.
    """
    if len(ratings) != len(places):
        raise ValueError("ratings and places must have the same length")
    if len(ratings) < 2:
        raise ValueError("a rated game needs at least two players")
    if any(place < 1 for place in places):
        raise ValueError("places start at 1")
    teams = []
    for given in ratings:
        current = given if given is not None else initial()
        mu, sigma = (current.mu, current.sigma) if isinstance(current, Rating) else current
        teams.append([_MODEL.rating(mu=float(mu), sigma=float(sigma))])
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]
