"""Tournaments run by the bot in a server: Swiss rounds at tables of three or four (issue 48).

The cogs hold one ``TournamentRunner`` (runner.py) and show what it asks through a
``TournamentPresenter`` (presenter.py); a refusal is a ``TournamentError`` (errors.py). The
modules:

- runner.py: the runner, the one object callers use, built over the parts below; its
  docstring says how each step is done once across restarts.
- context.py: what the parts share in a process: sessions, storage, presenter, clock, the
  failpoint at each seam, the tables' games, each tournament's lock, the tasks started.
- registration.py: a tournament created; people joining, leaving, checking in, removed.
- host.py: the host's start, pause, resume of play and cancel.
- rounds.py: a round paired, carried on after any step, a table's game ending, the round's
  end (standings posted once, then the next round or the champion).
- tables.py: a table's game opened in its thread (or adopted after a restart), and scored.
- timers.py: a tournament's loop timer (its start, deadline or break) in this process.
- clock.py: what happens when a time comes: the start, the next round, or computers
  finishing the tables past the round's deadline.
- restart.py: a restarted process picking its tournaments up from storage.
- seating.py: each table's deal, rules (three-seat companions) and seats in game order.
- results.py: the stored tables as results, and the standings they make.
- pairing.py: who sits at which table and in which seat (pure).
- standings.py: points, tie-breaks and duplicate matchpoints (pure).
"""

from .errors import TournamentError
from .presenter import TournamentPresenter
from .runner import TournamentRunner
from .standings import Standing

__all__ = ["Standing", "TournamentError", "TournamentPresenter", "TournamentRunner"]
