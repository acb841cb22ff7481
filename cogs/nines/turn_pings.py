"""The turn pings: one message per game that mentions the person whose decision is due.

Discord notifies nobody of a mention added by an edit (the table is edited), so each turn
that needs one gets a new message, and the previous one is deleted.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.base import failpoint
from bot.game import GameSession

from . import render, ui
from .delivery import KEPT_FOR_TABLES
from .messages import GameMessages, nonce
from .private_hands import PrivateHands


class TurnPings:
    """The message that notifies whose turn it is, and their private hand brought up to date."""

    def __init__(self, messages: GameMessages, hands: PrivateHands) -> None:
        self.messages = messages
        self.hands = hands

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
        delivery = await self.messages.loaded(session)
        if seat is not None:
            await self.hands.refresh_hand(session, seat)
        user_id = None if seat is None else session.seats[seat].user_id
        if user_id is not None and not await self.pings_on(session):
            user_id = None
        if user_id is not None and answered == (user_id, n):
            user_id = None  # their click's answer says "Your turn" already
        if user_id is not None and user_id in self.messages.at_web_table(session):
            # They have the web table open (a socket signed in as them): it shows whose turn
            # it is and raises their playable cards. A ping would notify them of what they
            # are looking at, and, with no live token, cost a post and a delete on the
            # channel route per turn. Should they close it while it is their turn, the hub
            # says so (DiscordPresenter.web_table_left) and they are pinged then.
            user_id = None
        if user_id is not None and delivery.turn_n == n and delivery.turn_message_id is not None:
            return  # this decision's turn message stands already
        old, old_by = delivery.turn_message_id, delivery.turn_by
        new: int | None = None
        if user_id is not None:
            lang = session.language
            ping: dict[str, Any] = {
                "content": render.turn_ping(lang, user_id),
                "view": ui.turn_view(lang, session.id),
                "allowed_mentions": discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            }
            click = delivery.live_click()
            new = (
                None
                if click is None
                else await self.messages.follow_up(session, click, spare=KEPT_FOR_TABLES, **ping)
            )
            delivery.turn_by = None if new is None else click
            if new is None:  # no live token (a timer's move, a restart): the channel route
                new = (await self.messages.post(session, nonce=nonce(session, f"p{n}"), **ping)).id
            # A follow-up carries no nonce (the spec's IncomingWebhookRequestPartial has none):
            # a crash from here until the save leaves it standing, and the restarted process
            # (no live token) posts the ping again on the channel route.
            failpoint("turn_posted")
        if old == new:
            return
        delivery.turn_message_id, delivery.turn_n = new, (n if new is not None else None)
        await self.messages.save(session, delivery)
        if old is not None:
            await self.messages.delete(session, old, by=old_by)

    async def clear_turn(self, session: GameSession) -> None:
        """The game ended: its turn message goes."""
        delivery = await self.messages.loaded(session)
        old, old_by = delivery.turn_message_id, delivery.turn_by
        if old is None:
            return
        delivery.turn_message_id = delivery.turn_n = None
        await self.messages.save(session, delivery)
        await self.messages.delete(session, old, by=old_by)

    async def pings_on(self, session: GameSession) -> bool:
        settings = await self.messages.bot.storage.get_guild_settings(session.guild_id)
        return settings.get("pings", True) not in (False, "off", 0)
