"""The card faces as the application's own emojis: uploaded once, looked up by card.

Discord lets an application own up to 2,000 emojis of up to 256 KiB each, usable in every
server the bot is in without the external-emoji permission, ephemeral messages included
(Discord's docs, Emoji > Application-Owned Emoji: "An application can own up to 2000 emojis
that can only be used by that app ... The USE_EXTERNAL_EMOJIS permission is not required to use
app emojis"; Create Application Emoji: "Emojis and animated emojis have a maximum file size of
256 KiB"; https://discord.com/developers/docs/resources/emoji).

At start, ``sync_card_faces`` lists the application's emojis (GET
/applications/{id}/emojis), creates only the faces missing (POST, the same route), and returns
a ``CardFaces`` that maps each card to its emoji. A face's name says the card in its notation's
words and ends with 6 hex digits of its content hash (``queen_of_hearts_1a2b3c``,
``dame_de_coeur_4d5e6f``): Discord shows an emoji's name on hover and a screen reader reads it
(the ``alt`` of its image), so the name is the card for someone who cannot see the face (issue
46); a face drawn differently is a new name and is uploaded, and an unchanged one is found by
name and never created twice. Discord's rule for the name: 2 to 32 characters of letters,
digits and ``_`` (Discord's docs, Emoji > Create Application Emoji, "name of the emoji", and
Emoji Object; the longest of ours is 24; ``fakecord/app_emojis.py`` refuses any other).
Emojis of ours that no face uses any more stay where they are (older messages still
show them) until room is needed for new ones; other emojis of the application are never
touched. Processes starting together on one
database take turns (``Storage.one_at_a_time``): the first uploads, the next finds it done.
Should two create the same face all the same (two processes on one SQLite file, which share no
lock), Discord refuses the second, an application's emoji names being unique, and the second
takes the first's.

When the upload cannot be done (an HTTP error, the 2,000 limit, a network fault), one WARNING
says why and ``CardFaces.empty()`` is returned: every card reads as text, as before, and the
game goes on.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Protocol

import discord

from engine import Card

from ..base import RETRYABLE, describe
from ..storage import Storage, StorageError
from ..words import card_label
from .card_faces import Face, face_key, faces

log = logging.getLogger(__name__)

#: Emojis an application may own (Discord's docs, Emoji > Application-Owned Emoji).
MAX_EMOJIS: Final = 2000
#: An emoji image's largest size (Discord's docs, Emoji > Create Application Emoji).
MAX_BYTES: Final = 256 * 1024
#: A rank and a suit in an emoji's name, by notation: ASCII words (Discord allows no other).
RANK_WORDS: Final = {
    "en": {11: "jack", 12: "queen", 13: "king", 14: "ace"},
    "fr": {11: "valet", 12: "dame", 13: "roi", 14: "as"},
}
SUIT_WORDS: Final = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "fr": {"S": "pique", "H": "coeur", "D": "carreau", "C": "trefle"},
}
OF: Final = {"en": "of", "fr": "de"}
#: Ours, by the names' shape: the only emojis the sync ever deletes, so another emoji of the
#: application is never taken for one of ours. Names before issue 46 (``nines_qh_fr_1a2b3c4d``)
#: are ours too: they are cleared when room is needed.
OURS: Final = re.compile(
    r"^(?:nines_(?:[2-9tjqka][shdc](?:_fr)?(?:_4c)?|jk)_[0-9a-f]{8}"
    r"|(?:[2-9]|10|jack|queen|king|ace|valet|dame|roi|as)_(?:of|de)_"
    r"(?:spades|hearts|diamonds|clubs|pique|coeur|carreau|trefle)_[0-9a-f]{6})$"
)
#: The Joker's sign, on its button as in text (``card_label``): it has no drawn face.
JOKER_SIGN: Final = "🃏"
#: The name ``one_at_a_time`` takes turns on.
LOCK_NAME: Final = "card-emojis"


def card_words(card: Card, notation: str) -> str:
    """A card in ``notation``'s words, as an emoji's name may spell it.

    >>> card_words(Card.parse("QD"), "en"), card_words(Card.parse("TH"), "fr")
    ('queen_of_diamonds', '10_de_coeur')
    """
    assert card.suit is not None, "the Joker has no face"
    rank = RANK_WORDS[notation].get(card.rank, str(card.rank))
    return f"{rank}_{OF[notation]}_{SUIT_WORDS[notation][card.suit.value]}"


def emoji_name(face: Face) -> str:
    """The emoji's name: the card in words, then 6 hex digits of the face's hash."""
    return f"{card_words(face.card, face.notation)}_{face.digest[:6]}"


@dataclass(frozen=True, slots=True)
class Uploaded:
    """One face's emoji on Discord."""

    name: str
    id: int


