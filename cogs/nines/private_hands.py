"""The private hands: where each person's newest hand is, brought up to date when their turn
comes, and closed when the game ends.

A hand is an ephemeral message: only the interaction that made it can edit it, through its
token, for 15 minutes (https://discord.com/developers/docs/interactions/
receiving-and-responding#followup-messages). Past that, the turn message's button opens a
fresh one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot.base import discord_internals
from bot.game import GameSession
from bot.table import table_models

from . import render, ui
from .delivery import Delivery, link, token
from .messages import GameMessages

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


def with_embed(embed: discord.Embed | None) -> dict[str, Any]:
    """An embed to send with a hand, if any (none: the message's embeds left as they are)."""
    return {} if embed is None else {"embed": embed}


class PrivateHands:
    """Each person's newest private hand of each game."""

    def __init__(self, messages: GameMessages) -> None:
        self.messages = messages
        #: A daily's (``session.private``) answered hands: (game, user) -> the action count the
        #: last click's answer showed, and who waits for an answer at a count. A daily's end
        #: replaces the hand with the result only once its last click is answered, or the
        #: answer would overwrite it (cogs/nines/daily_table.py).
        self._answered: dict[tuple[int, int], int] = {}
        self._waiting: dict[tuple[int, int, int], asyncio.Future[None]] = {}

    def remember_hand(
        self, session: GameSession, interaction: Interaction, message: int | None
    ) -> None:
        """Where the clicker's newest private hand is: the message the click answered
        (``message`` None: the interaction's own), edited through the click's token."""
        where = "@original" if message is None else str(message)
        delivery = self.messages.delivery(session)
        delivery.hand_links[interaction.user.id] = link(interaction, where)
        # Answered: its follow-ups may be sent.
        delivery.click = token(interaction, self.messages.token_seconds)
        shown = delivery.hand_shows.get(interaction.user.id)
        if session.private and shown is not None:
            self._answered[(session.id, interaction.user.id)] = shown
            waiter = self._waiting.pop((session.id, interaction.user.id, shown), None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)

    async def answer_sent(self, session: GameSession, user_id: int, n: int, within: float) -> None:
        """Wait until the click's answer that showed a daily at action count ``n`` is sent
        (``remember_hand``); at most ``within`` seconds (an answer that failed never is)."""
        key = (session.id, user_id)
        if self._answered.get(key) == n:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[(*key, n)] = waiter
        try:
            await asyncio.wait_for(waiter, within)
        except TimeoutError:
            log.info("daily game %s: the last click's answer was not seen", session.id)
        finally:
            self._waiting.pop((*key, n), None)

    def forget_answers(self, session: GameSession, user_id: int) -> None:
        self._answered.pop((session.id, user_id), None)

    def remember_click(self, session: GameSession, interaction: Interaction) -> None:
        """A lobby click: its token can send the clicker their first hand privately once the
        game starts (no "My hand" click needed)."""
        delivery = self.messages.delivery(session)
        delivery.hand_links[interaction.user.id] = link(interaction, None)
        delivery.click = token(interaction, self.messages.token_seconds)

    def hand_shown(self, session: GameSession, user_id: int) -> None:
        """A click's answer shows this person the game as it is now: no refresh owed them
        until the game moves on."""
        self.messages.delivery(session).hand_shows[user_id] = session.n

    async def refresh_hand(
        self, session: GameSession, seat: int, *, embed: discord.Embed | None = None
    ) -> None:
        """Edit the seat's newest private hand to the game as it is, through the token of the
        click that showed it (valid 15 minutes). Past that, the turn message's button opens a
        fresh hand. ``embed``: shown with the hand (a daily's table, cogs/nines/daily_table.py)."""
        user_id = session.seats[seat].user_id
        assert user_id is not None
        delivery = self.messages.delivery(session)
        hand = delivery.hand_links.get(user_id)
        if delivery.hand_shows.get(user_id) == session.n or hand is None:
            return  # current already (or a click's answer is about to show it)
        if time.monotonic() >= hand.until:
            del delivery.hand_links[user_id]
            return
        model = table_models.table(session, seat)
        style = await self.messages.card_style(session)
        content = render.hand_content(hand.language, model, style=style)
        components = ui.hand_view(hand.language, model, style=style)
        delivery.hand_shows[user_id] = session.n
        bot = self.messages.bot
        try:
            if hand.message is None:
                sent = await discord_internals.send_webhook_message(
                    bot, hand.token, content, view=components, ephemeral=True, **with_embed(embed)
                )
                hand.message = str(sent)
            else:
                # "@original" is the route's own word for the interaction's message.
                await discord_internals.edit_webhook_message(
                    bot,
                    hand.token,
                    hand.message,
                    content=content,
                    view=components,
                    **with_embed(embed),
                )
        except discord.HTTPException:
            # Expired, or the message was dismissed: the turn message's button still works.
            log.info("could not update a private hand in game %s", session.id, exc_info=True)
            delivery.hand_links.pop(user_id, None)
            delivery.hand_shows.pop(user_id, None)

    async def redraw(self, session: GameSession, seat: int) -> None:
        """The seat's newest private hand drawn again though the game did not move (the
        person changed how it is sorted)."""
        user_id = session.seats[seat].user_id
        assert user_id is not None
        async with session.table_lock:
            self.messages.delivery(session).hand_shows.pop(user_id, None)
            await self.refresh_hand(session, seat)

    async def refresh_all(self, session: GameSession) -> None:
        """Every seated person's newest private hand brought up to date (a hand ended: its
        result shows in each), those already current left alone."""
        for seat, info in enumerate(session.seats):
            if info.user_id is not None:
                await self.refresh_hand(session, seat)

    async def close_hands(
        self, session: GameSession, delivery: Delivery, how: Callable[[str], str]
    ) -> None:
        """The game ended: every person's newest private hand says so and how (``how``: that
        sentence in a language), with no card left to click. Through each click's token
        (valid 15 minutes, like ``refresh_hand``); an expired or dismissed one is let go."""
        links = list(delivery.hand_links.items())
        delivery.hand_links.clear()
        # The public table's last cards (none if no card was dealt).
        model = None if session.game is None else table_models.table(session, None)
        style = await self.messages.card_style(session)
        for user_id, hand in links:
            if hand.message is None:
                continue  # a lobby click's token: no hand was ever sent with it
            if time.monotonic() >= hand.until:
                continue
            lang = hand.language
            content = render.closed_hand_content(lang, session.rules, model, how(lang), style)
            # The interaction's webhook (https://discord.com/developers/docs/interactions/
            # receiving-and-responding#followup-messages): edits need no bot token.
            try:
                await discord_internals.edit_webhook_message(
                    self.messages.bot, hand.token, hand.message, content=content, view=None
                )
            except (discord.HTTPException, aiohttp.ClientError):  # the end stands already
                log.info("could not close a private hand in game %s", session.id, exc_info=True)
            delivery.hand_shows.pop(user_id, None)
