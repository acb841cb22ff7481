"""The Nines cog: ``/nines`` commands, persistent buttons, and the public table."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, tr
from bot.session import Change, Deps, Sessions

from . import ids
from .commands import NinesCog
from .table import DiscordPresenter
from .ui import DYNAMIC_ITEMS, GameButton

if TYPE_CHECKING:
    from bot.app import NinesBot

log = logging.getLogger(__name__)


async def setup(bot: NinesBot) -> None:
    bot.presenter = DiscordPresenter(bot)
    bot.sessions = Sessions(Deps(bot.storage, bot.computers, bot.presenter))
    restored = await bot.sessions.restore(bot.serves)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    _route_dynamic_items_directly(bot)
    await bot.add_cog(NinesCog(bot))
    bot.add_listener(_unknown_component, "on_interaction")
    bot.tree.interaction_check = _in_a_server  # type: ignore[method-assign]

    async def channel_deleted(channel: discord.abc.Snowflake) -> None:
        await _end_games_in(bot, channel.id)

    async def channel_updated(_before: Any, after: discord.abc.GuildChannel) -> None:
        me: discord.Member | None = after.guild.me  # None until the guild is cached
        if me is None:
            return
        perms = after.permissions_for(me)
        if not (perms.view_channel and perms.send_messages):
            await _end_games_in(bot, after.id)

    bot.add_listener(channel_deleted, "on_guild_channel_delete")
    bot.add_listener(channel_deleted, "on_thread_delete")
    bot.add_listener(channel_updated, "on_guild_channel_update")
    if restored:
        announce_restored(bot, restored)


_background: set[asyncio.Task[None]] = set()


def announce_restored(bot: NinesBot, sessions: list[Any]) -> None:
    """In the background, once connected: tell the restored games' channels (at start, or
    when a sharded bot took over a shard)."""
    task = bot.loop.create_task(_announce_restored(bot, sessions), name="restore-games")
    _background.add(task)
    task.add_done_callback(_background.discard)


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


async def _end_games_in(bot: NinesBot, channel_id: int) -> None:
    """The channel of these games was deleted or closed to the bot: end them, unrated."""
    for session in bot.sessions.all():
        where = {session.channel_id, getattr(session, "lobby_channel_id", session.channel_id)}
        if channel_id not in where:
            continue
        async with session.lock:
            if not session.closed:
                log.info("game %s lost its channel; ending it unrated", session.id)
                await session.abandon("channel_lost")
                await bot.presenter.announced(session)  # nowhere left to say it
        bot.sessions.discard(session)


async def _announce_restored(bot: NinesBot, sessions: list[Any]) -> None:
    """Once connected: bring every restored game's channel up to date, saying the game was
    restored, and resume its timers. Ended games whose end was not told get it now."""
    await bot.wait_until_ready()
    for session in sessions:
        try:
            async with session.lock:
                if session.closed:  # ended before its channel was told
                    ended = "finished" if session.status == "finished" else session.end_reason
                    await bot.presenter.show(session, Change(restored=True, ended=ended))
                    continue
                if session.status == "lobby":
                    await bot.presenter.refresh_lobby(session)
                    session.resume_timer()
                    continue
                change = Change(restored=True)
                game = session.game
                assert game is not None
                if game.over:  # stopped between its last move and its result
                    change.extend(await session._finish())
                elif session.plays_itself():  # a computer's move or a forced card was next
                    change.extend(await session.run_computers())
                elif session.deadline is not None and session.deadline <= session.deps.clock():
                    # The turn ran out while the bot was down: time it out now, in the same
                    # table edit that says the game was restored.
                    change.extend(await session._time_out())
                else:
                    session.resume_timer()  # a deadline that passed while down fires now
                await bot.presenter.show(session, change)
        except Exception:
            log.exception("could not restore game %s", session.id)


def _route_dynamic_items_directly(bot: NinesBot) -> None:
    """Route a click on one of our buttons by its custom_id alone.

    discord.py first rebuilds the clicked message's whole view (every button, a future) and
    looks the button up in it: a click on an older render of an edited message (a double
    click) or a forged custom_id went unanswered, and at 200 games the rebuilding was ~5% of
    the bot's CPU, every click's view held in memory until its answer was sent. The
    controller checks everything about a click; the view told it nothing.
    """

    async def call(
        _component_type: int,
        factory: type[GameButton],
        interaction: discord.Interaction[Any],
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        button = discord.ui.Button[Any](custom_id=custom_id)
        item = await factory.from_custom_id(interaction, button, match)
        await item.callback(interaction)

    store = bot._connection._view_store
    store.schedule_dynamic_item_call = call  # type: ignore[assignment,method-assign]


async def _unknown_component(interaction: discord.Interaction[Any]) -> None:
    """A button whose custom_id is not ours (forged, or from an old version): answer it."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    if ids.is_ours(str(data.get("custom_id", ""))) or interaction.response.is_done():
        return
    try:
        await interaction.response.send_message(
            tr(language_of(interaction.locale), "error.unknown_button"), ephemeral=True
        )
    except discord.HTTPException:
        log.debug("could not answer an unknown button", exc_info=True)
