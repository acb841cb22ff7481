"""Issue 38: the card faces in every message of a whole game, at the render level (the bot-level
games are tests/bot/test_card_faces_shown.py).

Every ruleset in both languages, both decks: every card button carries its application emoji
and its rank as label (a client that shows no custom emoji still reads the card), every card
of a trick, a last trick, a summary's tricks and the spare shows as its face, in the game's
notation; every message stays within Discord's limits, a message that would not fit with faces
reads as text; and without faces (the sync not done, or failed) everything reads as text.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.chat import card_words, face_key
from bot.table import build
from bot.words import card_label, tr
from cogs.nines import ids, render
from cogs.nines.render.cards import TEXT, CardStyle
from engine import Card, Game, Rules
from engine.cli import random_game

from .rendered_games import (
    CONTENT,
    DESCRIPTION,
    EMBED,
    FIELD,
    FIELD_NAME,
    FOOTER,
    TITLE,
    Shown,
    play,
    session_for,
    synced_faces,
)

FACES = CardStyle(synced_faces())
FOUR_COLOUR = CardStyle(synced_faces(), four_colour=True)
NAMES = [
    "Alexandre Tremblay-Gagnon du Lac",  # 32 characters, as long as a display name gets
    "Alexandra Tremblay-Gagnon du Lac",
    "山田太郎 ✨ Élodie Côté-Bélanger",
    "🤖 Normal bot",
]
#: A card written as text, in either notation: ``10♥``, ``D♠``, ``A♣``.
CARD_TEXT = re.compile(r"(?<![\w])(?:10|[2-9AKQJRDV])[♠♥♦♣]")
EMOJI = re.compile(r"<:([a-z0-9_]+_[0-9a-f]{6}):(\d+)>")
#: The lines that list cards played, in either language.
TRICK_LINES = re.compile(
    r"^(?:Current trick|Last trick|Trick \d+|Pli en cours|Dernier pli|Pli \d+)", re.M
)


def assert_within_limits(shown: Shown) -> None:
    embed = shown.embed
    if embed is not None:
        assert len(embed) <= EMBED, (shown.kind, len(embed))
        assert len(embed.title or "") <= TITLE and len(embed.description or "") <= DESCRIPTION
        assert all(len(f.name or "") <= FIELD_NAME for f in embed.fields)
        assert all(len(f.value or "") <= FIELD for f in embed.fields), shown.kind
        assert len(embed.footer.text or "") <= FOOTER
    if shown.content is not None:
        assert len(shown.content) <= CONTENT, (shown.kind, len(shown.content))


def card_buttons(shown: Shown) -> list[tuple[Card, dict[str, Any]]]:
    out = []
    for button in shown.buttons:
        fields = ids.PLAY.parse(button["custom_id"])
        if fields is not None:
            out.append((Card.parse(fields["card"]), button))
    return out


def trick_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if TRICK_LINES.match(line)]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("ruleset", ["classic", "partnership", "four-player", "nein-nine"])
def test_every_card_shows_its_face(ruleset: str, lang: str) -> None:
    # The four-colour deck in the French games, the usual one in the English ones.
    style = FOUR_COLOUR if lang == "fr" else FACES
    notation = lang  # one notation per game, the game's language, in every private hand too
    seen = {"button": 0, "trick": 0, "summary": 0, "spare": 0}
    for shown in play(ruleset, 11, NAMES, lang, style):
        assert_within_limits(shown)
        for card, button in card_buttons(shown):
            emoji = button.get("emoji")
            assert emoji is not None, button
            expected = style.button_emoji(card, notation)
            assert expected is not None and emoji == expected.to_dict()
            if card.suit is None:  # 🃏 and its word, the Joker's one sign (issue 46)
                assert emoji == {"name": "🃏", "id": None}
                assert button["label"] in (tr("en", "button.joker"), tr("fr", "button.joker"))
                continue
            # No label beside a face: the emoji's name says the card (issue 46).
            assert "label" not in button
            four = style.four_colour and card.suit.value in "DC"
            key = face_key(card, notation, style.four_colour)
            digest = "4c4c4c" if four else "0123ab"
            assert emoji["name"] == f"{card_words(card, notation)}_{digest}"
            assert key.endswith("_4c") == four
            seen["button"] += 1
        for text in shown.markdown:
            for line in trick_lines(text):
                assert not CARD_TEXT.search(line), line
                assert EMOJI.search(line) or "🃏" in line, line  # the Joker's sign alone
                seen["trick"] += 1
        if shown.kind == "summary":
            assert shown.embed is not None
            values = [f.value or "" for f in shown.embed.fields]
            assert values and all(EMOJI.search(v) for v in values)
            assert not any(CARD_TEXT.search(v) for v in values), values
            seen["summary"] += 1
            spare = [s for s in (shown.embed.description or "").split("\n") if "spare" in s]
            spare += [s for s in (shown.embed.description or "").split("\n") if "chômeur" in s]
            for line in spare:
                assert EMOJI.search(line) and not CARD_TEXT.search(line), line
                seen["spare"] += 1
        for text in shown.markdown:  # every face shown is one the sync uploaded
            for name, emoji_id in EMOJI.findall(text):
                assert name.endswith(("_0123ab", "_4c4c4c")) and len(emoji_id) == 19
    assert seen["button"] and seen["trick"] and seen["summary"], seen
    if ruleset == "classic":
        assert seen["spare"], seen


@pytest.mark.parametrize("ruleset", ["classic", "nein-nine"])
def test_without_faces_every_card_reads_as_text(ruleset: str) -> None:
    """The sync not done yet, or failed for good: today's text, labels with their suits."""
    buttons = 0
    for shown in play(ruleset, 5, NAMES, "fr", TEXT):
        assert_within_limits(shown)
        assert not any("<:" in text for text in shown.markdown), shown.kind
        for card, button in card_buttons(shown):
            if card.suit is not None:
                assert "emoji" not in button
                assert button["label"] == card_label(card, "fr")
            else:  # the Joker's sign, faces or not
                assert button["emoji"] == {"name": "🃏", "id": None}
            buttons += 1
    assert buttons


