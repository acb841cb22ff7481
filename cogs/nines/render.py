"""What people read: lobby, table, private hand, hand summary, score sheet, end of game.

Pure functions from a session (or stored rows) to text and embeds, in one language. Components
(buttons) are built in ``ui.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.chart import drawable, legend_name, score_chart
from bot.i18n import (
    card_label,
    face_key,
    number,
    ordinal,
    suit_name,
    tr,
    trump_name,
    trump_word,
    trumps_label,
)
from bot.session import GameSession
from bot.sheet_codes import CODE_WIDTH as CODE_WIDTH
from bot.sheet_codes import clip, display_width, short_codes
from bot.storage import RatingChange, StatsRow
from engine import (
    Game,
    HandEnded,
    MustFollowSuit,
    NinesError,
    PublicView,
    Rules,
    SeatView,
    SheetRow,
    Suit,
    TrickWon,
    sort_hand,
    stones,
)

from .rules_text import rules_sections

COLOUR = discord.Colour(0x2E7D32)  # card-table green
SUMMARY_ROWS = 12  # a hand's summary shows the latest rows; the end shows the whole sheet
SHEET_CHARS = 3000  # the whole sheet's budget in an embed description (Discord: 4,096)
FIELD_CHARS = 1024  # Discord: an embed field's value
TRICK_FIELDS = 2  # fields a hand's tricks may take before names give way to codes
MINUS = "\u2212"  # the minus sign, in prose (the monospace sheet keeps ASCII "-")


def game_title(lang: str, rules: Rules) -> str:
    return tr(lang, f"game.{rules.game}")


def rules_line(lang: str, rules: Rules) -> str:
    """The rule settings in one line, e.g. "Classic (3 players) · trumps: quebec · ..."."""
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
    return " · ".join(parts)


def card_language(session: GameSession) -> str:
    """The one card notation of a game, for every reader of it: its public language's (the
    server's setting), so nobody reads D♥ on the table and Q♥ in their hand. Only the words
    around the cards follow each reader."""
    return session.language


def cards_text(cards: Sequence[object], notation: str = "en") -> str:
    """Cards in ``notation`` (a language, see ``card_language``)."""
    return " ".join(card_label(c, notation) for c in cards)  # type: ignore[arg-type]


def name(session: GameSession, seat: int) -> str:
    return session.seats[seat].name


# -- lobby ---------------------------------------------------------------------------------------


def lobby_embed(lang: str, session: GameSession, *, note: str | None = None) -> discord.Embed:
    rules = session.rules
    embed = discord.Embed(
        title=tr(lang, "lobby.title", game=game_title(lang, rules)),
        description=rules_line(lang, rules),
        colour=COLOUR,
    )
    lines = []
    for i in range(session.players):
        if i < len(session.seats):
            info = session.seats[i]
            who = name(session, i)  # a name: a mention in an embed may show as <@123…>
            if info.user_id == session.host_id:
                who += " " + tr(lang, "lobby.host")
            lines.append(f"{i + 1}. {who}")
        else:
            lines.append(f"{i + 1}. {tr(lang, 'lobby.empty_seat')}")
    embed.add_field(name=tr(lang, "lobby.seats"), value="\n".join(lines), inline=False)
    if session.rules.teams:
        embed.add_field(name=tr(lang, "lobby.teams_title"), value=tr(lang, "lobby.teams"))
    if session.channel_id != session.lobby_channel_id:
        embed.add_field(
            name=tr(lang, "lobby.thread_title"),
            value=tr(lang, "lobby.thread", thread=f"<#{session.channel_id}>"),
            inline=False,
        )
    if session.status == "lobby" and not session.closed:  # started or cancelled: no closing
        expires = int(session.lobby_deadline)
        embed.add_field(name=tr(lang, "lobby.expires"), value=f"<t:{expires}:R>", inline=False)
    if note:
        embed.set_footer(text=note)
    return embed


def draw_line(lang: str, session: GameSession) -> str:
    """The first-dealer draw, in one line (N2, G2)."""
    game = session.game
    assert game is not None
    chosen = game.opening[0]
    rounds = getattr(chosen, "rounds", ())
    parts = []
    for draw in rounds:
        parts.append(", ".join(f"{name(session, s)} {card_label(c, lang)}" for s, c in draw))
    return tr(lang, "start.draw", draws=" / ".join(parts), dealer=name(session, game.first_dealer))


# -- the table -----------------------------------------------------------------------------------


def trump_text(lang: str, table: PublicView, notation: str | None = None) -> str:
    """The trump in ``lang``'s words; Nein Nine's Spits as cards in ``notation`` (default
    ``lang``: a public message's language is the game's)."""
    notation = notation or lang
    if table.rules.game == "nein-nine":
        if table.trump is None:
            return tr(lang, "table.no_trump_yet")
        from engine import spits

        big, little = spits(table.trump)
        return tr(
            lang,
            "table.trump_spits",
            trump=trump_name(lang, table.trump),
            big=card_label(big, notation),
            little=card_label(little, notation),
        )
    return trump_name(lang, table.trump)


def trick_text(
    session: GameSession,
    pairs: Sequence[tuple[int, object]],
    call: str | None,
    lang: str = "en",
    *,
    winner: int | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """Cards beside their players in play order, a Joker with its call: ``ann **2♥** · bob
    **A♥**``. With ``winner`` (a completed trick) only the winner's name and card are bold;
    ``names`` replaces the seats' names (the sheet's short codes)."""
    parts = []
    for seat, card in pairs:
        who = names[seat] if names is not None else name(session, seat)
        label = card_label(card, card_language(session))  # type: ignore[arg-type]
        if winner is None:
            text = f"{who} **{label}**"
        elif seat == winner:
            text = f"**{who} {label}**"
        else:
            text = f"{who} {label}"
        if call and getattr(card, "suit", 0) is None:
            text += " " + tr(lang, f"table.joker_{call}")
        parts.append(text)
    return " · ".join(parts)


def trick_pairs(trick: TrickWon, players: int) -> list[tuple[int, object]]:
    """A completed trick's ``(seat, card)`` in play order."""
    return [((trick.leader + k) % players, c) for k, c in enumerate(trick.cards)]


