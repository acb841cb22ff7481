"""What a tournament shows, as the runner asks for it: the cog's, in Discord
(cogs/nines/tournament_messages.py); the runner's modules have no Discord in them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..game import Change, GameSession
from ..storage.tournament_values import PairedTable, TournamentRow
from .standings import Standing


class TournamentPresenter(Protocol):
    """What a tournament shows (the cog's, in Discord)."""

    async def open_thread(self, tournament: TournamentRow, table: PairedTable) -> int:
        """A thread for the table's game in the tournament's channel; its id."""
        ...

    async def table_opened(
        self, tournament: TournamentRow, table: PairedTable, session: GameSession, change: Change
    ) -> None:
        """The table's game started: its people pinged in its thread, the table shown."""
        ...

    async def show_game(self, session: GameSession, change: Change) -> None:
        """A change of a table's game (computers finishing it after the deadline)."""
        ...

    async def registration_changed(self, tournament: TournamentRow) -> None: ...

    async def standings(
        self, tournament: TournamentRow, rows: Sequence[Standing], final: bool
    ) -> None: ...
