"""A round's tables: opening each table's game in its thread (a thread or game made before a
restart found again and adopted), and scoring a table's game once it ended, here or unseen
while the bot was down."""

from __future__ import annotations

import logging

from engine import Game, parse_action
from engine.duplicate import board_points

from ..game import Change, GameSession, SeatInfo
from ..storage import ChannelBusy, Seat
from ..storage.tournament_values import Entrant, PairedTable, TournamentRow
from .context import RunnerContext
from .seating import rules_of, seat_infos

log = logging.getLogger(__name__)


class Tables:
    """Opens and scores a tournament's tables (each step under the tournament's lock)."""

    def __init__(self, ctx: RunnerContext) -> None:
        self.ctx = ctx

    async def open(
        self, t: TournamentRow, table: PairedTable, entrants: dict[int, Entrant]
    ) -> None:
        """Open the table's game in its thread and call its people, each part once: a thread
        or game made before a restart is found again (runner.py's rule)."""
        ctx = self.ctx
        infos, host = seat_infos(t, table, entrants)
        thread_id = table.thread_id
        if thread_id is None:
            made = await ctx.presenter.open_thread(t, table)
            thread_id = await ctx.storage.set_table_thread(t.id, table.round, table.table_no, made)
            ctx.failpoint("tournament_thread_opened")
        found = ctx.sessions.get(table.game_id) if table.game_id else None
        session = found or ctx.sessions.in_channel(thread_id)
        if session is None and table.game_id is not None:
            await self.score_stored(t, table)  # ended while the bot was down, or not ours
            return
        if session is None:
            session = await self._make_game(t, table, thread_id, infos, host)
            if session is None:
                return
        session.turn_seconds = t.move_timer
        await ctx.storage.attach_table_game(
            t.id, table.round, table.table_no, session.id, thread_id
        )
        ctx.games[session.id] = (t.id, table.round, table.table_no)
        change = Change()
        async with session.lock:
            if session.status == "lobby" and not session.closed:
                change = await session.lobby.start(host)
                change.extend(await session.run_computers())
                ctx.failpoint("tournament_game_started")
        if not table.called:
            opened = PairedTable(
                table.round, table.table_no, table.seed, table.players, session.id, thread_id
            )
            await ctx.presenter.table_opened(t, opened, session, change)
            ctx.failpoint("tournament_table_called")
            await ctx.storage.mark_table_called(t.id, table.round, table.table_no)

    async def _make_game(
        self,
        t: TournamentRow,
        table: PairedTable,
        thread_id: int,
        infos: list[SeatInfo],
        host: int,
    ) -> GameSession | None:
        """The table's game made in its thread and run here; None if another process runs a
        game made there before a restart."""
        ctx = self.ctx
        rules = rules_of(t, table.seats)
        try:
            row = await ctx.storage.create_game(
                guild_id=t.guild_id,
                channel_id=thread_id,
                kind=rules.game,
                rules=rules.to_dict(),
                seed=table.seed,
                host_id=host,
                language=t.language,
                seats=[
                    Seat(i, s.name, s.user_id, s.is_computer, s.difficulty)
                    for i, s in enumerate(infos)
                ],
            )
        except ChannelBusy as busy:  # made before a restart and run by another process
            log.warning("tournament %s: game %s is not ours", t.id, busy.game_id)
            return None
        ctx.failpoint("tournament_game_made")
        session = GameSession(
            row, infos, ctx.sessions.deps, players=table.seats, turn_seconds=t.move_timer
        )
        session.fence = ctx.sessions.deps.fence(t.guild_id)
        ctx.sessions.add(session)
        return session

    async def record(self, t: TournamentRow, table: PairedTable, game: Game) -> None:
        """A table's end: each seat position's final score and points by hand."""
        seats = [(game.first_dealer + p) % table.seats for p in range(table.seats)]
        scores = [game.scores[game.rules.unit_of(seat)] for seat in seats]
        boards = [board_points(game, seat) for seat in seats]
        await self.ctx.storage.finish_table(t.id, table.round, table.table_no, scores, boards)

    async def level(self, t: TournamentRow, table: PairedTable) -> None:
        """A table stopped or abandoned: everyone level, and it counts as played."""
        await self.ctx.storage.finish_table(t.id, table.round, table.table_no, [0] * table.seats)

    async def score_stored(self, t: TournamentRow, table: PairedTable) -> None:
        """A table whose game is not running here: ended while the bot was down (scored from
        its stored moves), or still live elsewhere (left to its holder)."""
        assert table.game_id is not None
        row = await self.ctx.storage.game(table.game_id)
        if row is None or row.status in ("lobby", "live"):
            return
        actions = [(a.seat, parse_action(a.action)) for a in await self.ctx.storage.actions(row.id)]
        game = Game.replay(rules_of(t, table.seats), row.seed, actions)
        if game.over:
            await self.record(t, table, game)
        else:
            await self.level(t, table)
