"""The score sheet's story as a picture: each player's score across the hands (Pillow, PNG).

The text score sheet stays next to it in the end message, for screen readers; the picture is
for people who would rather look. Pure: numbers and labels in, PNG bytes out.

Text is set in Source Sans Pro (SIL OFL 1.1), shipped by the ``font-source-sans-pro`` package
the project depends on: it covers French and the other Latin alphabets (and Greek, Cyrillic,
Vietnamese). A character it lacks, such as the 🤖 of a computer player's name, is left out
rather than drawn as an empty box.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Final

from PIL import Image, ImageDraw, ImageFont

WIDTH: Final = 800
HEIGHT: Final = 450
MARGIN_LEFT: Final = 56
MARGIN_RIGHT: Final = 180  # room for the legend
MARGIN_TOP: Final = 56
MARGIN_BOTTOM: Final = 44
BACKGROUND: Final = (24, 60, 36)  # card-table green
GRID: Final = (58, 98, 70)
AXIS: Final = (210, 225, 214)
TEXT: Final = (240, 244, 240)
#: Line colours that stay apart for the common colour-vision deficiencies (Okabe-Ito).
COLOURS: Final = (
    (230, 159, 0),
    (86, 180, 233),
    (240, 228, 66),
    (204, 121, 167),
    (0, 158, 115),
    (213, 94, 0),
)
MARKERS: Final = ("circle", "square", "diamond", "triangle", "circle", "square")
LEGEND_WIDTH: Final = MARGIN_RIGHT - 40  # pixels for a name beside its marker
FONT_PACKAGE: Final = "font_source_sans_pro"
#: A code point no font maps: what the font draws for a character it lacks (.notdef).
_UNMAPPED: Final = "\U0010fffd"

Font = ImageFont.FreeTypeFont


@cache
def _font(size: int, bold: bool = False) -> Font:
    name = "SourceSansPro-Bold.ttf" if bold else "SourceSansPro-Regular.ttf"
    data = resources.files(FONT_PACKAGE).joinpath("files", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def _glyph(font: Font, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


@cache
def has_glyph(char: str, size: int = 14) -> bool:
    """Whether the chart's font draws ``char`` (rather than its .notdef box)."""
    if unicodedata.category(char).startswith(("Z", "C")):  # spaces and controls: no ink
        return char == " "
    font = _font(size)
    return _glyph(font, char) != _glyph(font, _UNMAPPED)


def drawable(text: str) -> str:
    """``text`` without the characters the font lacks (emoji, CJK...), spaces tidied.

    >>> drawable("🤖 Bot Normal"), drawable("Élodie Côté")
    ('Bot Normal', 'Élodie Côté')
    """
    kept = "".join(c for c in unicodedata.normalize("NFC", text) if has_glyph(c))
    return " ".join(kept.split())


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels, if it is wider."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _legend_lines(draw: ImageDraw.ImageDraw, name: str, font: Font) -> list[str]:
    """A name on one line, or on two split at a space when it is too wide (so two long
    names differing only at the end both stay whole as long as they can)."""
    if draw.textlength(name, font=font) <= LEGEND_WIDTH or " " not in name:
        return [_fit(draw, name, font, LEGEND_WIDTH)]
    words = name.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if draw.textlength(first, font=font) <= LEGEND_WIDTH:
            return [first, _fit(draw, " ".join(words[cut:]), font, LEGEND_WIDTH)]
    return [_fit(draw, name, font, LEGEND_WIDTH)]


def _marker(
    draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, colour: tuple[int, ...]
) -> None:
    r = 5
    if kind == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour)
    elif kind == "diamond":
        draw.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill=colour)
    elif kind == "triangle":
        draw.polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], fill=colour)
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def _ticks(low: int, high: int) -> list[int]:
    span = max(1, high - low)
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100) if span / s <= 10)
    first = low - low % step
    return [v for v in range(first, high + step, step) if low <= v <= high]


def score_chart(
    names: Sequence[str],
    start: Sequence[int],
    scores: Sequence[Sequence[int]],
    *,
    title: str,
    axis_label: str,
) -> bytes:
    """A line chart of cumulative scores: ``scores[k][u]`` is unit ``u``'s total after hand
    ``k + 1``; ``start`` the totals before the first hand. Returns PNG bytes.

    >>> png = score_chart(["Ann", "Bob"], [9, 9], [[8, 10], [6, 11]], title="t", axis_label="h")
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    if len(names) != len(start) or any(len(row) != len(start) for row in scores):
        raise ValueError("one name, one start and one score per hand for every player")
    series = [[start[u], *(row[u] for row in scores)] for u in range(len(start))]
    values = [v for line in series for v in line]
    low, high = min([*values, 0]), max([*values, 0])
    if low == high:
        high = low + 1
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, big = _font(15), _font(20, bold=True)
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    points = max(1, len(scores))

    def x_at(k: int) -> float:
        return MARGIN_LEFT + plot_w * k / points

    def y_at(v: float) -> float:
        return MARGIN_TOP + plot_h * (high - v) / (high - low)

    draw.text(
        (MARGIN_LEFT, 12),
        _fit(draw, drawable(title), big, WIDTH - 2 * MARGIN_LEFT),
        fill=TEXT,
        font=big,
    )
    for v in _ticks(low, high):
        y = y_at(v)
        draw.line((MARGIN_LEFT, y, MARGIN_LEFT + plot_w, y), fill=AXIS if v == 0 else GRID)
        draw.text((MARGIN_LEFT - 8, y), str(v), fill=TEXT, font=small, anchor="rm")
    step = max(1, points // 15)
    for k in range(0, points + 1, step):
        x = x_at(k)
        draw.line((x, MARGIN_TOP, x, MARGIN_TOP + plot_h), fill=GRID)
        draw.text((x, MARGIN_TOP + plot_h + 6), str(k), fill=TEXT, font=small, anchor="ma")
    draw.text(
        (MARGIN_LEFT + plot_w / 2, HEIGHT - 11),
        drawable(axis_label),
        fill=TEXT,
        font=small,
        anchor="mm",
    )
    frame = (MARGIN_LEFT, MARGIN_TOP, MARGIN_LEFT + plot_w, MARGIN_TOP + plot_h)
    draw.rectangle(frame, outline=AXIS)
    legend_y = MARGIN_TOP + 10
    legend_x = WIDTH - MARGIN_RIGHT + 20
    for u, line in enumerate(series):
        colour = COLOURS[u % len(COLOURS)]
        xy = [(x_at(k), y_at(v)) for k, v in enumerate(line)]
        draw.line(xy, fill=colour, width=3, joint="curve")
        for x, y in xy:
            _marker(draw, MARKERS[u % len(MARKERS)], x, y, colour)
        # The legend: marker, name (one or two lines), and the final score under it.
        _marker(draw, MARKERS[u % len(MARKERS)], legend_x, legend_y, colour)
        name = drawable(names[u]) or f"#{u + 1}"
        for text in [*_legend_lines(draw, name, small), str(line[-1])]:
            draw.text((legend_x + 14, legend_y), text, fill=TEXT, font=small, anchor="lm")
            legend_y += 18
        legend_y += 12
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
