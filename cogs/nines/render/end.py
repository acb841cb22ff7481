"""The end of a game: the winners, the ranking, the whole sheet and each seat's rating change;
or, for a game that ended early, why, with its last cards and its sheet."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.storage import RatingChange
from bot.table import TableModel
from bot.words import and_list, number, tr

from .cards import TEXT, CardStyle
from .hand import last_play_lines
from .sheet import sheet_block
from .words import game_title, name, named_score, signed, unit_name


def winners_text(model: TableModel, lang: str | None = None) -> str:
    """The winners' names, listed as ``lang`` lists them (by default the game's language)
    (names: a mention in an embed may not render)."""
    return and_list(lang or model.notation, [name(model, s) for s in model.winners or ()])


def end_embed(lang: str, model: TableModel, changes: Sequence[RatingChange]) -> discord.Embed:
    """The end of the game: the winners, the final ranking, the whole score sheet (the last
    hand's summary leaves it to this message) and each seat's own rating change (two
    computers of one level each show theirs; their level's leaderboard entry moves by the
    mean, see ``bot/storage/results.py``)."""
    rules = model.rules
    embed = discord.Embed(
        title=tr(lang, "end.title", game=game_title(lang, rules)),
        description=tr(lang, "end.winners", who=winners_text(model, lang))
        + "\n"
        + sheet_block(lang, model, model.sheet),
        colour=discord.Colour.gold(),
    )
    embed.add_field(name=tr(lang, "end.ranking"), value=ranking_text(model, lang), inline=False)
    if changes:
        lines = [
            tr(
                lang,
                "end.rating_line",
                name=name(model, c.seat),
                rating=number(lang, round(c.after)),
                change=signed(round(c.after) - round(c.before)),
            )
            for c in sorted(changes, key=lambda c: c.seat)
        ]
        embed.add_field(name=tr(lang, "end.ratings"), value="\n".join(lines), inline=False)
    else:
        embed.add_field(name=tr(lang, "end.ratings"), value=tr(lang, "end.unrated"), inline=False)
    return embed


def ranking_text(model: TableModel, lang: str | None = None) -> str:
    """Players (or teams) from first to last with their final scores (``model.ranking``:
    the winners first, then the better score first; tied scores share a place)."""
    assert model.ranking is not None, "only a finished game has a ranking"
    return "\n".join(
        f"{row.place}. {named_score(model.rules, unit_name(model, row.unit, lang), row.score)}"
        for row in model.ranking
    )


def end_notice(lang: str, model: TableModel) -> str:
    """The end's notification: the final ranking with each seated person's mention (a
    computer by its name), ``🏁 Nines: game over · 1. <@1> · 2. 🤖 Max · 3. <@2>``: the
    end's own title, so the end says it the one way (issue 46). Mentions here
    only: this is message content, where a mention notifies (an embed's would not)."""
    assert model.ranking is not None, "only a finished game has a ranking"

    def who(seat: int) -> str:
        user_id = model.seats[seat].user_id
        return name(model, seat) if user_id is None else f"<@{user_id}>"

    ranking = " · ".join(
        f"{row.place}. " + and_list(lang, [who(s) for s in row.seats]) for row in model.ranking
    )
    title = tr(lang, "end.title", game=game_title(lang, model.rules))
    return tr(lang, "end.notice", title=title, ranking=ranking)


def stopped_embed(
    lang: str, model: TableModel | None, how: str, style: CardStyle = TEXT
) -> discord.Embed:
    """A game stopped, abandoned or left by everyone, where its table (or lobby) was: why
    (``how``), its last cards (faces in ``style``), that it is not rated, and its sheet if a
    hand was scored. ``model``: the public table (None if no card was dealt)."""
    text = "\n".join([how, *last_play_lines(lang, model, style), tr(lang, "end.not_rated")])
    if model is not None and model.sheet:
        text += "\n" + sheet_block(lang, model, model.sheet)
    return discord.Embed(
        title=tr(lang, "end.stopped_title"), description=text, colour=discord.Colour.dark_grey()
    )
