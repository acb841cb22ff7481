"""Discord's own command localisation, from the same catalogues as every other string.

Command, option and choice names in code carry a catalogue key (``locale_str(..., key=...)``);
Discord shows each person the translation for their client's language.
"""

from __future__ import annotations

from discord import Locale, app_commands

from ..words import DEFAULT, LANGUAGES, catalogue, language_of


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = language_of(locale)
        if key is None or language == DEFAULT or language not in LANGUAGES:
            return None  # the English text in the code is the default
        return catalogue(language).get(f"discord.{key}")
