"""The presenter's notebook of one game: what its channel and its people were shown, and
where (message ids, the private hands' links). Kept by the presenter, not by the session:
the session plays the game, the presenter tells it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import language_of
from bot.storage import DeliveryMarks

#: How long after a click its token may still edit the private hand (Discord: 15 minutes).
TOKEN_SECONDS = 14 * 60

Interaction = discord.Interaction[Any]


@dataclass(slots=True)
class HandLink:
    """Where a seat's newest private hand can be edited: a click's interaction token and the
    message (``@original``, a follow-up's id, or None: not sent yet, a lobby click's token)."""

    token: str
    message: str | None
    language: str
    until: float  # time.monotonic() after which the token is too old


def token(interaction: Interaction) -> Token:
    return Token(interaction.token, time.monotonic() + TOKEN_SECONDS)


def link(interaction: Interaction, message: str | None) -> HandLink:
    return HandLink(
        interaction.token,
        message,
        language_of(interaction.locale),
        time.monotonic() + TOKEN_SECONDS,
    )


@dataclass(frozen=True, slots=True)
class Token:
    """A click's interaction token, usable for public follow-ups and for editing or deleting
    the messages it created until ``until`` (``time.monotonic()``; Discord: 15 minutes)."""

    value: str
    until: float

    @property
    def alive(self) -> bool:
        return time.monotonic() < self.until


@dataclass(slots=True)
class Delivery:
    """One game's delivery state. The marks (storage's migration 0004 columns) are saved in
    one call (``marks()``); the rest lives only as long as this process."""

    #: False until the stored marks were read (the first time the presenter meets the game
    #: in this process; a click may have left a hand link before that).
    loaded: bool = False
    table_message_id: int | None = None
    #: The hand the table message shows.
    table_hand: int | None = None
    #: Hands whose summaries stand in the channel.
    shown_hands: int = 0
    #: The standing "your turn" message and the decision (action count) it announced.
    turn_message_id: int | None = None
    turn_n: int | None = None
    #: (hand number, completed tricks of that hand) when the table was last drawn: the tricks
    #: completed since then were never on the table, so it lists them. None: not drawn since
    #: this process started.
    tricks_shown: tuple[int, int] | None = None
    #: The game's freshest click token (anyone's click: a lobby click, a card, My hand):
    #: the turn message is posted through it, off Discord's global rate limit.
    click: Token | None = None
    #: The token that created the standing turn message (None: posted on the channel route),
    #: which deletes it while it lives.
    turn_by: Token | None = None
    #: Per person (user id): where their newest private hand can be edited from (an
    #: interaction token lives 15 minutes, so it is never stored)...
    hand_links: dict[int, HandLink] = field(default_factory=dict)
    #: ... and the decision (action count) it shows or is about to show.
    hand_shows: dict[int, int] = field(default_factory=dict)

    def live_click(self) -> Token | None:
        return self.click if self.click is not None and self.click.alive else None

    def load(self, marks: DeliveryMarks) -> None:
        self.loaded = True
        self.table_message_id = marks.table_message_id
        self.table_hand = marks.table_hand
        self.shown_hands = marks.shown_hands
        self.turn_message_id = marks.turn_message_id
        self.turn_n = marks.turn_n

    def marks(self) -> DeliveryMarks:
        return DeliveryMarks(
            table_message_id=self.table_message_id,
            table_hand=self.table_hand,
            shown_hands=self.shown_hands,
            turn_message_id=self.turn_message_id,
            turn_n=self.turn_n,
        )
