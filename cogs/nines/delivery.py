"""The presenter's notebook of one game: what its channel and its people were shown, and
where (message ids, the private hands' links). Kept by the presenter, not by the session:
the session plays the game, the presenter tells it."""

from __future__ import annotations

import time
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field, fields
from typing import Any

import discord

from bot.storage import DeliveryMarks
from bot.words import language_of

#: How long after a click its token may still edit the private hand (Discord: 15 minutes).
TOKEN_SECONDS = 14 * 60

#: What a token's route answers once it cannot serve: 50027 Invalid Webhook Token (expired),
#: 10015 Unknown Webhook (not yet acknowledged), 10008 Unknown Message (not this token's
#: message). Each means: take the channel route instead.
TOKEN_REFUSED = {50027, 10015, 10008}

#: Messages posted into one channel through webhooks, whichever token: Discord answers more
#: than about 30 a minute with a ``shared`` 429 (discord/discord-api-docs#2701: "30/60s per
#: guild/global", #7243: a hidden shared limit on follow-ups; fakecord/ratelimit.py
#: WEBHOOK_CHANNEL_LIMIT). The game posts at most this many follow-ups (count, seconds) into a
#: channel, leaving room for the private hands' follow-ups, which count too; past it, it posts
#: on the channel route.
FOLLOWUP_BUDGET: tuple[int, float] = (25, 60.0)
#: Of that budget, the posts a turn ping leaves to the tables: a table moved onto a token
#: saves a request on each later card of its hand, a ping only its own two (post, delete).
KEPT_FOR_TABLES = 3

Interaction = discord.Interaction[Any]


class FollowUpBudget:
    """The public follow-ups posted into each channel in the last window (FOLLOWUP_BUDGET)."""

    def __init__(self, budget: tuple[int, float] = FOLLOWUP_BUDGET) -> None:
        self.budget = budget  # tests scale it to their pace
        #: Each channel's posting times, oldest first: an array of doubles, not a deque of
        #: floats (a deque's first block alone is 624 bytes, ~1 KB a live game with the floats).
        self._posts: dict[int, array[float]] = {}

    def take(self, channel_id: int, *, spare: int = 0) -> bool:
        """Count one more follow-up into the channel, if that leaves ``spare`` of the budget
        for others; False: post on the channel route."""
        limit, window = self.budget
        posts = self._posts.get(channel_id)
        if posts is None:
            posts = self._posts[channel_id] = array("d")
        now = time.monotonic()
        expired = bisect_right(posts, now - window)
        if expired:
            del posts[:expired]
        if len(posts) >= limit - spare:
            return False
        posts.append(now)
        return True


@dataclass(slots=True)
class HandLink:
    """Where a seat's newest private hand can be edited: a click's interaction token and the
    message (``@original``, a follow-up's id, or None: not sent yet, a lobby click's token)."""

    token: str
    message: str | None
    language: str
    until: float  # time.monotonic() after which the token is too old


def token(interaction: Interaction, seconds: float = TOKEN_SECONDS) -> Token:
    return Token(interaction.token, time.monotonic() + seconds)


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
    #: The hand's phase (exchange, play) when the table was last drawn.
    phase_shown: str | None = None
    #: The table skipped a change (coalesced: ``TableMessage.watched_only``), so it is behind
    #: the game until its next edit.
    table_behind: bool = False
    #: The game's freshest click token (anyone's click: a lobby click, a card, My hand):
    #: the turn message is posted through it, off Discord's global rate limit.
    click: Token | None = None
    #: The token that created the standing turn message (None: posted on the channel route),
    #: which deletes it while it lives.
    turn_by: Token | None = None
    #: The token that created the table message (None: posted on the channel route), which
    #: edits it off the global limit while it lives.
    table_by: Token | None = None
    #: What the table message's last edit or post drew: everything its text and buttons are
    #: made of (``TableMessage.show``); an edit that would draw it again is not sent.
    #: None: not drawn since this process started.
    table_drawn: tuple[object, ...] | None = None
    #: Per person (user id): where their newest private hand can be edited from (an
    #: interaction token lives 15 minutes, so it is never stored)...
    hand_links: dict[int, HandLink] = field(default_factory=dict)
    #: ... and the decision (action count) it shows or is about to show.
    hand_shows: dict[int, int] = field(default_factory=dict)

    def live_click(self) -> Token | None:
        return self.click if self.click is not None and self.click.alive else None

    def load(self, marks: DeliveryMarks) -> None:
        self.loaded = True
        # The marks are this notebook's fields of the same names, both ways.
        for mark in fields(DeliveryMarks):
            setattr(self, mark.name, getattr(marks, mark.name))

    def marks(self) -> DeliveryMarks:
        return DeliveryMarks(**{m.name: getattr(self, m.name) for m in fields(DeliveryMarks)})
