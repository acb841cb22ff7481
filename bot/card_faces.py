"""Our own card faces, drawn with Pillow: rank over suit on a white card, one PNG per face.

Discord shows an emoji at 22 pixels in a button and in a line of text (on a phone too), so a
face carries only what reads at that size: the rank, as large as the square allows, and the
suit drawn as a plain shape below it, in a strong colour on white, with a dark edge so the card
stands out on the dark theme and on the light one. Faces are drawn at 128 x 128, the size
Discord's docs give for an emoji image (Emoji > Create Application Emoji: "the 128x128 emoji
image"), four times larger first and scaled down, so the edges are smooth.

Which faces there are (``faces()``): every card of the 52-card deck and Nein Nine's Joker,
in both notations (K Q J, and the French R D V: number ranks and the ace look the same in both
and are drawn once), in the standard two-colour deck and in the four-colour deck. The
four-colour deck follows the usual convention of four-colour poker decks: spades black, hearts
red, diamonds blue, clubs green. Spades and hearts are the same in both decks and are drawn
once; so is the Joker. That is 52 + 12 French court cards + 16 + 16 four-colour clubs and
diamonds + the Joker = 97 faces.

The drawing is pure and deterministic: the same card, notation and deck give the same PNG
bytes (with the same Pillow and FreeType), so a face's content hash names it (bot/emojis.py).
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
from engine.cards import FULL_DECK, JOKER

from .i18n import card_label

#: The emoji image's side in pixels (Discord's docs: "the 128x128 emoji image").
SIZE: Final = 128
#: Drawn this many times larger, then scaled down: smooth edges, the same bytes every time.
SCALE: Final = 4
FONT_PACKAGE: Final = "font_source_sans_pro"
#: Heavier than the score chart's Bold: at 22 pixels a stroke of Black is about 2 pixels wide.
FONT_FILE: Final = "SourceSansPro-Black.ttf"
REFERENCE: Final = 200  # the font size a rank is measured at before it is fitted
SPILL: Final = 3  # 128ths of the side a Q's ink may pass its box by, above and below

WHITE: Final = (255, 255, 255, 255)
EDGE: Final = (60, 64, 72, 255)  # the card's edge: visible on Discord's light and dark themes
BLACK: Final = (17, 17, 17, 255)
RED: Final = (206, 17, 38, 255)
BLUE: Final = (0, 84, 190, 255)  # four-colour diamonds
GREEN: Final = (0, 128, 52, 255)  # four-colour clubs
JOKER_COLOUR: Final = (106, 27, 154, 255)  # purple: no suit's colour

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
    """The face ``card`` shows in ``notation`` and that deck: one key per distinct image, so
    cards that look the same in both notations or both decks share it. Lower case letters,
    digits and ``_`` (it goes into an emoji's name): ``9h``, ``qs_fr``, ``tc_4c``, ``jk``.

    >>> from engine import Card
    >>> face_key(Card.parse("QD"), "fr", True), face_key(Card.parse("9S"), "fr", True)
    ('qd_fr_4c', '9s')
    """
    if card.suit is None:
        return "jk"
    key = card.code.lower()
    if rank_text(card, notation) != rank_text(card, "en"):
        key += "_fr"
    if four_colour and card.suit in RECOLOURED:
        key += "_4c"
    return key


@dataclass(frozen=True, slots=True)
class Face:
    """One drawn face: its key (``face_key``) and its PNG."""

    key: str
    png: bytes

    @property
    def digest(self) -> str:
        """The PNG's content hash (SHA-256, hex): a changed drawing gets a new one."""
        return hashlib.sha256(self.png).hexdigest()


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    data = resources.files(FONT_PACKAGE).joinpath("files", FONT_FILE).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


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
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    body = (x0, y0, x1, y0 + h * 0.80)
    # An upside-down heart makes the blade.
    flipped = [(x, body[1] + body[3] - y) for x, y in _heart(body)]
    draw.polygon(flipped, fill=colour)
    cx = (x0 + x1) / 2
    draw.polygon([(cx, y0 + h * 0.55), (cx - w * 0.20, y1), (cx + w * 0.20, y1)], fill=colour)


def _club(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w * 0.25
    cx = (x0 + x1) / 2
    centres = ((cx, y0 + r), (x0 + r, y0 + h * 0.56), (x1 - r, y0 + h * 0.56))
    for x, y in centres:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    draw.polygon(
        [(cx, y0 + h * 0.35), (cx - w * 0.14, y0 + h * 0.62), (cx + w * 0.14, y0 + h * 0.62)],
        fill=colour,
    )
    draw.polygon([(cx, y0 + h * 0.50), (cx - w * 0.20, y1), (cx + w * 0.20, y1)], fill=colour)


def _diamond(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=colour)


def _star(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + (y1 - y0) * 0.04
    outer = min(x1 - x0, y1 - y0) / 2
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=colour)


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
    big = SIZE * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    unit = big / 128  # drawing in 128ths of the side
    edge = 5 * unit
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=18 * unit, fill=EDGE)
    draw.rounded_rectangle(
        (edge, edge, big - 1 - edge, big - 1 - edge), radius=14 * unit, fill=WHITE
    )
    if card.suit is None:
        _star(draw, (14 * unit, 12 * unit, 114 * unit, 112 * unit), JOKER_COLOUR)
    else:
        colour = (FOUR_COLOUR if four_colour else TWO_COLOUR)[card.suit]
        # Rank on top, suit below: both as large as the square allows, a small gap between.
        _rank(
            draw,
            rank_text(card, notation),
            (10 * unit, 9 * unit, 118 * unit, 64 * unit),
            colour,
            SPILL * unit,
        )
        _suit(draw, card.suit, (33 * unit, 69 * unit, 95 * unit, 120 * unit), colour)
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
    """Every distinct face, by key, drawn once per process (about a second)."""
    out: dict[str, Face] = {}
    for card in (*FULL_DECK, JOKER):
        for notation in NOTATIONS:
            for four_colour in DECKS:
                key = face_key(card, notation, four_colour)
                if key not in out:
                    out[key] = Face(key, draw_face(card, notation, four_colour))
    return out