def completed_trick_text(
    lang: str, session: GameSession, trick: TrickWon, key: str = "table.last_trick"
) -> str:
    """A completed trick on the table: who won it, with which card, and every card beside its
    player (N13, and in Nein Nine too: every card stands on the table until the next one)."""
    return tr(
        lang,
        key,
        number=trick.number,
        winner=name(session, trick.winner),
        card=card_label(trick.winning_card, card_language(session)),
        cards=trick_text(session, trick_pairs(trick, len(session.seats)), trick.joker, lang),
    )


def unit_name(session: GameSession, rules: Rules, unit: int) -> str:
    """A player's name, or a team's two names."""
    return " & ".join(name(session, s) for s in rules.seats_of(unit))


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
    if rules.game != "nein-nine":
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
    if rules.game != "nein-nine":
        return named(who, str(score) if score >= 0 else f"{MINUS}{-score}")
    return named(who, signed(score), stones_shown(score))


def scores_text(lang: str, session: GameSession, table: PublicView) -> str:
    rules = table.rules
    return " · ".join(
        named_score(rules, unit_name(session, rules, u), table.scores[u])
        for u in range(rules.units)
    )


def goal_text(lang: str, rules: Rules) -> str:
    """The quota and which way is better, in one line (N7, N8, N10; G8, G9)."""
    if rules.game == "nein-nine":
        return tr(lang, "table.goal_nein_nine")
    key = "table.goal_teams" if rules.teams else "table.goal_nines"
    return tr(lang, key, quota=rules.quota)


