"""Running tournaments: the ``TournamentRunner``, the one object the cogs hold, built over the
parts that do each step (registration.py, host.py, rounds.py, tables.py, clock.py,
restart.py) and the state they share in this process (context.py).

Every step reads and writes the tournament's stored state (storage/tournaments.py) and keeps
only timers in memory, so a restart (``resume``) picks up where the last process stopped, each
step done once whichever step the process died after (``failpoint`` names each seam):

- round one is paired once the tournament is running, whether or not the start went further;
- a round is paired once (a conditional write that moves the round on);
- a table's thread is stored the moment it exists, and its game is looked for in that thread
  before one is made (a game made before a restart is the thread's open game, adopted, and
  started if it was not yet); its people are pinged once (``called`` stored after the ping,
  which carries a nonce, so a ping repeated after a crash in between is Discord's same
  message);
- a table whose game ended while the bot was down is scored from the game's stored moves;
- a round's standings are posted once (``shown_round`` stored after the post, which carries a
  nonce), the champion crowned before the tournament is marked finished.

What is shown in Discord (threads, pings, the registration message, the standings) is the
``TournamentPresenter``'s; this package has no Discord in it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base import failpoint
from ..game import Sessions
from ..storage import Storage
from ..storage.tournament_values import TournamentRow, TournamentSpec
from .clock import Deadlines
from .context import RunnerContext
from .host import HostCommands
from .presenter import TournamentPresenter
from .registration import Registration
from .restart import resume_open
from .rounds import Rounds
from .standings import Standing
from .tables import Tables
from .timers import Timers


def _seam(name: str) -> None:
    """The parts' failpoint: this module's ``failpoint`` looked up at each call, so replacing
    it here (the crash tests do) reaches every seam."""
    failpoint(name)


class TournamentRunner:
    """The tournaments of this process: their steps, and their round deadlines as loop timers."""

    def __init__(
        self,
        sessions: Sessions,
        presenter: TournamentPresenter,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self._ctx = RunnerContext(sessions, presenter, clock or sessions.deps.clock, _seam)
        self._timers = Timers(self._ctx, self.due)
        self._rounds = Rounds(self._ctx, Tables(self._ctx), self._timers)
        self._registration = Registration(self._ctx, self._timers)
        self._host = HostCommands(self._ctx, self._timers, self._rounds)
        self._deadlines = Deadlines(self._ctx, self._timers, self._rounds, self._host.start)
        sessions.closed_listeners.append(self._rounds.closed)

    @property
    def sessions(self) -> Sessions:
        return self._ctx.sessions

    @property
    def storage(self) -> Storage:
        return self._ctx.storage

    @property
    def presenter(self) -> TournamentPresenter:
        return self._ctx.presenter

    @presenter.setter
    def presenter(self, presenter: TournamentPresenter) -> None:
        self._ctx.presenter = presenter

    @property
    def clock(self) -> Callable[[], float]:
        """The tournaments' clock (a test may set its own: the games' timers keep theirs)."""
        return self._ctx.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self._ctx.clock = clock

    # -- registration (registration.py) -------------------------------------------------------

    async def create(self, spec: TournamentSpec) -> TournamentRow:
        """A new tournament open for registration; refused in words if its settings clash."""
        return await self._registration.create(spec)

    async def join(self, tournament_id: int, user_id: int, name: str) -> int:
        """Register; the round they enter (a late joiner: the next one)."""
        return await self._registration.join(tournament_id, user_id, name)

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Stop being paired from the next round; played games stand."""
        await self._registration.leave(tournament_id, user_id)

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        """Say one is here for the start; refused once it has started."""
        await self._registration.check_in(tournament_id, user_id)

    async def remove(self, tournament_id: int, user_id: int) -> None:
        """The host takes someone out: as a drop."""
        await self._registration.remove(tournament_id, user_id)

    # -- the host's commands (host.py) --------------------------------------------------------

    async def start(self, tournament_id: int) -> None:
        """Close registration and play round one."""
        await self._host.start(tournament_id)

    async def pause(self, tournament_id: int) -> None:
        """No new round starts and the round's deadline does not act until ``resume_play``."""
        await self._host.pause(tournament_id)

    async def resume_play(self, tournament_id: int) -> None:
        await self._host.resume_play(tournament_id)

    async def cancel(self, tournament_id: int) -> None:
        """Stop for good: the tables still playing are ended unrated."""
        await self._host.cancel(tournament_id)

    # -- rounds (rounds.py) and times (clock.py) -----------------------------------------------

    async def standings_now(self, tournament_id: int) -> tuple[TournamentRow, list[Standing]]:
        return await self._rounds.standings_now(tournament_id)

    async def recheck(self) -> None:
        """Look at every running tournament's deadline again, acting on any that passed."""
        await self._deadlines.recheck()

    def armed(self) -> frozenset[int]:
        """The tournaments with a timer set in this process (a start, a deadline, a break)."""
        return self._timers.armed()

    async def due(self, tournament_id: int) -> None:
        """A timer fired: the start, the end of a break, or the round's deadline."""
        await self._deadlines.due(tournament_id)

    async def deadline_passed(self, tournament_id: int) -> None:
        """If the round's deadline has passed: computers finish the tables still playing."""
        await self._deadlines.deadline_passed(tournament_id)

    # -- start-up and shut-down ----------------------------------------------------------------

    async def resume(self) -> None:
        """After a restart (the games restored first): every open tournament carries on."""
        await resume_open(self._ctx, self._timers, self._rounds)

    async def idle(self) -> None:
        """Wait for the tasks the runner started (tables ending, deadlines) to be done."""
        await self._ctx.idle()

    def close(self) -> None:
        self._timers.cancel_all()
        if self._rounds.closed in self.sessions.closed_listeners:
            self.sessions.closed_listeners.remove(self._rounds.closed)
