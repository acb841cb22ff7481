"""The public side of a game in Discord: lobby, table, hand summaries and the end message.

Implements ``bot.session.Presenter``. It is called under the session's lock, so the messages of
one game are edited in order; games in other channels do not wait for each other.
"""

from __future__ import annotations

import asyncio
import io
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters

from bot.i18n import card_label, tr, trump_name
from bot.session import Change, GameSession
from engine import HandEnded, HandStarted, TrumpSet, public_view

from . import render, ui

if TYPE_CHECKING:
    from bot.app import NinesBot

log = logging.getLogger(__name__)

# Discord error codes after which the game's channel is no use: it is gone or closed to us.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
LOST_CHANNEL = {UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS}


#: One thread draws every score chart: asyncio's default pool grew to six threads, each with
#: its own malloc arena keeping the freed picture buffers (~5 MB at 200 games), and charts
#: drawn side by side fought the event loop for the GIL.
_CHARTS = ThreadPoolExecutor(1, thread_name_prefix="score-chart")


class ChannelLost(Exception):
    """The game's channel was deleted or the bot may no longer post there."""


class DiscordPresenter:
    def __init__(self, bot: NinesBot) -> None:
        self.bot = bot

    def channel(
        self, session: GameSession, channel_id: int | None = None
    ) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            channel_id or session.channel_id, guild_id=session.guild_id
        )

    # -- low level: every public message goes through these two ------------------------------

    async def post(self, session: GameSession, **kwargs: Any) -> discord.Message:
        try:
            message = await self.channel(session).send(**kwargs)
        except discord.HTTPException as error:
            if error.code in LOST_CHANNEL:
                raise ChannelLost from error
            raise
        return message

    async def edit(
        self,
        session: GameSession,
        message_id: int | None,
        *,
        channel_id: int | None = None,
        **kwargs: Any,
    ) -> int:
        """Edit a message of ours; post it again if it was deleted. Returns its id.

        ``channel_id``: where the message is when it is not the table's channel (the lobby of
        a game played in its own thread)."""
        if message_id is not None:
            try:
                await self.patch(channel_id or session.channel_id, message_id, **kwargs)
                return message_id
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise ChannelLost from error
            except discord.HTTPException as error:
                if error.code in LOST_CHANNEL:
                    raise ChannelLost from error
                raise
        return (await self.post(session, **kwargs)).id

    async def patch(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        """``PartialMessage.edit`` without parsing Discord's answer into a ``Message``: nothing
        here reads it, and with its embed and components it was a good part of an edit's time
        on the loop (one edit per card played)."""
        mentions = self.bot.allowed_mentions if "content" in kwargs else None
        with handle_message_parameters(previous_allowed_mentions=mentions, **kwargs) as params:
            await self.bot.http.edit_message(channel_id, message_id, params=params)

    # -- the table -----------------------------------------------------------------------------

    def table_message(self, session: GameSession, notes: list[str]) -> dict[str, Any]:
        lang = session.language
        return {
            "content": render.turn_content(lang, session),
            "embed": render.table_embed(lang, session, notes=notes, deadline=session.deadline),
            "view": ui.table_view(lang, session),
        }

    async def show(self, session: GameSession, change: Change) -> None:
        """Show a change on the table. Callers need not hold the game's lock (a click is not
        kept waiting for the previous click's table edit); edits of one game stay in order."""
        try:
            async with session.table_lock:
                if session.closed and change.ended is None:
                    return  # ended meanwhile; its end was (or is being) shown
                await self._show(session, change)
        except ChannelLost:
            log.info("game %s lost its channel; ending it unrated", session.id)
            await session.abandon("channel_lost")
            self.bot.sessions.discard(session)

    async def _show(self, session: GameSession, change: Change) -> None:
        lang = session.language
        game = session.game
        assert game is not None
        notes = [tr(lang, "note.timeout", name=session.seats[s].name) for s in change.timed_out]
        if change.restored:
            notes.append(tr(lang, "note.restored"))
        trump_notes: list[str] = []
        for event in change.events:
            if isinstance(event, HandStarted):
                trump_notes.clear()  # only the round now on the table
            elif isinstance(event, TrumpSet):  # Nein Nine: the first 8 of the round sets trump
                trump_notes.append(
                    tr(
                        lang,
                        "note.trump_set",
                        name=session.seats[event.by_seat].name,
                        trump=trump_name(lang, event.suit),
                        big=card_label(event.big_spit, lang),
                        little=card_label(event.little_spit, lang),
                    )
                )
        notes.extend(trump_notes)
        if change.ended not in (None, "finished"):
            await self.ended_early(session, change.ended or "stopped")
            return
        summaries = [e for e in change.events if isinstance(e, HandEnded)]
        for i, result in enumerate(summaries):
            hand = game.hands_log[result.number - 1]
            embed = render.hand_summary(lang, session, result, hand.tricks)
            if i == 0 and session.table_message_id is not None:
                # The hand's table becomes its summary: the channel reads hand by hand.
                await self.edit(
                    session, session.table_message_id, content=None, embed=embed, view=None
                )
            else:
                await self.post(session, embed=embed)
        if game.over:
            session.table_message_id = None
            await self.game_over(session)
            return
        new_hand = any(isinstance(e, HandStarted) for e in change.events)
        message = self.table_message(session, notes)
        before = session.table_message_id
        if new_hand or before is None:
            posted = await self.post(session, **message)
            session.table_message_id = posted.id
        else:
            session.table_message_id = await self.edit(session, before, **message)
        if session.table_message_id != before:  # most edits keep the id: nothing to store
            await self.bot.storage.update_game(
                session.id, table_message_id=session.table_message_id
            )

    async def game_over(self, session: GameSession) -> None:
        lang = session.language
        game = session.game
        assert game is not None and game.winners is not None
        finished = await self.bot.storage.game_result(session.id)
        changes = finished.rating_changes if finished else ()
        embed = render.end_embed(lang, session, game.winners, changes)
        view = ui.end_view(lang, session)
        try:
            # ~40 ms of drawing: in a thread, so clicks in other games are not held up.
            png = await asyncio.get_running_loop().run_in_executor(
                _CHARTS, render.score_chart_png, lang, session
            )
        except Exception:
            log.exception("could not draw the score chart of game %s", session.id)
            png = None
        if png is None:
            await self.post(session, embed=embed, view=view)
        else:
            embed.set_image(url=f"attachment://{render.CHART_FILE}")
            try:
                await self.post(
                    session,
                    embed=embed,
                    view=view,
                    file=discord.File(io.BytesIO(png), filename=render.CHART_FILE),
                )
            except ChannelLost:  # perhaps only the picture is refused (Attach Files)
                embed.set_image(url=None)
                await self.post(session, embed=embed, view=view)
        self.bot.sessions.discard(session)

    async def ended_early(self, session: GameSession, reason: str) -> None:
        """A game stopped, abandoned or left by everyone: say so where the table was."""
        lang = session.language
        text = tr(lang, f"end.reason.{reason}") + "\n" + tr(lang, "end.not_rated")
        embed = discord.Embed(
            title=tr(lang, "end.stopped_title"), description=text, colour=discord.Colour.dark_grey()
        )
        if session.game is not None and session.game.sheet:
            table = public_view(session.game)
            embed.description = (
                (embed.description or "")
                + "\n"
                + render.sheet_block(lang, session, table.rules, table.start_scores, table.sheet)
            )
        message_id = session.table_message_id or session.lobby_message_id
        where = None if session.table_message_id else session.lobby_channel_id
        try:
            await self.edit(
                session, message_id, channel_id=where, content=None, embed=embed, view=None
            )
        except (ChannelLost, discord.HTTPException):
            log.info("could not show the end of game %s", session.id)
        self.bot.sessions.discard(session)

    async def lobby_expired(self, session: GameSession) -> None:
        lang = session.language
        embed = discord.Embed(
            title=tr(lang, "lobby.expired_title"),
            description=tr(lang, "lobby.expired"),
            colour=discord.Colour.dark_grey(),
        )
        try:
            await self.edit(
                session,
                session.lobby_message_id,
                channel_id=session.lobby_channel_id,
                embed=embed,
                view=None,
            )
        except (ChannelLost, discord.HTTPException):
            log.info("could not mark the lobby of game %s expired", session.id)
        self.bot.sessions.discard(session)
