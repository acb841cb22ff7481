"""The Nines extension: the ``/nines`` commands (the game's, the settings', the records' cogs),
the persistent buttons and their controller, and the public table."""

from __future__ import annotations

import functools
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.base import discord_internals
from bot.game import Sessions
from bot.tournament import TournamentRunner
from bot.words import language_of, tr

from . import activity, ids
from .commands import NinesCog
from .controller import Controller
from .daily import DailyCog
from .lobbies import Lobbies
from .records import RecordsCog
from .settings import SettingsCog
from .table import DiscordPresenter
from .tournament_commands import TournamentGroup
from .tournament_messages import TournamentButton, TournamentMessages
from .tournament_messages import is_ours as is_tournament_button
from .ui import DYNAMIC_ITEMS, GameButton
from .web_lobby import WebLobby

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)


def nines_cogs(bot: NinesBot, controller: Controller) -> list[commands.Cog]:
    """The extension's cogs, each adding its subcommands to the game's ``/nines`` group in the
    order Discord has them (the game's own, then settings, history and record, then daily)."""
    game = NinesCog(bot, controller, controller.lobbies)
    game.nines.add_command(TournamentGroup(bot))
    return [
        game,
        SettingsCog(bot, game.nines),
        RecordsCog(bot, game.nines),
        DailyCog(bot, game.nines, controller),
    ]


async def setup(bot: NinesBot) -> None:
    """The extension wired: the controller and the web table's lobby moves are given here
    what they use (the sessions, storage, the move use case, the presenters)."""
    chat = DiscordPresenter(bot)
    sessions = bot.plug_in(chat)
    restored = await sessions.restore(bot.serves)
    controller = Controller(
        sessions=sessions,
        storage=bot.storage,
        serves=bot.serves,
        moves=bot.moves,
        presenter=bot.presenter,  # the chat's, or the Activity's fan-out around it
        chat=chat,
        lobbies=Lobbies(bot, sessions, bot.storage),
        web_table=bot.activity_server is not None,
    )
    bot.tournaments = TournamentRunner(sessions, TournamentMessages(bot))
    if bot.activity_server is not None:
        # The web table's lobby moves, done as chat's (bot/ cannot import this extension).
        web_lobby = WebLobby(bot, sessions, bot.storage, bot.presenter, chat)
        bot.activity_server.lobby_moves(web_lobby.act, web_lobby.open)
    bot.add_dynamic_items(*DYNAMIC_ITEMS, activity.OpenTableButton, TournamentButton)
    discord_internals.route_dynamic_items(bot, functools.partial(_call_dynamic_item, controller))
    for cog in nines_cogs(bot, controller):
        await bot.add_cog(cog)
    bot.add_listener(_unknown_component, "on_interaction")
    bot.tree.interaction_check = _in_a_server  # type: ignore[method-assign]

    async def channel_deleted(channel: discord.abc.Snowflake) -> None:
        await _end_games_in(sessions, chat, channel.id)

    async def channel_updated(_before: Any, after: discord.abc.GuildChannel) -> None:
        me: discord.Member | None = after.guild.me  # None until the guild is cached
        if me is None:
            return
        perms = after.permissions_for(me)
        if not (perms.view_channel and perms.send_messages):
            await _end_games_in(sessions, chat, after.id)

    bot.add_listener(channel_deleted, "on_guild_channel_delete")
    bot.add_listener(channel_deleted, "on_thread_delete")
    bot.add_listener(channel_updated, "on_guild_channel_update")
    if restored:
        bot.announce_restored(restored)
    bot.loop.create_task(_resume_tournaments(bot), name="resume-tournaments")


async def _resume_tournaments(bot: NinesBot) -> None:
    """Once connected (a table's thread is opened through Discord): every open tournament
    carries on from its stored state."""
    await bot.wait_until_ready()
    if bot.tournaments is not None:
        try:
            await bot.tournaments.resume()
        except Exception:
            log.exception("could not resume the tournaments")


async def _in_a_server(interaction: discord.Interaction[Any]) -> bool:
    """Every /nines command is for a server channel: a DM gets a short private answer."""
    if interaction.guild_id is not None:
        return True
    try:
        await interaction.response.send_message(
            tr(language_of(interaction.locale), "error.guild_only"), ephemeral=True
        )
    except discord.HTTPException:
        log.debug("could not answer a command in a DM", exc_info=True)
    return False


async def _end_games_in(sessions: Sessions, chat: DiscordPresenter, channel_id: int) -> None:
    """The channel of these games was deleted or closed to the bot: end them, unrated."""
    for session in sessions.all():
        where = {session.channel_id, getattr(session, "lobby_channel_id", session.channel_id)}
        if channel_id not in where:
            continue
        async with session.lock:
            if not session.closed:
                log.info("game %s lost its channel; ending it unrated", session.id)
                await session.abandon("channel_lost")
                await chat.announced(session)  # nowhere left to say it


async def _call_dynamic_item(
    controller: Controller,
    _component_type: int,
    factory: type[GameButton],
    interaction: discord.Interaction[Any],
    custom_id: str,
    match: re.Match[str],
) -> None:
    """Route a click on one of our buttons by its custom_id alone.

    discord.py first rebuilds the clicked message's whole view (every button, a future) and
    looks the button up in it: a click on an older render of an edited message (a double
    click) or a forged custom_id went unanswered, and at 200 games the rebuilding was ~5% of
    the bot's CPU, every click's view held in memory until its answer was sent. The
    controller checks everything about a click; the view told it nothing.
    """
    button = discord.ui.Button[Any](custom_id=custom_id)
    item = await factory.from_custom_id(interaction, button, match)
    await item.answer(controller, interaction)


async def _unknown_component(interaction: discord.Interaction[Any]) -> None:
    """A button whose custom_id is not ours (forged, or from an old version): answer it."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if (
        ids.is_ours(custom_id)
        or activity.is_ours(custom_id)
        or is_tournament_button(custom_id)
        or interaction.response.is_done()
    ):
        return
    try:
        await interaction.response.send_message(
            tr(language_of(interaction.locale), "error.unknown_button"), ephemeral=True
        )
    except discord.HTTPException:
        log.debug("could not answer an unknown button", exc_info=True)