def tiebreak_text(lang: str, session: GameSession, table: PublicView) -> str | None:
    """Why this hand is played at all, when the game would have ended but for a tie (N8,
    G9): who is tied and at what, and until when play goes on. None in an ordinary hand."""
    rules = table.rules
    if table.over or not table.sheet or rules.teams:  # N10: one team alone reaches 0
        return None
    scores = table.scores
    if rules.game == "nein-nine":
        due = table.hand_number > rules.rounds or any(abs(v) >= rules.limit for v in scores)
        best = max(scores)
    else:
        best = min(scores)
        due = best <= 0
    if not due:
        return None
    tied = [unit_name(session, rules, u) for u in range(rules.units) if scores[u] == best]
    key = "table.tiebreak_nein_nine" if rules.game == "nein-nine" else "table.tiebreak_nines"
    return tr(
        lang,
        key,
        number=table.hand_number,
        names=" & ".join(tied),
        score=signed(best) if rules.game == "nein-nine" else str(best),
    )


def tricks_text(session: GameSession, rules: Rules, tricks_won: Sequence[int]) -> str:
    """Tricks taken so far, against the quota in Nines (``alice 2/4``; a team's together)."""
    parts = []
    for u in range(rules.units):
        won = sum(tricks_won[s] for s in rules.seats_of(u))
        quota = "" if rules.game == "nein-nine" else f"/{rules.quota}"
        parts.append(named(unit_name(session, rules, u), f"{won}{quota}"))
    return " · ".join(parts)


def table_embed(
    lang: str,
    session: GameSession,
    *,
    notes: Sequence[str] = (),
    deadline: float | None = None,
    shown_tricks: int | None = None,
) -> discord.Embed:
    """The hand in play. ``shown_tricks``: how many of this hand's completed tricks the table
    showed at its previous edit (None: not known, after a restart). Computers' cards come in
    one edit, so every trick completed since then is listed, not only the last: people are
    never shown less of the play than a computer's seat view holds (R1)."""
    game = session.game
    assert game is not None
    table = public_view_of(game)
    rules = table.rules
    unit = "round" if rules.game == "nein-nine" else "hand"
    embed = discord.Embed(
        title=tr(
            lang, f"table.title_{unit}", game=game_title(lang, rules), number=table.hand_number
        ),
        colour=COLOUR,
    )
    lines = [
        tr(lang, "table.trump", trump=trump_text(lang, table)),
        tr(lang, "table.dealer", dealer=name(session, table.dealer)),
        goal_text(lang, rules),
    ]
    if table.exchange_order:
        done = dict(table.exchange)
        parts = []
        for seat in table.exchange_order:
            if seat in done:
                parts.append(
                    tr(
                        lang,
                        "table.swapped" if done[seat] else "table.kept",
                        name=name(session, seat),
                    )
                )
        if parts:
            lines.append(tr(lang, "table.exchange", decisions=" · ".join(parts)))
    if table.trick:
        lines.append(
            tr(lang, "table.trick", cards=trick_text(session, table.trick, table.joker_call, lang))
        )
    # From the game's record, not the public view: in Nein Nine that hides taken tricks (G11),
    # but the last one stands on the table like every card until the next is played.
    completed = game.tricks
    first_unseen = len(completed) - 1 if shown_tricks is None else max(0, shown_tricks)
    for trick in completed[first_unseen : len(completed) - 1]:
        lines.append(completed_trick_text(lang, session, trick, "table.passed_trick"))
    if completed:
        lines.append(completed_trick_text(lang, session, completed[-1]))
    tiebreak = tiebreak_text(lang, session, table)
    if tiebreak:
        lines.append(tiebreak)
    lines.append(tr(lang, "table.tricks", tricks=tricks_text(session, rules, table.tricks_won)))
    lines.append(tr(lang, "table.scores", scores=scores_text(lang, session, table)))
    if table.turn is not None:
        turn = tr(lang, "table.turn", who=name(session, table.turn))
        if session.seats[table.turn].away:
            turn += " " + tr(lang, "table.away")
        elif deadline is not None and not session.seats[table.turn].is_computer:
            # Discord writes <t:…:R> ("in 2 minutes") in each reader's client language
            # (Discord API docs, Reference > Message Formatting > Timestamp Styles): alone
            # after an icon, so no sentence of ours mixes two languages.
            turn += " " + tr(lang, "table.deadline", when=f"<t:{int(deadline)}:R>")
        lines.append(turn)
    embed.description = "\n".join(lines)
    if notes:
        embed.add_field(name="\u200b", value="\n".join(notes), inline=False)
    return embed


