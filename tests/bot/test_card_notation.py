"""One card notation per game (issue 29): the table's, its public language's, in every hand and
on every card button, whatever the reader's language; a reader of the other language gets the
key to its letters in their hand, in the first hand only."""

from __future__ import annotations

import re
from types import SimpleNamespace

import discord
import pytest

from bot.game.session import SeatInfo
from bot.table import build
from cogs.nines import render, ui
from engine import Game, Rules
from engine.cli import random_game

ENGLISH_FACE = re.compile(r"(?<![\w])[JQK][♠♥♦♣]")
FRENCH_FACE = re.compile(r"(?<![\w])[VDR][♠♥♦♣]")


def session_for(rules: Rules, language: str) -> SimpleNamespace:
    names = ["Élodie", "John", "🤖 Robot normal", "🤖 Robot normal 2"]
    seats = [SeatInfo(n, user_id=None if "🤖" in n else 10**17 + i) for i, n in enumerate(names)]
    return SimpleNamespace(
        game=Game(rules, 11),
        seats=seats[: rules.players],
        id=7,
        n=3,
        rules=rules,
        players=rules.players,
        language=language,
        status="live",
        deadline=None,
        closed=False,
        host_id=seats[0].user_id,
        channel_id=1,
        lobby_channel_id=1,
    )


def embed_text(embed: discord.Embed) -> str:
    return "\n".join([embed.description or "", *(f.value or "" for f in embed.fields)])


@pytest.mark.parametrize(("game_language", "reader"), [("fr", "en"), ("en", "fr")])
@pytest.mark.parametrize("ruleset", ["classic", "nein-nine"])
def test_a_reader_of_the_other_language_sees_only_the_tables_notation(
    ruleset: str, game_language: str, reader: str
) -> None:
    """A whole game: the public table, and the private hand of someone whose client speaks the
    other language (its text and its card buttons), never show the other notation."""
    rules = Rules.from_settings(ruleset, {"start": 3})
    played = random_game(rules, 11)
    session = session_for(rules, game_language)
    game = session.game
    other, own = (
        (ENGLISH_FACE, FRENCH_FACE) if game_language == "fr" else (FRENCH_FACE, ENGLISH_FACE)
    )
    faces = {
        ("en", "classic"): "R for king, D for queen and V for jack",
        ("fr", "classic"): "K pour roi, Q pour dame et J pour valet",
        ("en", "nein-nine"): "V for jack",  # its deck has no king or queen
        ("fr", "nein-nine"): "J pour valet",
    }[reader, ruleset]
    key = {
        "en": f"French letters on the cards: {faces}.",
        "fr": f"Lettres anglaises sur les cartes\u00a0: {faces}.",
    }[reader]
    seen = ""
    hands_with_key: set[int] = set()
    hands_seen: set[int] = set()
    for seat, action in played.log:
        table = embed_text(render.table_embed(game_language, build(session, None)))
        model = build(session, seat)
        hand = render.hand_content(reader, model)
        buttons = ui.hand_view(reader, model).to_components()
        labels = " ".join(
            str(b.get("label")) for row in buttons for b in row["components"] if "label" in b
        )
        for text in (table, hand, labels):
            assert not other.search(text), text
        # The key once in each of the first hand's updates, then no more: learnt by then.
        first_hand = model.hand_number == 1 and model.winners is None
        assert hand.count(key) == (1 if first_hand else 0), hand
        hands_seen.add(model.hand_number)
        if key in hand:
            hands_with_key.add(model.hand_number)
        seen += table + hand + labels
        game.apply(seat, action)
    assert own.search(seen)  # the table's face letters were there to be seen
    assert hands_with_key == {1} and len(hands_seen) > 1  # later hands were seen without it


def test_a_reader_of_the_games_language_needs_no_key() -> None:
    rules = Rules.from_settings("classic")
    session = session_for(rules, "fr")
    game = session.game
    seat = game.turn
    assert seat is not None
    model = build(session, seat)
    hand = render.hand_content("fr", model)
    assert "sur les cartes" not in hand  # "Lettres anglaises sur les cartes : …"
    assert model.notation == "fr"
