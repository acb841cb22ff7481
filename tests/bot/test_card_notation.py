"""One card notation per game (issue 29): the table's, its public language's, in every hand and
on every card button, whatever the reader's language; a reader of the other language gets the
key to its letters once in their hand."""

from __future__ import annotations

import re
from types import SimpleNamespace

import discord
import pytest

from bot.session import SeatInfo
from bot.table_model import build
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
        ("en", "classic"): "R king · D queen · V jack",
        ("fr", "classic"): "K roi · Q dame · J valet",
        ("en", "nein-nine"): "V jack",  # its deck has no king or queen
        ("fr", "nein-nine"): "J valet",
    }[reader, ruleset]
    key = {
        "en": f"Cards as on the table: {faces}",
        "fr": f"Les cartes comme sur la table\u00a0: {faces}",
    }[reader]
    seen = ""
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
        assert hand.count(key) == 1, hand
        seen += table + hand + labels
        game.apply(seat, action)
    assert own.search(seen)  # the table's face letters were there to be seen


def test_a_reader_of_the_games_language_needs_no_key() -> None:
    rules = Rules.from_settings("classic")
    session = session_for(rules, "fr")
    game = session.game
    seat = game.turn
    assert seat is not None
    model = build(session, seat)
    hand = render.hand_content("fr", model)
    assert "comme sur la table" not in hand
    assert model.notation == "fr"
