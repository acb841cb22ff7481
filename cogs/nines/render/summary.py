"""A hand's (or round's) summary: tricks against the quota or the 9s taken, what that did to
each score, every trick card by card, the spare, and the sheet so far."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.table import TableModel, TrickModel
from bot.words import in_text, tr
from engine import HandEnded, sort_hand

from .cards import TEXT, CardStyle
from .phone import packed
from .sheet import SUMMARY_ROWS, codes_legend, sheet_block
from .table import scores_parts, tricks_parts
from .words import (
    COLOUR,
    MINUS,
    cards_text,
    name,
    named,
    named_score,
    signed,
    trick_parts,
    unit_name,
)

FIELD_CHARS = 1024  # Discord: an embed field's value
TRICK_FIELDS = 2  # fields a hand's tricks may take before names give way to codes
#: Discord: an embed's title, description, field names and values, footer and author together.
EMBED_CHARS = 6000
#: Fields a hand's tricks may take with card faces (~46 characters each): Discord allows 25.
FACE_FIELDS = 4


def hand_summary(
    lang: str,
    model: TableModel,
    result: HandEnded,
    tricks: Sequence[TrickModel],
    *,
    sheet: bool = True,
    style: CardStyle = TEXT,
) -> discord.Embed:
    """A hand's outcome: tricks against the quota and what they did to each score, every trick
    card by card (N13; Nein Nine's too, now that the round is over, G11), the spare, and the
    sheet so far. ``sheet=False``: the game's last hand, whose end message carries the sheet.
    ``model``: the public table now (a later hand's, after a restart); ``tricks``: the hand's
    (``table_model.trick_of``). Cards as faces in ``style`` where they fit (``all_tricks``)."""
    unit = model.kind.unit
    embed = discord.Embed(
        title=tr(lang, f"summary.title_{unit}", number=result.number), colour=COLOUR
    )
    first = tr(lang, "summary.tricks", tricks="")
    lines = packed(tricks_parts(model, result.tricks_won, lang), first=first)
    if model.kind.has_quota:
        lines += packed(
            hand_changes(lang, model, result), first=tr(lang, "table.scores", scores="")
        )
    else:
        lines.extend(round_lines(lang, model, result))
    if result.instant_win:
        lines.append(instant_win_text(lang, model, result))
    if result.spare is not None:
        spare = cards_text(sort_hand(result.spare), model.notation, style)
        lines.append(tr(lang, "summary.spare", cards=spare))
    if sheet:
        rows = [r for r in model.sheet if r.number <= result.number]
        lines.append(sheet_block(lang, model, rows, last=SUMMARY_ROWS))
    embed.description = "\n".join(lines)
    heading = tr(lang, "summary.all_tricks")
    # What the tricks' fields may take of the embed's 6,000 characters (a field name each,
    # the longest a range's: "Tricks 10 to 13").
    names = max(len(heading), len(tr(lang, "summary.tricks_range", first=10, last=13)))
    room = EMBED_CHARS - len(embed.title or "") - len(embed.description) - 2 * names
    fields = all_tricks(lang, model, tricks, style, room) if tricks else []
    for value in fields:
        # Each field named by the tricks it holds when the list takes more than one: an
        # invisible name would read as a blank line (issue 46).
        if len(fields) > 1 and value[:1].isdigit():
            numbers = [
                int(line.split(".", 1)[0]) for line in value.split("\n") if line[:1].isdigit()
            ]
            name = tr(lang, "summary.tricks_range", first=numbers[0], last=numbers[-1])
        else:  # one field, or the codes' legend alone at the end
            name = heading if value is fields[0] else tr(lang, "summary.codes")
        embed.add_field(name=name, value=value, inline=False)
    return embed


def score_before(model: TableModel, result: HandEnded) -> tuple[int, ...]:
    """The scores as the hand of ``result`` began."""
    rows = (r.scores for r in model.sheet if r.number == result.number - 1)
    return next(rows, model.start_scores)


def hand_changes(
    lang: str, model: TableModel, result: HandEnded, *, tricks: bool = False
) -> list[str]:
    """Nines: each player's (or team's) score after the hand, its change beside it when it
    moved, ``alice **5** (−2)``: a trick over quota costs a point, one under gains one. A
    score that did not move has no bracket (issue 46: no "(0)"). With ``tricks``, the tricks
    against the quota lead to it, ``alice 6/4 → **5** (−2)``: the bracket stands by the score
    it changed, not by the tricks (the one line of a private hand)."""
    rules = model.rules
    before = score_before(model, result)
    parts = []
    for u in range(rules.units):
        change = result.scores[u] - before[u]
        who = unit_name(model, u, lang)
        if tricks:
            won = sum(result.tricks_won[s] for s in rules.seats_of(u))
            who = f"{who} {won}/{rules.quota} →"
        text = named_score(rules, who, result.scores[u])
        parts.append(f"{text} ({signed(change)})" if change else text)
    return parts


def instant_win_text(lang: str, model: TableModel, result: HandEnded) -> str:
    """N9: who reached 0 or below, at which trick, and that the hand stopped there."""
    before = score_before(model, result)
    unit = next(u for u, v in enumerate(result.scores) if v != before[u])
    score = result.scores[unit]
    return tr(
        lang,
        "summary.instant_win",
        name=unit_name(model, unit, lang),
        score=str(score) if score >= 0 else f"{MINUS}{-score}",
        number=sum(result.tricks_won),
    )


def round_lines(lang: str, model: TableModel, result: HandEnded) -> list[str]:
    """Nein Nine's round (G8, G10): the 9s each took and what they cost, the round's points,
    and the scores with their stones."""
    costs = [t - p for t, p in zip(result.tricks_won, result.points, strict=True)]
    taken = [
        f"{named(name(model, s), str(n))} ({MINUS}{cost})"
        for s, (n, cost) in enumerate(zip(result.nines, costs, strict=True))
        if n
    ]
    points = [named(name(model, s), signed(p)) for s, p in enumerate(result.points)]
    scores = scores_parts(model, result.scores, lang)
    return [
        *(
            packed(taken, first=tr(lang, "summary.nines", nines=""))
            if taken
            else [tr(lang, "summary.no_nines")]
        ),
        *packed(points, first=tr(lang, "summary.round_points", points="")),
        *packed(scores, first=tr(lang, "table.scores", scores="")),
    ]


def all_tricks(
    lang: str,
    model: TableModel,
    tricks: Sequence[TrickModel],
    style: CardStyle = TEXT,
    room: int = EMBED_CHARS,
) -> list[str]:
    """Every trick of the hand, one a line, each card beside its player in play order (who
    led, who could not follow), the winner's name and card in bold (N13). Split into embed
    field values of at most 1,024 characters, two at most (13 tricks of four full names
    take two); past that players are named by their sheet codes, spelled out at the end.

    With card faces (``style``), ~46 characters a card: up to FACE_FIELDS fields and
    ``room`` characters in all (what the embed's 6,000 leave), names then codes; a hand too
    long for that lists its cards as text, as above."""
    names = [in_text(s.name) for s in model.seats]
    codes = [in_text(s.code) for s in model.seats]  # letters and digits, bidi-isolated
    legend = codes_legend(model)
    # (names, lines after the tricks, card style, most fields), the first that fits wins.
    tries = [(names, [], TEXT, TRICK_FIELDS), (codes, legend, TEXT, TRICK_FIELDS)]
    if style:
        tries = [(who, tail, style, FACE_FIELDS) for who, tail, _, _ in tries] + tries
    fields = [""]
    for who, tail, shown, most in tries:
        lines = [
            tr(
                lang,
                "summary.trick_played",
                number=t.number,
                cards=" · ".join(
                    trick_parts(lang, model, t.cards, winner=t.winner, names=who, style=shown)
                ),
            )
            for t in tricks
        ] + tail
        fields = [""]
        for line in lines:
            joined = f"{fields[-1]}\n{line}" if fields[-1] else line
            if len(joined) <= FIELD_CHARS:
                fields[-1] = joined
            else:
                fields.append(line[:FIELD_CHARS])
        if len(fields) <= most and sum(len(f) + 1 for f in fields) <= room:
            break
    return fields
