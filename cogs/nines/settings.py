"""``/nines settings show|set|reset``: the server's defaults for new games.

Manage Server only. Discord honours ``default_member_permissions`` on top-level commands only,
so the check that counts is the one made here at run time; the decorator still documents it.
Values are validated before they are stored: rule settings by the engine's
``Rules.from_settings``, the others here, each refusal with its own message in the caller's
language. What a person types is read in English or in French (``oui``, ``brasseur``,
``C,P,K,T,SA``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.i18n import catalogue, language_of, read_trumps, tr, trump_order, trumps_label
from bot.session import DEFAULT_TURN_SECONDS
from bot.storage import SettingValue
from engine import TRUMP_PRESETS, Rules, SettingError
from engine.players import DIFFICULTIES
from engine.rules import DEFAULTS as RULE_DEFAULTS
from engine.rules import RULESETS

from .options import ON_OFF, RULE_CHOICES, RULE_HELP, RULE_NAMES, trumps_autocomplete

if TYPE_CHECKING:
    from .commands import NinesCog

Interaction = discord.Interaction[Any]

RULE_KEYS: Final = ("trumps", "exchange", "ties", "instant_win", "start", "rounds", "limit")
TABLE_KEYS: Final = ("turn_timer", "difficulty", "language", "threads", "pings", "four_colour")
#: Every server setting, in the order ``/nines settings show`` lists them.
KEYS: Final = ("ruleset", *RULE_KEYS, *TABLE_KEYS)
DEFAULTS: Final[dict[str, SettingValue]] = {
    "ruleset": "classic",
    **RULE_DEFAULTS,
    "turn_timer": DEFAULT_TURN_SECONDS,
    "difficulty": "normal",
    "language": "",  # empty: follow the server's preferred locale
    "threads": "off",
    "pings": True,  # a new message mentions whoever's turn it is (read by the table)
    "four_colour": False,  # card faces of the four-colour deck (bot/card_faces.py)
}
TIMER_SECONDS: Final = (30, 900)
LANGUAGE_CHOICES: Final = ("auto", "en", "fr")

#: What else a person may type for a choice, e.g. in French (folded to lower case).
ALIASES: Final[dict[str, dict[str, str]]] = {
    "exchange": {"gauche": "left", "brasseur": "dealer", "dealer-first": "dealer"},
    "ties": {"continuer": "play-on", "partager": "joint", "partage": "joint"},
    "instant_win": {"oui": "on", "non": "off"},
    "threads": {"oui": "on", "non": "off"},
    "difficulty": {"facile": "easy", "difficile": "hard"},
    "language": {"automatique": "auto", "anglais": "en", "francais": "fr", "français": "fr"},
}
ON_WORDS: Final = ("on", "oui", "yes", "true", "1")
OFF_WORDS: Final = ("off", "non", "no", "false", "0")


class SettingsInvalid(Exception):
    """A value the server may not use: an i18n key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def _rule_value(key: str, raw: object) -> SettingValue:
    """One rule setting, checked and made canonical by the engine."""
    ruleset = next(r for r in RULESETS.values() if key in r.settings)
    try:
        return Rules.from_settings(ruleset.name, {key: raw}).settings()[key]
    except SettingError:
        raise SettingsInvalid(f"settings.error.{key}", value=raw) from None


def _switch(key: str, raw: object) -> bool:
    """An on/off setting as a bool: on, oui, true... or off, non, false..."""
    text = str(raw).strip().lower()
    if text in ON_WORDS:
        return True
    if text in OFF_WORDS:
        return False
    raise SettingsInvalid(f"settings.error.{key}", value=raw)


def validate(changes: Mapping[str, object], lang: str = "en") -> dict[str, SettingValue]:
    """The changes made canonical; SettingsInvalid for the first value that is not allowed.
    ``lang`` is the language the person typed in (it decides what "C" means in a trump order).

    >>> validate({"trumps": "h, s, nt", "language": "auto", "turn_timer": 60})
    {'trumps': 'H,S,NT', 'language': '', 'turn_timer': 60}
    >>> validate({"trumps": "C,P,SA", "exchange": "brasseur", "pings": "non"}, "fr")
    {'trumps': 'H,S,NT', 'exchange': 'dealer', 'pings': False}
    """
    clean: dict[str, SettingValue] = {}
    for key, given in changes.items():
        raw: object = given
        if isinstance(given, str) and key in ALIASES:
            raw = ALIASES[key].get(given.strip().lower(), given)
        if key == "trumps":
            raw = read_trumps(str(given), lang)
        if key == "ruleset":
            name = str(raw).strip().lower()
            if name not in RULESETS:
                raise SettingsInvalid("settings.error.ruleset", value=raw)
            clean[key] = name
        elif key in RULE_KEYS:
            try:
                clean[key] = _rule_value(key, raw)
            except SettingsInvalid:
                raise SettingsInvalid(f"settings.error.{key}", value=given) from None
        elif key == "turn_timer":
            low, high = TIMER_SECONDS
            try:
                seconds = int(str(raw))
            except ValueError:
                seconds = -1
            if not low <= seconds <= high:
                raise SettingsInvalid("settings.error.turn_timer", value=raw, low=low, high=high)
            clean[key] = seconds
        elif key == "difficulty":
            if raw not in DIFFICULTIES:
                raise SettingsInvalid("settings.error.difficulty", value=raw)
            clean[key] = str(raw)
        elif key == "language":
            if raw not in LANGUAGE_CHOICES:
                raise SettingsInvalid("settings.error.language", value=raw)
            clean[key] = "" if raw == "auto" else str(raw)
        elif key == "threads":
            clean[key] = "on" if _switch(key, raw) else "off"
        elif key in ("pings", "four_colour"):
            clean[key] = _switch(key, raw)
        else:
            raise SettingsInvalid("settings.error.unknown", value=key)
    return clean


