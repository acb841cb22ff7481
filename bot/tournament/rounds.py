"""A tournament's rounds: pairing the next round, carrying on with whatever the stored state
says is due (its tables opened, scored or ended), a table's game ending here, and the round's
end: its standings posted once, then the next round or the champion."""

from __future__ import annotations

import asyncio
import functools
import logging

from ..game import GameSession
from ..storage.tournament_values import Entrant, PairedTable, TournamentRow
from .context import RunnerContext
from .pairing import History, pair_round
from .results import player_keys, standings_of
from .seating import allows_three, table_seed
from .standings import Standing
from .tables import Tables
from .timers import Timers

log = logging.getLogger(__name__)


class Rounds:
    """Plays a tournament's rounds, each step under its lock unless said otherwise."""

    def __init__(self, ctx: RunnerContext, tables: Tables, timers: Timers) -> None:
        self.ctx = ctx
        self.tables = tables
        self.timers = timers

    async def next_round(self, t: TournamentRow) -> None:
        """Pair the round after ``t``'s current one and open its tables."""
        ctx = self.ctx
        number = t.current_round + 1
        entrants = await ctx.storage.entrants(t.id)
        tables = await ctx.storage.tournament_tables(t.id)
        people = [str(e.user_id) for e in entrants if e.plays(number)]
        history = History.of(tuple(player_keys(table.players)) for table in tables)
        order = [s.person for s in standings_of(t, entrants, tables)]
        # In a thread: pairing 1,000 people takes seconds (bench/tournament_pairing.py), an
        # exhaustive search of 12 up to ~0.8 s, and the games on the loop must not wait.
        paired = await asyncio.to_thread(
            functools.partial(
                pair_round,
                people,
                order,
                history,
                size=t.seats,
                allow_three=allows_three(t),
                seed=str(t.seed),
                round_number=number,
            )
        )
        rows = [
            PairedTable(
                number,
                i,
                table_seed(t, number, i),
                tuple(None if p is None else int(p) for p in seats),
            )
            for i, seats in enumerate(paired, start=1)
        ]
        deadline = ctx.clock() + t.round_minutes * 60
        if not await ctx.storage.pair_round(t.id, number, rows, deadline):
            log.info("tournament %s: round %s was paired already", t.id, number)
        await self.carry_on(await ctx.get(t.id))

    async def carry_on(self, t: TournamentRow) -> None:
        """Whatever the stored state says is due now: pair round one, open (or finish opening)
        the round's tables, score tables that ended unseen, arm the deadline, or end the
        round."""
        ctx = self.ctx
        if t.status != "running":
            return
        if t.current_round == 0:
            await self.next_round(t)  # started, then stopped before round one was paired
            return
        entrants: dict[int, Entrant] = {e.user_id: e for e in await ctx.storage.entrants(t.id)}
        for table in await ctx.storage.tournament_tables(t.id, t.current_round):
            if table.finished:
                continue
            if table.game_id is None or not table.called:
                await self.tables.open(t, table, entrants)
                continue
            ctx.games[table.game_id] = (t.id, table.round, table.table_no)
            session = ctx.sessions.get(table.game_id)
            if session is None or session.closed:
                await self.tables.score_stored(t, table)
            else:  # restored with the server's turn timer: the tournament's instead
                session.turn_seconds = t.move_timer
        if t.round_deadline is not None and t.shown_round < t.current_round:
            self.timers.arm(t.id, t.round_deadline)
        await self.round_over(await ctx.get(t.id))

    def closed(self, session: GameSession) -> None:
        """A session closed (``Sessions.closed_listeners``): if it was a table's game, the
        table ends in a task of its own."""
        where = self.ctx.games.get(session.id)
        if where is not None:
            self.ctx.spawn(self._table_closed(session, *where))

    async def _table_closed(
        self, session: GameSession, tournament_id: int, round_number: int, table_no: int
    ) -> None:
        ctx = self.ctx
        try:
            async with ctx.lock(tournament_id):
                t = await ctx.get(tournament_id)
                game = session.game
                table = (await ctx.storage.tournament_tables(t.id, round_number))[table_no - 1]
                if game is not None and game.over:
                    await self.tables.record(t, table, game)
                else:  # stopped or abandoned
                    await self.tables.level(t, table)
                await self.round_over(await ctx.get(t.id))
        except Exception:
            log.exception("tournament %s: could not end table %s", tournament_id, table_no)

    async def round_over(self, t: TournamentRow) -> None:
        """If every table of the round has ended: the standings (once), then the next round
        (at once, or after the host's break) or the end."""
        ctx = self.ctx
        if t.status != "running" or t.current_round == 0:
            return
        tables = await ctx.storage.tournament_tables(t.id)
        if any(not x.finished for x in tables if x.round == t.current_round):
            return
        final = t.current_round >= t.rounds
        if t.shown_round < t.current_round:
            self.timers.cancel(t.id)
            entrants = await ctx.storage.entrants(t.id)
            await ctx.presenter.standings(t, standings_of(t, entrants, tables), final)
            ctx.failpoint("tournament_standings_posted")
            at = None if final or not t.break_minutes else ctx.clock() + t.break_minutes * 60
            await ctx.storage.mark_round_shown(t.id, t.current_round, at)
            ctx.failpoint("tournament_round_shown")
            t = await ctx.get(t.id)
        if final:
            if await ctx.storage.set_tournament_status(t.id, "finished", was=["running"]):
                await ctx.presenter.registration_changed(t)
            return
        if t.next_round_at is not None and t.next_round_at > ctx.clock():
            self.timers.arm(t.id, t.next_round_at)  # the break runs until then
            return
        await self.next_round(t)

    async def standings_now(self, tournament_id: int) -> tuple[TournamentRow, list[Standing]]:
        """The tournament and its standings so far (no lock: a read)."""
        t = await self.ctx.get(tournament_id)
        entrants = await self.ctx.storage.entrants(t.id)
        return t, standings_of(t, entrants, await self.ctx.storage.tournament_tables(t.id))
