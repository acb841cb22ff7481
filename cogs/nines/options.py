"""The options that /nines start and /nines settings set share: names, help and choices.

Every text carries a catalogue key, so Discord shows each option in its reader's language.
"""

from __future__ import annotations

from typing import Final

from discord import app_commands
from discord.app_commands import locale_str as _

#: The ``ruleset`` option names the game too: three Nines variants, and Nein Nine.
RULESETS = [
    app_commands.Choice(
        name=_("Nines: classic (3 players, spare hand)", key="choice.classic"), value="classic"
    ),
    app_commands.Choice(
        name=_("Nines: partnership (4 players, 2 teams)", key="choice.partnership"),
        value="partnership",
    ),
    app_commands.Choice(
        name=_("Nines: four players, each for themselves", key="choice.four-player"),
        value="four-player",
    ),
    app_commands.Choice(
        name=_("Nein Nine (3 players, 21 cards)", key="choice.nein-nine"), value="nein-nine"
    ),
]
GAMES = [
    app_commands.Choice(name=_("Nines", key="game.nines"), value="nines"),
    app_commands.Choice(name=_("Nein Nine", key="game.nein-nine"), value="nein-nine"),
]
EXCHANGES = [
    app_commands.Choice(name=_("Left of the dealer first", key="choice.left"), value="left"),
    app_commands.Choice(name=_("Dealer first", key="choice.dealer"), value="dealer"),
]
TIES = [
    app_commands.Choice(
        name=_("Play on until one player is alone lowest", key="choice.play-on"), value="play-on"
    ),
    app_commands.Choice(name=_("Tied players share the win", key="choice.joint"), value="joint"),
]
ON_OFF = [
    app_commands.Choice(name=_("On", key="choice.on"), value="on"),
    app_commands.Choice(name=_("Off", key="choice.off"), value="off"),
]

#: Localised names of the rules options (both commands).
RULE_NAMES: Final = {
    key: _(key, key=f"opt.{key}.name")
    for key in ("ruleset", "trumps", "exchange", "ties", "instant_win", "start", "rounds", "limit")
}

#: Help for the rules options other than ``ruleset`` (whose help differs per command).
RULE_HELP: Final = {
    "trumps": _(
        "Trump order: classic, spades-first, hdsc, hcds, quebec, clubs-first, or e.g. H,S,D,C,NT",
        key="opt.trumps",
    ),
    "exchange": _("Who decides first whether to swap for the spare hand", key="opt.exchange"),
    "ties": _("What happens when players tie for the lowest score", key="opt.ties"),
    "instant_win": _("Win the moment your score reaches zero", key="opt.instant_win"),
    "start": _("Starting score (3 to 21)", key="opt.start"),
    "rounds": _("Nein Nine: number of rounds", key="opt.rounds"),
    "limit": _("Nein Nine: the game ends at plus or minus this score", key="opt.limit"),
}

#: Choices of the rules options (both commands).
RULE_CHOICES: Final = {
    "ruleset": RULESETS,
    "exchange": EXCHANGES,
    "ties": TIES,
    "instant_win": ON_OFF,
}
