"""How the commands and the buttons answer an interaction: privately, by editing the clicked
message, or with an apology; and in which language.

Discord wants every interaction answered once, within 3 s, then followed up
(https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction):
each helper answers or follows up, whichever is due.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.game import session_refusal
from bot.game.session import SessionError
from bot.storage import SettingValue
from bot.words import language_of, tr

from .setting_values import SettingsInvalid

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


def lang(interaction: Interaction) -> str:
    """The language of a private answer: the reader's own."""
    return language_of(interaction.locale)


def public_language(interaction: Interaction, settings: Mapping[str, SettingValue]) -> str:
    """The language of public messages here: the server's setting, else its locale."""
    chosen = str(settings.get("language") or "")
    return chosen if chosen in ("en", "fr") else language_of(interaction.guild_locale)


async def private(interaction: Interaction, text: str) -> None:
    """A short private answer (a new ephemeral message, or a follow-up if answered)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def defer_while_busy(interaction: Interaction) -> None:
    """The click waits for its busy game: acknowledged now, so it never fails while it waits;
    its answer then edits the clicked message."""
    if not interaction.response.is_done():
        await interaction.response.defer()


async def update(interaction: Interaction, **kwargs: Any) -> None:
    """Edit the clicked message: as the interaction's answer, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def apologise(interaction: Interaction) -> None:
    """After an unexpected error: a short private apology, if Discord still listens."""
    try:
        await private(interaction, tr(lang(interaction), "error.unexpected"))
    except discord.HTTPException:
        log.info("could not apologise for a failed click", exc_info=True)


def error_text(interaction: Interaction, error: SessionError) -> str:
    """A session's refusal in the reader's words."""
    return session_refusal(lang(interaction), error)


async def refuse(interaction: Interaction, error: SessionError) -> None:
    await private(interaction, error_text(interaction, error))


async def command_failed(interaction: Interaction, error: app_commands.AppCommandError) -> None:
    """A /nines command that did not run to its end, in every cog: a refusal in the caller's
    words; anything unexpected logged with its traceback, and a short private apology."""
    words = lang(interaction)
    original = getattr(error, "original", error)
    if isinstance(original, SessionError):
        await refuse(interaction, original)
        return
    if isinstance(original, SettingsInvalid):  # an option refused (``options.RuleOption``)
        await private(interaction, tr(words, original.key, **original.params))
        return
    if isinstance(error, app_commands.NoPrivateMessage):
        await private(interaction, tr(words, "error.guild_only"))
        return
    if isinstance(error, app_commands.CheckFailure):
        return  # the check answered already (``SettingsGroup.interaction_check``)
    log.error(
        "command %s failed", interaction.command and interaction.command.name, exc_info=original
    )
    with contextlib.suppress(discord.HTTPException):
        await private(interaction, tr(words, "error.unexpected"))
