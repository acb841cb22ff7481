"""The English and French catalogues: complete, consistent, and covering every key the code uses.

Every string a person reads lives in ``bot/locales/{en,fr}.json``; Discord's command
localisation reads the ``discord.<key>`` entries for the ``locale_str(..., key=...)`` of
``cogs/nines``.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from discord import Locale, app_commands

from bot.chat import CatalogueTranslator
from bot.words import (
    LANGUAGES,
    card_label,
    card_name,
    catalogue,
    language_of,
    number,
    plural_form,
    tr,
    trump_name,
)
from engine import TRUMP_PRESETS, Card, Suit
from fakecord.commands import chat_input_name_ok

ROOT = Path(__file__).resolve().parents[1]
CODE = sorted([*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")])


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_both_languages_have_the_same_keys() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    assert sorted(set(en) - set(fr)) == [], "keys missing in French"
    assert sorted(set(fr) - set(en)) == [], "keys missing in English"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_is_empty(language: str) -> None:
    assert [k for k, v in catalogue(language).items() if not v.strip()] == []


def test_placeholders_are_the_same_in_both_languages() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    differ = {k: (placeholders(en[k]), placeholders(fr[k])) for k in en if k in fr}
    assert {k: v for k, v in differ.items() if v[0] != v[1]} == {}


def test_french_is_really_french() -> None:
    """Not an English copy: most messages differ (names and symbols may stay the same)."""
    en, fr = catalogue("en"), catalogue("fr")
    same = [k for k in en if en[k] == fr[k]]
    assert len(same) < len(en) // 8, same


# -- keys used in code -----------------------------------------------------------------------


def literal_keys() -> set[str]:
    """First string argument after the language in every ``tr(lang, "key", ...)`` call."""
    found: set[str] = set()
    for path in CODE:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                found.add(node.args[1].value)
    return found


#: The keys built at run time (f-strings), with every value they can take.
FAMILIES: dict[str, tuple[str, ...]] = {
    "suit.{}": tuple(s.value for s in Suit),
    "trump.{}": tuple(s.value for s in Suit),
    "rank.{}": tuple(str(r) for r in range(2, 15)),
    "game.{}": ("nines", "nein-nine"),
    "ruleset.{}": ("classic", "partnership", "four-player", "nein-nine"),
    "setting.{}": ("trumps", "exchange", "ties", "instant_win", "start", "limit"),
    "preset.{}": tuple(TRUMP_PRESETS),
    "letter.{}": ("H", "D", "C", "S", "NT"),
    "value.{}": ("left", "dealer", "play-on", "joint", "on", "off"),
    "difficulty.{}": ("easy", "normal", "hard"),
    "computer.name.{}": ("easy", "normal", "hard"),
    "computer.names.{}": ("easy", "normal", "hard"),
    "table.joker_{}": ("win", "lose"),
    "button.joker_{}": ("win", "lose"),
    "button.{}": ("keep", "swap"),
    "hand.title_{}": ("hand", "round"),
    "summary.title_{}": ("hand", "round"),
    "table.title_{}": ("hand", "round"),
    "chart.axis_{}": ("hand", "round"),
    "chart.title_{}": ("hand", "round"),
    "rules.cards.{}": ("classic", "partnership", "four-player", "nein-nine"),
    "rules.exchange.{}": ("left", "dealer"),
    "rules.ties.{}": ("play-on", "joint"),
    "rules.h.{}": ("cards", "deal", "exchange", "play", "trump", "joker", "score", "end", "time"),
    "end.reason.{}": (
        "cancelled",
        "channel_lost",
        "corrupt",
        "everyone_away",
        "expired",
        "stopped",
    ),
    "settings.language.{}": ("auto", "en", "fr"),
    "settings.name.{}": (
        "ruleset",
        "trumps",
        "exchange",
        "ties",
        "instant_win",
        "start",
        "rounds",
        "limit",
        "turn_timer",
        "difficulty",
        "language",
        "threads",
        "pings",
        "four_colour",
    ),
    "settings.error.{}": (
        "ruleset",
        "trumps",
        "exchange",
        "ties",
        "instant_win",
        "start",
        "rounds",
        "limit",
        "turn_timer",
        "difficulty",
        "language",
        "threads",
        "pings",
        "four_colour",
        "unknown",
    ),
}


def test_every_literal_key_in_code_exists() -> None:
    keys = literal_keys()
    assert len(keys) > 100  # the scan finds the code's keys
    for language in LANGUAGES:
        messages = catalogue(language)
        missing = {k for k in keys if k not in messages and f"{k}.other" not in messages}
        assert sorted(missing) == [], language


def plural_families() -> set[str]:
    return {k.rsplit(".", 1)[0] for k in catalogue("en") if k.endswith(".other")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_form_a_count_needs_is_written(language: str) -> None:
    """CLDR says which form each number takes (French: 0 and 1 singular, English: 1 only);
    every family has that form for the counts a game can show."""
    families = plural_families()
    assert {"count.games", "count.wins", "count.hands", "count.rounds", "count.tricks"} <= families
    needed = {plural_form(language, n) for n in range(1001)}
    messages = catalogue(language)
    wanted = {f"{family}.{form}" for family in families for form in needed}
    assert sorted(wanted - set(messages)) == []


def test_counts_take_the_plural_form_of_their_language() -> None:
    assert tr("en", "count.games", count=1) == "1 game"
    assert tr("en", "count.games", count=0) == "0 games"
    assert tr("en", "count.games", count=2) == "2 games"
    assert tr("fr", "count.games", count=1) == "1 partie"
    assert tr("fr", "count.games", count=0) == "0 partie"  # French: 0 is singular
    assert tr("fr", "count.games", count=2) == "2 parties"
    assert tr("fr", "count.tricks", count=1500) == "1\xa0500 plis"  # fr-CA groups with a space
    assert tr("en", "count.tricks", count=1500) == "1,500 tricks"


def test_decimal_numbers_follow_the_language() -> None:
    assert number("fr", 4.2, 2) == "4,20" and number("en", 4.2, 2) == "4.20"
    assert number("fr", 33.333) == "33" and number("en", 0.5, 1) == "0.5"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_built_key_exists(language: str) -> None:
    messages = catalogue(language)
    missing = [
        pattern.format(v)
        for pattern, values in FAMILIES.items()
        for v in values
        if pattern.format(v) not in messages
    ]
    assert missing == []


def test_session_error_keys_exist() -> None:
    """``SessionError("error.x")`` and friends carry keys the controller translates."""
    pattern = re.compile(r"SessionError\(\s*\"([a-z_.]+)\"")
    keys = {k for path in CODE for k in pattern.findall(path.read_text("utf-8"))}
    keys.discard("error.illegal")  # carries the engine's refusal; bot/game/refusals.py words it
    assert keys
    for language in LANGUAGES:
        assert sorted(keys - set(catalogue(language))) == []


# -- Discord's command localisation -----------------------------------------------------------


def command_strings() -> list[app_commands.locale_str]:
    """Every name, description and choice name of the /nines tree, with its key."""
    from cogs.nines import nines_cogs

    bot: Any = SimpleNamespace()
    controller: Any = SimpleNamespace(lobbies=None)  # the cogs only hold it
    cog, *_ = nines_cogs(bot, controller)  # every cog's subcommands join cog.nines
    out: list[app_commands.locale_str] = []

    def walk(cmd: Any) -> None:
        out.extend([cmd._locale_name, cmd._locale_description])
        if isinstance(cmd, app_commands.Group):
            for child in cmd.commands:
                walk(child)
            return
        for param in cmd._params.values():
            for value in (param._rename, param.description):
                if isinstance(value, app_commands.locale_str):
                    out.append(value)
            out.extend(c._locale_name for c in param.choices or [])

    walk(cog.nines)
    return [s for s in out if s is not None]


def test_every_command_string_has_a_key_in_both_catalogues() -> None:
    strings = command_strings()
    assert len(strings) > 80
    assert [s.message for s in strings if "key" not in s.extras] == []
    for language in LANGUAGES:
        messages = catalogue(language)
        missing = sorted({s.extras["key"] for s in strings} - {k[8:] for k in messages})
        assert missing == [], language


def test_english_discord_entries_match_the_code() -> None:
    """The code's English is Discord's default; the catalogue's copy must not drift from it."""
    en = catalogue("en")
    for s in command_strings():
        assert en[f"discord.{s.extras['key']}"] == s.message


