"""The public side of a game in Discord: ``DiscordPresenter``, which implements
``bot.game.session.Presenter`` from its parts (the table message, the turn pings, the private
hands), and says itself what starts and ends a game: the lobby and end messages.

Implements ``bot.game.session.Presenter``. Its callers may hold the session's ``lock`` or not (a
click's table edit is shown after the lock is released, so the next click need not wait for
it); ``show`` keeps each game's messages in order under the session's ``table_lock``. Games in
other channels do not wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import discord

from bot.base import failpoint
from bot.game.session import Change, GameSession
from bot.table import table_model, table_models
from bot.words import in_text, tr
from engine import HandEnded

from . import render, ui
from .activity import open_table_button, served
from .daily_table import DailyTable, percent
from .delivery import Delivery, FollowUpBudget
from .messages import ChannelLost, GameMessages, nonce
from .private_hands import PrivateHands
from .render.cards import CardStyle
from .table_message import TableMessage
from .turn_pings import TurnPings

if TYPE_CHECKING:
    # The bot as the extension's modules import it (``from .table import NinesBot``). Its
    # ``presenter`` is what the sessions show through: this module's presenter, or the
    # Activity's fan-out around it; what only this presenter does is asked of it directly.
    from bot.app import NinesBot as NinesBot


log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

#: One thread draws every score chart: asyncio's default pool grew to six threads, each with
#: its own malloc arena keeping the freed picture buffers (~5 MB at 200 games), and charts
#: drawn side by side fought the event loop for the GIL.
_CHARTS = ThreadPoolExecutor(1, thread_name_prefix="score-chart")


class DiscordPresenter:
    def __init__(self, bot: NinesBot) -> None:
        self.bot = bot
        self.messages = GameMessages(bot)
        self.hands = PrivateHands(self.messages)
        self.turns = TurnPings(self.messages, self.hands)
        self.table = TableMessage(self.messages)
        self.daily = DailyTable(bot, self.messages, self.hands)

    # -- what the controller and the tests reach: the parts' own ---------------------------------

    @property
    def followups(self) -> FollowUpBudget:
        return self.messages.followups

    @property
    def token_seconds(self) -> float:
        return self.messages.token_seconds

    @token_seconds.setter
    def token_seconds(self, seconds: float) -> None:
        self.messages.token_seconds = seconds

    def delivery(self, session: GameSession) -> Delivery:
        return self.messages.delivery(session)

    def remember_hand(
        self, session: GameSession, interaction: Interaction, message: int | None
    ) -> None:
        self.hands.remember_hand(session, interaction, message)

    def remember_click(self, session: GameSession, interaction: Interaction) -> None:
        self.hands.remember_click(session, interaction)

    def hand_shown(self, session: GameSession, user_id: int) -> None:
        self.hands.hand_shown(session, user_id)

    async def card_style(self, session: GameSession) -> CardStyle:
        return await self.messages.card_style(session)

    # -- a step of the game ------------------------------------------------------------------------

    async def show(self, session: GameSession, change: Change, *, catch_up: bool = False) -> None:
        """Show a change on the table. Callers need not hold the game's lock (a click is not
        kept waiting for the previous click's table edit); edits of one game stay in order.
        ``catch_up``: no change, but the table may be behind (``web_table_left``). A daily
        (``session.private``) shows nothing in a channel: its own path, ``DailyTable``."""
        if session.private:
            await self.daily.show(session, change)
            return
        try:
            async with session.table_lock:
                if session.closed and change.ended is None:
                    return  # ended meanwhile; its end was (or is being) shown
                if catch_up and not (await self.messages.loaded(session)).table_behind:
                    await self.turns.turn(session)
                    return
                await self._show(session, change)
        except ChannelLost:
            log.info("game %s lost its channel; ending it unrated", session.id)
            await session.abandon("channel_lost")
            # Nowhere left to say it but the private hands.
            delivery = await self.announced(session)
            await self.hands.close_hands(
                session, delivery, lambda lang: tr(lang, "end.reason.channel_lost")
            )

    async def _show(self, session: GameSession, change: Change) -> None:
        """Bring the channel up to the game's stored state: an early end, or the hands'
        summaries and the table (``TableMessage.show``) then the turn ping, or the end."""
        if change.ended not in (None, "finished"):
            await self.ended_early(session, change.ended or "stopped")
            return
        if await self.table.show(session, change):
            await self.game_over(session)
            return
        await self.turns.turn(session, change.answered)
        if any(isinstance(event, HandEnded) for event in change.events):
            # Every person's hand shows the hand's result, not only the next player's.
            await self.hands.refresh_all(session)

    async def web_table_left(self, session: GameSession) -> None:
        """A seated person closed the game's web table (told by the Activity's hub through
        bot/activity/fanout.py): they follow the game in chat now. A table coalesced while
        everyone played at the web table (``TableMessage.watched_only``) is brought up to
        date, and if the turn is theirs, the turn message pings them (the web table told them
        until now: ``TurnPings.turn``)."""
        await self.show(session, Change(), catch_up=True)

    # -- the end -------------------------------------------------------------------------------

    async def announced(self, session: GameSession) -> Delivery:
        """The game's end stands in its channel (or cannot be told): nothing more is owed.
        Returns the game's notebook, now dropped, for closing the last private hands."""
        await session.end_announced()
        return self.messages.deliveries.pop(session.id, None) or Delivery()

    async def game_over(self, session: GameSession) -> None:
        lang = session.language
        model = table_models.table(session, None)
        assert model.winners is not None
        await self.turns.clear_turn(session)
        finished = await self.bot.storage.game_result(session.id)
        changes = finished.rating_changes if finished else ()
        embed = render.end_embed(lang, model, changes)
        rotation = await self.bot.duplicates.rotation_of(session.id)
        if rotation is not None:  # a duplicate match's game: its raw scores and result
            name, value = await self.duplicate_field(session, rotation[1])
            embed.add_field(name=name, value=value, inline=False)
        view = ui.end_view(lang, model)
        once = nonce(session, "e")
        # The end reaches everyone seated (PRODUCT.md): the ranking with each person's mention
        # in the end message's own content. Discord notifies a user mentioned in a message
        # when it is created and allowed_mentions lets the mention through
        # (https://discord.com/developers/docs/resources/message#allowed-mentions-object);
        # one message, so one notification each, and the end's nonce makes a post repeated
        # after a restart return that message instead of creating (and notifying) again.
        people = [discord.Object(s.user_id) for s in model.seats if s.user_id is not None]
        notice = {
            "content": render.end_notice(lang, model),
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=people
            ),
        }
        try:
            # ~40 ms of drawing: in a thread, so clicks in other games are not held up.
            png = await asyncio.get_running_loop().run_in_executor(
                _CHARTS, render.score_chart_png, lang, model
            )
        except Exception:
            log.exception("could not draw the score chart of game %s", session.id)
            png = None
        if png is None:
            await self.messages.post(session, embed=embed, view=view, nonce=once, **notice)
        else:
            embed.set_image(url=f"attachment://{render.CHART_FILE}")
            try:
                await self.messages.post(
                    session,
                    embed=embed,
                    view=view,
                    file=discord.File(io.BytesIO(png), filename=render.CHART_FILE),
                    nonce=once,
                    **notice,
                )
            except ChannelLost:  # perhaps only the picture is refused (Attach Files)
                embed.set_image(url=None)
                await self.messages.post(
                    session, embed=embed, view=view, nonce=nonce(session, "E"), **notice
                )
        failpoint("end_posted")
        delivery = await self.announced(session)
        winners = render.winners_text(model)
        await self.hands.close_hands(
            session, delivery, lambda lang: tr(lang, "end.winners", who=winners)
        )
        started = await self.bot.duplicates.next_game(session)
        if started is not None:  # the match's next rotation: its table, as a Start shows it
            await self.show(*started)

    async def duplicate_field(self, session: GameSession, rotation: int) -> tuple[str, str]:
        """The end's words on a duplicate match: which game of the match this was, and after
        the last, each player's raw scores and duplicate result, best first."""
        lang = session.language
        name = tr(lang, "duplicate.title", number=rotation + 1, games=session.players)
        players = await self.bot.duplicates.result(session)
        if players is None:
            return name, tr(lang, "duplicate.next")
        ranked = sorted(players, key=lambda p: -(p.share or 0.0))
        lines = [
            tr(
                lang,
                "duplicate.player",
                who=in_text(p.name),
                raw=", ".join(str(r) for r in p.raw),
                share=percent(lang, p.share or 0.0),
            )
            for p in ranked
        ]
        return name, "\n".join([*lines, tr(lang, "duplicate.how")])

    async def ended_early(
        self, session: GameSession, reason: str, *, by: str | None = None
    ) -> None:
        """A game stopped, abandoned or left by everyone: say so where the table was, and in
        every private hand. ``by``: the name of who stopped it (``/nines stop``)."""
        lang = session.language

        def how(lang: str) -> str:
            if by is not None:
                return tr(lang, "end.stopped_by", who=by)
            return tr(lang, f"end.reason.{reason}")

        public = None if session.game is None else table_models.table(session, None)
        style = await self.messages.card_style(session)
        embed = render.stopped_embed(lang, public, how(lang), style)
        notebook = await self.messages.loaded(session)
        table_id = notebook.table_message_id
        message_id = table_id or session.lobby_message_id
        where = None if table_id else session.lobby_channel_id
        try:
            await self.messages.edit(
                session,
                message_id,
                channel_id=where,
                by=notebook.table_by if table_id else None,
                content=None,
                embed=embed,
                view=None,
            )
        except (ChannelLost, discord.HTTPException):
            log.info("could not show the end of game %s", session.id)
        with contextlib.suppress(ChannelLost, discord.HTTPException):
            await self.turns.clear_turn(session)
        delivery = await self.announced(session)
        await self.hands.close_hands(
            session, delivery, lambda lang: how(lang) + " " + tr(lang, "end.not_rated")
        )

    async def refresh_lobby(self, session: GameSession) -> None:
        """After a restart: the lobby message shows the seats as stored (a click stored just
        before the process died may not have reached it)."""
        lang = session.language
        settings = await self.bot.storage.get_guild_settings(session.guild_id)
        level = str(settings.get("difficulty") or "normal")
        lobby = table_model.build_lobby(session)
        embed = render.lobby_embed(lang, lobby, note=tr(lang, "note.restored"))
        view = ui.lobby_view(
            lang, lobby, level, open_table=open_table_button(served(self.bot), lang, session.id)
        )
        before = session.lobby_message_id
        if before is None:  # died before the lobby's id was stored: post it again
            channel = self.messages.channel(session, session.lobby_channel_id)
            posted = await channel.send(embed=embed, view=view, nonce=nonce(session, "l"))
            await session.lobby_posted(posted.id)
        else:
            try:
                await self.messages.patch(session.lobby_channel_id, before, embed=embed, view=view)
            except discord.NotFound:
                log.info("the lobby message of game %s is gone", session.id)

    def lobby_changed(self, session: GameSession) -> None:
        """Nothing to do: the click that changed the seats updates the lobby message
        (cogs.nines.controller.lobby_click), in its own answer."""

    async def lobby_expired(self, session: GameSession) -> None:
        lang = session.language
        embed = render.expired_embed(lang)
        try:
            await self.messages.edit(
                session,
                session.lobby_message_id,
                channel_id=session.lobby_channel_id,
                embed=embed,
                view=None,
            )
        except (ChannelLost, discord.HTTPException):
            log.info("could not mark the lobby of game %s expired", session.id)
        await self.announced(session)
