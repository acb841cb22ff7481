"""The score sheet's story as a picture: each player's score across the hands (Pillow, PNG).

The text score sheet stays next to it in the end message, for screen readers; the picture is
for people who would rather look. Pure: numbers and labels in, PNG bytes out.

Text is set in Source Sans Pro (SIL OFL 1.1), shipped by the ``font-source-sans-pro`` package
the project depends on: it covers French and the other Latin alphabets (and Greek, Cyrillic,
Vietnamese). A character it lacks, such as the 🤖 of a computer player's name, is left out
rather than drawn as an empty box; a name whose letters it lacks (Chinese, Japanese...) is shown
by the score sheet's short code for it.
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Collection, Sequence
from functools import cache
from importlib import resources
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from bot.words import clean

#: 16:9, large enough that Discord's preview on a phone (about 360 dp wide) keeps the text at
#: about 9 dp: a 30 px name drawn at 1200 px shrinks to a third.
WIDTH: Final = 1200
HEIGHT: Final = 675
MARGIN_LEFT: Final = 96  # room for the score ticks
MARGIN_RIGHT: Final = 370  # room for the legend
MARGIN_TOP: Final = 124  # the title and "lower is better"
MARGIN_BOTTOM: Final = 92  # the hand numbers and the axis label
TITLE_SIZE: Final = 44
TEXT_SIZE: Final = 30
TICK_SIZE: Final = 28
BACKGROUND: Final = (24, 60, 36)  # card-table green
GRID: Final = (58, 98, 70)
AXIS: Final = (210, 225, 214)
TEXT: Final = (240, 244, 240)
GOLD: Final = (255, 215, 0)  # the winner's star
MINUS: Final = "\u2212"  # the minus sign, as the text around the chart writes it
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
LEGEND_WIDTH: Final = MARGIN_RIGHT - 64  # pixels for a name beside its marker
LINE: Final = 36  # the legend's line height
FONT_PACKAGE: Final = "font_source_sans_pro"
#: A code point no font maps: what the font draws for a character it lacks (.notdef).
_UNMAPPED: Final = "\U0010fffd"

Font = ImageFont.FreeTypeFont


@cache
def _font_file(name: str) -> bytes:
    """A font file's bytes, read once: every size of it draws from the same copy (PIL keeps
    the bytes its font was read from; a copy per size held ~1.4 MB)."""
    return resources.files(FONT_PACKAGE).joinpath("files", name).read_bytes()


@cache
def _font(size: int, bold: bool = False) -> Font:
    name = "SourceSansPro-Bold.ttf" if bold else "SourceSansPro-Regular.ttf"
    # A BytesIO read whole from its start returns the very bytes it was given: shared.
    return ImageFont.truetype(io.BytesIO(_font_file(name)), size)


def _glyph(font: Font, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, bytes(mask)


@cache
def has_glyph(char: str, size: int = 14) -> bool:
    """Whether the chart's font draws ``char`` (rather than its .notdef box)."""
    if unicodedata.category(char).startswith("C"):  # controls and unassigned: never drawn
        return False
    font = _font(size)
    return _glyph(font, char) != _glyph(font, _UNMAPPED)


def drawable(text: str) -> str:
    """``text`` without the characters the font lacks (emoji, CJK...), spaces tidied.

    >>> drawable("🤖 Bot Normal"), drawable("Élodie Côté"), drawable("Le Neuf\xa0: scores")
    ('Bot Normal', 'Élodie Côté', 'Le Neuf\xa0: scores')
    """
    kept = "".join(c for c in unicodedata.normalize("NFC", text) if has_glyph(c))
    return re.sub(" {2,}", " ", kept).strip(" ")  # French no-break spaces kept as they are


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


def _star(x: float, y: float, r: float) -> list[tuple[float, float]]:
    """A five-pointed star's outline (the font has no ★)."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = math.pi / 2 + k * math.pi / 5
        points.append((x + radius * math.cos(angle), y - radius * math.sin(angle)))
    return points


def _marker(
    draw: ImageDraw.ImageDraw, kind: str, x: float, y: float, colour: tuple[int, ...]
) -> None:
    r = 8
    if kind == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour)
    elif kind == "diamond":
        draw.polygon([(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)], fill=colour)
    elif kind == "triangle":
        draw.polygon([(x, y - r - 2), (x + r + 2, y + r), (x - r - 2, y + r)], fill=colour)
    elif kind == "star":
        draw.polygon(_star(x, y, 16), fill=GOLD, outline=BACKGROUND)
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def signed(value: int) -> str:
    """A number as the text around the chart writes it: ``−2`` with the minus sign U+2212."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def legend_name(name: str, code: str) -> str:
    """What the legend calls a player: their name when the font draws every letter and digit
    of it (an emoji alone is left out: "🤖 Normal bot" is "Normal bot"), else the score sheet's
    short code for them, so a name in a script the font lacks is never a blank or a number.

    >>> legend_name("🤖 Normal bot", "NB"), legend_name("山田太郎", "P2"), legend_name("Zoé", "Zoé")
    ('Normal bot', 'P2', 'Zoé')
    """
    text = clean(name)  # as every message shows it: no control or invisible character
    letters = [c for c in text if unicodedata.category(c)[0] in "LN"]
    if letters and all(has_glyph(c) for c in letters):
        return drawable(text)
    return drawable(code) or code


