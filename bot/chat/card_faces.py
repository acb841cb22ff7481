"""Our own card faces, drawn with Pillow: rank over suit on a white card, one PNG per face.

Discord shows an emoji at 22 pixels in a button and in a line of text (on a phone too), so a
face carries only what reads at that size: the rank, as large as the square allows, and the
suit drawn as a plain shape below it, in a strong colour on white, with a dark edge so the card
stands out on the dark theme and on the light one. Faces are drawn at 128 x 128, the size
Discord's docs give for an emoji image (Emoji > Create Application Emoji: "the 128x128 emoji
image"), four times larger first and scaled down, so the edges are smooth.

Which faces there are (``faces()``): every card of the 52-card deck in both notations (K Q J,
and the French R D V) and in both decks (the standard two-colour one and the four-colour one:
spades black, hearts red, diamonds blue, clubs green, the usual convention of four-colour poker
decks). A face is kept per notation even where the picture is the same (a 9, an ace): its
emoji's name says the card in the notation's words (bot/chat/emojis.py), which is what Discord shows
on hover and reads aloud. Spades and hearts look the same in both decks and are one face each.
That is 2 x (52 + 26 four-colour clubs and diamonds) = 156 faces. The Joker has none: its sign
everywhere is 🃏 (issue 46), which no drawing of ours would beat at 22 pixels.

The inks (issue 46): the four suits stay apart for a deuteranope as well as for normal vision.
Each ink simulated for deuteranopia (Machado, Oliveira and Fernandes 2009, severity 1.0, on
linear RGB), CIE ΔE2000 between each pair, normal / deuteranope (``bench/card_faces.py``):

    ♠/♥ 44.3 / 45.9   ♠/♦ 40.6 / 40.2   ♠/♣ 35.0 / 25.7
    ♥/♦ 46.9 / 64.7   ♥/♣ 62.9 / 25.2   ♦/♣ 43.6 / 37.7

where the earlier green (0, 128, 52) against the red read 8.0 for a deuteranope (69.7 normal):
the same olive. The green is darker and bluer, the red brighter: they part by lightness, which a
deuteranope keeps. Every ink is at least 4.5:1 against the white card (WCAG's contrast for text).

The drawing is pure and deterministic: the same card, notation and deck give the same PNG
bytes (with the same Pillow and FreeType), so a face's content hash names it (bot/chat/emojis.py).
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from engine import Card, Suit
from engine.cards import FULL_DECK

from ..words import card_label

#: The emoji image's side in pixels (Discord's docs: "the 128x128 emoji image").
SIZE: Final = 128
#: Drawn this many times larger, then scaled down: smooth edges, the same bytes every time.
SCALE: Final = 4
FONT_PACKAGE: Final = "font_source_sans_pro"
#: Heavier than the score chart's Bold: at 22 pixels a stroke of Black is about 2 pixels wide.
FONT_FILE: Final = "SourceSansPro-Black.ttf"
REFERENCE: Final = 200  # the font size a rank is measured at before it is fitted
SPILL: Final = 3  # 128ths of the side a Q's ink may pass its box by, above and below
#: Where the rank and the suit go, in 128ths of the side (left, top, right, bottom).
RANK_BOX: Final = (12, 9, 116, 60)
SUIT_BOX: Final = (29, 65, 99, 121)

WHITE: Final = (255, 255, 255, 255)
EDGE: Final = (60, 64, 72, 255)  # the card's edge: visible on Discord's light and dark themes
BLACK: Final = (17, 17, 17, 255)
RED: Final = (230, 20, 20, 255)
BLUE: Final = (60, 90, 230, 255)  # four-colour diamonds
GREEN: Final = (0, 112, 80, 255)  # four-colour clubs

TWO_COLOUR: Final[Mapping[Suit, tuple[int, int, int, int]]] = {
    Suit.SPADES: BLACK,
    Suit.HEARTS: RED,
    Suit.DIAMONDS: RED,
    Suit.CLUBS: BLACK,
}
FOUR_COLOUR: Final[Mapping[Suit, tuple[int, int, int, int]]] = {
    Suit.SPADES: BLACK,
    Suit.HEARTS: RED,
    Suit.DIAMONDS: BLUE,
    Suit.CLUBS: GREEN,
}
#: The suits whose colour the four-colour deck changes.
RECOLOURED: Final = frozenset(s for s in Suit if TWO_COLOUR[s] != FOUR_COLOUR[s])

Box = tuple[float, float, float, float]


def rank_text(card: Card, notation: str) -> str:
    """The rank as the notation writes it: ``10``, ``A``, ``Q`` (``D`` in French)."""
    return card_label(card, notation)[:-1]


def face_key(card: Card, notation: str, four_colour: bool) -> str:
    """The face ``card`` shows in ``notation`` and that deck: one key per face (cards that look
    the same in both decks share it; each notation has its own, as its emoji's name is in the
    notation's words). Lower case letters, digits and ``_``: ``9h_en``, ``qs_fr``,
    ``tc_en_4c``. The Joker has no face (its sign is 🃏).

    >>> from engine import Card
    >>> face_key(Card.parse("QD"), "fr", True), face_key(Card.parse("9S"), "fr", True)
    ('qd_fr_4c', '9s_fr')
    """
    if card.suit is None:
        raise ValueError("the Joker has no drawn face: its sign is 🃏")
    key = f"{card.code.lower()}_{notation}"
    if four_colour and card.suit in RECOLOURED:
        key += "_4c"
    return key


@dataclass(frozen=True, slots=True)
class Face:
    """One drawn face: its key (``face_key``), the card and notation it shows, its PNG."""

    key: str
    card: Card
    notation: str
    png: bytes

    @property
    def digest(self) -> str:
        """The PNG's content hash (SHA-256, hex): a changed drawing gets a new one."""
        return hashlib.sha256(self.png).hexdigest()


@cache
def _font_file() -> bytes:
    """The font file's bytes, read once: every size draws from this copy (PIL keeps the
    bytes its font was read from, and a BytesIO read whole returns the bytes it was given)."""
    return resources.files(FONT_PACKAGE).joinpath("files", FONT_FILE).read_bytes()


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(_font_file()), size)


