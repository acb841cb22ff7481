"""Issue 38: the card faces (bot/card_faces.py) and the lookup the renderers use
(bot/emojis.CardFaces)."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from bot.card_faces import (
    BLUE,
    GREEN,
    RED,
    SIZE,
    draw_face,
    face_key,
    faces,
)
from bot.emojis import MAX_BYTES, OURS, CardFaces, Uploaded, emoji_name
from bot.i18n import card_label
from cogs.nines.setting_values import DEFAULTS, KEYS, SettingsInvalid, validate
from cogs.nines.settings import value_text
from engine import Card, Suit
from engine.cards import FULL_DECK, JOKER
from fakecord.app_emojis import NAME

EVERY_CARD = (*FULL_DECK, JOKER)
COURT = (11, 12, 13)


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def near(pixel: tuple[int, ...], colour: tuple[int, ...], within: int = 40) -> bool:
    return all(abs(a - b) <= within for a, b in zip(pixel[:3], colour[:3], strict=True))


def share(png: bytes, colour: tuple[int, ...]) -> float:
    """The part of the face's pixels drawn in ``colour``."""
    rgba = image(png).convert("RGBA")
    pixels = [rgba.getpixel((x, y)) for y in range(rgba.height) for x in range(rgba.width)]
    return sum(near(p, colour) for p in pixels) / len(pixels)


def test_every_card_of_both_decks_has_a_face_in_each_notation_and_deck():
    drawn = faces()
    for card in EVERY_CARD:
        for notation in ("en", "fr"):
            for four_colour in (False, True):
                assert face_key(card, notation, four_colour) in drawn
    # 52 cards + 12 French court cards + 16 four-colour clubs and diamonds (+ 6 of them
    # French) ... counted: 52 + 12 + (13 + 3) * 2 + the Joker.
    assert len(drawn) == 52 + 12 + 32 + 1 == 97


def test_faces_are_small_square_pngs_and_all_different():
    drawn = faces()
    digests = {face.digest for face in drawn.values()}
    assert len(digests) == len(drawn), "two faces drew the same picture"
    for face in drawn.values():
        assert face.png.startswith(b"\x89PNG\r\n\x1a\n")
        picture = image(face.png)
        assert picture.size == (SIZE, SIZE) == (128, 128)
        assert picture.mode == "RGBA"
        assert len(face.png) < MAX_BYTES // 20, (face.key, len(face.png))  # well under 256 KiB


def test_drawing_is_deterministic():
    for card in (Card.parse("TH"), Card.parse("QC"), JOKER):
        for notation, four_colour in (("en", False), ("fr", True)):
            first = draw_face(card, notation, four_colour)
            assert draw_face(card, notation, four_colour) == first
            assert faces()[face_key(card, notation, four_colour)].png == first


def test_notation_changes_only_the_court_cards():
    for card in FULL_DECK:
        for four_colour in (False, True):
            en, fr = face_key(card, "en", four_colour), face_key(card, "fr", four_colour)
            if card.rank in COURT:
                assert en != fr and fr.endswith(("_fr", "_fr_4c"))
                assert faces()[en].png != faces()[fr].png
            else:
                assert en == fr  # numbers and the ace: drawn once
    assert face_key(JOKER, "fr", True) == face_key(JOKER, "en", False) == "jk"
    # The rank drawn is the one the notation writes (R D V in French).
    assert card_label(Card.parse("KH"), "fr") == "R♥"


def test_four_colour_deck_recolours_clubs_green_and_diamonds_blue_only():
    for card in FULL_DECK:
        plain, four = face_key(card, "en", False), face_key(card, "en", True)
        if card.suit in (Suit.CLUBS, Suit.DIAMONDS):
            assert plain != four
        else:
            assert plain == four  # spades black and hearts red in both decks
    club, diamond = Card.parse("9C"), Card.parse("9D")
    assert share(faces()[face_key(club, "en", True)].png, GREEN) > 0.05
    assert share(faces()[face_key(club, "en", False)].png, GREEN) == 0
    assert share(faces()[face_key(diamond, "en", True)].png, BLUE) > 0.05
    assert share(faces()[face_key(diamond, "en", False)].png, RED) > 0.05
    assert share(faces()[face_key(diamond, "en", False)].png, BLUE) == 0


def test_emoji_names_follow_discords_rule_and_are_recognised_as_ours():
    names = [emoji_name(face) for face in faces().values()]
    assert len(set(names)) == len(names)
    for name in names:
        assert NAME.match(name) and 2 <= len(name) <= 32, name
        assert OURS.match(name), name
    assert not OURS.match("party_parrot") and not OURS.match("nines_logo")
    assert not OURS.match("nines_logo_deadbeef") and not OURS.match("nines_qh_fr_0123abc")


def test_card_faces_lookup_and_its_empty_fallback():
    queen = Card.parse("QD")
    key = face_key(queen, "fr", True)
    found = CardFaces({key: Uploaded("nines_qd_fr_4c_0123abcd", 42)})
    emoji = found.button_emoji(queen, "fr", four_colour=True)
    assert isinstance(emoji, discord.PartialEmoji)
    assert (emoji.name, emoji.id) == ("nines_qd_fr_4c_0123abcd", 42)
    assert found.inline(queen, "fr", True) == "<:nines_qd_fr_4c_0123abcd:42>"
    assert found.text(queen, "fr", True) == "<:nines_qd_fr_4c_0123abcd:42>"
    # Another notation or deck is another face: not uploaded here, so text.
    assert found.button_emoji(queen, "en", True) is None
    assert found.text(queen, "en", False) == "Q♦"
    empty = CardFaces.empty()
    assert not empty and len(found) == 1
    assert empty.button_emoji(queen, "en") is None and empty.inline(queen, "en") is None
    assert empty.text(queen, "fr") == "D♦" and empty.text(JOKER, "en") == "🃏"


def test_four_colour_is_a_server_setting():
    assert DEFAULTS["four_colour"] is False and "four_colour" in KEYS
    assert validate({"four_colour": "on"}) == {"four_colour": True}
    assert validate({"four_colour": "non"}, "fr") == {"four_colour": False}
    with pytest.raises(SettingsInvalid) as refusal:
        validate({"four_colour": "sometimes"})
    assert refusal.value.key == "settings.error.four_colour"
    assert value_text("fr", "four_colour", True) == "oui"


def test_docstring_examples():
    import doctest

    import bot.card_faces

    result = doctest.testmod(bot.card_faces)
    assert result.attempted > 0 and result.failed == 0
