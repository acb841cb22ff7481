"""What a tournament does when one of its times comes (its timer, timers.py, fired, or the
clock was looked at again): it starts, the break ends and the next round is paired, or the
round's deadline passed and computers finish the tables still playing."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from ..game import Change
from ..storage.tournament_values import TournamentRow
from .context import RunnerContext
from .errors import TournamentError
from .rounds import Rounds
from .timers import Timers

log = logging.getLogger(__name__)


class Deadlines:
    """What a tournament does when one of its times comes."""

    def __init__(
        self,
        ctx: RunnerContext,
        timers: Timers,
        rounds: Rounds,
        start: Callable[[int], Awaitable[None]],
    ) -> None:
        self.ctx = ctx
        self.timers = timers
        self.rounds = rounds
        self._start = start

    async def recheck(self) -> None:
        """Look at every running tournament's deadline again (the clock moved: a test's fake
        clock, or a suspended host), acting at once on any that passed."""
        for t in await self.ctx.storage.open_tournaments():
            at = due_at(t)
            if at is None:
                continue
            if at <= self.ctx.clock():
                self.timers.cancel(t.id)
                await self.due(t.id)
            else:
                self.timers.arm(t.id, at)

    async def due(self, tournament_id: int) -> None:
        """A timer fired: the start time of a tournament in registration (it starts; with
        nobody registered it stays open), the end of a break between rounds, else the round's
        deadline."""
        ctx = self.ctx
        t = await ctx.get(tournament_id)
        if t.status == "registration" and t.start_at is not None:
            if t.start_at > ctx.clock():
                self.timers.arm(t.id, t.start_at)
                return
            try:
                await self._start(t.id)
            except TournamentError as refusal:
                log.info("tournament %s did not start at its time: %s", t.id, refusal.key)
            return
        if t.status == "running" and t.next_round_at is not None:
            async with ctx.lock(t.id):
                await self.rounds.round_over(await ctx.get(t.id))  # the break is over
            return
        await self.deadline_passed(tournament_id)

    async def deadline_passed(self, tournament_id: int) -> None:
        """If the round's deadline has passed: computers finish the tables still playing, as a
        timed-out turn does (each person's seat played by the computer)."""
        ctx = self.ctx
        t = await ctx.get(tournament_id)
        if t.status != "running" or t.round_deadline is None:
            return
        if t.round_deadline > ctx.clock():
            self.timers.arm(t.id, t.round_deadline)  # fired early (a clock moved): wait again
            return
        for table in await ctx.storage.tournament_tables(t.id, t.current_round):
            session = None if table.game_id is None else ctx.sessions.get(table.game_id)
            if session is None or table.finished:
                continue
            async with session.lock:
                if session.closed:
                    continue
                for i, info in enumerate(session.seats):
                    if not info.played_by_computer:
                        info.away = True
                        await session.write(
                            ctx.storage.set_seat_away(
                                session.id, i, True, info.timeouts, fence=session.fence
                            )
                        )
                change = Change(timed_out=[i for i, s in enumerate(session.seats) if s.user_id])
                change.extend(await session.run_computers())
            await ctx.presenter.show_game(session, change)


def due_at(t: TournamentRow) -> float | None:
    """When a timer of the tournament is due: its start, or its round's deadline."""
    if t.status == "registration":
        return t.start_at
    if t.status != "running":
        return None
    return t.round_deadline if t.next_round_at is None else t.next_round_at