def _heart(box: Box) -> list[tuple[float, float]]:
    """A heart as a polygon in ``box``: the classic heart curve, scaled into the box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    points = []
    for i in range(181):
        t = math.pi * 2 * i / 180
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x0 + w * (x + 16) / 32, y0 + h * (12 - y) / 29))
    return points


def _spade(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int, int]) -> None:
    """A spade: an upside-down heart over the box's upper part, its point sharp at the top,
    on a narrow stem. Proportions chosen by ``bench/card_faces.py`` (issue 46): at 22 pixels
    the mean difference from the club in the suit zone went from 0.049 to 0.124."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    body = (x0, y0, x1, y0 + h * 0.72)
    flipped = [(x, body[1] + body[3] - y) for x, y in _heart(body)]
    draw.polygon(flipped, fill=colour)
    cx = (x0 + x1) / 2
    draw.polygon([(cx, y0 + h * 0.50), (cx - w * 0.16, y1), (cx + w * 0.16, y1)], fill=colour)


def _club(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int, int]) -> None:
    """A club: three large round leaves, the two low ones at the box's sides (the round top
    and the notches between leaves are what tell it from a spade at 22 pixels), on a thin
    stem."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w * 0.30
    cx = (x0 + x1) / 2
    centres = ((cx, y0 + r), (x0 + r, y0 + h * 0.64), (x1 - r, y0 + h * 0.64))
    for x, y in centres:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    draw.polygon([(cx, y0 + h * 0.45), (cx - w * 0.12, y1), (cx + w * 0.12, y1)], fill=colour)


def _diamond(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    inset = (x1 - x0) * 0.08  # as tall as the other suits, a little narrower: a lozenge
    draw.polygon([(cx, y0), (x1 - inset, cy), (cx, y1), (x0 + inset, cy)], fill=colour)


def _suit(
    draw: ImageDraw.ImageDraw, suit: Suit, box: Box, colour: tuple[int, int, int, int]
) -> None:
    if suit is Suit.HEARTS:
        draw.polygon(_heart(box), fill=colour)
    elif suit is Suit.SPADES:
        _spade(draw, box, colour)
    elif suit is Suit.CLUBS:
        _club(draw, box, colour)
    else:
        _diamond(draw, box, colour)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: float, height: float) -> int:
    """The font size at which ``text``'s ink is at most ``width`` x ``height``. Ink grows in
    proportion to the size: measured once at REFERENCE and scaled."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=_font(REFERENCE))
    return int(REFERENCE * min(width / (right - left), height / (bottom - top)))


