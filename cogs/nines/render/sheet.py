"""The score sheet (N12): a narrow monospace table with its legend, and its picture."""

from __future__ import annotations

from collections.abc import Sequence

from bot.chat import drawable, legend_name, score_chart
from bot.table import DuplicateSheet, TableModel, clip, display_width
from bot.words import in_text, tr, trump_word
from engine import SheetRow, Suit, Trump

from .phone import packed, paragraph_lines
from .words import game_title

SUMMARY_ROWS = 12  # a hand's summary shows the latest rows; the end shows the whole sheet
SHEET_CHARS = 3000  # the whole sheet's budget in an embed description (Discord: 4,096)
CHART_FILE = "scores.png"


def _pad(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` monospace columns."""
    return " " * (width - display_width(text)) + text


def trump_letter(lang: str, trump: Trump) -> str:
    if trump is None:
        return tr(lang, "sheet.no_trump")
    assert isinstance(trump, Suit)
    return tr(lang, f"sheet.suit.{trump.value}")


def sheet_block(
    lang: str, model: TableModel, rows: Sequence[SheetRow], *, last: int | None = None
) -> str:
    """The score sheet (N12) as a narrow monospace table, then its legend: a row per hand
    with the hand's number, trump, dealer and every player's (or team's) score, each the
    total so far. No column adds the players' scores up: that sum was a checksum nobody
    needs (issue 46).

    Only ASCII and letters go inside the block, padded by their display width, so columns
    stay in line on a phone; names are short unique codes, spelled out in the legend under
    it. ``last`` keeps only the latest rows (a "..." row stands for the others), and a sheet
    too long for its embed drops its oldest rows the same way.
    """
    rules, kind, start = model.rules, model.kind, model.start_scores
    codes = [s.code for s in model.seats]
    heads = ["&".join(codes[s] for s in rules.seats_of(u)) for u in range(rules.units)]

    def score(value: int) -> str:
        return f"+{value}" if kind.signed_scores and value > 0 else str(value)

    every = [*start, *(v for row in rows for v in row.scores)]
    w = max([*(display_width(h) for h in heads), *(len(score(v)) for v in every), 2])
    num_w = max(1, len(str(rows[-1].number)) if rows else 1)
    dealer_w = max([display_width(c) for c in codes] + [display_width(tr(lang, "sheet.dealer"))])
    trump_w = max(2, display_width(tr(lang, "sheet.trump")))

    lead_w = num_w + 1 + trump_w + 1 + dealer_w

    def lead(number: str, trump: str, dealer: str) -> str:
        """The hand's number, trump and dealer: the first three columns."""
        return f"{_pad(number, num_w)} {trump.ljust(trump_w)} {dealer}"

    def line(first: str, scores: Sequence[str]) -> str:
        cells = [first + " " * (lead_w - display_width(first)), *(_pad(s, w) for s in scores)]
        return " ".join(cells).rstrip()

    head = line(lead("#", tr(lang, "sheet.trump"), tr(lang, "sheet.dealer")), heads)
    start_line = line(clip(tr(lang, "sheet.start"), lead_w), [score(v) for v in start])
    body = [
        line(
            lead(
                str(row.number),
                "-"
                if kind.trump_from_play and row.trump is None
                else trump_letter(lang, row.trump),
                codes[row.dealer],
            ),
            [score(v) for v in row.scores],
        )
        for row in rows
    ]
    duplicate = ""
    if model.duplicate is not None:  # a duplicate match's: its running result under it
        upto = rows[-1].number if rows else 0
        duplicate = "\n" + duplicate_block(lang, model.duplicate, heads, upto)
    shown = body if last is None else body[-last:]
    while shown and sum(len(b) + 1 for b in shown) > SHEET_CHARS - len(duplicate):
        shown = shown[1:]
    out = [head, start_line]
    if len(shown) < len(body):
        out.append("...")
    out.extend(shown)
    block = "```\n" + "\n".join(out) + "\n```\n"
    return block + sheet_legend(lang, model, rows) + duplicate


def duplicate_block(lang: str, match: DuplicateSheet, heads: Sequence[str], upto: int) -> str:
    """A duplicate match's running result (issue 47), as narrow as the sheet above it: which
    game of the match this is, a row per hand up to hand ``upto`` with each player's (or
    team's) share of the others beaten on the same cards in the same seat ("-" while nobody
    else has held them), the latest ``SUMMARY_ROWS``; then the match so far, and in words
    what the figures are. The first game has nobody to compare with: it says so."""
    title = tr(lang, "sheet.duplicate_title", number=match.game, games=match.games)
    if match.game == 1:
        return "\n".join([f"**{title}**", *paragraph_lines(tr(lang, "sheet.duplicate_first"))])
    total = tr(lang, "sheet.duplicate_total")

    def share(matchpoints: float, top: int) -> str:
        return "-" if top == 0 else f"{round(100 * matchpoints / top)}%"

    rows = [r for r in match.rows if r.number <= upto]
    lead_w = max(display_width(total), len(str(rows[-1].number)) if rows else 1)
    w = max([4, *(display_width(h) for h in heads)])

    def line(first: str, cells: Sequence[str]) -> str:
        first += " " * (lead_w - display_width(first))
        return " ".join([first, *(_pad(c, w) for c in cells)]).rstrip()

    body = [
        line(str(r.number), [share(m, t) for m, t in zip(r.matchpoints, r.tops, strict=True)])
        for r in rows
    ]
    out = [line("#", heads), *(["..."] if len(body) > SUMMARY_ROWS else [])]
    out += body[-SUMMARY_ROWS:]
    out.append(
        line(total, [share(m, t) for m, t in zip(match.matchpoints, match.tops, strict=True)])
    )
    legend = [
        *paragraph_lines(tr(lang, "sheet.legend_duplicate")),
        *paragraph_lines(tr(lang, "sheet.legend_duplicate_none")),
        *paragraph_lines(tr(lang, "sheet.legend_duplicate_total", total=total)),
    ]
    return "\n".join([f"**{title}**", "```", *out, "```", *legend])


def codes_legend(model: TableModel) -> list[str]:
    """Who each code is, ``Élodie Côté (Élo)``, on lines that fit a phone."""
    return packed(f"{in_text(s.name)} ({s.code})" for s in model.seats)


def sheet_legend(lang: str, model: TableModel, rows: Sequence[SheetRow]) -> str:
    """What the sheet's codes and columns say, in words, each on lines of its own that fit a
    phone (``phone.py``): who each code is, the trump letters, the dealer, and in Nein Nine
    the stones (G10)."""
    kind = model.kind
    trumps: list[str] = []
    for row in rows:
        if row.trump is None and kind.trump_from_play:
            text = tr(lang, "sheet.legend_no_eight")
        elif row.trump is None:
            text = f"{trump_letter(lang, None)} {trump_word(lang, None)}"
        else:
            text = (
                f"{trump_letter(lang, row.trump)} {row.trump.symbol} {trump_word(lang, row.trump)}"
            )
        if text not in trumps:
            trumps.append(text)
    key = "sheet.legend_trump_nein_nine" if kind.trump_from_play else "sheet.legend_trump"
    head = tr(lang, key, head=tr(lang, "sheet.trump"))
    lines = [*codes_legend(model), *packed(trumps or ["-"], first=head + " ", sep=", ")]
    lines.append(tr(lang, "sheet.legend_dealer", head=tr(lang, "sheet.dealer")))
    if kind.signed_scores:
        lines.append(tr(lang, "sheet.legend_stones"))
    return "\n".join(lines)


def score_chart_png(lang: str, model: TableModel) -> bytes | None:
    """The score sheet as a picture (bot/chat/chart.py), or None before any hand was scored."""
    if not model.sheet:
        return None
    rules, kind = model.rules, model.kind
    # The sheet's codes; one in a script the chart's font lacks becomes the seat's number code.
    seat_codes = [
        s.code if drawable(s.code) == s.code else tr(lang, "sheet.player_code", n=s.seat + 1)
        for s in model.seats
    ]
    shown = [legend_name(s.name, seat_codes[s.seat]) for s in model.seats]
    names = [" & ".join(shown[s] for s in rules.seats_of(u)) for u in range(rules.units)]
    return score_chart(
        names,
        list(model.start_scores),
        [list(row.scores) for row in model.sheet],
        title=tr(lang, f"chart.title_{kind.unit}", game=game_title(lang, rules)),
        axis_label=tr(lang, f"chart.axis_{kind.unit}"),
        winners={rules.unit_of(s) for s in model.winners or ()},
        better=tr(lang, "chart.higher_better" if kind.higher_wins else "chart.lower_better"),
        winner_label=tr(lang, "chart.winner"),
    )
