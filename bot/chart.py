"""The score sheet's story as a picture: each player's score across the hands (Pillow, PNG).

The text score sheet stays next to it in the end message, for screen readers; the picture is
for people who would rather look. Pure: numbers and labels in, PNG bytes out.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
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

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int) -> Font:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # a Pillow without FreeType: the small bitmap font
        return ImageFont.load_default()


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
    small, big = _font(14), _font(20)
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    points = max(1, len(scores))

    def x_at(k: int) -> float:
        return MARGIN_LEFT + plot_w * k / points

    def y_at(v: float) -> float:
        return MARGIN_TOP + plot_h * (high - v) / (high - low)

    draw.text((MARGIN_LEFT, 12), title, fill=TEXT, font=big)
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
        (MARGIN_LEFT + plot_w / 2, HEIGHT - 18), axis_label, fill=TEXT, font=small, anchor="mm"
    )
    frame = (MARGIN_LEFT, MARGIN_TOP, MARGIN_LEFT + plot_w, MARGIN_TOP + plot_h)
    draw.rectangle(frame, outline=AXIS)
    for u, line in enumerate(series):
        colour = COLOURS[u % len(COLOURS)]
        xy = [(x_at(k), y_at(v)) for k, v in enumerate(line)]
        draw.line(xy, fill=colour, width=3, joint="curve")
        for x, y in xy:
            _marker(draw, MARKERS[u % len(MARKERS)], x, y, colour)
        legend_y = MARGIN_TOP + 10 + 28 * u
        legend_x = WIDTH - MARGIN_RIGHT + 20
        _marker(draw, MARKERS[u % len(MARKERS)], legend_x, legend_y, colour)
        label = f"{names[u][:14]}  {line[-1]}"
        draw.text((legend_x + 14, legend_y), label, fill=TEXT, font=small, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