def _rank(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: Box,
    colour: tuple[int, int, int, int],
    spill: float,
) -> None:
    """``text`` as large as fits ``box``, centred on its ink (not on the font's line box).
    A Q is fitted as if it were an O, its tail allowed ``spill`` pixels beyond the box at
    each end (a queen as tall as a king, not shrunk for its tail), clear of the suit below."""
    x0, y0, x1, y1 = box
    size = min(
        _fit(draw, text.replace("Q", "O"), x1 - x0, y1 - y0),
        _fit(draw, text, x1 - x0, y1 - y0 + 2 * spill),
    )
    font = _font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = (x0 + x1 - (right - left)) / 2 - left
    y = (y0 + y1 - (bottom - top)) / 2 - top
    draw.text((x, y), text, font=font, fill=colour)


def draw_face(card: Card, notation: str = "en", four_colour: bool = False) -> bytes:
    """The PNG of ``card``'s face in ``notation`` ("fr": R D V) and the chosen deck."""
    if card.suit is None:
        raise ValueError("the Joker has no drawn face: its sign is 🃏")
    colour = (FOUR_COLOUR if four_colour else TWO_COLOUR)[card.suit]
    return _drawn(rank_text(card, notation), card.suit, colour)


@cache
def _drawn(rank: str, suit: Suit, colour: tuple[int, int, int, int]) -> bytes:
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    unit = big / 128  # drawing in 128ths of the side
    edge = 5 * unit
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=18 * unit, fill=EDGE)
    draw.rounded_rectangle(
        (edge, edge, big - 1 - edge, big - 1 - edge), radius=14 * unit, fill=WHITE
    )
    # Rank on top, suit below, a small gap between. The suit is the taller part of the two
    # (issue 46: at 22 pixels a squat 10 x 9 suit left ♠ and ♣ as close as a 6 and an 8).
    x0, y0, x1, y1 = RANK_BOX
    _rank(draw, rank, (x0 * unit, y0 * unit, x1 * unit, y1 * unit), colour, SPILL * unit)
    x0, y0, x1, y1 = SUIT_BOX
    _suit(draw, suit, (x0 * unit, y0 * unit, x1 * unit, y1 * unit), colour)
    # Each pixel the mean of its SCALE x SCALE block: exact supersampling, and fast.
    small = image.resize((SIZE, SIZE), Image.Resampling.BOX)
    out = io.BytesIO()
    small.save(out, format="PNG")
    return out.getvalue()


#: The notations and decks a face is asked for in.
NOTATIONS: Final = ("en", "fr")
DECKS: Final = (False, True)


@cache
def faces() -> Mapping[str, Face]:
    """Every face, by key, drawn once per process (about a second)."""
    out: dict[str, Face] = {}
    for card in FULL_DECK:
        for notation in NOTATIONS:
            for four_colour in DECKS:
                key = face_key(card, notation, four_colour)
                if key not in out:
                    out[key] = Face(key, card, notation, draw_face(card, notation, four_colour))
    return out