def test_french_command_and_option_names_follow_discords_rules() -> None:
    fr = catalogue("fr")
    names = [
        s.extras["key"]
        for s in command_strings()
        if (s.extras["key"].startswith("cmd.") and not s.extras["key"].endswith(".desc"))
        or s.extras["key"].endswith(".name")
    ]
    assert len(names) > 20
    for key in names:
        text = fr[f"discord.{key}"]
        assert chat_input_name_ok(text), (key, text)
    # Descriptions and choice names fit Discord's 100 characters.
    for s in command_strings():
        assert 1 <= len(fr[f"discord.{s.extras['key']}"]) <= 100
        assert 1 <= len(s.message) <= 100


async def test_the_translator_answers_french_and_leaves_english_to_the_code() -> None:
    translator = CatalogueTranslator()
    start = app_commands.locale_str("start", key="cmd.start")
    context: Any = SimpleNamespace(location=None, data=None)
    assert await translator.translate(start, Locale.french, context) == "commencer"
    assert await translator.translate(start, Locale.american_english, context) is None
    unkeyed = app_commands.locale_str("x")
    assert await translator.translate(unkeyed, Locale.french, context) is None


# -- cards and languages ---------------------------------------------------------------------


def test_cards_and_suits_follow_the_language() -> None:
    jack = Card.parse("JH")
    assert card_name("fr", jack) == "Valet de cœur"
    assert card_name("en", jack) == "Jack of hearts"
    assert card_label(jack, "fr") == "V♥" and card_label(jack) == "J♥"
    assert card_label(Card.parse("KS"), "fr") == "R♠"
    assert card_label(Card.parse("TD"), "fr") == "10♦"
    assert trump_name("fr", None) == "Sans-atout"
    assert trump_name("fr", Suit.HEARTS) == "♥ Cœur"
    assert tr("fr", "game.nines") != tr("en", "game.nines")


