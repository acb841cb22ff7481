"""The public side of a game in Discord: lobby, table, hand summaries and the end message.

Implements ``bot.session.Presenter``. It is called under the session's lock, so the messages of
one game are edited in order; games in other channels do not wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot import discord_internals, table_model
from bot.failpoints import failpoint
from bot.i18n import tr
from bot.session import Change, GameSession
from engine import HandStarted, TrumpSet

from . import render, ui
from .delivery import (
    KEPT_FOR_TABLES,
    TOKEN_REFUSED,
    TOKEN_SECONDS,
    Delivery,
    FollowUpBudget,
    Token,
    link,
    token,
)

if TYPE_CHECKING:
    from bot.app import NinesBot as Bot

    class NinesBot(Bot):
        """The bot as this extension sees it: the presenter it plugged in is this module's."""

        presenter: DiscordPresenter


log = logging.getLogger(__name__)

# Discord error codes after which the game's channel is no use: it is gone or closed to us.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
LOST_CHANNEL = {UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS}

NO_MENTIONS = discord.AllowedMentions.none()

Interaction = discord.Interaction[Any]


def _nonce(session: GameSession, what: str) -> str:
    """The nonce of one message a game owes its channel: Discord returns the message already
    made with it by this bot (for a few minutes). From the game's random seed, not its id,
    which another database (a reset, a test) would reuse. At most 25 characters."""
    return f"{session.seed:x}"[:13] + what


#: One thread draws every score chart: asyncio's default pool grew to six threads, each with
#: its own malloc arena keeping the freed picture buffers (~5 MB at 200 games), and charts
#: drawn side by side fought the event loop for the GIL.
_CHARTS = ThreadPoolExecutor(1, thread_name_prefix="score-chart")


class ChannelLost(Exception):
    """The game's channel was deleted or the bot may no longer post there."""


