"""Every string a person reads, by key, in English and French (catalogues in ``locales/``).

>>> tr("fr", "suit.H")
'cœur'
>>> language_of("fr-CA"), language_of("en-GB"), language_of(None)
('fr', 'en', 'en')
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

from engine import Card, Suit, Trump

LANGUAGES: Final = ("en", "fr")
DEFAULT: Final = "en"


def language_of(locale: object) -> str:
    """Our language for a Discord locale (``discord.Locale`` or its text): French or English."""
    text = str(getattr(locale, "value", locale) or "")
    return "fr" if text.lower().startswith("fr") else DEFAULT


@cache
def catalogue(language: str) -> dict[str, str]:
    text = resources.files("bot").joinpath("locales", f"{language}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def tr(language: str, key: str, /, **params: object) -> str:
    """The message ``key`` in ``language`` with its placeholders filled.

    A key missing from a catalogue falls back to English (a test keeps both complete).
    """
    messages = catalogue(language if language in LANGUAGES else DEFAULT)
    template = messages.get(key) or catalogue(DEFAULT)[key]
    return template.format(**params) if params else template


def suit_name(language: str, suit: Suit) -> str:
    return tr(language, f"suit.{suit.value}")


def trump_name(language: str, trump: Trump) -> str:
    """E.g. "♥ Hearts", "Sans atout"."""
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


def card_name(language: str, card: Card) -> str:
    """A card in words, e.g. "Valet de cœur"."""
    if card.suit is None:
        return tr(language, "card.joker")
    rank = tr(language, f"rank.{card.rank}")
    return tr(language, "card.name", rank=rank, suit=suit_name(language, card.suit))
