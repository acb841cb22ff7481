"""Every string a person reads, by key, in English and French (catalogues in ``locales/``).

Plural forms and numbers follow each language's CLDR rules through Babel: a message that
counts something has one entry per plural form (``count.games.one``, ``count.games.other``)
and ``tr(..., count=n)`` picks the form and writes the number the locale's way.

>>> tr("fr", "suit.H")
'cœur'
>>> tr("en", "count.games", count=1), tr("fr", "count.games", count=0)
('1 game', '0 partie')
>>> number("fr", 4.2, 2), number("en", 4.2, 2)
('4,20', '4.20')
>>> language_of("fr-CA"), language_of("en-GB"), language_of(None)
('fr', 'en', 'en')
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Final

import babel.core
from babel import Locale, localedata
from babel.lists import format_list
from babel.numbers import format_decimal

from engine import TRUMP_PRESETS, Card, Suit, Trump

LANGUAGES: Final = ("en", "fr")
DEFAULT: Final = "en"
#: The CLDR locale behind each language: the French is Quebec's.
LOCALES: Final = {"en": "en_CA", "fr": "fr_CA"}


def language_of(locale: object) -> str:
    """Our language for a Discord locale (``discord.Locale`` or its text): French or English."""
    text = str(getattr(locale, "value", locale) or "")
    return "fr" if text.lower().startswith("fr") else DEFAULT


@cache
def catalogue(language: str) -> dict[str, str]:
    text = resources.files("bot").joinpath("locales", f"{language}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


#: What the bot reads of a CLDR locale: plural and ordinal rules, number symbols, list patterns.
CLDR_PARTS: Final = (
    "plural_form",
    "ordinal_form",
    "number_symbols",
    "default_numbering_system",
    "list_patterns",
)


class _Cldr(Locale):
    """A Babel locale holding only ``CLDR_PARTS`` of its data. Babel loads a locale's whole
    CLDR data with its parents' (dates, currencies, time zones, unit and language names) and
    keeps it for the process: ~3 MB a language, of which the bot reads a few KB."""

    def __init__(self, identifier: str, parts: localedata.LocaleDataDict) -> None:
        parsed = Locale.parse(identifier)
        super().__init__(parsed.language, parsed.territory, parsed.script, parsed.variant)
        self._parts = parts

    @property
    def _data(self) -> localedata.LocaleDataDict:
        return self._parts


@cache
def _locale(language: str) -> Locale:
    identifier = LOCALES.get(language, LOCALES[DEFAULT])
    whole = localedata.load(identifier)
    parts = localedata.LocaleDataDict({key: whole[key] for key in CLDR_PARTS})
    locale = _Cldr(identifier, parts)
    # What Babel keeps once it loaded a locale: the whole locales (``load``'s caches) and its
    # global data (2 MB: likely subtags, time zones, currencies), read only to find a locale's
    # parents. The bot keeps ``parts``; Babel reloads either if anything asks again.
    localedata.clear_caches()
    babel.core._global_data = None
    return locale


def plural_form(language: str, count: float) -> str:
    """The CLDR plural category of ``count`` ("one", "other", ...) in ``language``.

    >>> plural_form("fr", 0), plural_form("en", 0), plural_form("fr", 2)
    ('one', 'other', 'other')
    """
    return str(_locale(language).plural_form(count))


def number(language: str, value: float, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals, separators as the language writes them.

    >>> number("fr", 1500), number("en", 1500), number("fr", 0.5, 1)
    ('1\xa0500', '1,500', '0,5')
    """
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return str(format_decimal(value, format=pattern, locale=_locale(language)))


def ordinal(language: str, value: int) -> str:
    """A place as the language writes it, by CLDR's ordinal rules: "1st", "2nd"; "1re", "2e"
    (French: *place* is feminine).

    >>> [ordinal("en", n) for n in (1, 2, 3, 4, 11, 22)], ordinal("fr", 1), ordinal("fr", 2)
    (['1st', '2nd', '3rd', '4th', '11th', '22nd'], '1re', '2e')
    """
    form = str(_locale(language).ordinal_form(value))
    key = f"ordinal.{form}" if f"ordinal.{form}" in catalogue(language) else "ordinal.other"
    return tr(language, key, n=number(language, value))


