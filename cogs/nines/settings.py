"""``/nines settings show|set|reset``: the server's defaults for new games, a cog of its own.

Manage Server only. Discord honours ``default_member_permissions`` on top-level commands only,
so the check that counts is the one made here at run time (``SettingsGroup.interaction_check``,
before any option is read); the decorator still documents it. Values are validated before they
are stored (``setting_values``), each refusal with its own message in the caller's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.storage import SettingValue
from bot.words import catalogue, language_of, tr, trump_order, trumps_label
from engine import TRUMP_PRESETS, Rules

from . import replies
from .options import (
    ON_OFF,
    RULE_HELP,
    RULE_NAMES,
    RuleValues,
    choices,
    option_names,
    with_rule_options,
)
from .setting_values import KEYS, SettingsInvalid, effective, validate

if TYPE_CHECKING:
    from .table import NinesBot

Interaction = discord.Interaction[Any]


def trumps_text(lang: str, setting: str) -> str:
    """A trump order for reading: "quebec (hearts, spades, diamonds, clubs and no trump)"."""
    trumps = Rules.from_settings("classic", {"trumps": setting}).trumps
    if setting in TRUMP_PRESETS:
        return f"{trumps_label(lang, setting)} ({trump_order(lang, trumps)})"
    return trump_order(lang, trumps)


def value_text(lang: str, key: str, value: SettingValue) -> str:
    if key == "trumps":
        return trumps_text(lang, str(value))
    if key in ("pings", "four_colour"):
        return tr(lang, "value.on" if value else "value.off")
    if key == "ruleset":
        return tr(lang, f"ruleset.{value}")
    if key == "language":
        return tr(lang, f"settings.language.{value or 'auto'}")
    if key == "difficulty":
        return tr(lang, f"difficulty.{value}")
    if key == "turn_timer":
        return tr(lang, "settings.seconds", seconds=value)
    if key == "tournament_role":
        return f"<@&{value}>" if value else tr(lang, "settings.tournament_role.none")
    if key in ("threads", "instant_win", "exchange", "ties"):
        return tr(lang, f"value.{value}")
    return str(value)


def settings_embed(
    lang: str, stored: Mapping[str, SettingValue], *, note: str | None = None
) -> discord.Embed:
    values = effective(stored)
    lines = []
    for key in KEYS:
        mark = "" if key in stored else " " + tr(lang, "settings.default_mark")
        lines.append(
            tr(
                lang,
                "settings.line",
                name=tr(lang, f"settings.name.{key}"),
                value=value_text(lang, key, values[key]),
                mark=mark,
            )
        )
    embed = discord.Embed(
        title=tr(lang, "settings.title"), description="\n".join(lines), colour=0x2E7D32
    )
    embed.set_footer(text=note or tr(lang, "settings.footer"))
    return embed


LEVELS = choices(("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"))
LANGUAGES = choices(
    ("auto", "The server's language (its preferred locale)"),
    ("en", "English"),
    ("fr", "Français"),
)
WHICH = [
    app_commands.Choice(name=_(catalogue("en")[f"settings.name.{k}"], key=f"setting.{k}"), value=k)
    for k in KEYS
]


class SettingsGroup(app_commands.Group):
    """``/nines settings``: added to the ``nines`` group by ``SettingsCog``."""

    def __init__(self, bot: NinesBot) -> None:
        super().__init__(
            name=_("settings", key="cmd.settings"),
            description=_(
                "This server's defaults for new games (Manage Server)", key="cmd.settings.desc"
            ),
            default_permissions=discord.Permissions(manage_guild=True),
            guild_only=True,
        )
        self.bot = bot

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Manage Server, checked at run time: Discord does not gate subcommands. Checked
        before the options are read, so whoever may not change a setting is told that first."""
        lang = language_of(interaction.locale)
        if interaction.guild_id is None:
            await replies.private(interaction, tr(lang, "error.guild_only"))
            return False
        if not interaction.permissions.manage_guild:
            await replies.private(interaction, tr(lang, "settings.denied"))
            return False
        return True

    async def on_error(
        self, interaction: Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        await replies.command_failed(interaction, error)

    async def reply(self, interaction: Interaction, embed: discord.Embed) -> None:
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=_("show", key="cmd.settings.show"),
        description=_("Show this server's settings", key="cmd.settings.show.desc"),
    )
    async def show(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        stored = await self.bot.storage.get_guild_settings(interaction.guild_id or 0)
        await self.reply(interaction, settings_embed(lang, stored))

    @app_commands.command(
        name=_("set", key="cmd.settings.set"),
        description=_("Change some of this server's settings", key="cmd.settings.set.desc"),
    )
    @app_commands.rename(
        **RULE_NAMES,
        **option_names("turn_timer", "difficulty", "language", "threads", "pings", "four_colour"),
        tournament_role=_("tournament_role", key="opt.tournament_role.name"),
    )
    @app_commands.describe(
        ruleset=_("The game and variant new games use", key="opt.ruleset"),
        **RULE_HELP,
        turn_timer=_("Seconds each player has to decide (30 to 900)", key="opt.turn_timer"),
        difficulty=_("The computer players' usual level", key="opt.difficulty"),
        language=_("The language of the bot's public messages", key="opt.language"),
        threads=_("Each game opens its own thread from its lobby message", key="opt.threads"),
        pings=_(
            "Mention whoever's turn it is in a new message, so Discord notifies them",
            key="opt.pings",
        ),
        four_colour=_(
            "Card faces of the four-colour deck: clubs green, diamonds blue",
            key="opt.four_colour",
        ),
        tournament_role=_(
            "A role whose members may run tournaments (besides Manage Server)",
            key="opt.tournament_role",
        ),
    )
    @app_commands.choices(
        difficulty=LEVELS, language=LANGUAGES, threads=ON_OFF, pings=ON_OFF, four_colour=ON_OFF
    )
    @with_rule_options
    async def set_settings(
        self,
        interaction: Interaction,
        rules: RuleValues,
        turn_timer: app_commands.Range[int, 30, 900] | None = None,
        difficulty: str | None = None,
        language: str | None = None,
        threads: str | None = None,
        pings: str | None = None,
        four_colour: str | None = None,
        tournament_role: discord.Role | None = None,
    ) -> None:
        lang = language_of(interaction.locale)
        table = {
            key: value
            for key, value in {
                "turn_timer": turn_timer,
                "difficulty": difficulty,
                "language": language,
                "threads": threads,
                "pings": pings,
                "four_colour": four_colour,
                "tournament_role": None if tournament_role is None else tournament_role.id,
            }.items()
            if value is not None
        }
        if not rules and not table:
            await replies.private(interaction, tr(lang, "settings.error.nothing"))
            return
        try:
            clean = {**rules, **validate(table, lang)}  # the rule options read already
        except SettingsInvalid as error:
            await replies.private(interaction, tr(lang, error.key, **error.params))
            return
        guild_id = interaction.guild_id or 0
        storage = self.bot.storage
        stored = {**await storage.get_guild_settings(guild_id), **clean}
        await storage.set_guild_settings(guild_id, stored)
        changed = ", ".join(tr(lang, f"settings.name.{k}") for k in clean)
        await self.reply(
            interaction, settings_embed(lang, stored, note=tr(lang, "settings.saved", keys=changed))
        )

    @app_commands.command(
        name=_("reset", key="cmd.settings.reset"),
        description=_(
            "Put one setting, or all, back to the default", key="cmd.settings.reset.desc"
        ),
    )
    @app_commands.rename(setting=_("setting", key="opt.setting.name"))
    @app_commands.describe(setting=_("Which setting (all of them if empty)", key="opt.setting"))
    @app_commands.choices(setting=WHICH)
    async def reset(self, interaction: Interaction, setting: str | None = None) -> None:
        lang = language_of(interaction.locale)
        guild_id = interaction.guild_id or 0
        storage = self.bot.storage
        stored = dict(await storage.get_guild_settings(guild_id))
        if setting is None:
            stored = {}
        else:
            stored.pop(setting, None)
        await storage.set_guild_settings(guild_id, stored)
        await self.reply(
            interaction, settings_embed(lang, stored, note=tr(lang, "settings.reset_done"))
        )


class SettingsCog(commands.Cog, name="Nines settings"):
    """The server's settings, managed apart from the games: ``/nines settings``."""

    def __init__(self, bot: NinesBot, nines: app_commands.Group) -> None:
        self.bot = bot
        nines.add_command(SettingsGroup(bot))