def legend_names(names: Sequence[str], codes: Sequence[str]) -> list[str]:
    """``legend_name`` for every player, told apart: where two would read the same (``Alex🍕``
    and ``Alex🌮`` both drawn ``Alex``), each of them is shown by its short code instead.

    >>> legend_names(["Alex🍕", "Alex🌮", "Zoé"], ["Al1", "Al2", "Zoé"])
    ['Al1', 'Al2', 'Zoé']
    """
    shown = [legend_name(n, c) for n, c in zip(names, codes, strict=True)]
    seen = Counter(s.casefold() for s in shown)
    return [
        drawable(c) or c if seen[s.casefold()] > 1 else s for s, c in zip(shown, codes, strict=True)
    ]


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
    winners: Collection[int] = (),
    better: str = "",
    winner_label: str = "",
) -> bytes:
    """A line chart of cumulative scores: ``scores[k][u]`` is unit ``u``'s total after hand
    ``k + 1``; ``start`` the totals before the first hand. Returns PNG bytes.

    ``names`` as the legend shows them (see ``legend_name``); ``winners`` the units marked
    with a star (in the legend, with ``winner_label``, and at the end of their line);
    ``better`` says which way is better ("lower is better").

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
    text, ticks, big = _font(TEXT_SIZE), _font(TICK_SIZE), _font(TITLE_SIZE, bold=True)
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    points = max(1, len(scores))

    def x_at(k: int) -> float:
        return MARGIN_LEFT + plot_w * k / points

    def y_at(v: float) -> float:
        return MARGIN_TOP + plot_h * (high - v) / (high - low)

    draw.text(
        (MARGIN_LEFT, 16),
        _fit(draw, drawable(title), big, WIDTH - MARGIN_LEFT - 24),
        fill=TEXT,
        font=big,
    )
    if better:
        draw.text((MARGIN_LEFT, 72), drawable(better), fill=AXIS, font=text)
    for v in _ticks(low, high):
        y = y_at(v)
        draw.line((MARGIN_LEFT, y, MARGIN_LEFT + plot_w, y), fill=AXIS if v == 0 else GRID)
        draw.text((MARGIN_LEFT - 12, y), signed(v), fill=TEXT, font=ticks, anchor="rm")
    step = max(1, points // 12)
    for k in range(0, points + 1, step):
        x = x_at(k)
        draw.line((x, MARGIN_TOP, x, MARGIN_TOP + plot_h), fill=GRID)
        draw.text((x, MARGIN_TOP + plot_h + 8), str(k), fill=TEXT, font=ticks, anchor="ma")
    draw.text(
        (MARGIN_LEFT + plot_w / 2, HEIGHT - 22),
        drawable(axis_label),
        fill=TEXT,
        font=text,
        anchor="mm",
    )
    frame = (MARGIN_LEFT, MARGIN_TOP, MARGIN_LEFT + plot_w, MARGIN_TOP + plot_h)
    draw.rectangle(frame, outline=AXIS)
    legend_y = MARGIN_TOP + 12
    legend_x = WIDTH - MARGIN_RIGHT + 30
    for u, line in enumerate(series):
        colour = COLOURS[u % len(COLOURS)]
        xy = [(x_at(k), y_at(v)) for k, v in enumerate(line)]
        draw.line(xy, fill=colour, width=5, joint="curve")
        for x, y in xy:
            _marker(draw, MARKERS[u % len(MARKERS)], x, y, colour)
        # The legend: marker, name (one or two lines), the final score and the winner's star.
        _marker(draw, MARKERS[u % len(MARKERS)], legend_x, legend_y, colour)
        for part in _legend_lines(draw, drawable(names[u]), text):
            draw.text((legend_x + 24, legend_y), part, fill=TEXT, font=text, anchor="lm")
            legend_y += LINE
        draw.text((legend_x + 24, legend_y), signed(line[-1]), fill=TEXT, font=text, anchor="lm")
        if u in winners:
            star_x = legend_x + 24 + draw.textlength(signed(line[-1]), font=text) + 26
            _marker(draw, "star", star_x, legend_y, colour)
            if winner_label:
                label = drawable(winner_label)
                draw.text((star_x + 24, legend_y), label, fill=GOLD, font=text, anchor="lm")
        legend_y += LINE + 14
    for u in winners:  # on top of every line: the winner's last point
        last = series[u]
        _marker(draw, "star", x_at(len(last) - 1), y_at(last[-1]), COLOURS[u % len(COLOURS)])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