def tr(language: str, key: str, /, **params: object) -> str:
    """The message ``key`` in ``language`` with its placeholders filled.

    With a number ``count`` among the parameters, the entry ``key.<plural form>`` for that
    count (else ``key.other``), its ``{count}`` written as the language writes numbers. A key
    missing from a catalogue falls back to English (a test keeps both complete).
    """
    language = language if language in LANGUAGES else DEFAULT
    count = params.get("count")
    if isinstance(count, int | float) and f"{key}.other" in catalogue(DEFAULT):
        form = f"{key}.{plural_form(language, count)}"
        key = form if form in catalogue(language) else f"{key}.other"
        params["count"] = number(language, count)
    template = catalogue(language).get(key) or catalogue(DEFAULT)[key]
    return template.format(**params) if params else template


def suit_name(language: str, suit: Suit) -> str:
    return tr(language, f"suit.{suit.value}")


def trump_word(language: str, trump: Trump) -> str:
    """A trump as a word inside a sentence: "hearts", "sans-atout"."""
    return tr(language, "suit.none") if trump is None else suit_name(language, trump)


def trump_order(language: str, trumps: Sequence[Trump]) -> str:
    """A trump sequence in words, as the language lists things.

    >>> trump_order("en", (Suit.HEARTS, Suit.SPADES, None))
    'hearts, spades and no trump'
    >>> trump_order("fr", (Suit.HEARTS, Suit.SPADES, None))
    'cœur, pique et sans-atout'
    """
    return and_list(language, [trump_word(language, t) for t in trumps])


def and_list(language: str, items: Sequence[str]) -> str:
    """Items in running text, joined as the language lists things (CLDR's list patterns),
    never with an ``&``: partners, players tied, winners.

    >>> and_list("fr", ["Élodie", "Alex"]), and_list("en", ["Zoé", "Alex", "Ann"])
    ('Élodie et Alex', 'Zoé, Alex and Ann')
    """
    return str(format_list(list(items), locale=_locale(language)))


def _engine_letter(trump: Trump) -> str:
    return "NT" if trump is None else trump.value


def _letter_key(trump: Trump) -> str:
    return f"letter.{_engine_letter(trump)}"


def trumps_label(language: str, setting: str) -> str:
    """The ``trumps`` setting as its reader would type it: a preset's name in their language,
    or the letters of their language ("H,S,NT" reads "C,P,SA" in French).

    >>> trumps_label("fr", "quebec"), trumps_label("fr", "H,S,NT"), trumps_label("en", "H,S")
    ('québécois', 'C,P,SA', 'H,S')
    """
    if setting in TRUMP_PRESETS:
        return tr(language, f"preset.{setting}")
    trumps = [None if e == "NT" else Suit(e) for e in setting.split(",")]
    return ",".join(tr(language, _letter_key(t)) for t in trumps)


def _folded(text: str) -> str:
    """Lower case, accents and ligatures off, spaces as hyphens: "Québécois" -> "quebecois"."""
    text = text.strip().lower().replace("œ", "oe")
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return "-".join(bare.split())


#: Suit words a player may type in a trump order, besides the letters (folded, see _folded).
SUIT_WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "heart": "H",
        "hearts": "H",
        "spade": "S",
        "spades": "S",
        "diamond": "D",
        "diamonds": "D",
        "club": "C",
        "clubs": "C",
        "no_trump": "NT",
    },
    "fr": {
        "coeur": "H",
        "coeurs": "H",
        "pique": "S",
        "piques": "S",
        "carreau": "D",
        "carreaux": "D",
        "trefle": "C",
        "trefles": "C",
        "sans_atout": "NT",
    },
}


#: Each preset's sequence in letters: a typed sequence that is a preset's is named by it.
PRESET_LETTERS: Final = {
    name: ",".join(_engine_letter(t) for t in seq) for name, seq in TRUMP_PRESETS.items()
}


#: The French names two presets had before they were shown as their suits (♥♦♠♣, ♥♣♦♠):
#: an admin who learned them can still type them.
FORMER_PRESET_NAMES: Final = {"ckpt": "hdsc", "ctkp": "hcds"}


