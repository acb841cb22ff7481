"""The host's commands on a running tournament: start it (registration closes, round one is
played), pause and resume play, or cancel it."""

from __future__ import annotations

from .context import RunnerContext
from .errors import TournamentError
from .rounds import Rounds
from .timers import Timers


class HostCommands:
    """Start, pause, resume play, cancel; refusals in words (``TournamentError``)."""

    def __init__(self, ctx: RunnerContext, timers: Timers, rounds: Rounds) -> None:
        self.ctx = ctx
        self.timers = timers
        self.rounds = rounds

    async def start(self, tournament_id: int) -> None:
        """Close registration and play round one. Those who checked in play; if nobody did,
        everyone registered does."""
        ctx = self.ctx
        async with ctx.lock(tournament_id):
            t = await ctx.get(tournament_id)
            entrants = await ctx.storage.entrants(t.id)
            if not entrants:
                raise TournamentError("tournament.error.nobody")
            if any(e.checked_in for e in entrants):
                for e in entrants:
                    if not e.checked_in:
                        await ctx.storage.leave_tournament(t.id, e.user_id, 1)
            if not await ctx.storage.set_tournament_status(t.id, "running", was=["registration"]):
                raise TournamentError("tournament.error.started")
            ctx.failpoint("tournament_started")
            self.timers.cancel(t.id)
            await self.rounds.carry_on(await ctx.get(t.id))  # round one
        await ctx.presenter.registration_changed(t)

    async def pause(self, tournament_id: int) -> None:
        """No new round starts and the round's deadline does not act until ``resume_play``
        (a deadline that passed meanwhile acts then)."""
        if not await self.ctx.storage.set_tournament_status(
            tournament_id, "paused", was=["running"]
        ):
            raise TournamentError("tournament.error.not_running")
        self.timers.cancel(tournament_id)

    async def resume_play(self, tournament_id: int) -> None:
        if not await self.ctx.storage.set_tournament_status(
            tournament_id, "running", was=["paused"]
        ):
            raise TournamentError("tournament.error.not_paused")
        await self.rounds.carry_on(await self.ctx.get(tournament_id))

    async def cancel(self, tournament_id: int) -> None:
        """Stop for good: the tables still playing are ended unrated."""
        ctx = self.ctx
        if not await ctx.storage.set_tournament_status(
            tournament_id, "cancelled", was=["registration", "running", "paused"]
        ):
            raise TournamentError("tournament.error.over")
        self.timers.cancel(tournament_id)
        for table in await ctx.storage.tournament_tables(tournament_id):
            session = None if table.game_id is None else ctx.sessions.get(table.game_id)
            if session is not None:
                async with session.lock:
                    if not session.closed:
                        await session.abandon("stopped")
