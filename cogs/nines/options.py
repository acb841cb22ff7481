"""The options that /nines start and /nines settings set share: names, help and choices, and
the rule options' one transformer (``RuleOption``).

Every text carries a catalogue key, so Discord shows each option in its reader's language.
"""

from __future__ import annotations

import functools
import inspect
import typing
import unicodedata
from collections.abc import Callable, Coroutine
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.storage import SettingValue
from bot.words import catalogue, language_of, read_trumps, trump_order, trumps_label
from engine import GAMES, RULESETS, TRUMP_PRESETS, Rules, SettingError

from .setting_values import validate


def choices(*rows: tuple[str, str] | tuple[str, str, str]) -> list[app_commands.Choice[str]]:
    """A slash option's choices from (value, English name) rows, each name translated under
    ``choice.<value>`` or under the key a third item gives."""
    out = []
    for value, english, *key in rows:
        out.append(
            app_commands.Choice(
                name=_(english, key=key[0] if key else f"choice.{value}"), value=value
            )
        )
    return out


def _english(key: str) -> str:
    """A command string's English, Discord's default: the catalogue's ``discord.<key>``."""
    return catalogue("en")[f"discord.{key}"]


#: The ``ruleset`` option names the game too: every ruleset of every registered game
#: (``engine.games``), named by its catalogue entry ``choice.<ruleset>``.
RULESET_CHOICES = choices(*((name, _english(f"choice.{name}")) for name in RULESETS))
#: The ``game`` option: every registered game, named by ``game.<name>``.
GAME_CHOICES = choices(*((name, _english(f"game.{name}"), f"game.{name}") for name in GAMES))
EXCHANGES = choices(("left", "Left of the dealer first"), ("dealer", "Dealer first"))
TIES = choices(
    ("play-on", "Play on until one player is alone lowest"),
    ("joint", "Tied players share the win"),
)
ON_OFF = choices(("on", "On"), ("off", "Off"))

#: How a person's hand is sorted (``/nines sort``): suit order alone, or the trump suit first.
SORT_ORDERS = choices(
    ("suits", "By suit", "choice.by_suit"), ("trumps", "Trumps first", "choice.trumps_first")
)


#: How a person's hand shows its cards (``/nines cards``): the drawn faces, or text (issue 46).
CARD_KINDS = choices(("faces", "Faces", "choice.faces"), ("text", "Text", "choice.text"))


def option_names(*options: str) -> dict[str, app_commands.locale_str]:
    """Options named as their parameters, each name with its catalogue key (``opt.<name>.name``,
    which Discord shows in the reader's language): ``@app_commands.rename(**option_names(...))``.
    """
    return {option: _(option, key=f"opt.{option}.name") for option in options}


#: Localised names of the rules options (both commands).
RULE_NAMES: Final = option_names(
    "ruleset", "trumps", "exchange", "ties", "instant_win", "start", "rounds", "limit"
)

#: Help for the rules options other than ``ruleset`` (whose help differs per command).
RULE_HELP: Final = {
    "trumps": _(
        "Trump order: pick a suggestion or type your own, e.g. H,S,D,C,NT",
        key="opt.trumps",
    ),
    "exchange": _("Who decides first whether to swap for the spare hand", key="opt.exchange"),
    "ties": _("What happens when players tie for the lowest score", key="opt.ties"),
    "instant_win": _("Win the moment your score reaches zero or below", key="opt.instant_win"),
    "start": _("Starting score (3 to 21)", key="opt.start"),
    "rounds": _("Nein Nine: number of rounds", key="opt.rounds"),
    "limit": _("Nein Nine: the game ends at plus or minus this score", key="opt.limit"),
}

# -- the trumps option's suggestions -------------------------------------------------------------

#: Discord shows at most 25 suggestions, each name and value 1 to 100 characters
#: (https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-choice-structure).
CHOICE_LENGTH: Final = 100


def _folded(text: str) -> str:
    """For matching what is typed: no case, no accents ("Québécois" finds "quebecois")."""
    bare = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in bare if not unicodedata.combining(c))


def _choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=name[:CHOICE_LENGTH], value=value)


