"""What every message says alike: a game's title and rules line, cards, names beside their
values, scores with Nein Nine's stones, the trump, tricks card by card."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.table import PlayedCard, TableModel, TrickModel
from bot.words import and_list, in_text, tr, trump_name, trumps_label
from engine import Card, Rules, stones

from .cards import TEXT, CardStyle
from .phone import packed

COLOUR = discord.Colour(0x2E7D32)  # card-table green
MINUS = "\u2212"  # the minus sign, in prose (the monospace sheet keeps ASCII "-")


def game_title(lang: str, rules: Rules) -> str:
    return tr(lang, f"game.{rules.game}")


def rules_line(lang: str, rules: Rules) -> str:
    """The rule settings, e.g. "Classic (3 players) · trumps: quebec · ...", on as few lines
    as fit a phone (``phone.py``)."""
    return "\n".join(packed(rules_parts(lang, rules)))


def rules_parts(lang: str, rules: Rules) -> list[str]:
    """The ruleset's name, then each setting in words."""
    parts = [tr(lang, f"ruleset.{rules.name}")]
    for key, value in rules.settings().items():
        if key == "ties" and rules.teams:  # N10: one team alone reaches 0, never a tie
            continue
        if key == "rounds":
            parts.append(tr(lang, "count.rounds", count=value))
            continue
        if key in ("exchange", "ties", "instant_win"):
            value = tr(lang, f"value.{value}")
        elif key == "trumps":
            value = trumps_label(lang, str(value))
        parts.append(tr(lang, f"setting.{key}", value=value))
    return parts


def cards_text(cards: Sequence[Card], notation: str = "en", style: CardStyle = TEXT) -> str:
    """Cards in ``notation`` (a language: the game's, ``TableModel.notation``), as faces in
    ``style`` if it has them."""
    return style.cards(cards, notation)


def name(model: TableModel, seat: int) -> str:
    """A seat's name in running markdown (``bot/names.in_text``: escaped, bidi-isolated,
    mentions inert), as every line of ours shows a name."""
    return in_text(model.seats[seat].name)


def unit_name(model: TableModel, unit: int, lang: str | None = None) -> str:
    """A player's name, or a team's two names as ``lang`` lists them ("Ann and Bob"; by
    default the game's language, a public message's)."""
    return and_list(lang or model.notation, [in_text(s.name) for s in model.unit_seats(unit)])


def signed(score: int) -> str:
    """A Nein Nine score as people write it: ``+3``, ``−2``, ``0``."""
    return f"+{score}" if score > 0 else f"{MINUS}{-score}" if score < 0 else "0"


def stones_shown(score: int) -> str:
    """G10's stones for a score: light ``○○○`` above zero, dark ``●●`` below ("in the
    dark"), none at zero; past nine as a count (``○×12``), so a line stays short."""
    light, dark = stones(score)
    stone, count = ("○", light) if light else ("●", dark)
    return stone * count if count <= 9 else f"{stone}×{count}"


def score_shown(rules: Rules, score: int) -> str:
    if not rules.kind.signed_scores:
        return str(score)
    marks = stones_shown(score)
    return f"{signed(score)} {marks}" if marks else signed(score)


def named(who: str, value: str, marks: str = "") -> str:
    """A name and its value in a line of several: the value in bold, so a name that ends in
    a number ("🤖 Bot Normal 2 **3**") still reads apart from its score; Nein Nine's stones
    after it."""
    return f"{who} **{value}**" + (f" {marks}" if marks else "")


def named_score(rules: Rules, who: str, score: int) -> str:
    """``alice **3**`` (``alice **−1**`` with U+2212, as in prose); in Nein Nine
    ``alice **+3** ○○○``."""
    if not rules.kind.signed_scores:
        return named(who, str(score) if score >= 0 else f"{MINUS}{-score}")
    return named(who, signed(score), stones_shown(score))


def trump_text(lang: str, model: TableModel, style: CardStyle = TEXT) -> str:
    """The trump in ``lang``'s words; Nein Nine's Spits, once set, named the one way every
    message names them (``spits_text``)."""
    if model.kind.trump_from_play and model.trump is None:  # no 8 played yet (G5)
        return tr(lang, "table.no_trump_yet")
    if model.spits is not None:
        spits = spits_text(lang, model.spits, model.notation, style)
        return tr(lang, "table.trump_spits", trump=trump_name(lang, model.trump), spits=spits)
    return trump_name(lang, model.trump)


def spits_text(lang: str, spits: tuple[Card, Card], notation: str, style: CardStyle = TEXT) -> str:
    """Nein Nine's Spits (G5), which is big and which little: ``Big Spit 7♦ · Little Spit 7♥``
    (``grand 7 7♦ · petit 7 7♥``), cards as faces in ``style``, in the game's notation."""
    big, little = spits
    return tr(
        lang, "trump.spits", big=style.text(big, notation), little=style.text(little, notation)
    )


def trick_parts(
    lang: str,
    model: TableModel,
    cards: Sequence[PlayedCard],
    *,
    winner: int | None = None,
    names: Sequence[str] | None = None,
    style: CardStyle = TEXT,
) -> list[str]:
    """Cards beside their players in play order, a Joker with its call, one item each:
    ``ann **2♥**``, ``bob **A♥**``. With ``winner`` (a completed trick) only the winner's name
    and card are bold; ``names`` replaces the seats' names (the sheet's short codes, already
    markdown); cards as faces in ``style`` if it has them."""
    parts = []
    for played in cards:
        who = names[played.seat] if names is not None else name(model, played.seat)
        label = style.text(played.card, model.notation)
        if winner is None:
            text = f"{who} **{label}**"
        elif played.seat == winner:
            text = f"**{who} {label}**"
        else:
            text = f"{who} {label}"
        if played.call:
            text += " " + tr(lang, f"table.joker_{played.call}")
        parts.append(text)
    return parts


def completed_trick_text(
    lang: str,
    model: TableModel,
    trick: TrickModel,
    key: str = "table.last_trick",
    style: CardStyle = TEXT,
) -> str:
    """A completed trick on the table: who won it, with which card, then every card beside its
    player (N13; Nein Nine's last too, G11), on lines that fit a phone (``phone.py``)."""
    assert trick.winner is not None and trick.winning_card is not None
    head = tr(
        lang,
        key,
        number=trick.number,
        winner=name(model, trick.winner),
        card=style.text(trick.winning_card, model.notation),
    )
    return "\n".join([head, *packed(trick_parts(lang, model, trick.cards, style=style))])


def trick_line(lang: str, model: TableModel, style: CardStyle = TEXT) -> str | None:
    """The trick in play, if a card is on it (on two lines, if four long names need them)."""
    if model.trick is None:
        return None
    first = tr(lang, "table.trick", cards="")
    parts = trick_parts(lang, model, model.trick.cards, style=style)
    return "\n".join(packed(parts, first=first))
