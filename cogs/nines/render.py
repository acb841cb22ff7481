"""What people read: lobby, table, private hand, hand summary, score sheet, end of game.

Pure functions from a session (or stored rows) to text and embeds, in one language. Components
(buttons) are built in ``ui.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.chart import score_chart
from bot.i18n import card_label, number, suit_name, tr, trump_name, trumps_label
from bot.session import GameSession
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
    TrickWon,
    sort_hand,
    stones_text,
)

from .rules_text import rules_sections

COLOUR = discord.Colour(0x2E7D32)  # card-table green
NAME_WIDTH = 6  # score sheet columns: narrow enough for a phone


def game_title(lang: str, rules: Rules) -> str:
    return tr(lang, f"game.{rules.game}")


def rules_line(lang: str, rules: Rules) -> str:
    """The rule settings in one line, e.g. "classic · trumps quebec · exchange left · ..."."""
    parts = [tr(lang, f"ruleset.{rules.name}")]
    for key, value in rules.settings().items():
        if key == "rounds":
            parts.append(tr(lang, "count.rounds", count=value))
            continue
        if key in ("exchange", "ties", "instant_win"):
            value = tr(lang, f"value.{value}")
        elif key == "trumps":
            value = trumps_label(lang, str(value))
        parts.append(tr(lang, f"setting.{key}", value=value))
    return " · ".join(parts)


def cards_text(cards: Sequence[object], lang: str = "en") -> str:
    return " ".join(card_label(c, lang) for c in cards)  # type: ignore[arg-type]


def mention(session: GameSession, seat: int) -> str:
    info = session.seats[seat]
    return f"<@{info.user_id}>" if info.user_id is not None else info.name


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
            who = mention(session, i)
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


def trump_text(lang: str, table: PublicView) -> str:
    if table.rules.game == "nein-nine":
        if table.trump is None:
            return tr(lang, "table.no_trump_yet")
        from engine import spits

        big, little = spits(table.trump)
        return tr(
            lang,
            "table.trump_spits",
            trump=trump_name(lang, table.trump),
            big=card_label(big, lang),
            little=card_label(little, lang),
        )
    return trump_name(lang, table.trump)


def trick_text(
    session: GameSession, pairs: Sequence[tuple[int, object]], call: str | None, lang: str = "en"
) -> str:
    parts = []
    for seat, card in pairs:
        text = f"{name(session, seat)} **{card_label(card, lang)}**"  # type: ignore[arg-type]
        if call and getattr(card, "suit", 0) is None:
            text += " " + tr(lang, f"table.joker_{call}")
        parts.append(text)
    return " · ".join(parts)


def scores_text(lang: str, session: GameSession, table: PublicView) -> str:
    rules = table.rules
    parts = []
    for unit in range(rules.units):
        who = " & ".join(name(session, s) for s in rules.seats_of(unit))
        score = table.scores[unit]
        shown = f"{score} ({stones_text(score)})" if rules.game == "nein-nine" else str(score)
        parts.append(f"{who} {shown}")
    return " · ".join(parts)


def table_embed(
    lang: str, session: GameSession, *, notes: Sequence[str] = (), deadline: float | None = None
) -> discord.Embed:
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
    if table.last_trick is not None:
        last = table.last_trick
        pairs = [((last.leader + k) % table.players, c) for k, c in enumerate(last.cards)]
        lines.append(
            tr(
                lang,
                "table.last_trick",
                winner=name(session, last.winner),
                card=card_label(last.winning_card, lang),
                cards=trick_text(session, pairs, last.joker, lang),
            )
        )
    tricks = " · ".join(f"{name(session, s)} {t}" for s, t in enumerate(table.tricks_won))
    lines.append(tr(lang, "table.tricks", tricks=tricks))
    lines.append(tr(lang, "table.scores", scores=scores_text(lang, session, table)))
    if table.turn is not None:
        turn = tr(lang, "table.turn", who=mention(session, table.turn))
        if session.seats[table.turn].away:
            turn += " " + tr(lang, "table.away")
        elif deadline is not None and not session.seats[table.turn].is_computer:
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


def hand_content(lang: str, session: GameSession, view: SeatView, notice: str | None) -> str:
    table = view.table
    unit = "round" if table.rules.game == "nein-nine" else "hand"
    lines = []
    if notice:
        lines.append(f"⚠️ {notice}")
    lines.append(
        tr(lang, f"hand.title_{unit}", number=table.hand_number, trump=trump_text(lang, table))
    )
    if table.trick:
        lines.append(
            tr(lang, "table.trick", cards=trick_text(session, table.trick, table.joker_call, lang))
        )
    if table.over:
        lines.append(tr(lang, "hand.over"))
    elif view.my_turn:
        key = "hand.your_exchange" if table.phase == "exchange" else "hand.your_turn"
        lines.append(tr(lang, key))
    elif table.turn is not None:
        lines.append(tr(lang, "hand.waiting", who=name(session, table.turn)))
    if view.put_down:
        put_down = cards_text(sort_hand(view.put_down[-1]), lang)
        lines.append(tr(lang, "hand.put_down", cards=put_down))
    return "\n".join(lines)


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


def sheet_block(
    lang: str, session: GameSession, rules: Rules, start: Sequence[int], rows: Sequence[SheetRow]
) -> str:
    """The score sheet (N12) as a narrow monospace table."""
    heads = [
        "&".join(name(session, s)[:NAME_WIDTH].strip() for s in rules.seats_of(u))[:NAME_WIDTH]
        for u in range(rules.units)
    ]
    w = NAME_WIDTH
    out = [
        f"{'#':>2} {tr(lang, 'sheet.trump'):<2} "
        + " ".join(h.rjust(w) for h in heads)
        + f" {'Σ':>3}"
    ]
    out.append(f"{'':>2} {'':<2} " + " ".join(str(s).rjust(w) for s in start) + f" {sum(start):>3}")
    for row in rows[-25:]:  # a message holds 2,000 characters; the latest rows matter most
        trump = tr(lang, "sheet.no_trump") if row.trump is None else row.trump.symbol
        if rules.game == "nein-nine" and row.trump is None:
            trump = "-"
        out.append(
            f"{row.number:>2} {trump:<2} "
            + " ".join(str(s).rjust(w) for s in row.scores)
            + f" {row.total:>3}"
        )
    return "```\n" + "\n".join(out) + "\n```"


def hand_summary(
    lang: str, session: GameSession, result: HandEnded, tricks: Sequence[TrickWon]
) -> discord.Embed:
    game = session.game
    assert game is not None
    rules = game.rules
    unit = "round" if rules.game == "nein-nine" else "hand"
    embed = discord.Embed(
        title=tr(lang, f"summary.title_{unit}", number=result.number), colour=COLOUR
    )
    won = " · ".join(f"{name(session, s)} {t}" for s, t in enumerate(result.tricks_won))
    lines = [tr(lang, "summary.tricks", tricks=won)]
    if result.nines:
        nines = " · ".join(
            f"{name(session, s)} {n}×9 → {p:+d}"
            for s, (n, p) in enumerate(zip(result.nines, result.points, strict=False))
        )
        lines.append(tr(lang, "summary.nines", nines=nines))
    if result.instant_win:
        lines.append(tr(lang, "summary.instant_win"))
    if result.spare is not None:
        lines.append(tr(lang, "summary.spare", cards=cards_text(sort_hand(result.spare), lang)))
    trick_lines = [
        f"{t.number}. {name(session, t.winner)}: " + " ".join(card_label(c, lang) for c in t.cards)
        for t in tricks
    ]
    if trick_lines and rules.game != "nein-nine":
        embed.add_field(
            name=tr(lang, "summary.all_tricks"), value="\n".join(trick_lines)[:1024], inline=False
        )
    lines.append(
        sheet_block(
            lang,
            session,
            rules,
            game.start_scores,
            [r for r in game.sheet if r.number <= result.number],
        )
    )
    embed.description = "\n".join(lines)
    return embed


def end_embed(
    lang: str, session: GameSession, winners: Sequence[int], changes: Sequence[RatingChange]
) -> discord.Embed:
    game = session.game
    assert game is not None
    who = " & ".join(mention(session, s) for s in winners)
    embed = discord.Embed(
        title=tr(lang, "end.title", game=game_title(lang, game.rules)),
        description=tr(lang, "end.winners", who=who)
        + "\n"
        + sheet_block(lang, session, game.rules, game.start_scores, game.sheet),
        colour=discord.Colour.gold(),
    )
    if changes:
        lines = [f"{session.seats[c.seat].name}: {c.after:.0f} ({c.delta:+.0f})" for c in changes]
        embed.add_field(name=tr(lang, "end.ratings"), value="\n".join(lines), inline=False)
    else:
        embed.add_field(name=tr(lang, "end.ratings"), value=tr(lang, "end.unrated"), inline=False)
    return embed


CHART_FILE = "scores.png"


def score_chart_png(lang: str, session: GameSession) -> bytes | None:
    """The score sheet as a picture (bot/chart.py), or None before any hand was scored."""
    game = session.game
    if game is None or not game.sheet:
        return None
    rules = game.rules
    names = [" & ".join(name(session, s) for s in rules.seats_of(u)) for u in range(rules.units)]
    unit = "round" if rules.game == "nein-nine" else "hand"
    return score_chart(
        names,
        list(game.start_scores),
        [list(row.scores) for row in game.sheet],
        title=tr(lang, "chart.title", game=game_title(lang, rules)),
        axis_label=tr(lang, f"chart.axis_{unit}"),
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
                rating=f"{r.rating:.0f}",
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
                    rating=f"{r.rating:.0f}",
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
    embed.description = "\n".join(
        [
            tr(
                lang,
                "stats.games",
                games=row.games,
                wins=row.wins,
                rate=number(lang, 100 * row.wins / row.games),
            ),
            tr(lang, "stats.tricks", avg=number(lang, row.tricks / max(1, row.hands), 2)),
            tr(lang, "stats.swaps", rate=number(lang, 100 * row.swaps / max(1, row.exchanges))),
            tr(lang, "stats.rating", rating=f"{row.rating:.0f}"),
            tr(lang, "stats.best", place=row.best_place or "-"),
        ]
    )
    return embed


def rules_embed(lang: str, rules: Rules) -> discord.Embed:
    """``/nines rules``: the game as ``rules`` will play it, a field per part of the game."""
    title = tr(lang, "rules.title", game=game_title(lang, rules))
    embed = discord.Embed(title=title, colour=COLOUR)
    for heading, text in rules_sections(lang, rules):
        embed.add_field(name=heading, value=text, inline=False)
    embed.set_footer(text=tr(lang, "rules.settings", line=rules_line(lang, rules)))
    return embed
