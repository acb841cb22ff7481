"""The few CLDR parts the bot keeps of each language (bot/words/i18n.py ``_locale``): the same words
and numbers as Babel's whole locale gives, for every count, place, number and list the bot
writes, so keeping only those parts (a few KB, not Babel's ~3 MB a language) changes nothing
anyone reads."""

from __future__ import annotations

import random

import pytest
from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal

from bot.words import plural_form as plural
from bot.words.i18n import CLDR_PARTS, LANGUAGES, LOCALES, _locale, and_list, number, ordinal

COUNTS = [*range(-3, 250), 0.5, 1.0, 1.5, 2.25, 1e6, 1_000_001]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_kept_parts_say_what_babels_whole_locale_says(language: str) -> None:
    kept = _locale(language)
    assert set(kept._data) == set(CLDR_PARTS)
    whole = Locale.parse(LOCALES[language])
    for count in COUNTS:
        assert plural(language, count) == whole.plural_form(count), count
    for place in range(250):
        assert kept.ordinal_form(place) == whole.ordinal_form(place), place
        assert ordinal(language, place)
    rng = random.Random(language)
    values = [0, 1, -1, 4.2, 0.5, 2.675, 1500, -1500.25, 1_234_567.891, 999.995]
    values += [rng.uniform(-1e7, 1e7) for _ in range(200)]
    for value in values:
        for digits in (0, 1, 2):
            pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
            assert number(language, value, digits) == format_decimal(
                value, format=pattern, locale=whole
            ), (value, digits)
    names = ["Élodie", "Alex", "Sam", "Robin", "Zoé"]
    for n in range(1, len(names) + 1):
        assert and_list(language, names[:n]) == format_list(names[:n], locale=whole)
