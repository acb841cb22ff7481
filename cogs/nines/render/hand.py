"""A person's private hand: its text (the buttons are ``ui.hand_view``'s), the hand once the
game ended."""

from __future__ import annotations

from bot.table import TableModel
from bot.words import face_key, tr
from engine import HandEnded, Rules

from .cards import TEXT, CardStyle
from .summary import hand_changes
from .words import (
    cards_text,
    completed_trick_text,
    game_title,
    name,
    named,
    score_shown,
    signed,
    trick_line,
    trump_text,
)

CONTENT_CHARS = 2000  # Discord: a message's content


def hand_content(
    lang: str,
    model: TableModel,
    notice: str | None = None,
    *,
    joker_prompt: bool = False,
    style: CardStyle = TEXT,
) -> str:
    """The text over the viewer's cards: the hand's number and trump, their standing, the
    trick in play and the last one, whose decision it is, and what they put down. Cards as
    faces in ``style``, unless that would pass a message's 2,000 characters: then as text."""
    if model.hand is not None and model.hand.text_cards:  # the person's own preference
        style = TEXT
    content = _hand_content(lang, model, notice, joker_prompt, style)
    if style and len(content) > CONTENT_CHARS:
        content = _hand_content(lang, model, notice, joker_prompt, TEXT)
    return content


def _hand_content(
    lang: str, model: TableModel, notice: str | None, joker_prompt: bool, style: CardStyle
) -> str:
    hand = model.hand
    assert hand is not None, "a watcher's model has no hand to show"
    notation = model.notation
    lines = []
    if notice:
        lines.append(f"⚠️ {notice}")
    trump = trump_text(lang, model, style)
    lines.append(tr(lang, f"hand.title_{model.kind.unit}", number=model.hand_number, trump=trump))
    if model.phase == "play":
        lines.append(standing_text(lang, model, hand.seat))
    if model.last_result is not None and not model.tricks and model.winners is None:
        # The hand just ended: its result, until the new hand's first trick is taken (the
        # person who played its last card reads the new hand first, issue 38).
        lines.append(last_result_text(lang, model, model.last_result))
    trick = trick_line(lang, model, style)
    if trick:
        lines.append(trick)
    # On a phone the table is off screen: the last trick is here too; not in Nein Nine, whose
    # completed trick stands on the public table only (G11 amended).
    if model.tricks and not model.kind.hidden_tricks:
        lines.append(completed_trick_text(lang, model, model.tricks[-1], style=style))
    # What was put down, until the hand's first card: after that it is old news, and 13 faces
    # on every update pushed the call to action out of sight (issue 46).
    if hand.put_down and model.trick is None and not model.tricks:
        lines.append(tr(lang, "hand.put_down", cards=cards_text(hand.put_down, notation, style)))
        lines.append(took_text(lang, model, hand.seat))
    # The table's letters, for a reader of the other language: in the first hand, once.
    if notation != lang and model.hand_number == 1 and model.winners is None:
        lines.append(tr(lang, "hand.card_key", key=face_key(lang, notation, model.kind.faces)))
    # Whose decision it is, last: where the eye ends, right over the buttons.
    my_turn = bool(hand.legal)
    if model.winners is not None:
        lines.append(tr(lang, "end.title", game=game_title(lang, model.rules)))
    elif my_turn and joker_prompt:  # the Joker clicked: it waits for its call (G7)
        lines.append(tr(lang, "hand.joker_call"))
    elif my_turn:
        key = "hand.your_exchange" if model.phase == "exchange" else "hand.your_turn"
        lines.append(tr(lang, key))
    elif model.turn is not None:
        lines.append(tr(lang, "hand.waiting", who=name(model, model.turn.seat)))
    return "\n".join(lines)


def standing_text(lang: str, model: TableModel, seat: int) -> str:
    """The seat's tricks so far (against the quota, a team's together) and its score."""
    rules = model.rules
    unit = rules.unit_of(seat)
    won = sum(s.tricks_won for s in model.unit_seats(unit))
    tricks = f"{won}/{rules.quota}" if model.kind.has_quota else str(won)
    key = "hand.standing_team" if rules.teams else "hand.standing"
    return tr(lang, key, tricks=tricks, score=score_shown(rules, model.scores[unit]))


def last_result_text(lang: str, model: TableModel, result: HandEnded) -> str:
    """A hand's result in one line: Nines' tricks against the quota and each score's change
    (as the hand's summary says it), Nein Nine's points of the round."""
    title = tr(lang, f"summary.title_{model.kind.unit}", number=result.number)
    if model.kind.has_quota:
        outcome = " · ".join(hand_changes(lang, model, result, tricks=True))
    else:
        outcome = " · ".join(named(name(model, s), signed(p)) for s, p in enumerate(result.points))
    return tr(lang, "hand.last_result", title=title, result=outcome)


def took_text(lang: str, model: TableModel, seat: int) -> str:
    """What a seat that swapped took (N4): the spare as dealt, or, when someone swapped before
    it, the hand that player put down (which was the spare by then). The exchange is public:
    the table says who swapped, in order."""
    swappers = [s for s, swapped in model.exchange if swapped]
    before = swappers[: swappers.index(seat)] if seat in swappers else []
    if not before:
        return tr(lang, "hand.took_spare")
    return tr(lang, "hand.took_hand", who=name(model, before[-1]))


def closed_hand_content(
    lang: str, rules: Rules, model: TableModel | None, how: str, style: CardStyle = TEXT
) -> str:
    """A private hand once the game has ended: that it is over and how (``how``: the winners,
    or who stopped it, or why it was abandoned), with its last trick (faces in ``style``); no
    card is offered. ``model``: the public table (None if no card was dealt)."""
    lines = [f"**{tr(lang, 'end.title', game=game_title(lang, rules))}**", how]
    return "\n".join(lines + last_play_lines(lang, model, style))


def last_play_lines(lang: str, model: TableModel | None, style: CardStyle = TEXT) -> list[str]:
    """The trick in progress and the last completed one, where a game ended: its last cards
    stay in view beside their players."""
    if model is None:
        return []
    lines = []
    trick = trick_line(lang, model, style)
    if trick:
        lines.append(trick)
    if model.tricks:
        lines.append(completed_trick_text(lang, model, model.tricks[-1], style=style))
    return lines