def trump_suggestions(lang: str, typed: str) -> list[app_commands.Choice[str]]:
    """What the ``trumps`` option offers as a person types, in their language: the presets
    one of whose names (theirs, or the engine's) has a word starting with what they typed, or
    that what they typed reads as, each with its order in words ("quebec (hearts, spades,
    diamonds, clubs and no trump)"); and first, when what they typed is an order of its own,
    that order read back in words. Suggestions only: Discord sends whatever the
    person typed when they pick none (an option with autocomplete stays free text), and the
    command reads it as before.

    >>> [c.value for c in trump_suggestions("en", "spa")]
    ['spades-first']
    >>> [c.name for c in trump_suggestions("fr", "C,P,SA")]
    ['C,P,SA (cœur, pique et sans-atout)']
    """
    wanted = _folded(typed.strip())
    found = []
    read = read_trumps(typed, lang) if typed.strip() else ""
    if read and read not in TRUMP_PRESETS and len(typed) <= CHOICE_LENGTH:
        try:
            trumps = Rules.from_settings("classic", {"trumps": read}).trumps
        except SettingError:
            pass  # not an order: the command will say why if it is sent
        else:
            found.append(_choice(f"{typed.strip()} ({trump_order(lang, trumps)})", typed))
    for preset, trumps in TRUMP_PRESETS.items():
        label = trumps_label(lang, preset)
        words = _folded(f"{preset} {label}").replace("-", " ").split()
        if preset == read or any(w.startswith(wanted) for w in words):
            found.append(_choice(f"{label} ({trump_order(lang, trumps)})", preset))
    return found[:25]


class RuleOption(app_commands.Transformer):
    """A rule option of both commands: its type, range and choices as Discord shows them, and
    its value read in the caller's language and made canonical (``setting_values.validate``,
    e.g. "C,P,SA" in French is "H,S,NT"). A value not allowed (a forged request, or a trump
    order typed wrong) is refused with ``SettingsInvalid``, before the command runs."""

    def __init__(
        self,
        key: str,
        *,
        choices: list[app_commands.Choice[str]] | None = None,
        low: int | None = None,
        high: int | None = None,
    ) -> None:
        self.key = key
        self._choices = choices
        self.low = low
        self.high = high

    @property
    def type(self) -> discord.AppCommandOptionType:
        if self.low is None:
            return discord.AppCommandOptionType.string
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int | None:
        return self.low

    @property
    def max_value(self) -> int | None:
        return self.high

    @property
    def choices(self) -> list[app_commands.Choice[Any]] | None:
        return list(self._choices) if self._choices is not None else None

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> Any:
        return validate({self.key: value}, language_of(interaction.locale))[self.key]


class TrumpsOption(RuleOption):
    """The ``trumps`` option: free text with the presets suggested as one types (an option
    with autocomplete stays free text; Discord sends what was typed when no suggestion is
    picked)."""

    async def autocomplete(
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[int | float | str]]:
        lang = language_of(interaction.locale)
        found: list[app_commands.Choice[int | float | str]] = [
            app_commands.Choice(name=c.name, value=c.value)
            for c in trump_suggestions(lang, str(value))
        ]
        return found


#: The rule options, in the order both commands show them.
RULE_OPTIONS: Final = (
    RuleOption("ruleset", choices=RULESET_CHOICES),
    TrumpsOption("trumps"),
    RuleOption("exchange", choices=EXCHANGES),
    RuleOption("ties", choices=TIES),
    RuleOption("instant_win", choices=ON_OFF),
    RuleOption("start", low=3, high=21),
    RuleOption("rounds", low=1, high=30),
    RuleOption("limit", low=1, high=30),
)

#: What a command with the rule options gets of them: the ones given, read.
RuleValues = dict[str, SettingValue]

Callback = typing.TypeVar("Callback", bound=Callable[..., Coroutine[Any, Any, None]])


def with_rule_options(callback: Callback) -> Callback:
    """``callback(self, interaction, rules, ...)`` as a command with the rule options as its
    options after ``interaction`` (``RULE_OPTIONS``), and its own after them; the options given
    come to it read, as ``rules``. Rename and describe them as any option, on top of this.

    A command's options are its callback's parameters (discord.py reads its signature): the
    one for both commands is made here, so the rule options are written once.
    """
    hints = typing.get_type_hints(callback, include_extras=True)
    own = [
        parameter.replace(annotation=hints.get(parameter.name, parameter.empty))
        for parameter in inspect.signature(callback).parameters.values()
        if parameter.name != "rules"
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    options = [
        inspect.Parameter(option.key, keyword, annotation=option | None, default=None)
        for option in RULE_OPTIONS
    ]
    keys = [option.key for option in RULE_OPTIONS]

    @functools.wraps(callback)
    async def command(self: object, interaction: Any, **given: Any) -> None:
        read = {key: given.pop(key, None) for key in keys}
        rules = {key: value for key, value in read.items() if value is not None}
        await callback(self, interaction, rules=rules, **given)

    # (self, interaction), the rule options, then the command's own options.
    signature = inspect.Signature([*own[:2], *options, *(p.replace(kind=keyword) for p in own[2:])])
    command.__signature__ = signature  # type: ignore[attr-defined]  # what inspect.signature reads
    return typing.cast(Callback, command)
