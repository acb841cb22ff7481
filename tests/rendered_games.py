"""Whole games rendered message by message, without Discord: what the bot would send.

An ``engine.Game`` is played with random legal moves; after every move the public table and
every seat's private hand (text and buttons) are rendered from the table model
(``bot.table.table_model.build``), every ended hand's summary when it ends, then the end, a stop and
the closed hands, the lobby before it and the records after it. Issue 38's card faces and
issue 39's names are checked over every one of these (tests/test_card_faces_in_messages.py,
tests/test_names_in_messages.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

from bot.chat import DECKS, NOTATIONS, CardFaces, Uploaded, card_words, face_key
from bot.game.session import SeatInfo
from bot.storage import StatsRow
from bot.table import build, build_lobby, trick_of
from cogs.nines import render, ui
from cogs.nines.render.cards import TEXT, CardStyle
from engine import Game, HandEnded, Rules
from engine.cards import FULL_DECK

#: Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-
#: embed-limits; a message's content: 2,000 characters).
TITLE, DESCRIPTION, FIELD_NAME, FIELD, FOOTER, EMBED, CONTENT = (
    256,
    4096,
    256,
    1024,
    2048,
    6000,
    2000,
)

#: A game short enough to render whole many times over, per ruleset.
SHORT = {
    "classic": {"start": "3"},
    "partnership": {"start": "3"},
    "four-player": {"start": "3"},
    "nein-nine": {"rounds": "2"},
}


def synced_faces() -> CardFaces:
    """Every face as if the start-up sync had uploaded it (names shaped as bot/chat/emojis.py
    names them: the card in words, then a hash, ``0123ab`` here, ``4c4c4c`` for a four-colour
    face; ids of Discord's size), without drawing a picture."""
    names = {}
    for card in FULL_DECK:
        for notation in NOTATIONS:
            for deck in DECKS:
                key = face_key(card, notation, deck)
                digest = "4c4c4c" if key.endswith("_4c") else "0123ab"
                names[key] = f"{card_words(card, notation)}_{digest}"
    return CardFaces(
        {
            key: Uploaded(name, 1234567890123456789 - i)
            for i, (key, name) in enumerate(sorted(names.items()))
        }
    )


def session_for(game: Game, names: Sequence[str], language: str, computers: int = 0) -> Any:
    """The session attributes the model reads: the last ``computers`` seats are computers."""
    people = len(names) - computers
    seats = [
        SeatInfo(n, user_id=None if i >= people else 10**17 + i, difficulty="normal")
        for i, n in enumerate(names)
    ]
    return SimpleNamespace(
        id=7,
        game=game,
        seats=seats,
        n=len(game.log),
        deadline=1_900_000_000.0,
        rules=game.rules,
        language=language,
        host_id=10**17,
        status="finished" if game.over else "live",
        players=game.rules.players,
        channel_id=5,
        lobby_channel_id=5,
        closed=False,
        lobby_deadline=1_900_000_000.0,
    )


@dataclass
class Shown:
    """One message as the bot would send it: its text by where it stands (Discord renders
    markdown in content, embed titles, descriptions, field names and values; none in footers
    and button labels), its buttons, and the mentions it lets through (None: the bot's
    default, which lets user mentions through and never @everyone, bot/app.py)."""

    kind: str
    public: bool
    markdown: list[str] = field(default_factory=list)
    plain: list[str] = field(default_factory=list)
    buttons: list[dict[str, Any]] = field(default_factory=list)
    rows: list[list[dict[str, Any]]] = field(default_factory=list)  # the buttons row by row
    embed: discord.Embed | None = None
    content: str | None = None
    allowed: discord.AllowedMentions | None = None


def embed_shown(kind: str, embed: discord.Embed, content: str | None = None) -> Shown:
    markdown = [embed.title or "", embed.description or ""]
    markdown += [text for f in embed.fields for text in (f.name or "", f.value or "")]
    if content:
        markdown.append(content)
    plain = [embed.footer.text or ""] if embed.footer else []
    return Shown(kind, True, markdown, plain, embed=embed, content=content)


def buttons_of(view: ui.Buttons) -> list[dict[str, Any]]:
    return [b for row in view.rows for b in row]


def play(
    ruleset: str,
    seed: int,
    names: Sequence[str],
    lang: str,
    style: CardStyle = TEXT,
    *,
    computers: int = 0,
    readers: Sequence[str] = ("en", "fr"),
) -> Iterator[Shown]:
    """Every message of a whole game of ``ruleset`` (``SHORT``'s settings) in ``lang``, the
    private hands in each of ``readers``' languages, cards in ``style``."""
    rules = Rules.from_settings(ruleset, SHORT[ruleset])
    names = list(names[: rules.players])
    game = Game(rules, seed)
    session = session_for(game, names, lang, computers)
    rng = random.Random(seed)
    lobby = build_lobby(session)
    yield embed_shown("lobby", render.lobby_embed(lang, lobby))
    yield Shown("draw", True, [render.draw_line(lang, build(session, None))])
    shown_tricks = 0
    while not game.over:
        seat = game.turn
        assert seat is not None
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        session.n = len(game.log)
        public = build(session, None)
        for event in events:
            if isinstance(event, HandEnded):
                tricks = [
                    trick_of(t, rules.players) for t in game.hands_log[event.number - 1].tricks
                ]
                last = game.over and event.number == len(game.hands_log)
                summary = render.hand_summary(
                    lang, public, event, tricks, sheet=not last, style=style
                )
                yield embed_shown("summary", summary)
                shown_tricks = 0
        if game.over:
            break
        notes = render.change_notes(lang, public, timed_out=[seat])
        embed = render.table_embed(
            lang, public, notes=notes, shown_tricks=shown_tricks, style=style
        )
        # The table has no content (issue 38, third pass): it names whose turn it is in its
        # embed, and the turn message alone mentions the person (cogs/nines/turn_pings.py).
        table = embed_shown("table", embed)
        table.buttons = buttons_of(ui.table_view(lang, public))
        table.allowed = discord.AllowedMentions.none()
        yield table
        due = public.turn
        user_id = None if due is None else session.seats[due.seat].user_id
        if user_id is not None:
            ping = render.turn_ping(lang, user_id)
            yield Shown(
                "ping",
                True,
                [ping],
                content=ping,
                allowed=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
            )
        shown_tricks = len(public.tricks)
        for reader_seat in range(rules.players):
            model = build(session, reader_seat)
            reader = readers[reader_seat % len(readers)]
            text = render.hand_content(reader, model, style=style)
            view = ui.hand_view(reader, model, style=style)
            yield Shown(
                "hand", False, [text], buttons=buttons_of(view), rows=view.rows, content=text
            )
    session.status = "finished"
    public = build(session, None)
    end = embed_shown("end", render.end_embed(lang, public, []))
    end.buttons = buttons_of(ui.end_view(lang, public))
    yield end
    winners = render.winners_text(public, lang)
    for reader in readers:
        how = render.closed_hand_content(reader, rules, public, winners, style)
        yield Shown("closed hand", False, [how], content=how)
    yield embed_shown("stopped", render.stopped_embed(lang, public, "stopped", style))
    rows = [
        StatsRow(1, rules.game, f"u:{i}", n, False, 2, 1, 10, 3, 1, 1, 1, 25.0, 8.0, 1000.0, 0.0)
        for i, n in enumerate(names)
    ]
    yield embed_shown("leaderboard", render.leaderboard_embed(lang, rules.game, 1, 1, rows, [], 1))
    for n in names:
        yield embed_shown("stats", render.stats_embed(lang, n, rules.game, rows[0]))