class CardFaces:
    """Which emoji shows which card: built by ``sync_card_faces``; ``empty()`` when the faces
    are not there (every lookup then answers None, and callers write the card as text)."""

    def __init__(self, by_face: Mapping[str, Uploaded]) -> None:
        self._by_face = dict(by_face)

    @classmethod
    def empty(cls) -> CardFaces:
        return cls({})

    def __bool__(self) -> bool:
        return bool(self._by_face)

    def __len__(self) -> int:
        return len(self._by_face)

    def _find(self, card: Card, notation: str, four_colour: bool) -> Uploaded | None:
        if card.suit is None:  # the Joker has no face: 🃏 is its sign everywhere
            return None
        return self._by_face.get(face_key(card, notation, four_colour))

    def button_emoji(
        self, card: Card, notation: str, four_colour: bool = False
    ) -> discord.PartialEmoji | None:
        """The emoji for a button showing ``card``: its face; None without faces. The Joker's
        is 🃏, with faces or without: its one sign everywhere (issue 46)."""
        if card.suit is None:
            return discord.PartialEmoji(name=JOKER_SIGN)
        found = self._find(card, notation, four_colour)
        return None if found is None else discord.PartialEmoji(name=found.name, id=found.id)

    def inline(self, card: Card, notation: str, four_colour: bool = False) -> str | None:
        """The emoji in message text (``<:name:id>``, Discord's custom emoji markdown);
        None without faces."""
        found = self._find(card, notation, four_colour)
        return None if found is None else f"<:{found.name}:{found.id}>"

    def text(self, card: Card, notation: str, four_colour: bool = False) -> str:
        """``card`` in a line of text: its face, else its label (``10♥``, ``D♠``) as today.
        The one call the renderers make for a card in text."""
        return self.inline(card, notation, four_colour) or card_label(card, notation)


class EmojiClient(Protocol):
    """What the sync needs of discord.py's client (discord.Client has it all)."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...


class CannotUpload(Exception):
    """The faces cannot all be application emojis (too large, no room): the reason."""


async def _upload(client: EmojiClient) -> CardFaces:
    """List, make room if needed, create what is missing: the faces by key."""
    drawn = await asyncio.to_thread(faces)  # ~1 s of drawing, off the event loop
    wanted = {emoji_name(face): face for face in drawn.values()}
    too_big = [name for name, face in wanted.items() if len(face.png) > MAX_BYTES]
    if too_big:
        raise CannotUpload(f"{len(too_big)} face(s) over {MAX_BYTES} bytes, e.g. {too_big[0]}")
    existing = await client.fetch_application_emojis()
    have = {emoji.name: emoji for emoji in existing}
    missing = sorted(name for name in wanted if name not in have)
    short = len(missing) - (MAX_EMOJIS - len(existing))
    if short > 0:
        # Room is needed: our oldest emojis that no face uses go first; others' never.
        stale = sorted(
            (e for e in existing if OURS.match(e.name) and e.name not in wanted),
            key=lambda e: e.id,
        )
        if len(stale) < short:
            raise CannotUpload(
                f"{len(missing)} new face(s) and room for {len(missing) - short} "
                f"(the application has {len(existing)} of {MAX_EMOJIS} emojis)"
            )
        for emoji in stale[:short]:
            await emoji.delete()
            log.info("deleted the stale card emoji %s to make room", emoji.name)
    uploaded = 0  # bytes
    for name in missing:
        if name in have:  # found in a fresh list after a refusal (below)
            continue
        try:
            have[name] = await client.create_application_emoji(name=name, image=wanted[name].png)
            uploaded += len(wanted[name].png)
        except discord.HTTPException as refused:
            # An application's emoji names are unique: a process not sharing our lock (two
            # on one SQLite file) may have created it meanwhile. Take theirs, if it is there.
            if refused.status != 400:
                raise
            have.update((e.name, e) for e in await client.fetch_application_emojis())
            if name not in have:
                raise
    if uploaded:
        log.info("uploaded card faces as application emojis: %d bytes", uploaded)
    return CardFaces({face.key: Uploaded(name, have[name].id) for name, face in wanted.items()})


async def sync_card_faces(client: EmojiClient, storage: Storage) -> CardFaces:
    """The card faces as application emojis, uploaded where missing, one process at a time;
    ``CardFaces.empty()`` and one WARNING when that cannot be done."""
    try:
        return await storage.one_at_a_time(LOCK_NAME, lambda: _upload(client))
    except (discord.DiscordException, CannotUpload, StorageError, *RETRYABLE) as exc:
        why = describe(exc) if isinstance(exc, (discord.HTTPException, *RETRYABLE)) else str(exc)
        log.warning("Card faces are not application emojis (%s); cards show as text", why)
    except Exception:  # a fault of ours or of the database: still no harm to the games
        log.warning("Card faces are not application emojis; cards show as text", exc_info=True)
    return CardFaces.empty()