def test_language_of_discord_locales() -> None:
    assert language_of(Locale.french) == "fr"
    assert language_of("fr-CA") == "fr"
    assert language_of(Locale.british_english) == "en"
    assert language_of("de") == "en"  # anything else: English


def test_every_engine_refusal_is_worded_in_both_languages() -> None:
    """The engine's refusals are English; the reader gets them in their own language."""
    from bot.game import engine_refusal as error_text
    from engine import Game, Play, Rules
    from engine.errors import (
        GameIsOver,
        IllegalAction,
        JokerNeedsCall,
        MustFollowSuit,
        NotInHand,
        NotYourTurn,
        WrongPhase,
    )

    refusals: list[Exception] = [
        GameIsOver(),
        NotYourTurn(),
        NotInHand("J♥"),
        MustFollowSuit(Suit.HEARTS),
        JokerNeedsCall(),
        WrongPhase("The exchange is over: play a card."),
        WrongPhase("First decide whether to keep your hand or swap it."),
    ]
    # A call on a card that is not the Joker, as the engine itself refuses it.
    game = Game(Rules.from_settings("nein-nine"), 3)
    seat = game.turn
    assert seat is not None
    card = next(a.card for a in game.legal_actions(seat) if isinstance(a, Play) and a.card.suit)
    try:
        game.check(seat, Play(card, "win"))
    except IllegalAction as error:
        refusals.append(error)
    assert len(refusals) == 8
    for error in refusals:
        english, french = error_text("en", error), error_text("fr", error)
        assert english != french, error
        assert str(error) not in french, error  # no English left in the French


def test_french_messages_name_the_french_commands() -> None:
    """A French client shows /neuf …: the French messages say the same names."""
    fr = catalogue("fr")
    assert [k for k, v in fr.items() if "/nines" in v] == []
    names = {fr[f"discord.{k}"] for k in ("cmd.nines", "cmd.record", "cmd.history")}
    assert {"neuf", "relevé", "historique"} == names
    assert "/neuf relevé" in fr["history.footer"]
