"""A lobby's seats changed from the web table: join, leave, add or remove a computer, start;
and a lobby opened from a web table waiting in a channel with no game (``open``).

The Activity's hub (bot/activity/hub.py) cannot import the extension (``bot/`` never imports
``cogs/``): it calls ``Hub.lobby_seat``, which the extension sets to ``WebLobby.act``. The
same lobby methods a chat click uses (bot/game/lobby.py, cogs.nines.controller.lobby_click), under
the game's lock, with the host's rights as in chat; then the chat's lobby message is edited to
match (a click edits it in its own answer; here there is none), and a start is shown as a
click's is: the draw, the first table, the computers' first moves.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

import discord

from bot.game import Sessions
from bot.game.session import DEFAULT_TURN_SECONDS, GameSession, Presenter, SessionError
from bot.storage import ChannelBusy, Storage
from bot.table import table_model
from bot.words import language_of, names, tr
from engine import Rules

from . import render, ui
from .activity import open_table_button, served
from .commands import rule_defaults
from .controller import computer_name
from .messages import nonce
from .ui import Buttons

if TYPE_CHECKING:
    from .table import DiscordPresenter

log = logging.getLogger(__name__)

#: What a web table may do in a lobby (the frame's ``what``, bot/activity/protocol.py).
WHATS: Final = frozenset({"join", "leave", "cpu", "uncpu", "start"})


class WebLobby:
    """``client``: where the lobby is posted; ``presenter``: what the sessions are shown
    through (the fan-out, which tells the web tables too); ``chat``: the chat's own
    presenter, whose lobby message is edited to match."""

    def __init__(
        self,
        client: discord.Client,
        sessions: Sessions,
        storage: Storage,
        presenter: Presenter,
        chat: DiscordPresenter,
    ) -> None:
        self.client = client
        self.sessions = sessions
        self.storage = storage
        self.presenter = presenter
        self.chat = chat

    async def act(self, session: GameSession, user_id: int, name: str, what: str) -> None:
        """Do ``what`` for ``user_id`` (``name``: the name their seat takes) in the game's
        lobby; SessionError if it may not be done (the chat's refusal)."""
        if what not in WHATS:
            raise SessionError("error.not_lobby")
        lang = session.language
        shown: asyncio.Future[None] | None = None
        async with session.lock:
            lobby = session.lobby
            if what == "join":
                await lobby.join(user_id, name)
            elif what == "leave":
                await lobby.leave(user_id)
            elif what == "cpu":
                settings = await self.storage.get_guild_settings(session.guild_id)
                level = str(settings.get("difficulty") or "normal")
                await lobby.add_computer(user_id, level, computer_name(lang, level, session.seats))
            elif what == "uncpu":
                await lobby.remove_computer(user_id)
            else:
                change = await lobby.start(user_id)
                await self._edit_lobby(session, started=True)
                change.extend(await session.run_computers())
                # Shown once the lock is released, as a click's start (controller.lobby_click).
                shown = asyncio.ensure_future(self.presenter.show(session, change))
            if shown is None:
                await self._edit_lobby(session, started=False)
        if shown is not None:
            await shown

    async def open(self, channel_id: int, guild_id: int, user_id: int, name: str) -> None:
        """A lobby opened in the channel by the person at a waiting web table, as ``/nines
        start`` opens one with no options: the server's rules, the host seated, the lobby
        message posted in the channel. The waiting sockets there sit down at it
        (``Sessions.opened``). SessionError if the channel has a game or the bot cannot post."""
        settings = await self.storage.get_guild_settings(guild_id)
        ruleset = str(settings.get("ruleset") or "classic")
        rules = Rules.from_settings(ruleset, rule_defaults(settings))
        chosen = str(settings.get("language") or "")
        guild = self.client.get_guild(guild_id)
        locale = None if guild is None else str(guild.preferred_locale)
        language = chosen if chosen in ("en", "fr") else language_of(locale)
        try:
            session = await self.sessions.open_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=None,
                rules=rules,
                host_id=user_id,
                host_name=names.stored(name),
                language=language,
                turn_seconds=float(settings.get("turn_timer") or DEFAULT_TURN_SECONDS),
            )
        except ChannelBusy:
            raise SessionError("error.channel_busy") from None
        level = str(settings.get("difficulty") or "normal")
        lobby = table_model.build_lobby(session)
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            # With its nonce, as every message a game owes: sent twice, it is made once.
            posted = await channel.send(
                embed=render.lobby_embed(language, lobby),
                view=ui.lobby_view(
                    language,
                    lobby,
                    level,
                    open_table=open_table_button(served(self.client), language, session.id),
                ),
                nonce=nonce(session, "l"),
            )
        except discord.HTTPException:
            # No lobby nobody in chat can see: closed again, and the person told why.
            log.info("game %s: could not post the lobby opened from the web table", session.id)
            await session.abandon("cancelled")
            self.presenter.lobby_changed(session)
            raise SessionError("error.cannot_post") from None
        await session.lobby_posted(posted.id)

    async def _edit_lobby(self, session: GameSession, *, started: bool) -> None:
        """The chat's lobby message brought to the seats now (or marked started)."""
        message_id = session.lobby_message_id
        if message_id is None:
            return
        lang = session.language
        lobby = table_model.build_lobby(session)
        if started:
            style = await self.chat.card_style(session)
            content: str | None = render.draw_line(lang, table_model.build(session, None), style)
            embed = render.lobby_embed(lang, lobby, note=tr(lang, "lobby.started"))
            view: Buttons | None = None
        else:
            settings = await self.storage.get_guild_settings(session.guild_id)
            level = str(settings.get("difficulty") or "normal")
            content = None
            embed = render.lobby_embed(lang, lobby)
            view = ui.lobby_view(
                lang,
                lobby,
                level,
                open_table=open_table_button(served(self.client), lang, session.id),
            )
        try:
            await self.chat.messages.patch(
                session.lobby_channel_id, message_id, content=content, embed=embed, view=view
            )
        except discord.HTTPException:
            # The seats changed, stored; the message is behind until the next change.
            log.info("could not edit the lobby message of game %s", session.id)
