"""Opening a lobby in a channel: for ``/nines start`` and for a Rematch click alike."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Final

import discord

from bot.base import failpoint
from bot.game import Sessions
from bot.game.session import DEFAULT_TURN_SECONDS, GameSession, SeatInfo
from bot.storage import ChannelBusy, Storage
from bot.table import table_model
from bot.words import and_list, language_of, names, tr
from engine import Rules

from . import render, replies, ui
from .activity import open_table_button, served

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

THREAD_TYPES: Final = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def member_name(user: discord.abc.User) -> str:
    """The name a seat stores: the raw display name (cleaned and escaped where it is shown,
    bot/words/names.py), bounded, never cut inside a letter's accents or an emoji."""
    return names.stored(user.display_name)


def can_post(interaction: Interaction) -> bool:
    perms = interaction.app_permissions
    return perms.view_channel and perms.send_messages and perms.embed_links


def busy_text(lang: str, interaction: Interaction, game_id: int, message_id: int | None) -> str:
    """This channel has a game already: say so, with a link to its lobby if known."""
    if message_id is not None and interaction.guild_id and interaction.channel_id:
        link = (
            f"https://discord.com/channels/{interaction.guild_id}/"
            f"{interaction.channel_id}/{message_id}"
        )
        return tr(lang, "error.channel_busy_link", link=link)
    return tr(lang, "error.channel_busy")


class Lobbies:
    """Posts new lobbies (the host seated; a rematch's players too). ``client``: the bot, which
    opens a lobby's thread."""

    def __init__(self, client: discord.Client, sessions: Sessions, storage: Storage) -> None:
        self.client = client
        self.sessions = sessions
        self.storage = storage

    async def open_lobby(
        self,
        interaction: Interaction,
        *,
        rules: Rules,
        seats: list[SeatInfo] | None,
    ) -> None:
        """Post a lobby in the interaction's channel: for /nines start and Rematch."""
        lang = language_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            await replies.private(interaction, tr(lang, "error.guild_only"))
            return
        if not can_post(interaction):
            await replies.private(interaction, tr(lang, "error.cannot_post"))
            return
        sessions = self.sessions
        existing = sessions.in_channel(interaction.channel_id)
        if existing is not None:
            await replies.private(
                interaction, busy_text(lang, interaction, existing.id, existing.lobby_message_id)
            )
            return
        settings = await self.storage.get_guild_settings(interaction.guild_id)
        user = interaction.user
        try:
            session = await sessions.open_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                thread_id=None,
                rules=rules,
                host_id=user.id,
                host_name=member_name(user),
                language=replies.public_language(interaction, settings),
                turn_seconds=float(settings.get("turn_timer") or DEFAULT_TURN_SECONDS),
            )
        except ChannelBusy as busy:
            await replies.private(interaction, busy_text(lang, interaction, busy.game_id, None))
            return
        called: list[int] = []  # a rematch's people seated by the clicker: told they are
        if seats:
            others = [s for s in seats if s.user_id != user.id][: session.players - 1]
            await session.lobby.seat_rematch(others)
            called = [s.user_id for s in others if s.user_id is not None]
        failpoint("lobby_opened")
        plang = session.language
        level = str(settings.get("difficulty") or "normal")
        call: dict[str, Any] = {}
        if called:
            # A mention in the content of a new message notifies (Discord: "Allowed Mentions
            # Object"); only the people called, nobody else a name could reach.
            who = and_list(plang, [f"<@{user_id}>" for user_id in called])
            call = {
                "content": tr(plang, "lobby.rematch_call", who=who),
                "allowed_mentions": discord.AllowedMentions(
                    everyone=False,
                    roles=False,
                    users=[discord.Object(user_id) for user_id in called],
                ),
            }
        callback = await interaction.response.send_message(
            embed=render.lobby_embed(plang, table_model.build_lobby(session)),
            view=ui.lobby_view(
                plang,
                table_model.build_lobby(session),
                level,
                open_table=open_table_button(served(self.client), plang, session.id),
            ),
            **call,
        )
        message_id = getattr(callback, "message_id", None)
        if message_id is not None:
            await session.lobby_posted(int(message_id))
            if settings.get("threads") == "on":
                await self.open_thread(interaction, session, level)

    async def open_thread(self, interaction: Interaction, session: GameSession, level: str) -> None:
        """Run the game's table in a thread opened from its lobby message (server setting
        ``threads``); stay in the channel when the bot may not create threads there.
        ``level``: the server's usual computer level, which the lobby's buttons show."""
        channel_type = getattr(interaction.channel, "type", None)
        if channel_type in THREAD_TYPES or session.lobby_message_id is None:
            return
        if not interaction.app_permissions.create_public_threads:
            log.info("game %s: no permission to create threads; playing in the channel", session.id)
            return
        lobby = self.client.get_partial_messageable(
            session.lobby_channel_id, guild_id=session.guild_id
        ).get_partial_message(session.lobby_message_id)
        name = tr(
            session.language,
            "thread.name",
            game=render.game_title(session.language, session.rules),
            # A thread's name is plain text: cleaned and bounded, nothing to escape.
            host=names.shorten(names.clean(session.seats[0].name, "?"), 32),
        )
        try:
            thread = await lobby.create_thread(name=name[:100], auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("game %s: could not open a thread; playing in the channel", session.id)
            return
        await session.move_to_thread(thread.id)
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(
                embed=render.lobby_embed(session.language, table_model.build_lobby(session)),
                view=ui.lobby_view(
                    session.language,
                    table_model.build_lobby(session),
                    level,
                    open_table=open_table_button(served(self.client), session.language, session.id),
                ),
            )
