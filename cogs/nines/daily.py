"""``/nines daily [game]``: today's deal of a game, played alone and privately against the
hardest computers, one try a day (bot/daily.py); a cog of its own under ``/nines``.

The same command starts the day's try, resumes it (after 15 minutes its hand's token is spent:
this answer gives a fresh one, cogs/nines/daily_table.py), and once it is played shows the
result again and refuses a second try in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.daily import PERSON_SEAT, daily_rules
from bot.i18n import tr
from bot.session import SessionError
from bot.storage import GameKind
from engine import RULESETS
from engine.gametype import game_type

from . import render, replies
from .controller import Controller
from .daily_table import result_text
from .options import GAMES

if TYPE_CHECKING:
    from .table import NinesBot

Interaction = discord.Interaction[Any]


class DailyCog(commands.Cog, name="Nines daily"):
    """The daily deal's command."""

    def __init__(self, bot: NinesBot, nines: app_commands.Group, controller: Controller) -> None:
        self.bot = bot
        self.controller = controller
        # Subcommands of /nines (as RecordsCog's): moved into the group before the cog is added.
        for command in self.__cog_app_commands__:
            nines.add_command(command)
        self.__cog_app_commands__ = []

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await replies.command_failed(interaction, error)

    async def game_here(self, guild_id: int, game: str | None) -> GameKind:
        """The game asked for, else the one ``/nines start`` starts here (the server's)."""
        if game is None:
            settings = await self.bot.storage.get_guild_settings(guild_id)
            game = RULESETS[str(settings.get("ruleset") or "classic")].game
        return game_type(game).name

    @app_commands.command(
        name=_("daily", key="cmd.daily"),
        description=_(
            "Today's deal: the same cards for everyone, scored against all who held them",
            key="cmd.daily.desc",
        ),
    )
    @app_commands.rename(game=_("game", key="opt.game.name"))
    @app_commands.describe(game=_("Which game", key="opt.game"))
    @app_commands.choices(game=GAMES)
    async def daily_command(self, interaction: Interaction, game: str | None = None) -> None:
        lang = replies.lang(interaction)
        daily = self.bot.daily
        if not daily.offered:
            await replies.private(
                interaction, tr(lang, "daily.not_offered", setting="DAILY_SECRET")
            )
            return
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            await replies.private(interaction, tr(lang, "error.guild_only"))
            return
        kind = await self.game_here(guild_id, game)
        found, _claimed = await self.bot.storage.claim_daily(
            daily.today(),
            kind,
            interaction.user.id,
            guild_id=guild_id,
            channel_id=channel_id,
            name=interaction.user.display_name,
        )
        title = render.game_title(lang, daily_rules(kind))
        if found.finished:
            result = await daily.result_of(found)
            text = tr(lang, "daily.played", game=title)
            if result is not None:
                text += "\n\n" + result_text(lang, title, result, lang)
            await replies.private(interaction, text)
            return
        try:
            session = await daily.open_game(found, language=lang)
        except SessionError as error:
            await replies.refuse(interaction, error)
            return
        if session.game is None or session.closed:
            await replies.private(interaction, tr(lang, "daily.played", game=title))
            return
        await self.controller.show_hand(interaction, session, PERSON_SEAT)
