"""Weights of the learned play model (bench/players/learned.py), one per feature.

Written by ``bench/players/train_learned.py --hands 1200 --epochs 150 --write``:
41600 plays of a mixed table of our players, held-out log-likelihood a play
-1.1351 (uniform -1.4307, the rule's card at 85% -1.2666).
"""

from typing import Final

WEIGHTS: Final = (
    -0.4903,  # lead: trump
    2.0817,  # lead: master
    -0.3319,  # lead: rank
    0.7568,  # lead: length of its suit
    2.4559,  # follow: wins the trick now
    -0.1492,  # follow: the lowest card that wins
    1.3696,  # follow: the lowest card
    -0.2372,  # follow: the highest card
    -0.5362,  # follow: rank
    1.9591,  # void: a trump that wins
    0.0664,  # void: a trump
    1.0797,  # void: the lowest of its suit
    -2.0474,  # void: rank
    0.2366,  # void: length of its suit
    1.1415,  # last to play: wins
    0.0000,  # partner winning: wins
    0.9469,  # a master that wins
)