#: The longest game of each ruleset among a few hundred random ones (tests/bot/
#: test_readable_table.py): a summary's sheet is then at its longest, leaving its tricks the
#: least room of the embed's 6,000 characters.
LONGEST = [
    ("classic", {"start": "21"}, 349),
    ("four-player", {"start": "21"}, 5),
    ("nein-nine", {"rounds": "30", "limit": "30"}, 152),
]


@pytest.mark.parametrize(("ruleset", "settings", "seed"), LONGEST)
def test_the_longest_games_fit_with_faces(
    ruleset: str, settings: dict[str, str], seed: int
) -> None:
    rules = Rules.from_settings(ruleset, settings)
    game = random_game(rules, seed)
    replay = Game(rules, seed)
    session = session_for(replay, NAMES[: rules.players], "fr")
    faced = 0
    from bot.table import trick_of
    from engine import HandEnded

    for number, (seat, action) in enumerate(game.log):
        for event in replay.apply(seat, action):
            if isinstance(event, HandEnded):
                tricks = replay.hands_log[event.number - 1].tricks
                summary = render.hand_summary(
                    "fr",
                    build(session, None),
                    event,
                    [trick_of(t, rules.players) for t in tricks],
                    style=FACES,
                )
                assert_within_limits(Shown("summary", True, embed=summary))
                faced += any(EMOJI.search(f.value or "") for f in summary.fields)
        if number % 40 == 0 and not replay.over:
            table = render.table_embed("fr", build(session, None), shown_tricks=0, style=FACES)
            assert_within_limits(Shown("table", True, embed=table))
    end = render.end_embed("fr", build(session, None), [])
    assert_within_limits(Shown("end", True, embed=end))
    # Faces on most hands' tricks: a summary falls back to text only when its sheet is long.
    assert faced >= len(game.hands_log) // 2, (faced, len(game.hands_log))


def test_a_table_too_long_with_faces_reads_as_text() -> None:
    """A whole hand's tricks listed at once (a restart of a table no edit showed, computers
    playing on): ~46 characters a face would pass the description's 4,096: text instead."""
    game = Game(Rules.from_settings("four-player"), seed=5)
    while len(game.tricks) < 12:
        game.apply(game.turn, game.legal_actions(game.turn)[0])
    session = session_for(game, NAMES, "en")
    model = build(session, None)
    with_faces = render.table_embed("en", model, shown_tricks=0, style=FACES)
    as_text = render.table_embed("en", model, shown_tricks=0)
    assert len(with_faces.description or "") <= DESCRIPTION
    assert with_faces.description == as_text.description and "<:" not in str(as_text.description)
    # A table of one trick keeps its faces.
    shorter = render.table_embed("en", model, shown_tricks=11, style=FACES)
    assert EMOJI.search(shorter.description or "")


def test_a_hand_reads_the_games_notation_with_faces() -> None:
    """A French game read by an English speaker: the faces and ranks are the game's (R D V),
    and the hand's text says what the letters mean."""
    game = Game(Rules.from_settings("classic"), seed=2)
    session = session_for(game, NAMES[:3], "fr")
    seat = game.turn
    assert seat is not None
    model = build(session, seat)
    from cogs.nines import ui

    view = ui.hand_view("en", model, style=FACES)
    for row in view.rows:
        for button in row:
            fields = ids.PLAY.parse(button["custom_id"])
            if fields is None:
                continue
            card = Card.parse(fields["card"])
            if card.rank in (11, 12, 13):
                word = {12: "dame", 11: "valet", 13: "roi"}[card.rank]
                assert button["emoji"]["name"].startswith(f"{word}_de_")
    # The key, in the first hand, in the reader's words (issue 46, item 7).
    key = "French letters on the cards: R for king, D for queen and V for jack."
    assert key in render.hand_content("en", model, style=FACES)


def test_button_emoji_is_discords_partial_emoji_shape() -> None:
    """What Discord takes in a button (Message Components > Button: ``emoji``, a partial
    emoji with ``id`` and ``name``)."""
    emoji = FACES.button_emoji(Card.parse("QH"), "fr")
    assert isinstance(emoji, discord.PartialEmoji)
    assert emoji.to_dict() == {"name": "dame_de_coeur_0123ab", "id": emoji.id}
