"""``/nines daily [game]``: today's deal of a game, played alone and privately against the
hardest computers, one try a day (bot/game/daily.py); a cog of its own under ``/nines``.

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

from bot.game import PERSON_SEAT, WEEK_DEALS, daily_rules, day_before, week_of
from bot.game.session import SessionError
from bot.storage import GameKind
from bot.words import in_text, tr
from engine import RULESETS, game_type

from . import render, replies
from .controller import Controller
from .daily_table import percent, result_text
from .options import GAME_CHOICES, choices

#: Which standings: today's deal, this week's deals, or yesterday's (open to everyone).
PERIODS = choices(
    ("today", "Today's deal", "daily.period.today"),
    ("week", "This week (Monday to today)", "daily.period.week"),
    ("yesterday", "Yesterday's deal, open to everyone", "daily.period.yesterday"),
)
#: Where: this server's people, or every server's who said yes to it.
WHERES = choices(
    ("server", "This server", "daily.where.server"),
    ("everywhere", "Every server (those who said yes)", "daily.where.everywhere"),
)
#: People shown in a standings.
SHOWN = 15

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
    @app_commands.choices(game=GAME_CHOICES)
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
        found = await daily.claim(
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

    @app_commands.command(
        name=_("daily-standings", key="cmd.daily_standings"),
        description=_("The daily deal's standings", key="cmd.daily_standings.desc"),
    )
    @app_commands.rename(
        game=_("game", key="opt.game.name"),
        period=_("period", key="opt.period.name"),
        where=_("where", key="opt.where.name"),
    )
    @app_commands.describe(
        game=_("Which game", key="opt.game"),
        period=_(
            "Today's deal (once you have played it), this week's, or yesterday's", key="opt.period"
        ),
        where=_("This server, or every server", key="opt.where"),
    )
    @app_commands.choices(game=GAME_CHOICES, period=PERIODS, where=WHERES)
    async def standings_command(
        self,
        interaction: Interaction,
        game: str | None = None,
        period: str = "today",
        where: str = "server",
    ) -> None:
        """Today's and the week's standings answer privately, and only to someone who has
        finished today's deal (the week without today otherwise); yesterday's is public."""
        lang = replies.lang(interaction)
        daily = self.bot.daily
        guild_id = interaction.guild_id or 0
        if not daily.offered:
            await replies.private(
                interaction, tr(lang, "daily.not_offered", setting="DAILY_SECRET")
            )
            return
        kind = await self.game_here(guild_id, game)
        today = daily.today()
        played = await daily.played(today, kind, interaction.user.id)
        if period == "today" and not played:
            await replies.private(interaction, tr(lang, "daily.play_first"))
            return
        days = {
            "today": [today],
            "week": week_of(today) if played else week_of(today)[:-1],
            "yesterday": [day_before(today)],
        }[period]
        least = WEEK_DEALS if period == "week" else 1
        scope = None if where == "everywhere" else guild_id
        standings = await daily.standings(days, kind, guild_id=scope, least=least)
        public = period == "yesterday"
        if public:
            lang = replies.public_language(
                interaction, await self.bot.storage.get_guild_settings(guild_id)
            )
        title = tr(
            lang,
            f"daily.standings.{period}",
            game=render.game_title(lang, daily_rules(kind)),
            day=days[-1] if days else today,
        )
        lines = [f"**{title}**"]
        for place, row in enumerate(standings[:SHOWN], start=1):
            share = "—" if row.share is None else percent(lang, row.share)
            lines.append(
                tr(
                    lang,
                    "daily.standings.row",
                    place=place,
                    who=in_text(row.name),
                    share=share,
                    deals=row.deals,
                )
            )
        if not standings:
            lines.append(tr(lang, "daily.standings.empty"))
        if period == "week":
            lines.append(tr(lang, "daily.standings.week_rule", count=WEEK_DEALS))
        if public:
            seed = daily.seed(days[0], kind)
            lines.append(tr(lang, "daily.standings.record", seed=str(seed)))
            await interaction.response.send_message(
                "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
            )
            return
        await replies.private(interaction, "\n".join(lines))

    @app_commands.command(
        name=_("daily-name", key="cmd.daily_name"),
        description=_(
            "Your name on the daily standings of every server (none: not shown there)",
            key="cmd.daily_name.desc",
        ),
    )
    @app_commands.rename(name=_("name", key="opt.daily_name.name"))
    @app_commands.describe(
        name=_("The name every server's standings show; empty: leave them", key="opt.daily_name")
    )
    async def name_command(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 32] | None = None
    ) -> None:
        lang = replies.lang(interaction)
        chosen = None if name is None else name.strip() or None
        await self.bot.storage.set_daily_public_name(interaction.user.id, chosen)
        if chosen is None:
            await replies.private(interaction, tr(lang, "daily.name.off"))
        else:
            await replies.private(interaction, tr(lang, "daily.name.on", name=in_text(chosen)))