def effective(stored: Mapping[str, SettingValue]) -> dict[str, SettingValue]:
    """Every setting's value for this server: what it stored, else the default."""
    return {key: stored.get(key, DEFAULTS[key]) for key in KEYS}


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


LEVELS = [
    app_commands.Choice(name=_("Easy", key="choice.easy"), value="easy"),
    app_commands.Choice(name=_("Normal", key="choice.normal"), value="normal"),
    app_commands.Choice(name=_("Hard", key="choice.hard"), value="hard"),
]
LANGUAGES = [
    app_commands.Choice(
        name=_("The server's language (its preferred locale)", key="choice.auto"), value="auto"
    ),
    app_commands.Choice(name=_("English", key="choice.en"), value="en"),
    app_commands.Choice(name=_("Français", key="choice.fr"), value="fr"),
]
WHICH = [
    app_commands.Choice(name=_(catalogue("en")[f"settings.name.{k}"], key=f"setting.{k}"), value=k)
    for k in KEYS
]


class SettingsGroup(app_commands.Group):
    """``/nines settings``: added to the ``nines`` group by ``NinesCog``."""

    def __init__(self, cog: NinesCog) -> None:
        super().__init__(
            name=_("settings", key="cmd.settings"),
            description=_(
                "This server's defaults for new games (Manage Server)", key="cmd.settings.desc"
            ),
            default_permissions=discord.Permissions(manage_guild=True),
            guild_only=True,
        )
        self.cog = cog

    async def allowed(self, interaction: Interaction) -> bool:
        """Manage Server, checked at run time: Discord does not gate subcommands."""
        lang = language_of(interaction.locale)
        if interaction.guild_id is None:
            await self.cog.private(interaction, tr(lang, "error.guild_only"))
            return False
        if not interaction.permissions.manage_guild:
            await self.cog.private(interaction, tr(lang, "settings.denied"))
            return False
        return True

    async def reply(self, interaction: Interaction, embed: discord.Embed) -> None:
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=_("show", key="cmd.settings.show"),
        description=_("Show this server's settings", key="cmd.settings.show.desc"),
    )
    async def show(self, interaction: Interaction) -> None:
        if not await self.allowed(interaction):
            return
        lang = language_of(interaction.locale)
        stored = await self.cog.bot.storage.get_guild_settings(interaction.guild_id or 0)
        await self.reply(interaction, settings_embed(lang, stored))

    @app_commands.command(
        name=_("set", key="cmd.settings.set"),
        description=_("Change some of this server's settings", key="cmd.settings.set.desc"),
    )
    @app_commands.rename(
        **RULE_NAMES,
        turn_timer=_("turn_timer", key="opt.turn_timer.name"),
        difficulty=_("difficulty", key="opt.difficulty.name"),
        language=_("language", key="opt.language.name"),
        threads=_("threads", key="opt.threads.name"),
        pings=_("pings", key="opt.pings.name"),
        four_colour=_("four_colour", key="opt.four_colour.name"),
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
    )
    @app_commands.choices(
        **RULE_CHOICES,
        difficulty=LEVELS,
        language=LANGUAGES,
        threads=ON_OFF,
        pings=ON_OFF,
        four_colour=ON_OFF,
    )
    @app_commands.autocomplete(trumps=trumps_autocomplete)
    async def set_settings(
        self,
        interaction: Interaction,
        ruleset: str | None = None,
        trumps: str | None = None,
        exchange: str | None = None,
        ties: str | None = None,
        instant_win: str | None = None,
        start: app_commands.Range[int, 3, 21] | None = None,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        limit: app_commands.Range[int, 1, 30] | None = None,
        turn_timer: app_commands.Range[int, 30, 900] | None = None,
        difficulty: str | None = None,
        language: str | None = None,
        threads: str | None = None,
        pings: str | None = None,
        four_colour: str | None = None,
    ) -> None:
        if not await self.allowed(interaction):
            return
        lang = language_of(interaction.locale)
        given = {
            key: value
            for key, value in {
                "ruleset": ruleset,
                "trumps": trumps,
                "exchange": exchange,
                "ties": ties,
                "instant_win": instant_win,
                "start": start,
                "rounds": rounds,
                "limit": limit,
                "turn_timer": turn_timer,
                "difficulty": difficulty,
                "language": language,
                "threads": threads,
                "pings": pings,
                "four_colour": four_colour,
            }.items()
            if value is not None
        }
        if not given:
            await self.cog.private(interaction, tr(lang, "settings.error.nothing"))
            return
        try:
            clean = validate(given, lang)
        except SettingsInvalid as error:
            await self.cog.private(interaction, tr(lang, error.key, **error.params))
            return
        guild_id = interaction.guild_id or 0
        storage = self.cog.bot.storage
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
        if not await self.allowed(interaction):
            return
        lang = language_of(interaction.locale)
        guild_id = interaction.guild_id or 0
        storage = self.cog.bot.storage
        stored = dict(await storage.get_guild_settings(guild_id))
        if setting is None:
            stored = {}
        else:
            stored.pop(setting, None)
        await storage.set_guild_settings(guild_id, stored)
        await self.reply(
            interaction, settings_embed(lang, stored, note=tr(lang, "settings.reset_done"))
        )