def read_trumps(text: str, language: str = DEFAULT) -> str:
    """A trump order as a person typed it, in the engine's words (a preset name or letters
    such as "H,S,NT", or the preset's name for its sequence); what cannot be read is returned
    as typed, for the engine to refuse.

    Preset names, suit letters and suit words are read in English or French. A sequence is
    read in one language: the reader's first, then the other, since "C" is clubs in English
    and cœur in French.

    >>> read_trumps("C,P,K,T", "fr"), read_trumps("québécois", "fr")
    ('H,S,D,C', 'quebec')
    >>> read_trumps("C,P,K,T,SA", "fr")  # the Quebec sequence is the quebec preset
    'quebec'
    >>> read_trumps("C, NT", "fr"), read_trumps("C", "fr"), read_trumps("C", "en")
    ('C,NT', 'H', 'C')
    >>> read_trumps("Cœur pique sans atout", "en"), read_trumps("h, spades, no trump")
    ('H,S,NT', 'H,S,NT')
    >>> read_trumps("ckpt", "fr"), read_trumps("HDSC", "en"), read_trumps("♥♣♦♠", "fr")
    ('hdsc', 'hdsc', 'hcds')
    """
    folded = _folded(text)
    if folded in TRUMP_PRESETS or folded in FORMER_PRESET_NAMES:  # the engine's names, typed
        return FORMER_PRESET_NAMES.get(folded, folded)
    for lang in LANGUAGES:
        for preset in TRUMP_PRESETS:
            if folded == _folded(tr(lang, f"preset.{preset}")):
                return preset
    for two_words in ("sans-atout", "no-trump"):  # one entry, not two
        folded = folded.replace(two_words, two_words.replace("-", "_"))
    entries = [e for e in folded.replace("-", ",").split(",") if e]
    for lang in (language, *(other for other in LANGUAGES if other != language)):
        known = {_folded(tr(lang, _letter_key(t))): _engine_letter(t) for t in (*Suit, None)}
        known |= SUIT_WORDS.get(lang, {})
        if entries and all(e in known for e in entries):
            letters = ",".join(known[e] for e in entries)
            return next((p for p, seq in PRESET_LETTERS.items() if seq == letters), letters)
    return text


def trump_name(language: str, trump: Trump) -> str:
    """E.g. "♥ Hearts", "Sans-atout"."""
    if trump is None:
        return tr(language, "trump.none")
    return f"{trump.symbol} {tr(language, f'trump.{trump.value}')}"


#: French rank letters: Valet, Dame, Roi (the ace and the numbers are the same).
FRENCH_RANKS: Final = {"J": "V", "Q": "D", "K": "R"}


def card_label(card: Card, language: str = DEFAULT) -> str:
    """A card for a button or a line of text: ``10♥``, ``A♠``, ``🃏``; in French the face
    cards take their French letters (``V♥`` for the Valet de cœur).

    >>> card_label(Card.parse("JH")), card_label(Card.parse("QS"), "fr")
    ('J♥', 'D♠')
    """
    text = card.pretty
    if language == "fr" and text[:1] in FRENCH_RANKS:
        return FRENCH_RANKS[text[:1]] + text[1:]
    return text


def face_key(reader: str, notation: str, ranks: str = "KQJ") -> str:
    """The letters in ``notation`` of the face cards ``ranks`` (the deck's), with their names
    in ``reader``'s words: the key for someone reading the other language's notation.

    >>> face_key("en", "fr"), face_key("en", "fr", "J")
    ('R for king, D for queen and V for jack', 'V for jack')
    >>> face_key("fr", "en")
    'K pour roi, Q pour dame et J pour valet'
    """
    faces = (Card.parse(f"{rank}S") for rank in ranks)
    return and_list(
        reader,
        [
            tr(
                reader,
                "card.letter",
                letter=card_label(c, notation)[:-1],
                rank=tr(reader, f"rank.{c.rank}").lower(),
            )
            for c in faces
        ],
    )


def card_name(language: str, card: Card) -> str:
    """A card in words, e.g. "Valet de cœur"."""
    if card.suit is None:
        return tr(language, "card.joker")
    rank = tr(language, f"rank.{card.rank}")
    return tr(language, "card.name", rank=rank, suit=suit_name(language, card.suit))
