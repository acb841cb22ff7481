"""The lobby message, the first-dealer draw that starts a game, and a lobby that expired."""

from __future__ import annotations

import discord

from bot.table import LobbyModel, TableModel
from bot.words import in_text, tr

from .cards import TEXT, CardStyle
from .phone import packed
from .words import COLOUR, game_title, name, named, rules_line


def lobby_embed(lang: str, lobby: LobbyModel, *, note: str | None = None) -> discord.Embed:
    rules = lobby.rules
    embed = discord.Embed(
        title=tr(lang, "lobby.title", game=game_title(lang, rules)),
        description=rules_line(lang, rules),
        colour=COLOUR,
    )
    lines = []
    for i in range(lobby.players):
        if i < len(lobby.seats):
            seat = lobby.seats[i]
            who = in_text(seat.name)  # a name: a mention in an embed may show as <@123…>
            if seat.host:
                who += " " + tr(lang, "lobby.host")
            if seat.level is not None:  # a computer's name says it is one, not how it plays
                who += " · " + tr(lang, f"difficulty.{seat.level}")
            lines.append(f"{i + 1}. {who}")
        else:
            lines.append(f"{i + 1}. {tr(lang, 'lobby.empty_seat')}")
    embed.add_field(name=tr(lang, "lobby.seats"), value="\n".join(lines), inline=False)
    if rules.teams:
        embed.add_field(name=tr(lang, "lobby.teams_title"), value=tr(lang, "lobby.teams"))
    if lobby.thread is not None:
        embed.add_field(
            name=tr(lang, "lobby.thread_title"),
            value=tr(lang, "lobby.thread", thread=f"<#{lobby.thread}>"),
            inline=False,
        )
    if lobby.waiting:  # started or cancelled: no closing
        expires = int(lobby.closes)
        embed.add_field(name=tr(lang, "lobby.expires"), value=f"<t:{expires}:R>", inline=False)
    if note:
        embed.set_footer(text=note)
    return embed


def expired_embed(lang: str) -> discord.Embed:
    """The lobby closed by itself, unstarted."""
    return discord.Embed(
        title=tr(lang, "lobby.expired_title"),
        description=tr(lang, "lobby.expired"),
        colour=discord.Colour.dark_grey(),
    )


def draw_line(lang: str, model: TableModel, style: CardStyle = TEXT) -> str:
    """The first-dealer draw (N2, G2): each card beside who drew it (as a face in ``style``,
    in the game's notation like every card of the game), a redraw among the tied said to be
    one, and who deals first; on lines that fit a phone (``phone.py``)."""
    lines = []
    for k, draw in enumerate(model.draw):
        cards = [named(name(model, s), style.text(c, model.notation)) for s, c in draw]
        first = tr(lang, "start.draw" if k == 0 else "start.redraw")
        lines += packed(cards, first=first + " ")
    lines.append(tr(lang, "start.first_dealer", dealer=name(model, model.first_dealer)))
    return "\n".join(lines)
