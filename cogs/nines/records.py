"""``/nines history [member]`` and ``/nines record <game>``: the server's past games, a cog of
its own.

A record is the game replayed from storage (rules, seed, the stored actions) and written out by
the engine in the ``nines-record/1`` format (shared/spec/game-record.md), with the players'
names as they finished: anyone can replay or analyse it.
"""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.storage import FORMER_PLAYER_KEY, HistoryRow, Storage, player_key
from bot.words import language_of, names, tr
from engine import Game, game_record, game_type

from . import replies
from .render import COLOUR, MINUS, named, signed

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
HISTORY_SIZE = 10
#: Columns of a name in a history line (six of them share a line on a phone) and in the title.
HISTORY_NAME_LIMIT = 24
TITLE_NAME_LIMIT = 32


def player_name(lang: str, key: str, name: str) -> str:
    return tr(lang, "history.former") if key == FORMER_PLAYER_KEY else name


def final_score(kind: str, score: int) -> str:
    """A final score as the table wrote it: Nein Nine's signed (``+3``), a minus sign in
    prose (``−1``), not a hyphen."""
    return signed(score) if game_type(kind).signed_scores else str(score).replace("-", MINUS)


def history_line(lang: str, row: HistoryRow) -> str:
    players = []
    seats = sorted(row.players, key=lambda p: p.seat)
    shown = names.distinct(
        [player_name(lang, p.player_key, p.name) for p in seats],
        [p.is_computer for p in seats],
        limit=HISTORY_NAME_LIMIT,
    )
    for p, name in zip(seats, shown, strict=True):
        text = names.in_text(name)
        if p.final_score is not None:
            text = named(text, final_score(row.kind, p.final_score))
        if p.seat in row.winners:
            text = "🏆 " + text
        players.append(text)
    unit = "count.rounds" if game_type(row.kind).unit == "round" else "count.hands"
    outcome = (
        tr(lang, unit, count=row.hands_played or 0)
        if row.status == "finished"
        else tr(lang, "history.abandoned")
    )
    # A tournament's table says so (issue 48).
    tid = row.tournament_id
    marked = "" if tid is None else tr(lang, "history.tournament", id=tid)
    return tr(
        lang,
        "history.row",
        id=row.game_id,
        game=tr(lang, f"game.{row.kind}") + marked,
        when=f"<t:{int(row.ended_at)}:R>",
        outcome=outcome,
        players=" · ".join(players),
    )


def history_embed(lang: str, rows: list[HistoryRow], who: str | None) -> discord.Embed:
    """``who``: the member whose games these are (a raw display name), or None for all."""
    if who is None:
        title = tr(lang, "history.title")
    else:  # a name with nothing drawable still says whose games these are: "?"
        shown = names.in_text(names.clean(who, "?"), TITLE_NAME_LIMIT)
        title = tr(lang, "history.title_member", name=shown)
    embed = discord.Embed(title=title, colour=COLOUR)
    if not rows:
        embed.description = tr(lang, "history.empty")
    else:
        embed.description = "\n".join(history_line(lang, r) for r in rows)[:4000]
        embed.set_footer(text=tr(lang, "history.footer"))
    return embed


async def build_record(storage: Storage, game_id: int) -> dict[str, Any]:
    """The game's record, replayed from storage; LookupError if it is not an ended game."""
    row = await storage.game(game_id)
    if row is None or row.is_open:
        raise LookupError(game_id)
    actions = [[a.seat, a.action] for a in await storage.actions(game_id)]
    game = Game.from_dict({"rules": row.rules, "seed": row.seed, "actions": actions})
    seats = sorted(await storage.seats(game_id), key=lambda s: s.seat)
    raw = [s.name for s in seats]
    finished = await storage.game_result(game_id)
    if finished is not None:  # the names the players finished under
        by_seat = {s.seat: s.name for s in finished.result.seats}
        raw = [by_seat.get(i, n) for i, n in enumerate(raw)]
    # As the table showed them: cleaned and told apart (Alex, Alex (2)); JSON needs no escaping.
    shown = names.distinct(raw, [s.is_computer for s in seats])
    record = game_record(game, shown, abandoned=row.status == "abandoned")
    record["id"] = row.id
    record["ended_at"] = row.ended_at
    if row.status == "abandoned":
        record["end_reason"] = row.end_reason
    if row.tournament_id is not None:
        record["tournament"] = row.tournament_id
    return record


class RecordsCog(commands.Cog, name="Nines records"):
    """The server's past games: ``/nines history`` and ``/nines record``."""

    def __init__(self, bot: NinesBot, nines: app_commands.Group) -> None:
        self.bot = bot
        # Subcommands of /nines, not commands of their own: moved into the group before the
        # cog is added (which would register what is left here at the top level).
        for command in self.__cog_app_commands__:
            nines.add_command(command)
        self.__cog_app_commands__ = []

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await replies.command_failed(interaction, error)

    @app_commands.command(
        name=_("history", key="cmd.history"),
        description=_("Recent games in this server", key="cmd.history.desc"),
    )
    @app_commands.rename(member=_("member", key="opt.member.name"))
    @app_commands.describe(member=_("Only the games this member played", key="opt.history_member"))
    async def history(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        guild_id = interaction.guild_id or 0
        settings = await self.bot.storage.get_guild_settings(guild_id)
        lang = replies.public_language(interaction, settings)
        rows = await self.bot.storage.history(
            guild_id,
            player_key=player_key(member.id, None) if member else None,
            limit=HISTORY_SIZE,
        )
        embed = history_embed(lang, rows, member.display_name if member else None)
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(
        name=_("record", key="cmd.record"),
        description=_(
            "A finished game as a JSON record, to replay or analyse", key="cmd.record.desc"
        ),
    )
    @app_commands.rename(game=_("number", key="opt.game_id.name"))
    @app_commands.describe(game=_("The game's number (see /nines history)", key="opt.game_id"))
    async def record(self, interaction: Interaction, game: app_commands.Range[int, 1]) -> None:
        lang = language_of(interaction.locale)
        row = await self.bot.storage.game(game)
        if row is None or row.guild_id != interaction.guild_id:
            await replies.private(interaction, tr(lang, "record.unknown", id=game))
            return
        if row.is_open:
            await replies.private(interaction, tr(lang, "record.open", id=game))
            return
        daily = await self.bot.storage.daily_of_game(game)
        if daily is not None and daily.day >= self.bot.daily.today():
            # Today's deal: its cards are nobody's to read until it opens at 00:00 UTC.
            await replies.private(interaction, tr(lang, "record.daily", id=game, day=daily.day))
            return
        try:
            data = await build_record(self.bot.storage, game)
        except Exception:
            log.exception("game %s does not replay into a record", game)
            await replies.private(interaction, tr(lang, "record.broken", id=game))
            return
        text = json.dumps(data, ensure_ascii=False, indent=1)
        await interaction.response.send_message(
            tr(lang, "record.ready", id=game),
            file=discord.File(io.BytesIO(text.encode()), filename=f"nines-game-{game}.json"),
            ephemeral=True,
        )
