"""The records' messages: the leaderboard, a player's stats, and ``/nines rules``."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.storage import StatsRow
from bot.words import catalogue, distinct, in_text, number, ordinal, tr
from engine import Rules

from ..rules_text import rules_sections
from .phone import packed, paragraph_lines
from .words import COLOUR, game_title, rules_parts


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
    # Two players of one display name read apart (``Alex``, ``Alex (2)``) on the page.
    shown = distinct(
        [r.name for r in (*rows, *computers)], [False] * len(rows) + [True] * len(computers)
    )
    if not rows:
        embed.description = tr(lang, "leaderboard.empty")
    else:
        embed.description = "\n".join(
            tr(
                lang,
                "leaderboard.row",
                rank=first_rank + i,
                name=in_text(shown[i]),
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
                    name=in_text(computer_row_name(lang, r)),
                    rating=number(lang, round(r.rating)),
                    games=tr(lang, "count.games", count=r.games),
                    wins=tr(lang, "count.wins", count=r.wins),
                )
                for i, r in enumerate(computers)
            ),
            inline=False,
        )
    embed.set_footer(text=tr(lang, "leaderboard.page", page=page, pages=max(1, pages)))
    return embed


def computer_row_name(lang: str, row: StatsRow) -> str:
    """A computer level's row: the level's name ("🤖 Easy bot"), for its games were played by
    computers of that level under many names ("🤖 Pip", "🤖 Bobo"); a level this version does
    not know keeps the name it was stored with."""
    key = f"computer.name.{row.player_key.removeprefix('cpu:')}"
    return tr(lang, key) if key in catalogue(lang) else row.name


STATS_NAME_LIMIT = 32  # columns of the member's name in the stats' title


def stats_embed(lang: str, who: str, game: str, row: StatsRow | None) -> discord.Embed:
    embed = discord.Embed(
        # An embed's title renders markdown (bold, italic, underline: as reported in
        # github.com/skyra-project/discord-components/issues/400), unlike a footer or an
        # author's name (github.com/Pycord-Development/pycord/issues/96, "a discord
        # limitation"; bot/names.in_plain): the name is escaped as running text.
        title=tr(
            lang, "stats.title", name=in_text(who, STATS_NAME_LIMIT), game=tr(lang, f"game.{game}")
        ),
        colour=COLOUR,
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
        # Broken after a sentence (a clause where one is too long): a phone wraps each line once.
        embed.add_field(name=heading, value="\n".join(paragraph_lines(text)), inline=False)
    settings = packed(rules_parts(lang, rules), first=tr(lang, "rules.settings", line=""))
    embed.set_footer(text="\n".join(settings))
    return embed
