"""The first step of every click on a game: its session found (waiting for a restore under
way), or the clicker told what is true of the game; then the game's lock, held for the click.

Discord wants every interaction answered within 3 s
(https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction):
a click that waits longer for its game is acknowledged first, and answered when it gets it.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

import discord

from bot.game import GameSession, Sessions, game_lock
from bot.storage import Storage
from bot.words import tr

from . import replies

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

#: A click that finds no game while games are being restored waits this long for them, then
#: is acknowledged and waits up to RESTORE_LONGEST (a takeover waits 30 s for its shard).
RESTORE_WAIT: Final = 2.0
RESTORE_LONGEST: Final = 30.0


class Opening:
    """How the controller opens a click on a game (``opened``, ``seated``) and holds the game
    for it (``hold``)."""

    def __init__(
        self, sessions: Sessions, storage: Storage, serves: Callable[[int], bool] | None
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        #: Whether this process runs a guild's games (``NinesBot.serves``); None: every guild.
        self.serves = serves

    # -- waiting for the game ------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def hold(self, interaction: Interaction, session: GameSession) -> AsyncIterator[None]:
        """The game's lock, for one click. If the game stays busy (computers thinking, a timer
        firing) the click is acknowledged first, so it never fails while it waits its turn;
        the answer then edits the clicked message."""
        async with game_lock.hold(
            session.lock, functools.partial(replies.defer_while_busy, interaction)
        ):
            yield

    # -- finding the game ----------------------------------------------------------------------

    async def session_for(self, game_id: int, interaction: Interaction) -> GameSession | None:
        """The clicked game's session; while games are being restored (a start, a shard's
        takeover), the click waits for them instead of being told the game is gone."""
        serves, guild_id = self.serves, interaction.guild_id
        if serves is not None and guild_id is not None and not serves(guild_id):
            return None  # not surely this process's shard: unknown_game says nothing
        session = self.sessions.get(game_id)
        if session is None and self.sessions.restoring:
            # Discord wants an answer within 3 s; past RESTORE_WAIT the click is deferred
            # and waits on (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
            if not await self.sessions.restored(RESTORE_WAIT):
                if not interaction.response.is_done():
                    await interaction.response.defer(ephemeral=True, thinking=True)
                await self.sessions.restored(RESTORE_LONGEST)
            session = self.sessions.get(game_id)
        return session

    async def unknown_game(self, interaction: Interaction, game_id: int) -> None:
        """No session runs the clicked game here: say what is true of it."""
        serves = self.serves
        guild_id = interaction.guild_id
        if serves is not None and guild_id is not None and not serves(guild_id):
            # Discord sends a shard's events to every session identified on it; a session
            # left on a shard this process no longer holds must not answer for its holder.
            log.warning("click for a game of guild %d, whose shard is not held", guild_id)
            return
        row = await self.storage.game(game_id)
        if row is None:
            key = "error.game_not_known"
        elif not row.is_open:
            key = "error.game_over"
        else:
            key = "error.unknown_game"
        await replies.private(interaction, tr(replies.lang(interaction), key))

    async def opened(self, interaction: Interaction, game_id: int) -> GameSession | None:
        """The first step of every click on a game: its session, or None once the click is
        told what is true of the game (``unknown_game``)."""
        session = await self.session_for(game_id, interaction)
        if session is None:
            await self.unknown_game(interaction, game_id)
        return session

    async def seated(
        self, interaction: Interaction, game_id: int
    ) -> tuple[GameSession, int] | None:
        """A click on a game's hand: its session and the clicker's seat, or None once the
        click is told why not."""
        session = await self.opened(interaction, game_id)
        if session is None:
            return None
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await replies.private(interaction, tr(replies.lang(interaction), "error.not_seated"))
            return None
        return session, seat
