"""A restarted process picks its tournaments up from storage alone: each open tournament's
start timer armed again, its tables' games known again, and whatever was due carried on."""

from __future__ import annotations

from .context import RunnerContext
from .rounds import Rounds
from .timers import Timers


async def resume_open(ctx: RunnerContext, timers: Timers, rounds: Rounds) -> None:
    """After a restart (the games restored first): every open tournament carries on."""
    for t in await ctx.storage.open_tournaments():
        if t.status == "registration" and t.start_at is not None:
            timers.arm(t.id, t.start_at)
        async with ctx.lock(t.id):
            for table in await ctx.storage.tournament_tables(t.id):
                if table.game_id is not None:
                    ctx.games[table.game_id] = (t.id, table.round, table.table_no)
            await rounds.carry_on(t)
