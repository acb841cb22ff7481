"""Card faces at the size Discord shows them (a script, not a test): how far apart the suits are,
how far apart the inks are for a deuteranope, and a contact sheet to look at.

    .venv/bin/python bench/card_faces.py [--sheet faces.png]

Suits: every face is drawn (bot/chat/card_faces.py), scaled to 22 x 22 pixels (an emoji in a button
or a line of text on a 1x desktop, Discord's emoji size) and laid on Discord's dark background;
for each pair of suits, the mean absolute difference of the pixels (RGB, 0 to 1) in the suit
zone, the face's lower part (rows 11 to 21 of 22), averaged over the thirteen ranks of one
notation and deck. The zone is fixed, so a larger suit is measured in the same place as before.
Colour is left out of the suit figures (the faces are compared in grey), so ♠/♣ and ♥/♦, which
share an ink, are measured on their shape alone, like the other pairs.

Inks: each suit's ink simulated for deuteranopia (Machado, Oliveira and Fernandes 2009, severity
1.0, on linear RGB), and the CIE ΔE 2000 between each pair, normal and simulated.
"""

from __future__ import annotations

import argparse
import io
import sys
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.chat import FOUR_COLOUR, draw_face  # noqa: E402
from engine import Card, Suit  # noqa: E402

SHOWN = 22  # Discord's emoji size in a button and in text, in pixels
ZONE = (0, 11, 22, 22)  # the suit's part of the face at that size (left, top, right, bottom)
DARK = (49, 51, 56)  # Discord's dark theme behind a message
LIGHT = (255, 255, 255)
RANKS = "23456789TJQKA"
#: Machado et al. 2009, deuteranomaly at severity 1.0 (linear RGB).
DEUTAN = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)


def shown(card: Card, four_colour: bool, background: tuple[int, int, int]) -> Image.Image:
    face = Image.open(io.BytesIO(draw_face(card, "en", four_colour))).convert("RGBA")
    small = face.resize((SHOWN, SHOWN), Image.Resampling.LANCZOS)
    out = Image.new("RGBA", small.size, (*background, 255))
    out.alpha_composite(small)
    return out.convert("RGB")


def zone_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute pixel difference (0 to 1) in the suit zone, in grey."""
    za, zb = a.crop(ZONE).convert("L"), b.crop(ZONE).convert("L")
    pa, pb = za.tobytes(), zb.tobytes()
    return sum(abs(x - y) for x, y in zip(pa, pb, strict=True)) / (255 * len(pa))


def suit_pairs() -> dict[str, float]:
    out = {}
    for s, t in combinations(Suit, 2):
        diffs = [
            zone_difference(
                shown(Card.parse(r + s.value), False, DARK),
                shown(Card.parse(r + t.value), False, DARK),
            )
            for r in RANKS
        ]
        out[f"{s.symbol}/{t.symbol}"] = sum(diffs) / len(diffs)
    return out


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def deuteranope(rgb: tuple[int, ...]) -> tuple[float, float, float]:
    lin = [_linear(c) for c in rgb[:3]]
    r, g, b = (sum(m * c for m, c in zip(row, lin, strict=True)) for row in DEUTAN)
    return (_gamma(r), _gamma(g), _gamma(b))


def lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e2000(c1: tuple[float, ...], c2: tuple[float, ...]) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005) between two sRGB colours."""
    import math

    l1, a1, b1 = lab(c1)
    l2, a2, b2 = lab(c2)
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb**7 / (cb**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lb, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hb = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hb = (h1p + h2p) / 2
    else:
        hb = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hb - 30))
        + 0.24 * math.cos(math.radians(2 * hb))
        + 0.32 * math.cos(math.radians(3 * hb + 6))
        - 0.20 * math.cos(math.radians(4 * hb - 63))
    )
    sl = 1 + 0.015 * (lb - 50) ** 2 / math.sqrt(20 + (lb - 50) ** 2)
    sc, sh = 1 + 0.045 * cbp, 1 + 0.015 * cbp * t
    rt = (
        -2
        * math.sqrt(cbp**7 / (cbp**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((hb - 275) / 25) ** 2))))
    )
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


def ink_pairs() -> list[tuple[str, float, float]]:
    inks = {s.symbol: FOUR_COLOUR[s] for s in Suit}
    return [
        (
            f"{a}/{b}",
            delta_e2000(inks[a], inks[b]),
            delta_e2000(deuteranope(inks[a]), deuteranope(inks[b])),
        )
        for a, b in combinations(inks, 2)
    ]


def contact_sheet(path: Path) -> None:
    """Every rank of every suit at 22 px, in both decks, on dark and light, beside each
    of Discord's button colours."""
    from engine.cards import JOKER

    backgrounds = [DARK, LIGHT, (88, 101, 242), (218, 55, 60), (36, 128, 70), (78, 80, 88)]
    cards = [Card.parse(r + s.value) for s in Suit for r in RANKS] + [JOKER]
    rows = [(bg, deck) for bg in backgrounds for deck in (False, True)]
    step = SHOWN + 4
    sheet = Image.new("RGB", (step * len(cards) + 4, step * len(rows) + 4), (128, 128, 128))
    for y, (bg, deck) in enumerate(rows):
        for x, card in enumerate(cards):
            tile = Image.new("RGB", (step, step), bg)
            if card.suit is not None:
                tile.paste(shown(card, deck, bg), (2, 2))
            sheet.paste(tile, (2 + x * step, 2 + y * step))
    sheet.save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheet", type=Path, help="write a contact sheet PNG here")
    args = parser.parse_args()
    print(f"mean pixel difference in the suit zone at {SHOWN} px (grey, dark background):")
    for pair, value in sorted(suit_pairs().items(), key=lambda kv: kv[1]):
        print(f"  {pair}  {value:.3f}")
    print("four-colour inks, CIE ΔE2000: normal vision, deuteranope (Machado 2009, 1.0):")
    for pair, normal, deutan in ink_pairs():
        print(f"  {pair}  {normal:5.1f}  {deutan:5.1f}")
    if args.sheet:
        contact_sheet(args.sheet)
        print(f"contact sheet: {args.sheet}")


if __name__ == "__main__":
    main()
