"""The "Open the table" button: opens the Activity (the web table) in the clicked channel.

Shown only when the bot serves the Activity (``ACTIVITY_PORT`` and ``DISCORD_CLIENT_SECRET``
set). The click is answered with callback type 12, LAUNCH_ACTIVITY, which Discord accepts
from an app with Activities enabled, in answer to a command or a component
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type);
the Activity then finds the channel's game itself (bot/activity/hub.py): the custom_id names
the game only to tell its buttons apart.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

import discord

from bot.base import discord_internals
from bot.words import language_of, tr

from . import ui

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

TEMPLATE: Final = r"nines:1:table:(?P<game>[1-9][0-9]{0,17})"


def served(client: discord.Client) -> bool:
    """Whether this bot serves the Activity."""
    return getattr(client, "activity_server", None) is not None


class OpenTableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Registered with the bot's other buttons (``bot.add_dynamic_items``)."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(lang, "activity.open"),
                style=discord.ButtonStyle.primary,
                custom_id=custom_id(game_id),
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenTableButton:
        return cls(int(match["game"]), language_of(interaction.locale))

    async def answer(self, _controller: object, interaction: Interaction) -> None:
        """As the extension's router answers every button of ours (cogs.nines._call_dynamic_item);
        this one needs no controller."""
        await self.callback(interaction)

    async def callback(self, interaction: Interaction) -> None:
        try:
            if not served(interaction.client):
                # An old message's button, from before the Activity was turned off.
                await interaction.response.send_message(
                    tr(language_of(interaction.locale), "activity.off"), ephemeral=True
                )
                return
            await interaction.response.launch_activity()
        except discord.HTTPException:
            # Activities not enabled in the Developer Portal (Discord refuses type 12), or
            # Discord failing: the chat table still works; said in the log for the admin.
            log.warning("could not open the Activity for game %s", self.game_id, exc_info=True)
        finally:
            discord_internals.release_interaction(interaction)


def open_table_button(web_table: bool, lang: str, game_id: int) -> ui.Button | None:
    """The button for a game's lobby or table message (as Discord's JSON, like the messages'
    other buttons: ``ui.Buttons``), or None when no Activity is served (``web_table``)."""
    if not web_table:
        return None
    return ui.button(custom_id(game_id), tr(lang, "activity.open"), style=ui.B.primary)


def custom_id(game_id: int) -> str:
    """The button's id (``TEMPLATE``): it names the game only to tell its buttons apart."""
    return f"nines:1:table:{game_id}"


def is_ours(custom_id: str) -> bool:
    return re.fullmatch(TEMPLATE, custom_id) is not None