class DiscordPresenter:
    def __init__(self, bot: NinesBot) -> None:
        self.bot = bot
        #: game id -> what its channel and people were shown (the session's is the game).
        self.deliveries: dict[int, Delivery] = {}
        #: The public follow-ups posted into each channel lately (Discord's shared limit).
        self.followups = FollowUpBudget()
        #: How long a click's token is used for the game's public messages (tests shorten it).
        self.token_seconds: float = TOKEN_SECONDS

    def delivery(self, session: GameSession) -> Delivery:
        """The game's notebook in this process (its stored marks not read yet: ``loaded``)."""
        found = self.deliveries.get(session.id)
        if found is None:
            found = self.deliveries[session.id] = Delivery()
        return found

    async def loaded(self, session: GameSession) -> Delivery:
        """The game's notebook with its stored marks: read the first time the presenter meets
        the game in this process (after a restart, they say how far the channel was told)."""
        delivery = self.delivery(session)
        if not delivery.loaded:
            delivery.load(await self.bot.storage.load_delivery(session.id))
        return delivery

    async def save(self, session: GameSession, delivery: Delivery) -> None:
        await self.bot.storage.save_delivery(session.id, delivery.marks(), fence=session.fence)

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
        by: Token | None = None,
        **kwargs: Any,
    ) -> int:
        """Edit a message of ours; post it again if it was deleted. Returns its id.

        ``channel_id``: where the message is when it is not the table's channel (the lobby of
        a game played in its own thread). ``by``: the token that created it, which edits it
        off the global limit while it lives (see ``follow_up``); else the channel route, where
        the bot edits its own messages, follow-ups included (they are the bot's: Discord's
        Interactions > Receiving and Responding; discord/discord-api-docs#6253: only ephemeral
        ones need the interaction endpoints)."""
        if message_id is not None and by is not None and by.alive:
            webhook = discord_internals.interaction_webhook(self.bot, by.value)
            try:
                await webhook.edit_message(message_id, **kwargs)
                return message_id
            except discord.HTTPException as error:
                if error.code not in TOKEN_REFUSED:
                    raise
                log.info("a token refused an edit in game %s (%s)", session.id, error.code)
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
        await discord_internals.edit_message(self.bot, channel_id, message_id, **kwargs)

    # -- the table -----------------------------------------------------------------------------

    def table_message(
        self, session: GameSession, delivery: Delivery, notes: list[str]
    ) -> dict[str, Any]:
        lang = session.language
        model = table_model.build(session, None)
        drawn = delivery.tricks_shown
        # Not drawn since this process started: the last trick only (as after a restart).
        shown = None if drawn is None else drawn[1] if drawn[0] == model.hand_number else 0
        return {
            "content": render.turn_content(lang, model),
            "embed": render.table_embed(lang, model, notes=notes, shown_tricks=shown),
            "view": ui.table_view(lang, model),
            # The table names whose turn it is but notifies nobody: the turn message does.
            "allowed_mentions": NO_MENTIONS,
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
            # Nowhere left to say it but the private hands.
            delivery = await self.announced(session)
            self.bot.sessions.discard(session)
            await self.close_hands(
                session, delivery, lambda lang: tr(lang, "end.reason.channel_lost")
            )

    def notes(self, session: GameSession, change: Change) -> list[str]:
        trumps: list[TrumpSet] = []
        for event in change.events:
            if isinstance(event, HandStarted):
                trumps.clear()  # only the round now on the table
            elif isinstance(event, TrumpSet):  # Nein Nine: the first 8 of the round sets trump
                trumps.append(event)
        return render.change_notes(
            session.language,
            table_model.build(session, None),
            timed_out=change.timed_out,
            restored=change.restored,
            trumps=trumps,
        )

    async def _show(self, session: GameSession, change: Change) -> None:
        """Bring the channel up to the game's stored state.

        What the channel owes follows from the stored moves; the game's delivery marks
        (``Delivery``, stored, see migration 0004) say how far it was told. Each step is safe
        to repeat: an edit is idempotent, and a post carries a nonce Discord enforces, so a post
        repeated after a crash returns the message it made the first time. A restart therefore
        just calls this again and finishes whatever a dead process left owed, exactly once.
        """
        if change.ended not in (None, "finished"):
            await self.ended_early(session, change.ended or "stopped")
            return
        game = session.game
        assert game is not None
        lang = session.language
        delivery = await self.loaded(session)
        changed = False
        ended = sum(1 for hand in game.hands_log if hand.result is not None)
        for number in range(delivery.shown_hands + 1, ended + 1):
            hand = game.hands_log[number - 1]
            assert hand.result is not None
            # The game's last hand leaves the sheet to the end message: it is shown once.
            last = game.over and number == ended
            public = table_model.build(session, None)
            tricks = [table_model.trick_of(t, game.players) for t in hand.tricks]
            embed = render.hand_summary(lang, public, hand.result, tricks, sheet=not last)
            if delivery.table_hand == number and delivery.table_message_id is not None:
                # The hand's table becomes its summary: the channel reads hand by hand.
                await self.edit(
                    session,
                    delivery.table_message_id,
                    by=delivery.table_by,
                    content=None,
                    embed=embed,
                    view=None,
                )
            else:
                await self.post(session, embed=embed, nonce=_nonce(session, f"s{number}"))
            failpoint("summary_shown")
            delivery.shown_hands = number
            changed = True
        if game.over:
            if changed:
                await self.save(session, delivery)
            await self.game_over(session)
            return
        message = self.table_message(session, delivery, self.notes(session, change))
        # As drawn now: other clicks may play on while the edit is on its way.
        drawn = (game.hand_number, len(game.tricks))
        before = delivery.table_message_id
        if delivery.table_hand != game.hand_number or before is None:
            nonce = _nonce(session, f"t{game.hand_number}")
            # On the channel route, with its nonce: a crash before its id is stored cannot
            # leave a second table. The next card's click moves it onto a token (renew_table).
            delivery.table_message_id = (await self.post(session, nonce=nonce, **message)).id
            delivery.table_by = None
            failpoint("table_posted")
            delivery.table_hand = game.hand_number
        else:
            delivery.table_message_id = await self.renew_table(session, delivery, message)
        delivery.tricks_shown = drawn
        if changed or delivery.table_message_id != before:  # most edits keep the id
            await self.save(session, delivery)
        await self.turn(session, change.answered)

    async def renew_table(
        self, session: GameSession, delivery: Delivery, message: dict[str, Any]
    ) -> int:
        """The standing table brought up to date: edited through the token that made it while
        that lives; else replaced by a follow-up of the game's freshest click (so later edits
        are off the global limit too, and the table is the channel's newest message again,
        which on a phone is where one looks); else edited on the channel route. Returns its
        id."""
        before = delivery.table_message_id
        assert before is not None
        by = delivery.table_by
        if by is None or not by.alive:
            click = delivery.live_click()
            new = None if click is None else await self.follow_up(session, click, **message)
            if new is not None:
                delivery.table_message_id, delivery.table_by = new, click
                # Stored at once (a follow-up has no nonce): a crash before this leaves a
                # second, stale table standing (its button still opens the current hand);
                # the restarted game edits the stored one.
                await self.save(session, delivery)
                await self.delete(session, before, by=by)
                return new
        return await self.edit(session, before, by=by, **message)

    # -- whose turn it is ----------------------------------------------------------------------

    async def turn(self, session: GameSession, answered: tuple[int, int] | None = None) -> None:
        """The person whose decision is due: their private hand brought up to date (so the
        cards they may play are enabled without a Refresh), then a new message that mentions
        them, since Discord notifies nobody of a mention added by an edit. The previous turn
        message is deleted: one stands per game at most.

        ``answered`` (``Change.answered``): whose own click was just answered with their hand
        at which action count. When that answer already gives them the turn, a ping would only
        be noise: none is posted."""
        seat = session.person_due()
        n = session.n
        delivery = await self.loaded(session)
        if seat is not None:
            await self.refresh_hand(session, seat)
        user_id = None if seat is None else session.seats[seat].user_id
        if user_id is not None and not await self.pings_on(session):
            user_id = None
        if user_id is not None and answered == (user_id, n):
            user_id = None  # their click's answer says "Your turn" already
        if user_id is not None and delivery.turn_n == n and delivery.turn_message_id is not None:
            return  # this decision's turn message stands already
        old, old_by = delivery.turn_message_id, delivery.turn_by
        new: int | None = None
        if user_id is not None:
            lang = session.language
            ping: dict[str, Any] = {
                "content": tr(lang, "table.your_turn", who=f"<@{user_id}>"),
                "view": ui.turn_view(lang, session.id),
                "allowed_mentions": discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            }
            click = delivery.live_click()
            new = (
                None
                if click is None
                else await self.follow_up(session, click, spare=KEPT_FOR_TABLES, **ping)
            )
            delivery.turn_by = None if new is None else click
            if new is None:  # no live token (a timer's move, a restart): the channel route
                new = (await self.post(session, nonce=_nonce(session, f"p{n}"), **ping)).id
            # A follow-up carries no nonce (the spec's IncomingWebhookRequestPartial has none):
            # a crash from here until the save leaves it standing, and the restarted process
            # (no live token) posts the ping again on the channel route.
            failpoint("turn_posted")
        if old == new:
            return
        delivery.turn_message_id, delivery.turn_n = new, (n if new is not None else None)
        await self.save(session, delivery)
        if old is not None:
            await self.delete(session, old, by=old_by)

    async def clear_turn(self, session: GameSession) -> None:
        """The game ended: its turn message goes."""
        delivery = await self.loaded(session)
        old, old_by = delivery.turn_message_id, delivery.turn_by
        if old is None:
            return
        delivery.turn_message_id = delivery.turn_n = None
        await self.save(session, delivery)
        await self.delete(session, old, by=old_by)

    async def follow_up(
        self, session: GameSession, click: Token, *, spare: int = 0, **kwargs: Any
    ) -> int | None:
        """Post a public message through a click's token; None if Discord refused it (the
        token expired or was never answered) or the channel's follow-up budget is spent, less
        ``spare`` posts kept for others (``FollowUpBudget``): the caller posts on the channel
        route.

        Follow-ups, like every route an interaction token opens, are not bound to Discord's
        global rate limit, only to their per-route limit (whose major parameter is the
        webhook id and token): https://discord.com/developers/docs/topics/rate-limits
        #global-rate-limit ("Interaction endpoints are not bound to the bot's Global Rate
        Limit") and .../interactions/receiving-and-responding#followup-messages."""
        if not self.followups.take(session.channel_id, spare=spare):
            return None
        webhook = discord_internals.interaction_webhook(self.bot, click.value)
        try:
            sent = await webhook.send(wait=True, **kwargs)
        except discord.HTTPException as error:
            if error.code in LOST_CHANNEL:
                raise ChannelLost from error
            log.info("a follow-up of game %s was refused (%s)", session.id, error.code)
            return None
        except aiohttp.ClientError:
            return None
        return sent.id

    async def delete(self, session: GameSession, message_id: int, *, by: Token | None) -> None:
        """Delete a message of the game: through the token that created it while it lives
        (off the global limit, see ``follow_up``), else on the channel route, where the bot
        may delete its own messages, follow-ups included: they are authored by the bot user
        (https://discord.com/developers/docs/resources/message#delete-message)."""
        if by is not None and by.alive:
            webhook = discord_internals.interaction_webhook(self.bot, by.value)
            try:
                await webhook.delete_message(message_id)
                return
            except (discord.HTTPException, aiohttp.ClientError) as error:
                if getattr(error, "code", None) == UNKNOWN_MESSAGE:
                    return  # deleted already
                # Expired meanwhile: the channel route.
        try:
            await discord_internals.delete_message(self.bot, session.channel_id, message_id)
        except discord.NotFound:
            pass  # deleted already (by someone, or before a restart)
        except discord.HTTPException as error:
            if error.code in LOST_CHANNEL:
                raise ChannelLost from error
            raise

    async def pings_on(self, session: GameSession) -> bool:
        settings = await self.bot.storage.get_guild_settings(session.guild_id)
        return settings.get("pings", True) not in (False, "off", 0)

    # -- private hands -------------------------------------------------------------------------

    def remember_hand(
        self, session: GameSession, interaction: Interaction, message: int | None
    ) -> None:
        """Where the clicker's newest private hand is: the message the click answered
        (``message`` None: the interaction's own), edited through the click's token."""
        where = "@original" if message is None else str(message)
        delivery = self.delivery(session)
        delivery.hand_links[interaction.user.id] = link(interaction, where)
        # Answered: its follow-ups may be sent.
        delivery.click = token(interaction, self.token_seconds)

    def remember_click(self, session: GameSession, interaction: Interaction) -> None:
        """A lobby click: its token can send the clicker their first hand privately once the
        game starts (no "My hand" click needed)."""
        delivery = self.delivery(session)
        delivery.hand_links[interaction.user.id] = link(interaction, None)
        delivery.click = token(interaction, self.token_seconds)

    def hand_shown(self, session: GameSession, user_id: int) -> None:
        """A click's answer shows this person the game as it is now: no refresh owed them
        until the game moves on."""
        self.delivery(session).hand_shows[user_id] = session.n

    async def refresh_hand(self, session: GameSession, seat: int) -> None:
        """Edit the seat's newest private hand to the game as it is, through the token of the
        click that showed it (valid 15 minutes). Past that, the turn message's button opens a
        fresh hand."""
        user_id = session.seats[seat].user_id
        assert user_id is not None
        delivery = self.delivery(session)
        hand = delivery.hand_links.get(user_id)
        if delivery.hand_shows.get(user_id) == session.n or hand is None:
            return  # current already (or a click's answer is about to show it)
        if time.monotonic() >= hand.until:
            del delivery.hand_links[user_id]
            return
        model = table_model.build(session, seat)
        content = render.hand_content(hand.language, model)
        components = ui.hand_view(hand.language, model)
        delivery.hand_shows[user_id] = session.n
        webhook = discord_internals.interaction_webhook(self.bot, hand.token)
        try:
            if hand.message is None:
                sent = await webhook.send(content, view=components, ephemeral=True, wait=True)
                hand.message = str(sent.id)
            else:
                # "@original" is the route's own word for the interaction's message.
                message_id: Any = hand.message
                await webhook.edit_message(message_id, content=content, view=components)
        except discord.HTTPException:
            # Expired, or the message was dismissed: the turn message's button still works.
            log.info("could not update a private hand in game %s", session.id, exc_info=True)
            delivery.hand_links.pop(user_id, None)
            delivery.hand_shows.pop(user_id, None)

    async def close_hands(
        self, session: GameSession, delivery: Delivery, how: Callable[[str], str]
    ) -> None:
        """The game ended: every person's newest private hand says so and how (``how``: that
        sentence in a language), with no card left to click. Through each click's token
        (valid 15 minutes, like ``refresh_hand``); an expired or dismissed one is let go."""
        links = list(delivery.hand_links.items())
        delivery.hand_links.clear()
        for user_id, hand in links:
            if hand.message is None:
                continue  # a lobby click's token: no hand was ever sent with it
            if time.monotonic() >= hand.until:
                continue
            lang = hand.language
            public = None if session.game is None else table_model.build(session, None)
            content = render.closed_hand_content(lang, session.rules, public, how(lang))
            # The interaction's webhook (https://discord.com/developers/docs/interactions/
            # receiving-and-responding#followup-messages): edits need no bot token.
            webhook = discord_internals.interaction_webhook(self.bot, hand.token)
            message_id: Any = hand.message  # "@original", or a follow-up's id
            try:
                await webhook.edit_message(message_id, content=content, view=None)
            except (discord.HTTPException, aiohttp.ClientError):  # the end stands already
                log.info("could not close a private hand in game %s", session.id, exc_info=True)
            delivery.hand_shows.pop(user_id, None)

    # -- the end -------------------------------------------------------------------------------

    async def announced(self, session: GameSession) -> Delivery:
        """The game's end stands in its channel (or cannot be told): nothing more is owed.
        Returns the game's notebook, now dropped, for closing the last private hands."""
        await self.bot.storage.update_game(session.id, fence=session.fence, announced=True)
        return self.deliveries.pop(session.id, None) or Delivery()

    async def game_over(self, session: GameSession) -> None:
        lang = session.language
        model = table_model.build(session, None)
        assert model.winners is not None
        await self.clear_turn(session)
        finished = await self.bot.storage.game_result(session.id)
        changes = finished.rating_changes if finished else ()
        embed = render.end_embed(lang, model, changes)
        view = ui.end_view(lang, model)
        nonce = _nonce(session, "e")
        try:
            # ~40 ms of drawing: in a thread, so clicks in other games are not held up.
            png = await asyncio.get_running_loop().run_in_executor(
                _CHARTS, render.score_chart_png, lang, model
            )
        except Exception:
            log.exception("could not draw the score chart of game %s", session.id)
            png = None
        if png is None:
            await self.post(session, embed=embed, view=view, nonce=nonce)
        else:
            embed.set_image(url=f"attachment://{render.CHART_FILE}")
            try:
                await self.post(
                    session,
                    embed=embed,
                    view=view,
                    file=discord.File(io.BytesIO(png), filename=render.CHART_FILE),
                    nonce=nonce,
                )
            except ChannelLost:  # perhaps only the picture is refused (Attach Files)
                embed.set_image(url=None)
                await self.post(session, embed=embed, view=view, nonce=_nonce(session, "E"))
        failpoint("end_posted")
        delivery = await self.announced(session)
        self.bot.sessions.discard(session)
        winners = render.winners_text(model)
        await self.close_hands(session, delivery, lambda lang: tr(lang, "end.winners", who=winners))

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

        public = None if session.game is None else table_model.build(session, None)
        embed = render.stopped_embed(lang, public, how(lang))
        notebook = await self.loaded(session)
        table_id = notebook.table_message_id
        message_id = table_id or session.lobby_message_id
        where = None if table_id else session.lobby_channel_id
        try:
            await self.edit(
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
            await self.clear_turn(session)
        delivery = await self.announced(session)
        self.bot.sessions.discard(session)
        await self.close_hands(
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
        view = ui.lobby_view(lang, lobby, level)
        before = session.lobby_message_id
        if before is None:  # died before the lobby's id was stored: post it again
            channel = self.channel(session, session.lobby_channel_id)
            posted = await channel.send(embed=embed, view=view, nonce=_nonce(session, "l"))
            session.lobby_message_id = posted.id
        else:
            try:
                await self.patch(session.lobby_channel_id, before, embed=embed, view=view)
            except discord.NotFound:
                log.info("the lobby message of game %s is gone", session.id)
        if session.lobby_message_id != before:
            await self.bot.storage.update_game(
                session.id, fence=session.fence, lobby_message_id=session.lobby_message_id
            )

    async def lobby_expired(self, session: GameSession) -> None:
        lang = session.language
        embed = render.expired_embed(lang)
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
        await self.announced(session)
        self.bot.sessions.discard(session)
