"""A daily deal's table in Discord (issue 47): private from its first card to its end.

A daily (``GameSession.private``, bot/game/daily.py) is played from one ephemeral message, the
person's hand, which carries the table as its embed: nothing of the game is posted in a
channel, no turn is pinged. The hand is edited through the token of the person's last click,
which Discord keeps valid for 15 minutes
(https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages);
a daily paused longer is reopened with ``/nines daily``, which answers with the hand again and
so gives a fresh token. At the end the person's result replaces the hand (only they see it),
and one line in the channel where they started it says they played, with their share of the
field and nothing about the cards.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.base import discord_internals
from bot.game import PERSON_SEAT, Daily, DailyResult
from bot.game.session import Change, GameSession
from bot.table import table_model
from bot.words import in_text, tr
from engine import parse_action
from engine.actions import Exchange, Play

from . import render
from .messages import GameMessages
from .private_hands import PrivateHands
from .render.cards import CardStyle

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)

#: How long a daily's end waits for its last click's answer (Discord wants it within 3 s:
#: https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
ANSWER_SECONDS = 5.0

#: Lines of "how the others played" at most in a result (Discord: 2,000 characters a message).
CHOICES_SHOWN = 8


def percent(lang: str, share: float) -> str:
    """A share as a percentage, as each language writes it (French: a narrow space before %)."""
    return tr(lang, "daily.percent", n=round(100 * share))


def action_text(lang: str, text: str, notation: str) -> str:
    """An action of the field's, in words: a card as the table writes it, keep or swap."""
    action = parse_action(text)
    if isinstance(action, Play):
        card = render.cards_text([action.card], notation)
        if action.joker is None:
            return card
        call = "joker_win" if action.joker == "win" else "joker_lose"
        return f"{card} ({tr(lang, f'button.{call}')})"
    return tr(
        lang, "button.swap" if isinstance(action, Exchange) and action.swap else "button.keep"
    )


def result_text(lang: str, game: str, result: DailyResult, notation: str) -> str:
    """The person's result, for them only: the whole, hand by hand, and how others played."""
    title = tr(lang, "daily.result.title", game=game, day=result.day)
    lines = [f"**{title}**"]
    share = result.share
    if share is None:
        lines.append(tr(lang, "daily.result.first"))
    else:
        lines.append(tr(lang, "daily.result.share", share=percent(lang, share), count=result.field))
    for board in result.boards:
        beat = "—" if board.share is None else percent(lang, board.share)
        lines.append(
            tr(
                lang,
                "daily.result.hand",
                number=board.hand,
                points=render.signed(board.points),
                share=beat,
            )
        )
    shown = [c for c in result.choices if c.field > 1][:CHOICES_SHOWN]
    if shown:
        lines.append(tr(lang, "daily.result.choices"))
    for choice in shown:
        lines.append(
            tr(
                lang,
                "daily.result.choice",
                number=choice.hand,
                decision=choice.decision + 1,
                mine=action_text(lang, choice.mine, notation),
                common=action_text(lang, choice.common, notation),
                share=percent(lang, choice.chose / choice.field),
            )
        )
    lines.append(tr(lang, "daily.result.footer"))
    return "\n".join(lines)


class DailyTable:
    """What the presenter does for a daily instead of the public table."""

    def __init__(self, bot: NinesBot, messages: GameMessages, hands: PrivateHands) -> None:
        self.bot = bot
        self.messages = messages
        self.hands = hands

    @property
    def daily(self) -> Daily:
        return self.bot.daily

    def table_embed(self, session: GameSession, style: CardStyle) -> discord.Embed | None:
        """The table a daily's hand carries (None for a public game: its table is public)."""
        if not session.private or session.game is None:
            return None
        lang = session.language
        embed = render.table_embed(lang, table_model.build(session, None), style=style)
        # A hand's token lasts 15 minutes: how to come back after a longer pause.
        reopen = tr(lang, "daily.reopen")
        footer = embed.footer.text
        return embed.set_footer(text=reopen if not footer else f"{footer}\n{reopen}")

    async def hand_table(self, session: GameSession) -> discord.Embed | None:
        """The table a click's answer carries with the hand: a daily's; none for a public
        game (nothing read: a click's answer in a public game pays for nothing more)."""
        if not session.private:
            return None
        return self.table_embed(session, await self.messages.card_style(session))

    async def show(self, session: GameSession, change: Change) -> None:
        """A step of a daily: the person's hand (with its table) brought up to date, or at the
        end, their result and the one public line."""
        async with session.table_lock:
            if change.ended is None:
                style = await self.messages.card_style(session)
                await self.hands.refresh_hand(
                    session, PERSON_SEAT, embed=self.table_embed(session, style)
                )
                return
            if change.answered is not None:
                # The last move was a click: its answer (the hand, game over) comes first.
                user_id, n = change.answered
                await self.hands.answer_sent(session, user_id, n, ANSWER_SECONDS)
            await self.ended(session)

    async def ended(self, session: GameSession) -> None:
        result = await self.daily.record(session) if session.status == "finished" else None
        found = await self.bot.storage.daily_of_game(session.id)
        delivery = self.messages.deliveries.pop(session.id, None)
        hand = None if delivery is None else delivery.hand_links.get(found.user_id if found else 0)
        game = render.game_title(session.language, session.rules)
        if hand is not None and hand.message is not None:
            lang = hand.language
            if result is None:
                content = tr(lang, f"end.reason.{session.end_reason or 'stopped'}")
            else:
                content = result_text(lang, game, result, table_model.build(session, None).notation)
            webhook = discord_internals.interaction_webhook(self.bot, hand.token)
            message_id: Any = hand.message
            try:
                await webhook.edit_message(message_id, content=content, embed=None, view=None)
            except discord.HTTPException:  # expired: /nines daily shows the result again
                log.info("could not show the result of daily game %s", session.id)
        if found is not None and result is not None:
            await self.public_line(session, found.channel_id, found.name, game, result)
        if found is not None:
            self.hands.forget_answers(session, found.user_id)
        await session.end_announced()

    async def public_line(
        self, session: GameSession, channel_id: int, name: str, game: str, result: DailyResult
    ) -> None:
        """The line that tells the channel someone played: their share, nothing of the cards."""
        settings = await self.bot.storage.get_guild_settings(session.guild_id)
        lang = str(settings.get("language") or session.language)
        share = result.share
        if share is None:
            text = tr(lang, "daily.public_first", who=in_text(name), game=game)
        else:
            text = tr(
                lang, "daily.public", who=in_text(name), game=game, share=percent(lang, share)
            )
        channel = self.bot.get_partial_messageable(channel_id, guild_id=session.guild_id)
        try:
            await channel.send(
                text, allowed_mentions=discord.AllowedMentions.none(), nonce=f"daily{session.id}"
            )
        except discord.HTTPException:
            log.info("could not post the public line of daily game %s", session.id)
