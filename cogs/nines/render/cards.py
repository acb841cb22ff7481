"""How a game's cards are written in chat: as the application's card-face emojis when the
bot has them (issue 38, ``bot/chat/emojis.py``), else as text (``10♥``, ``D♠``).

The presenter builds one ``CardStyle`` per message from the bot's faces (empty until the
start-up sync finishes, and for good if it failed) and the server's ``four_colour`` setting,
and passes it to the renderers, which read no session and no setting themselves. The notation
(K Q J or R D V) is not the style's but the model's (``TableModel.notation``, the game's
language): one notation per game, on the table, in the summaries and in every private hand, so
a card reads the same way everywhere one person looks (PRODUCT.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import discord

from bot.chat import CardFaces
from engine import Card

#: What an inline custom emoji costs in text: ``<:nines_qd_fr_4c_1a2b3c4d:123456789012345678>``
#: is 46 characters (a 23-character name, a snowflake of up to 20 digits, ``<:``, ``:``, ``>``).
#: Renderers that cap a message check the rendered length itself; this is for estimates.
INLINE_CHARS: Final = 48


@dataclass(frozen=True, slots=True)
class CardStyle:
    """The card faces to show, if any, and in which deck. ``TEXT``: cards as text."""

    faces: CardFaces
    four_colour: bool = False

    def __bool__(self) -> bool:
        """Whether any card shows as a face (an empty ``CardFaces``: all text)."""
        return bool(self.faces)

    def text(self, card: Card, notation: str) -> str:
        """``card`` in a line of text: its face's emoji, else its label (``10♥``)."""
        return self.faces.text(card, notation, self.four_colour)

    def cards(self, cards: Sequence[Card], notation: str) -> str:
        """Several cards in a line, one space apart."""
        return " ".join(self.text(c, notation) for c in cards)

    def button_emoji(self, card: Card, notation: str) -> discord.PartialEmoji | None:
        """The face for a card's button, or None (the button's label alone then)."""
        return self.faces.button_emoji(card, notation, self.four_colour)


#: Every card as text, as before issue 38: the renderers' default, and what a message falls
#: back to where its faces would pass one of Discord's length limits.
TEXT: Final = CardStyle(CardFaces.empty())
