"""Where a game's public messages go: its channel, through Discord's routes, and its notebook.

Every public message of a game is posted, edited, followed up or deleted here, on the channel
route or through a click's token (off the global rate limit while it lives); a channel that
is gone or closed to the bot raises ``ChannelLost``. The presenter's parts (the table, the turn
pings, the private hands, the lobby and end messages) share one ``GameMessages``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.base import discord_internals
from bot.game import GameSession

from .delivery import TOKEN_REFUSED, TOKEN_SECONDS, Delivery, FollowUpBudget, Token
from .render.cards import CardStyle

if TYPE_CHECKING:
    from bot.app import NinesBot

log = logging.getLogger(__name__)

# Discord error codes after which the game's channel is no use: it is gone or closed to us.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
LOST_CHANNEL = {UNKNOWN_CHANNEL, MISSING_ACCESS, MISSING_PERMISSIONS}

NO_MENTIONS = discord.AllowedMentions.none()


def nonce(session: GameSession, what: str) -> str:
    """The nonce of one message a game owes its channel: Discord returns the message already
    made with it by this bot (for a few minutes). From the game's random seed, not its id,
    which another database (a reset, a test) would reuse; mixed with the id, as a duplicate
    match's games share their seed (bot/game/duplicate_match.py). At most 25 characters."""
    mixed = (session.seed ^ (session.id * 0x9E3779B97F4A7C15)) & ((1 << 62) - 1)
    return f"{mixed:x}"[:13] + what


class ChannelLost(Exception):
    """The game's channel was deleted or the bot may no longer post there."""


class GameMessages:
    """The games' public messages and their notebooks (``Delivery``), for every part of the
    presenter."""

    def __init__(self, bot: NinesBot) -> None:
        self.bot = bot
        #: game id -> what its channel and people were shown (the session's is the game).
        self.deliveries: dict[int, Delivery] = {}
        #: The public follow-ups posted into each channel lately (Discord's shared limit).
        self.followups = FollowUpBudget()
        #: How long a click's token is used for the game's public messages (tests shorten it).
        self.token_seconds: float = TOKEN_SECONDS

    def at_web_table(self, session: GameSession) -> frozenset[int]:
        """The people (user ids) with the game's web table open now (the Activity's sockets,
        signed in; bot/activity/hub.py), none when the Activity is not served."""
        server = self.bot.activity_server
        return frozenset() if server is None else server.at_table(session.id)

    def played_at_web_table(self, session: GameSession) -> bool:
        """Whether every person seated has the game's web table open: nobody plays from
        chat, whose table only watchers read then."""
        people = {s.user_id for s in session.seats if s.user_id is not None}
        return bool(people) and people <= self.at_web_table(session)

    def delivery(self, session: GameSession) -> Delivery:
        """The game's notebook in this process (its stored marks not read yet: ``loaded``)."""
        found = self.deliveries.get(session.id)
        if found is None:
            found = self.deliveries[session.id] = Delivery()
        return found

    async def card_style(self, session: GameSession) -> CardStyle:
        """How the game's cards show in its messages: the bot's card faces (none until the
        start-up sync has them, none for good if it failed) in the deck the server chose
        (``four_colour``, a setting read from storage's in-memory cache)."""
        settings = await self.bot.storage.get_guild_settings(session.guild_id)
        return CardStyle(self.bot.card_faces, settings.get("four_colour", False) is True)

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
            try:
                await discord_internals.edit_webhook_message(
                    self.bot, by.value, message_id, **kwargs
                )
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
        try:
            sent = await discord_internals.send_webhook_message(self.bot, click.value, **kwargs)
        except discord.HTTPException as error:
            if error.code in LOST_CHANNEL:
                raise ChannelLost from error
            log.info("a follow-up of game %s was refused (%s)", session.id, error.code)
            return None
        except aiohttp.ClientError:
            return None
        return sent

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
