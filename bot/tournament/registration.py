"""Registration: a tournament created (its settings checked), people joining, leaving,
checking in, or taken out by the host."""

from __future__ import annotations

from engine import Rules, find_ruleset

from ..storage.tournament_values import TournamentRow, TournamentSpec
from .context import RunnerContext
from .errors import TournamentError
from .seating import THREE_SEAT_COMPANIONS
from .timers import Timers


class Registration:
    """Who plays a tournament; refusals in words (``TournamentError``)."""

    def __init__(self, ctx: RunnerContext, timers: Timers) -> None:
        self.ctx = ctx
        self.timers = timers

    async def create(self, spec: TournamentSpec) -> TournamentRow:
        """A new tournament open for registration; refused in words if its settings clash."""
        ruleset = find_ruleset(spec.ruleset)
        if ruleset.players != spec.seats:
            raise TournamentError(
                "tournament.error.seats", ruleset=ruleset.name, seats=ruleset.players
            )
        Rules.from_settings(spec.ruleset, spec.settings)  # a SettingError says what is wrong
        companion = THREE_SEAT_COMPANIONS.get(spec.ruleset)
        if companion is not None and not spec.duplicate:
            Rules.from_settings(companion, spec.settings)
        created = await self.ctx.storage.create_tournament(spec)
        if created.start_at is not None:
            self.timers.arm(created.id, created.start_at)  # it starts by itself then
        return created

    async def join(self, tournament_id: int, user_id: int, name: str) -> int:
        """Register; the round they enter (a late joiner: the next one)."""
        ctx = self.ctx
        async with ctx.lock(tournament_id):
            t = await ctx.get(tournament_id)
            if not t.open:
                raise TournamentError("tournament.error.over")
            first = t.current_round + 1
            if not await ctx.storage.join_tournament(t.id, user_id, name, first):
                raise TournamentError("tournament.error.joined")
        await ctx.presenter.registration_changed(t)
        return first

    async def leave(self, tournament_id: int, user_id: int) -> None:
        """Stop being paired from the next round; played games stand."""
        ctx = self.ctx
        async with ctx.lock(tournament_id):
            t = await ctx.get(tournament_id)
            if not t.open:
                raise TournamentError("tournament.error.over")
            if not await ctx.storage.leave_tournament(t.id, user_id, t.current_round + 1):
                raise TournamentError("tournament.error.not_joined")
        await ctx.presenter.registration_changed(t)

    async def check_in(self, tournament_id: int, user_id: int) -> None:
        """Say one is here for the start; refused in words once it has started (an old
        registration message's button)."""
        t = await self.ctx.get(tournament_id)
        if not t.open:
            raise TournamentError("tournament.error.over")
        if t.status != "registration":
            raise TournamentError("tournament.error.check_in_closed")
        if not await self.ctx.storage.check_in(tournament_id, user_id):
            raise TournamentError("tournament.error.not_joined")

    async def remove(self, tournament_id: int, user_id: int) -> None:
        """The host takes someone out: as a drop."""
        await self.leave(tournament_id, user_id)
