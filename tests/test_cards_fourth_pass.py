"""Issue 46, "Cards and table, fourth pass", the chat half: one test per item, and whole games
of each ruleset in both languages with faces on, checked as a phone and a screen reader meet
them: no row of card buttons mixes suits where the suits fit, every card button is said as the
card, no button of the four-colour deck contradicts its face, and no row is wider than a
phone's (the estimate in ``cogs/nines/ui.py``)."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot.chat import RANK_WORDS, SUIT_WORDS
from bot.table import build, trick_of
from bot.words import tr
from cogs.nines import ids, render, ui
from cogs.nines.render.cards import CardStyle
from cogs.nines.render.words import spits_text
from engine import Card, Game, HandEnded, Rules, Suit

from .rendered_games import Shown, play, session_for, synced_faces

FACES = CardStyle(synced_faces())
FOUR = CardStyle(synced_faces(), four_colour=True)
NAMES = ["Élodie Côté", "Alexandre", "🤖 Max", "🤖 Gaston"]
B = discord.ButtonStyle


def card_of(button: dict[str, Any]) -> Card | None:
    fields = ids.PLAY.parse(button["custom_id"])
    return None if fields is None else Card.parse(fields["card"])


def said_as_the_card(card: Card, said: str, notation: str) -> bool:
    """Whether a screen reader's words for a button name ``card``: its rank and suit in
    words (the face's emoji name), or the card as text (``D♠``) without a face."""
    if card.suit is None:
        return "Joker" in said
    if said.endswith(card.suit.symbol):
        return True
    rank = RANK_WORDS[notation].get(card.rank, str(card.rank))
    suit = SUIT_WORDS[notation][card.suit.value]
    return said.split() == [rank, "of" if notation == "en" else "de", suit]


def check_hand(shown: Shown, notation: str, style: CardStyle) -> int:
    """The checks of a hand's buttons; how many card buttons were checked."""
    checked = 0
    card_rows = [[(card_of(b), b) for b in row] for row in shown.rows]
    card_rows = [row for row in card_rows if all(c is not None for c, _ in row)]
    cards = [c for row in card_rows for c, _ in row if c is not None]
    suits = {c.suit for c in cards if c.suit is not None}
    fits = len(card_rows) <= ui.ROWS - 1 and all(
        sum(1 for c in cards if c.suit is s) <= ui.ROW_CARDS * 2 for s in suits
    )
    per_suit = sum(-(-sum(1 for c in cards if c.suit is s) // ui.ROW_CARDS) for s in suits)
    for row in shown.rows:  # no row wraps on a phone
        assert ui.row_width(row) <= ui.PHONE_ROW_DP, [b.get("label") for b in row]
        assert len(row) <= 5
    if fits and per_suit <= ui.ROWS - 1:  # the suits fit: no row mixes them
        for row in card_rows:
            assert len({c.suit for c, _ in row if c is not None and c.suit is not None}) == 1
    for row in card_rows:
        for card, button in row:
            assert card is not None
            assert said_as_the_card(card, ui.spoken(button), notation), ui.spoken(button)
            if style.four_colour and not button["disabled"]:
                # The four-colour deck: the button is its suit's ink, or neutral grey.
                allowed = {B.secondary.value}
                if card.suit is not None:
                    allowed.add(ui.FOUR_COLOUR_STYLES[card.suit].value)
                assert button["style"] in allowed, (card, button["style"])
            checked += 1
    return checked


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("ruleset", ["classic", "partnership", "four-player", "nein-nine"])
@pytest.mark.parametrize("style", [FACES, FOUR], ids=["two-colour", "four-colour"])
def test_a_whole_game_reads_well_on_a_phone_and_to_a_screen_reader(
    ruleset: str, lang: str, style: CardStyle
) -> None:
    checked = 0
    for shown in play(ruleset, 7, NAMES, lang, style, computers=2):
        if shown.kind == "hand":
            checked += check_hand(shown, lang, style)
    assert checked > 20


def test_without_faces_a_card_button_is_the_card_as_text() -> None:
    """Item 3: a person who prefers text cards (or no faces yet): the label is the card."""
    for shown in play("nein-nine", 3, NAMES, "fr", computers=1):
        if shown.kind == "hand":
            assert check_hand(shown, "fr", CardStyle(synced_faces().empty())) >= 0
            for button in shown.buttons:
                card = card_of(button)
                if card is not None and card.suit is not None:
                    assert button["label"].endswith(card.suit.symbol)


# -- item 1: the button's colour follows the deck -------------------------------------------------


def test_item_1_the_four_colour_deck_colours_the_buttons_as_its_faces() -> None:
    two = {s: ui.card_style(Card.parse(f"9{s.value}"), False) for s in Suit}
    four = {s: ui.card_style(Card.parse(f"9{s.value}"), True) for s in Suit}
    assert two == {Suit.SPADES: B.primary, Suit.HEARTS: B.danger} | {
        Suit.DIAMONDS: B.danger,
        Suit.CLUBS: B.primary,
    }
    assert four == {
        Suit.SPADES: B.secondary,
        Suit.HEARTS: B.danger,
        Suit.DIAMONDS: B.primary,
        Suit.CLUBS: B.success,
    }
    joker = Card.parse("JK")
    assert ui.card_style(joker, False) is B.success and ui.card_style(joker, True) is B.secondary
    assert ui.card_style(Card.parse("9C"), True, playable=False) is B.secondary


# -- item 4: rows per suit --------------------------------------------------------------------


def test_item_4_a_row_per_suit_and_chunks_only_when_the_suits_do_not_fit() -> None:
    hand = [Card.parse(c) for c in ["AS", "KS", "2H", "3H", "4H", "5H", "6H", "9C"]]
    rows = ui.card_rows(hand, [c.code for c in hand], 4)
    assert rows == [["AS", "KS"], ["2H", "3H", "4H", "5H"], ["6H"], ["9C"]]
    codes = ["AS", "KS", "QS", "JS", "TS", "2H", "3H", "4H", "5H", "6H", "9C", "8D", "7D"]
    long = [Card.parse(c) for c in codes]
    rows = ui.card_rows(long, [c.code for c in long], 4)  # 2 + 2 + 1 + 1 rows: chunks
    assert [len(r) for r in rows] == [4, 4, 4, 1]
    # Every Nein Nine hand fits: seven cards, the Joker in a row with room.
    rng = random.Random(4)
    deck = [Card.parse(f"{r}{s}") for r in "789TJ" for s in "SHDC"] + [Card.parse("JK")]
    for _ in range(300):
        seven = sorted(rng.sample(deck, 7), key=lambda c: (c.suit is None, str(c.suit), c.rank))
        rows = ui.card_rows(seven, seven, 4)
        assert len(rows) <= 4
        for row in rows:
            assert len({c.suit for c in row if c.suit is not None}) <= 1


def test_item_4_the_choices_and_refresh_fit_a_phone_in_both_languages() -> None:
    for lang in ("en", "fr"):
        for choices in (("keep", "swap"), ("joker_win", "joker_lose")):
            row = [ui.button(f"x{c}", tr(lang, f"button.{c}")) for c in choices]
            assert ui.row_width(row) <= ui.PHONE_ROW_DP, (lang, choices)
        assert ui.row_width([ui.button("r", tr(lang, "button.refresh"))]) <= ui.PHONE_ROW_DP


# -- item 5: one sign for the Joker -----------------------------------------------------------


def test_item_5_the_joker_is_one_sign_everywhere() -> None:
    joker = Card.parse("JK")
    for style in (FACES, FOUR, CardStyle(synced_faces().empty())):
        emoji = style.button_emoji(joker, "en")
        assert emoji is not None and str(emoji) == "🃏"
        assert style.text(joker, "fr") == "🃏"
    assert tr("en", "button.joker") == "Joker" and "🃏" not in tr("fr", "button.joker")


# -- items 6 and 12: the Spits, one wording; French in running text ------------------------------


def nein_nine_after_trump(lang: str) -> tuple[Any, Any]:
    game = Game(Rules.from_settings("nein-nine"), 5)
    rng = random.Random(5)
    while game.trump is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    session = session_for(game, NAMES[:3], lang, 1)
    return game, build(session, None)


def test_items_6_and_12_the_spits_say_which_is_big_the_same_way_everywhere() -> None:
    for lang, big, little in (("en", "Big Spit ", "Little Spit "), ("fr", "grand 7", "petit 7")):
        game, model = nein_nine_after_trump(lang)
        spits = spits_text(lang, model.spits, model.notation)
        assert spits.startswith(big) and little in spits
        table = render.table_embed(lang, model).description or ""
        hand = render.hand_content(lang, build(session_for(game, NAMES[:3], lang, 1), 0))
        assert spits in table and spits in hand
        trump = model.trump
        event = type("E", (), {})()
        event.by_seat, event.suit = 0, trump
        event.big_spit, event.little_spit = model.spits
        note = render.change_notes(lang, model, trumps=[event])[0]
        assert spits[:1].upper() + spits[1:] in note
        if lang == "fr":  # lower case in running text (item 12)
            assert f"l'atout est donc {trump.symbol} {tr('fr', f'suit.{trump.value}')}." in note
    assert tr("fr", "end.ratings") != "Cotes"


# -- item 7: the notation key ---------------------------------------------------------------


def test_item_7_the_key_is_idiomatic_and_shown_in_the_first_hand_only() -> None:
    game = Game(Rules.from_settings("classic", {"start": "9"}), 2)
    session = session_for(game, NAMES[:3], "fr")
    text = render.hand_content("en", build(session, 0))
    assert "French letters on the cards: R for king, D for queen and V for jack." in text
    rng = random.Random(2)
    while game.hand_number == 1 and game.turn is not None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    assert "French letters" not in render.hand_content("en", build(session, 0))
    fr = render.hand_content("fr", build(session_for(Game(game.rules, 2), NAMES[:3], "en"), 0))
    assert "Lettres anglaises sur les cartes\u00a0: K pour roi, Q pour dame et J pour valet." in fr


# -- items 8 and 9: the sheet, the tricks and the score's change --------------------------------


def finished_hand(ruleset: str, lang: str) -> tuple[Any, HandEnded, list[Any]]:
    game = Game(Rules.from_settings(ruleset, {"start": "9"}), 3)
    rng = random.Random(3)
    while True:
        for event in game.apply(game.turn, rng.choice(game.legal_actions(game.turn))):
            if isinstance(event, HandEnded):
                model = build(session_for(game, NAMES[: game.rules.players], lang, 1), None)
                tricks = [trick_of(t, game.rules.players) for t in game.hands_log[0].tricks]
                return model, event, tricks


def test_item_8_the_sheet_names_computers_like_people_with_no_checksum_column() -> None:
    for lang in ("en", "fr"):
        model, _, _ = finished_hand("classic", lang)
        block = render.sheet_block(lang, model, model.sheet)
        head = block.split("\n")[1]
        assert "Tot" not in block and "Max" in head  # the computer by its name
        assert head.split()[-3:] == [s.code for s in model.seats]
        assert not re.search(r"\b[NHEFD]\d\b", block)
    letters = {tr(lang, f"sheet.suit.{s.value}") for lang in ("en", "fr") for s in Suit}
    assert len(letters) == 8  # no French letter is an English one


def test_item_9_the_change_stands_by_the_score_and_no_zero_in_brackets() -> None:
    model, result, tricks = finished_hand("classic", "en")
    text = render.hand_summary("en", model, result, tricks).description or ""
    lines = text.split("\n")
    assert lines[0].startswith("Tricks won: ") and "(" not in lines[0]
    assert lines[1].startswith("Scores: ") and "(0)" not in text


# -- item 10: no field under an invisible name ------------------------------------------------


def test_item_10_a_long_list_of_tricks_names_each_field() -> None:
    for shown in play("four-player", 3, NAMES, "fr", FACES, computers=2):
        if shown.kind == "summary" and shown.embed is not None:
            names = [f.name or "" for f in shown.embed.fields]
            assert all(n.strip() and n != "\u200b" for n in names), names
            if len(names) > 1:
                assert names[0].startswith("Plis 1 à "), names


# -- item 11: said once, the call to action last ------------------------------------------------


def test_item_11_said_once_and_the_call_to_action_last() -> None:
    seen_put_down = seen_after = 0
    for shown in play("classic", 4, NAMES, "en", FACES, computers=1):
        if shown.kind == "table":
            assert "to go" not in (shown.embed.description if shown.embed else "")
        if shown.kind == "hand" and shown.content:
            lines = shown.content.split("\n")
            if "You put down: " in shown.content:
                assert "Current trick" not in shown.content and "Last trick" not in shown.content
                seen_put_down += 1
            elif "Last trick" in shown.content:
                seen_after += 1
            last = lines[-1]
            calls = ("Your turn", "Waiting for", "À vous", "On attend", "Nines: game over")
            assert last.startswith(calls) or "fin de la partie" in last, lines
    assert seen_after
    assert tr("en", "table.goal_nein_nine").count("costs") == 2
    # The end says it one way: its title, in the notice and in the hand.
    notice = tr("en", "end.notice", title=tr("en", "end.title", game="Nines"), ranking="1. x")
    assert notice.startswith("🏁 Nines: game over")


def test_item_11_the_draw_for_first_dealer_is_in_the_games_notation_and_faces() -> None:
    game = Game(Rules.from_settings("classic"), 6)
    model = build(session_for(game, NAMES[:3], "fr"), None)
    text = render.draw_line("en", model, FACES)
    assert "<:" in text and "_de_" in text  # faces, named in the game's (French) notation