def public_view_of(game: Game) -> PublicView:
    from engine import public_view

    return public_view(game)


def turn_content(lang: str, session: GameSession) -> str | None:
    """The mention that notifies the person whose turn it is (in message content)."""
    game = session.game
    if game is None or game.turn is None:
        return None
    info = session.seats[game.turn]
    if info.played_by_computer:
        return None
    return tr(lang, "table.your_turn", who=f"<@{info.user_id}>")


# -- the private hand ----------------------------------------------------------------------------


def hand_content(
    lang: str,
    session: GameSession,
    view: SeatView,
    notice: str | None,
    *,
    joker_prompt: bool = False,
) -> str:
    table = view.table
    unit = "round" if table.rules.game == "nein-nine" else "hand"
    notation = card_language(session)
    lines = []
    if notice:
        lines.append(f"⚠️ {notice}")
    trump = trump_text(lang, table, notation)
    lines.append(tr(lang, f"hand.title_{unit}", number=table.hand_number, trump=trump))
    if table.phase == "play":
        lines.append(standing_text(lang, table, view.seat))
    if table.trick:
        lines.append(
            tr(lang, "table.trick", cards=trick_text(session, table.trick, table.joker_call, lang))
        )
    if view.played:  # on a phone the table is off screen: the last trick is here too
        lines.append(completed_trick_text(lang, session, view.played[-1]))
    if table.over:
        lines.append(tr(lang, "hand.over"))
    elif view.my_turn and joker_prompt:  # the Joker clicked: it waits for its call (G7)
        lines.append(tr(lang, "hand.joker_call"))
    elif view.my_turn:
        key = "hand.your_exchange" if table.phase == "exchange" else "hand.your_turn"
        lines.append(tr(lang, key))
    elif table.turn is not None:
        lines.append(tr(lang, "hand.waiting", who=name(session, table.turn)))
    if view.put_down:
        put_down = cards_text(sort_hand(view.put_down[-1]), notation)
        lines.append(tr(lang, "hand.put_down", cards=put_down))
    if notation != lang:  # the table's letters, for a reader of the other language
        faces = "J" if table.rules.game == "nein-nine" else "KQJ"  # G1: no king or queen
        lines.append(tr(lang, "hand.card_key", key=face_key(lang, notation, faces)))
    return "\n".join(lines)


def closed_hand_content(lang: str, session: GameSession, how: str) -> str:
    """A private hand once the game has ended: that it is over and how (``how``: the winners,
    or who stopped it, or why it was abandoned), with its last trick; no card is offered."""
    lines = [f"**{tr(lang, 'end.title', game=game_title(lang, session.rules))}**", how]
    return "\n".join(lines + last_play_lines(lang, session))


def last_play_lines(lang: str, session: GameSession) -> list[str]:
    """The trick in progress and the last completed one, where a game ended: its last cards
    stay in view beside their players."""
    game = session.game
    if game is None:
        return []
    lines = []
    if game.trick:
        table = public_view_of(game)
        cards = trick_text(session, table.trick, table.joker_call, lang)
        lines.append(tr(lang, "table.trick", cards=cards))
    if game.tricks:
        lines.append(completed_trick_text(lang, session, game.tricks[-1]))
    return lines


def standing_text(lang: str, table: PublicView, seat: int) -> str:
    """The seat's tricks so far (against the quota, a team's together) and its score."""
    rules = table.rules
    unit = rules.unit_of(seat)
    won = sum(table.tricks_won[s] for s in rules.seats_of(unit))
    tricks = str(won) if rules.game == "nein-nine" else f"{won}/{rules.quota}"
    key = "hand.standing_team" if rules.teams else "hand.standing"
    return tr(lang, key, tricks=tricks, score=score_shown(rules, table.scores[unit]))


