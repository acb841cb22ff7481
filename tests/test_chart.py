"""bot/chat/chart.py: the end-of-game score chart is a real PNG that shows each player's line."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.chat import BACKGROUND, COLOURS, HEIGHT, MARGIN_RIGHT, MARGIN_TOP, WIDTH, score_chart


def image(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png))
    picture.load()
    return picture.convert("RGB")


def colours_in(picture: Image.Image) -> set[tuple[int, int, int]]:
    return {rgb for _count, rgb in picture.getcolors(maxcolors=WIDTH * HEIGHT) or []}


def test_a_nines_game_is_drawn_with_one_line_per_player() -> None:
    png = score_chart(
        ["alice", "bob", "carol"],
        [9, 9, 9],
        [[8, 9, 10], [6, 9, 11], [3, 8, 12], [0, 7, 12]],
        title="Nines: scores hand by hand",
        axis_label="Hand",
    )
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    picture = image(png)
    assert picture.size == (WIDTH, HEIGHT)
    seen = colours_in(picture)
    assert BACKGROUND in seen
    assert set(COLOURS[:3]) <= seen  # each player's line in its own colour
    assert COLOURS[3] not in seen  # and no fourth player


def test_nein_nine_scores_below_zero_and_a_partnership_of_two_units() -> None:
    png = score_chart(
        ["ann", "bo", "cy"],
        [0, 0, 0],
        [[3, -2, 1], [5, -6, 0], [9, -7, -1]],
        title="Nein Nine",
        axis_label="Round",
    )
    assert image(png).size == (WIDTH, HEIGHT)
    teams = score_chart(
        ["ann & cy", "bo & dee"], [9, 9], [[7, 11]], title="Nines", axis_label="Hand"
    )
    assert set(COLOURS[:2]) <= colours_in(image(teams))


def test_a_long_game_and_flat_scores_still_draw() -> None:
    rows = [[9 - (k % 5), 9 + (k % 3), 9] for k in range(60)]
    assert image(score_chart(["a", "b", "c"], [9, 9, 9], rows, title="t", axis_label="h"))
    flat = score_chart(["a", "b", "c"], [0, 0, 0], [[0, 0, 0]], title="t", axis_label="h")
    assert image(flat).size == (WIDTH, HEIGHT)


def test_names_and_scores_must_line_up() -> None:
    with pytest.raises(ValueError, match="one name"):
        score_chart(["a", "b"], [9, 9, 9], [], title="t", axis_label="h")
    with pytest.raises(ValueError, match="one name"):
        score_chart(["a", "b", "c"], [9, 9, 9], [[1, 2]], title="t", axis_label="h")


# -- every name drawn (issue 16) ----------------------------------------------------------------

NAMES = ("Élodie Côté", "Ærøskøbing", "🤖 Bot Normal")


def notdef(font: object) -> tuple[tuple[int, int], bytes]:
    """What the font draws for a code point it does not map (its .notdef box)."""
    return glyph(font, "\U0010fffd")


def glyph(font: object, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)  # type: ignore[attr-defined]
    return mask.size, bytes(mask)


def test_the_font_draws_french_and_other_latin_names_without_a_missing_glyph() -> None:
    from bot.chat.chart import _font, drawable, has_glyph

    font = _font(15)
    box = notdef(font)
    assert glyph(font, "\ue000") == box  # a private-use code point: also unmapped, same box
    latin = "Élodie Côté Ærøskøbing Łódź Řeřicha Şişli Đặng Ñúñez Œuvre Straße"
    for char in latin.replace(" ", ""):
        assert glyph(font, char) != box, f"{char!r} would be drawn as a box"
        assert has_glyph(char)
    # The check can fail: the robot face is not in the font, so it is left out, not boxed.
    assert glyph(font, "🤖") == box and not has_glyph("🤖")
    assert [drawable(n) for n in NAMES] == ["Élodie Côté", "Ærøskøbing", "Bot Normal"]
    assert drawable("🤖") == ""


def test_a_chart_with_accented_and_computer_names_writes_each_name() -> None:
    png = score_chart(
        list(NAMES),
        [9, 9, 9],
        [[8, 10, 9], [5, 12, 9]],
        title="Le Neuf : Élodie",
        axis_label="Manche",
    )
    picture = image(png)
    # The legend column holds the names: text pixels beside each of the three markers.
    legend = picture.crop((WIDTH - MARGIN_RIGHT + 50, MARGIN_TOP - 20, WIDTH, HEIGHT - 100))
    inked = sum(
        n
        for n, rgb in legend.getcolors(maxcolors=WIDTH * HEIGHT) or []
        if min(rgb) > 150 and max(rgb) - min(rgb) < 20  # near-white text, antialiased
    )
    assert inked > 300, inked


# -- readable on a phone, every name shown, the winner and the way to win (issue 29) -------------


def test_the_chart_is_large_enough_for_a_phone() -> None:
    from bot.chat import TEXT_SIZE

    assert (WIDTH, HEIGHT) == (1200, 675) and TEXT_SIZE >= 28  # about 9 dp once shrunk to 360


def test_a_name_the_font_cannot_draw_is_shown_by_its_sheet_code() -> None:
    from bot.chat import legend_name

    assert legend_name("山田太郎", "P2") == "P2"
    assert legend_name("🎉", "P3") == "P3"  # nothing but an emoji
    assert legend_name("🤖 Normal bot", "NB") == "Normal bot"  # the emoji alone left out
    assert legend_name("Élodie Côté", "Élo") == "Élodie Côté"


def test_a_legend_name_is_cleaned_and_two_that_draw_alike_keep_their_codes() -> None:
    """Issue 39: the chart shows names as every message does (no control or invisible
    character) and tells players apart; a name it cannot draw keeps its short code."""
    from bot.chat import legend_name, legend_names

    assert legend_name("Zo\u200be\u0301\x07\u202e", "Zoé") == "Zoé"
    assert legend_name("\u3164\u200b", "P1") == "P1"  # looks empty: its code
    assert legend_names(["Alex", "Alex (2)", "山田"], ["Al1", "Al2", "P3"]) == [
        "Alex",
        "Alex (2)",
        "P3",
    ]
    # both drawn "Alex" once the emoji is left out: each keeps its code
    assert legend_names(["Alex🍕", "alex🌮", "Zoé"], ["Al1", "Al2", "Zoé"]) == ["Al1", "Al2", "Zoé"]


def test_negative_scores_use_the_minus_sign() -> None:
    from bot.chat import signed

    assert [signed(v) for v in (-2, 0, 3)] == ["\u22122", "0", "3"]


def ink(picture: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    return sum(
        n for n, rgb in picture.crop(box).getcolors(maxcolors=WIDTH * HEIGHT) or [] if rgb == colour
    )


def test_the_winner_is_starred_and_the_way_to_win_is_written() -> None:
    from bot.chat import AXIS, GOLD

    args: dict[str, object] = {"title": "Nines", "axis_label": "Hand"}
    rows = [[8, 10, 9], [5, 12, 9]]
    plain = image(score_chart(["ann", "bob", "cy"], [9, 9, 9], rows, **args))  # type: ignore[arg-type]
    marked = image(
        score_chart(
            ["ann", "bob", "cy"],
            [9, 9, 9],
            rows,
            winners={0},
            better="↓ lower is better",
            winner_label="winner",
            **args,  # type: ignore[arg-type]
        )
    )
    whole = (0, 0, WIDTH, HEIGHT)
    assert ink(plain, whole, GOLD) == 0 and ink(marked, whole, GOLD) > 500
    under_title = (0, 70, WIDTH // 2, 118)  # "lower is better", in the axis colour
    assert ink(marked, under_title, AXIS) > 50 and ink(plain, under_title, AXIS) == 0


def test_the_end_of_game_chart_gets_codes_winners_and_direction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from bot.game.session import SeatInfo
    from bot.table import build
    from cogs.nines import render
    from engine import Rules
    from engine.cli import random_game

    seen: dict[str, object] = {}

    def capture(names: list[str], *args: object, **kwargs: object) -> bytes:
        seen.update(kwargs, names=names)
        return b""

    monkeypatch.setattr(render.sheet, "score_chart", capture)
    for ruleset, lang, better in (("classic", "fr", "↓"), ("nein-nine", "en", "↑")):
        rules = Rules.from_settings(ruleset)
        game = random_game(rules, 5)
        names = ["山田太郎", "Élodie Côté", "🤖 Robot normal"]
        seats = [
            SeatInfo(n, user_id=None if "🤖" in n else 10**17 + i) for i, n in enumerate(names)
        ]
        session = SimpleNamespace(
            id=7,
            game=game,
            seats=seats,
            rules=rules,
            language=lang,
            host_id=None,
            status="finished",
            deadline=None,
        )
        render.score_chart_png(lang, build(session, None))
        assert seen["names"] == ["J1" if lang == "fr" else "P1", "Élodie Côté", "Robot normal"]
        assert seen["winners"] == set(game.winners or ())
        assert str(seen["better"]).startswith(better)
        assert "#" not in " ".join(seen["names"])  # type: ignore[arg-type]


def test_docstring_examples() -> None:
    import doctest

    import bot.chat.chart

    result = doctest.testmod(bot.chat.chart)
    assert result.attempted >= 4 and result.failed == 0
