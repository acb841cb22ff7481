"""The server's settings as values: their names, defaults, and how what a person typed is read.

Rule settings are checked and made canonical by the engine's ``Rules.from_settings``, the
others here, each refusal (``SettingsInvalid``) with its own message in the caller's language.
What a person types is read in English or in French (``oui``, ``brasseur``, ``C,P,K,T,SA``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from discord import app_commands

from bot.game.session import DEFAULT_TURN_SECONDS
from bot.storage import SettingValue
from bot.words import read_trumps
from engine import RULESETS, Rules, SettingError
from engine.players import DIFFICULTIES
from engine.rules import DEFAULTS as RULE_DEFAULTS

RULE_KEYS: Final = ("trumps", "exchange", "ties", "instant_win", "start", "rounds", "limit")
TABLE_KEYS: Final = (
    "turn_timer",
    "difficulty",
    "language",
    "threads",
    "pings",
    "four_colour",
    "tournament_role",
)
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
    "four_colour": False,  # card faces of the four-colour deck (bot/chat/card_faces.py)
    "tournament_role": 0,  # a role whose members run tournaments, besides Manage Server
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


class SettingsInvalid(app_commands.AppCommandError):
    """A value the server may not use: an i18n key and its parameters. An AppCommandError, so
    that an option's transformer (``options.RuleOption``) refuses with it as it is."""

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
        elif key == "tournament_role":
            try:
                clean[key] = int(str(raw))  # a role's id, as the role option gives it
            except ValueError:
                raise SettingsInvalid("settings.error.tournament_role", value=raw) from None
        else:
            raise SettingsInvalid("settings.error.unknown", value=key)
    return clean


def effective(stored: Mapping[str, SettingValue]) -> dict[str, SettingValue]:
    """Every setting's value for this server: what it stored, else the default."""
    return {key: stored.get(key, DEFAULTS[key]) for key in KEYS}