def error_text(lang: str, error: Exception) -> str:
    """An engine refusal in the reader's language."""
    if isinstance(error, MustFollowSuit):
        return tr(lang, "error.follow_suit", suit=suit_name(lang, error.suit))
    key = {
        "NotYourTurn": "error.not_your_turn",
        "GameIsOver": "error.game_over",
        "JokerNeedsCall": "error.joker_call",
        "NotInHand": "error.not_in_hand",
    }.get(type(error).__name__)
    if key:
        return tr(lang, key)
    if type(error).__name__ == "WrongPhase":
        over = "exchange is over" in str(error)
        return tr(lang, "error.exchange_over" if over else "error.exchange_first")
    if type(error).__name__ == "IllegalAction" and "win" in str(error):
        return tr(lang, "error.call_only_joker")
    if isinstance(error, NinesError):
        return tr(lang, "error.illegal_generic", detail=str(error))
    return tr(lang, "error.unexpected")


# -- end of hand and game ------------------------------------------------------------------------


def _pad(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` monospace columns."""
    return " " * (width - display_width(text)) + text


def trump_letter(lang: str, trump: object) -> str:
    if trump is None:
        return tr(lang, "sheet.no_trump")
    assert isinstance(trump, Suit)
    return tr(lang, f"sheet.suit.{trump.value}")


def sheet_block(
    lang: str,
    session: GameSession,
    rules: Rules,
    start: Sequence[int],
    rows: Sequence[SheetRow],
    *,
    last: int | None = None,
) -> str:
    """The score sheet (N12) as a narrow monospace table, then its legend: a row per hand
    with the hand's number, trump, dealer, every score and (in Nines) their total.

    Only ASCII and letters go inside the block, padded by their display width, so columns
    stay in line on a phone; names are short unique codes, spelled out in the legend under
    it. ``last`` keeps only the latest rows (a "..." row stands for the others), and a sheet
    too long for its embed drops its oldest rows the same way.
    """
    codes = short_codes(lang, [name(session, s) for s in range(rules.players)])
    heads = ["&".join(codes[s] for s in rules.seats_of(u)) for u in range(rules.units)]
    nein = rules.game == "nein-nine"

    def score(value: int) -> str:
        return f"+{value}" if nein and value > 0 else str(value)

    every = [*start, *(v for row in rows for v in row.scores)]
    w = max([*(display_width(h) for h in heads), *(len(score(v)) for v in every), 2])
    num_w = max(1, len(str(rows[-1].number)) if rows else 1)
    dealer_w = max([display_width(c) for c in codes] + [display_width(tr(lang, "sheet.dealer"))])
    trump_w = max(2, display_width(tr(lang, "sheet.trump")))
    total_w = max(3, display_width(tr(lang, "sheet.total")), len(str(sum(start))))

    lead_w = num_w + 1 + trump_w + 1 + dealer_w

    def lead(number: str, trump: str, dealer: str) -> str:
        """The hand's number, trump and dealer: the first three columns."""
        return f"{_pad(number, num_w)} {trump.ljust(trump_w)} {dealer}"

    def line(first: str, scores: Sequence[str], total: str) -> str:
        cells = [first + " " * (lead_w - display_width(first)), *(_pad(s, w) for s in scores)]
        if not nein:
            cells.append(_pad(total, total_w))
        return " ".join(cells).rstrip()

    head = line(
        lead("#", tr(lang, "sheet.trump"), tr(lang, "sheet.dealer")),
        heads,
        tr(lang, "sheet.total"),
    )
    start_line = line(
        clip(tr(lang, "sheet.start"), lead_w), [score(v) for v in start], str(sum(start))
    )
    body = [
        line(
            lead(
                str(row.number),
                "-" if nein and row.trump is None else trump_letter(lang, row.trump),
                codes[row.dealer],
            ),
            [score(v) for v in row.scores],
            str(row.total),
        )
        for row in rows
    ]
    shown = body if last is None else body[-last:]
    while shown and sum(len(b) + 1 for b in shown) > SHEET_CHARS:
        shown = shown[1:]
    out = [head, start_line]
    if len(shown) < len(body):
        out.append("...")
    out.extend(shown)
    return "```\n" + "\n".join(out) + "\n```\n" + sheet_legend(lang, session, rules, codes, rows)


def sheet_legend(
    lang: str, session: GameSession, rules: Rules, codes: Sequence[str], rows: Sequence[SheetRow]
) -> str:
    """Who each code is, what the column heads and the trump letters say."""
    people = " · ".join(f"`{codes[s]}` {name(session, s)}" for s in range(rules.players))
    trumps: list[str] = []
    for row in rows:
        if row.trump is None and rules.game == "nein-nine":
            text = tr(lang, "sheet.legend_no_eight")
        elif row.trump is None:
            text = f"{trump_letter(lang, None)} {trump_word(lang, None)}"
        else:
            text = (
                f"{trump_letter(lang, row.trump)} {row.trump.symbol} {trump_word(lang, row.trump)}"
            )
        if text not in trumps:
            trumps.append(text)
    key = "sheet.legend_nein_nine" if rules.game == "nein-nine" else "sheet.legend"
    columns = tr(lang, key, trumps=", ".join(trumps) or "-")
    return people + "\n" + columns


def hand_summary(
    lang: str,
    session: GameSession,
    result: HandEnded,
    tricks: Sequence[TrickWon],
    *,
    sheet: bool = True,
) -> discord.Embed:
    """A hand's outcome: tricks against the quota and what they did to each score, every trick
    card by card (N13; Nein Nine's too, now that the round is over, G11), the spare, and the
    sheet so far. ``sheet=False``: the game's last hand, whose end message carries the sheet."""
    game = session.game
    assert game is not None
    rules = game.rules
    unit = "round" if rules.game == "nein-nine" else "hand"
    embed = discord.Embed(
        title=tr(lang, f"summary.title_{unit}", number=result.number), colour=COLOUR
    )
    if rules.game == "nein-nine":
        lines = [tr(lang, "summary.tricks", tricks=tricks_text(session, rules, result.tricks_won))]
        lines.extend(round_lines(lang, session, rules, result))
    else:
        lines = [tr(lang, "summary.tricks", tricks=hand_changes(session, game, result))]
    if result.instant_win:
        lines.append(tr(lang, "summary.instant_win"))
    if result.spare is not None:
        lines.append(tr(lang, "summary.spare", cards=cards_text(sort_hand(result.spare), lang)))
    for k, value in enumerate(all_tricks(lang, session, tricks) if tricks else ()):
        # A second field goes on under an invisible name: the list reads as one.
        title = tr(lang, "summary.all_tricks") if k == 0 else "\u200b"
        embed.add_field(name=title, value=value, inline=False)
    if sheet:
        rows = [r for r in game.sheet if r.number <= result.number]
        lines.append(sheet_block(lang, session, rules, game.start_scores, rows, last=SUMMARY_ROWS))
    embed.description = "\n".join(lines)
    return embed


def hand_changes(session: GameSession, game: Game, result: HandEnded) -> str:
    """Nines: each player's (or team's) tricks against the quota and the change to their
    score, ``alice **6**/4 (−2)``: a trick over quota costs a point, one under gains one."""
    rules = game.rules
    before = next(
        (r.scores for r in game.sheet if r.number == result.number - 1), game.start_scores
    )
    parts = []
    for u in range(rules.units):
        won = sum(result.tricks_won[s] for s in rules.seats_of(u))
        change = result.scores[u] - before[u]
        parts.append(
            named(unit_name(session, rules, u), str(won)) + f"/{rules.quota} ({signed(change)})"
        )
    return " · ".join(parts)


def round_lines(lang: str, session: GameSession, rules: Rules, result: HandEnded) -> list[str]:
    """Nein Nine's round (G8, G10): the 9s each took and what they cost, the round's points,
    and the scores with their stones."""
    costs = [t - p for t, p in zip(result.tricks_won, result.points, strict=True)]
    taken = [
        f"{named(name(session, s), str(n))} ({MINUS}{cost})"
        for s, (n, cost) in enumerate(zip(result.nines, costs, strict=True))
        if n
    ]
    points = " · ".join(named(name(session, s), signed(p)) for s, p in enumerate(result.points))
    scores = " · ".join(
        named_score(rules, unit_name(session, rules, u), v) for u, v in enumerate(result.scores)
    )
    return [
        tr(lang, "summary.nines", nines=" · ".join(taken))
        if taken
        else tr(lang, "summary.no_nines"),
        tr(lang, "summary.round_points", points=points),
        tr(lang, "table.scores", scores=scores),
    ]


def all_tricks(lang: str, session: GameSession, tricks: Sequence[TrickWon]) -> list[str]:
    """Every trick of the hand, one a line, each card beside its player in play order (who
    led, who could not follow), the winner's name and card in bold (N13). Split into embed
    field values of at most 1,024 characters, two at most (13 tricks of four full names
    take two); past that players are named by their sheet codes, spelled out at the end."""
    players = len(session.seats)
    names = [name(session, s) for s in range(players)]
    codes = short_codes(lang, names)
    legend = " · ".join(f"`{c}` {n}" for c, n in zip(codes, names, strict=True))
    for who, tail in ((names, []), (codes, [legend])):
        lines = [
            tr(
                lang,
                "summary.trick_played",
                number=t.number,
                cards=trick_text(
                    session, trick_pairs(t, players), t.joker, lang, winner=t.winner, names=who
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
        if len(fields) <= TRICK_FIELDS:
            break
    return fields


def end_embed(
    lang: str, session: GameSession, winners: Sequence[int], changes: Sequence[RatingChange]
) -> discord.Embed:
    """The end of the game: the winners (names: a mention in an embed may not render), the
    final ranking, the whole score sheet (the last hand's summary leaves it to this message)
    and each seat's own rating change (two computers of one level each show theirs; their
    level's leaderboard entry moves by the mean, see ``bot/storage/results.py``)."""
    game = session.game
    assert game is not None
    rules = game.rules
    who = " & ".join(name(session, s) for s in winners)
    embed = discord.Embed(
        title=tr(lang, "end.title", game=game_title(lang, rules)),
        description=tr(lang, "end.winners", who=who)
        + "\n"
        + sheet_block(lang, session, rules, game.start_scores, game.sheet),
        colour=discord.Colour.gold(),
    )
    embed.add_field(
        name=tr(lang, "end.ranking"), value=ranking_text(session, game, winners), inline=False
    )
    if changes:
        lines = [
            tr(
                lang,
                "end.rating_line",
                name=session.seats[c.seat].name,
                rating=number(lang, round(c.after)),
                change=signed(round(c.after) - round(c.before)),
            )
            for c in sorted(changes, key=lambda c: c.seat)
        ]
        embed.add_field(name=tr(lang, "end.ratings"), value="\n".join(lines), inline=False)
    else:
        embed.add_field(name=tr(lang, "end.ratings"), value=tr(lang, "end.unrated"), inline=False)
    return embed


def ranking_text(session: GameSession, game: Game, winners: Sequence[int]) -> str:
    """Players (or teams) from first to last with their final scores: the winners first, then
    by score (lowest first in Nines, highest in Nein Nine); tied scores share a place."""
    rules = game.rules
    better = 1 if rules.game == "nein-nine" else -1
    won = {rules.unit_of(s) for s in winners}

    def key(unit: int) -> tuple[bool, int]:
        return (unit not in won, -better * game.scores[unit])

    order = sorted(range(rules.units), key=key)
    lines = []
    for unit in order:
        place = 1 + sum(1 for other in order if key(other) < key(unit))
        who = unit_name(session, rules, unit)
        lines.append(f"{place}. {named_score(rules, who, game.scores[unit])}")
    return "\n".join(lines)


CHART_FILE = "scores.png"


def score_chart_png(lang: str, session: GameSession) -> bytes | None:
    """The score sheet as a picture (bot/chart.py), or None before any hand was scored."""
    game = session.game
    if game is None or not game.sheet:
        return None
    rules = game.rules
    seat_codes = short_codes(lang, [name(session, s) for s in range(rules.players)])
    # The sheet's codes; one in a script the chart's font lacks becomes the seat's number code.
    seat_codes = [
        c if drawable(c) == c else tr(lang, "sheet.player_code", n=s + 1)
        for s, c in enumerate(seat_codes)
    ]
    shown = [legend_name(name(session, s), seat_codes[s]) for s in range(rules.players)]
    names = [" & ".join(shown[s] for s in rules.seats_of(u)) for u in range(rules.units)]
    unit = "round" if rules.game == "nein-nine" else "hand"
    nein = rules.game == "nein-nine"
    return score_chart(
        names,
        list(game.start_scores),
        [list(row.scores) for row in game.sheet],
        title=tr(lang, f"chart.title_{unit}", game=game_title(lang, rules)),
        axis_label=tr(lang, f"chart.axis_{unit}"),
        winners={rules.unit_of(s) for s in game.winners or ()},
        better=tr(lang, "chart.higher_better" if nein else "chart.lower_better"),
        winner_label=tr(lang, "chart.winner"),
    )


# -- leaderboard, stats, rules -------------------------------------------------------------------


def leaderboard_embed(
    lang: str,
    game: str,
    page: int,
    pages: int,
    rows: Sequence[StatsRow],
    computers: Sequence[StatsRow],
    first_rank: int,
) -> discord.Embed:
    embed = discord.Embed(
        title=tr(lang, "leaderboard.title", game=tr(lang, f"game.{game}")), colour=COLOUR
    )
    if not rows:
        embed.description = tr(lang, "leaderboard.empty")
    else:
        embed.description = "\n".join(
            tr(
                lang,
                "leaderboard.row",
                rank=first_rank + i,
                name=r.name,
                rating=number(lang, round(r.rating)),
                games=tr(lang, "count.games", count=r.games),
                wins=tr(lang, "count.wins", count=r.wins),
                rate=number(lang, 100 * r.wins / max(1, r.games)),
            )
            for i, r in enumerate(rows)
        )
    if computers:
        embed.add_field(
            name=tr(lang, "leaderboard.computers"),
            value="\n".join(
                tr(
                    lang,
                    "leaderboard.computer_row",
                    name=r.name,
                    rating=number(lang, round(r.rating)),
                    games=tr(lang, "count.games", count=r.games),
                    wins=tr(lang, "count.wins", count=r.wins),
                )
                for r in computers
            ),
            inline=False,
        )
    embed.set_footer(text=tr(lang, "leaderboard.page", page=page, pages=max(1, pages)))
    return embed


def stats_embed(lang: str, who: str, game: str, row: StatsRow | None) -> discord.Embed:
    embed = discord.Embed(
        title=tr(lang, "stats.title", name=who, game=tr(lang, f"game.{game}")), colour=COLOUR
    )
    if row is None or row.games == 0:
        embed.description = tr(lang, "stats.none")
        return embed
    lines = [
        tr(
            lang,
            "stats.games",
            games=number(lang, row.games),
            wins=number(lang, row.wins),
            rate=number(lang, 100 * row.wins / row.games),
        ),
        tr(lang, "stats.tricks", avg=number(lang, row.tricks / max(1, row.hands), 2)),
    ]
    if row.exchanges:  # Nein Nine and the four-seat games have no exchange to count
        lines.append(tr(lang, "stats.swaps", rate=number(lang, 100 * row.swaps / row.exchanges)))
    lines.append(tr(lang, "stats.rating", rating=number(lang, round(row.rating))))
    if row.best_place:
        lines.append(tr(lang, "stats.best", place=ordinal(lang, row.best_place)))
    embed.description = "\n".join(lines)
    return embed


def rules_embed(lang: str, rules: Rules) -> discord.Embed:
    """``/nines rules``: the game as ``rules`` will play it, a field per part of the game."""
    title = tr(lang, "rules.title", game=game_title(lang, rules))
    embed = discord.Embed(title=title, colour=COLOUR)
    for heading, text in rules_sections(lang, rules):
        embed.add_field(name=heading, value=text, inline=False)
    embed.set_footer(text=tr(lang, "rules.settings", line=rules_line(lang, rules)))
    return embed
