"""The table: the hand in play as everybody sees it, and the mention of whose turn it is."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.table import TableModel
from bot.words import and_list, suit_name, tr
from engine import Rules, TrumpSet

from .cards import TEXT, CardStyle
from .phone import packed, paragraph_lines
from .words import (
    COLOUR,
    completed_trick_text,
    game_title,
    name,
    named,
    named_score,
    signed,
    spits_text,
    trick_line,
    trump_text,
    unit_name,
)

DESCRIPTION_CHARS = 4096  # Discord: an embed's description


def goal_text(lang: str, rules: Rules) -> str:
    """The quota and which way is better, in one line (N7, N8, N10; G8, G9)."""
    if not rules.kind.has_quota:
        return tr(lang, "table.goal_nein_nine")
    key = "table.goal_teams" if rules.teams else "table.goal_nines"
    return tr(lang, key, quota=rules.quota)


def tiebreak_text(lang: str, model: TableModel) -> str | None:
    """Why this hand is played at all, when the game would have ended but for a tie (N8,
    G9): who is tied and at what, and until when play goes on. None in an ordinary hand."""
    if model.tiebreak is None:
        return None
    best = model.scores[model.tiebreak[0]]
    kind = model.kind
    text = tr(
        lang,
        "table.tiebreak_nein_nine" if kind.higher_wins else "table.tiebreak_nines",
        number=model.hand_number,
        names=and_list(lang, [unit_name(model, u, lang) for u in model.tiebreak]),
        score=signed(best) if kind.signed_scores else str(best),
    )
    return "\n".join(paragraph_lines(text))


def tricks_text(model: TableModel, tricks_won: Sequence[int], lang: str | None = None) -> str:
    """Tricks taken, against the quota in Nines (``alice 2/4``; a team's together)."""
    return " · ".join(tricks_parts(model, tricks_won, lang))


def tricks_parts(
    model: TableModel, tricks_won: Sequence[int], lang: str | None = None, *, to_go: bool = False
) -> list[str]:
    """``tricks_text``'s items (partners named in ``lang``): ``alice **1**/4`` in Nines, the
    quota beside the count, which says what is left to take (issue 46: a "3 to go" beside it
    said it twice). ``to_go`` is kept for callers and changes nothing."""
    rules = model.rules
    parts = []
    for u in range(rules.units):
        won = sum(tricks_won[s] for s in rules.seats_of(u))
        quota = f"/{rules.quota}" if model.kind.has_quota else ""
        parts.append(named(unit_name(model, u, lang), f"{won}{quota}"))
    return parts


def scores_text(model: TableModel, scores: Sequence[int], lang: str | None = None) -> str:
    return " · ".join(scores_parts(model, scores, lang))


def scores_parts(model: TableModel, scores: Sequence[int], lang: str | None = None) -> list[str]:
    return [named_score(model.rules, unit_name(model, u, lang), v) for u, v in enumerate(scores)]


def table_embed(
    lang: str,
    model: TableModel,
    *,
    notes: Sequence[str] = (),
    shown_tricks: int | None = None,
    style: CardStyle = TEXT,
) -> discord.Embed:
    """The hand in play. ``shown_tricks``: how many of this hand's completed tricks the table
    showed at its previous edit (None: not known, after a restart). Computers' cards come in
    one edit, so every trick completed since then is listed, not only the last: people are
    never shown less of the play than a computer's seat view holds (R1). Cards as faces in
    ``style``, unless they would take the description past Discord's 4,096 characters (a
    whole hand's tricks at once, at ~46 characters a face): then as text."""
    embed = _table_embed(lang, model, notes, shown_tricks, style)
    if style and len(embed.description or "") > DESCRIPTION_CHARS:
        embed = _table_embed(lang, model, notes, shown_tricks, TEXT)
    return embed


def _table_embed(
    lang: str,
    model: TableModel,
    notes: Sequence[str],
    shown_tricks: int | None,
    style: CardStyle,
) -> discord.Embed:
    rules = model.rules
    embed = discord.Embed(
        title=tr(
            lang,
            f"table.title_{model.kind.unit}",
            game=game_title(lang, rules),
            number=model.hand_number,
        ),
        colour=COLOUR,
    )
    lines = [
        tr(lang, "table.trump", trump=trump_text(lang, model, style)),
        tr(lang, "table.dealer", dealer=name(model, model.dealer)),
        goal_text(lang, rules),
    ]
    if model.exchange_order:
        done = dict(model.exchange)
        parts = [
            tr(lang, "table.swapped" if done[s] else "table.kept", name=name(model, s))
            for s in model.exchange_order
            if s in done
        ]
        if parts:
            lines.append(tr(lang, "table.exchange", decisions=" · ".join(parts)))
    trick = trick_line(lang, model, style)
    if trick:
        lines.append(trick)
    completed = model.tricks
    # Tricks completed since the table's last edit (by number: in Nein Nine the model holds
    # only the tricks it may show), each listed once; the last stands as the last trick.
    for passed in completed[:-1]:
        if shown_tricks is not None and passed.number > shown_tricks:
            lines.append(completed_trick_text(lang, model, passed, "table.passed_trick", style))
    if completed:
        lines.append(completed_trick_text(lang, model, completed[-1], style=style))
    tiebreak = tiebreak_text(lang, model)
    if tiebreak:
        lines.append(tiebreak)
    won = [s.tricks_won for s in model.seats]
    tricks = tricks_parts(model, won, lang, to_go=True)
    lines += packed(tricks, first=tr(lang, "table.tricks", tricks=""))
    scores = scores_parts(model, model.scores, lang)
    lines += packed(scores, first=tr(lang, "table.scores", scores=""))
    turn = model.turn
    if turn is not None:
        text = tr(lang, "table.turn", who=name(model, turn.seat))
        if model.seats[turn.seat].away:
            text += " " + tr(lang, "table.away")
        elif turn.deadline is not None:
            # Discord writes <t:…:R> ("in 2 minutes") in each reader's client language
            # (Discord API docs, Reference > Message Formatting > Timestamp Styles): alone
            # after an icon, so no sentence of ours mixes two languages.
            text += " " + tr(lang, "table.deadline", when=f"<t:{int(turn.deadline)}:R>")
        lines.append(text)
    embed.description = "\n".join(lines)
    if notes:
        embed.add_field(name="\u200b", value="\n".join(notes), inline=False)
    return embed


def change_notes(
    lang: str,
    model: TableModel,
    *,
    timed_out: Sequence[int] = (),
    restored: bool = False,
    trumps: Sequence[TrumpSet] = (),
) -> list[str]:
    """The notes under the table: whose time ran out, a restart, and in Nein Nine who set
    trump with the first 8 of the round now on the table."""
    notes = [tr(lang, "note.timeout", name=name(model, s)) for s in timed_out]
    # The Spits in the game's notation, as the trump line names them (issue 46); text here:
    # the table's notes are built without the card style, and a line of two cards reads.
    if restored:
        notes.append(tr(lang, "note.restored"))
    for event in trumps:
        notes.append(
            tr(
                lang,
                "note.trump_set",
                name=name(model, event.by_seat),
                trump=f"{event.suit.symbol} {suit_name(lang, event.suit)}",
                # a line of its own: its first word capitalised (``grand 7`` in French)
                spits=upper_first(
                    spits_text(lang, (event.big_spit, event.little_spit), model.notation)
                ),
            )
        )
    return notes


def upper_first(text: str) -> str:
    """``text`` with its first letter capitalised, the rest as it is."""
    return text[:1].upper() + text[1:]


def turn_ping(lang: str, user_id: int) -> str:
    """The turn message's text, whose mention notifies the person whose decision is due. It
    is said there only: the table names whose turn it is in words (``table.turn``) and
    carries no mention of its own, which would repeat it right above the ping."""
    return tr(lang, "table.your_turn", who=f"<@{user_id}>")
