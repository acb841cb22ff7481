"""A tournament in Discord: its registration message and buttons, its tables' threads, its
standings and its champion. The runner (bot/tournament/runner.py) decides; this shows."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.base import discord_internals
from bot.game import Change, GameSession
from bot.storage.tournament_values import Entrant, PairedTable, TournamentRow
from bot.tournament import TournamentError
from bot.tournament.standings import Standing, ranking
from bot.words import and_list, language_of, names, tr

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

TEMPLATE: Final = r"nines:1:tourney:(?P<verb>join|leave|checkin):(?P<id>[1-9][0-9]{0,17})"
VERBS: Final = ("join", "leave", "checkin")


def nonce(t: TournamentRow, what: str) -> str:
    """The nonce of one message a tournament owes its channel or a table's thread: Discord
    returns the message already made with it by this bot (for a few minutes), so a post
    repeated after a restart between posting and storing it is the same message. From the
    tournament's random seed, not its id, which another database would reuse. At most 25
    characters."""
    return f"{t.seed:x}"[:13] + what


def is_ours(custom_id: str) -> bool:
    return re.fullmatch(TEMPLATE, custom_id) is not None


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Join, Leave and Check in on a registration message; found by custom_id after a
    restart (registered with the bot's other buttons)."""

    def __init__(self, verb: str, tournament_id: int, lang: str = "en") -> None:
        style = discord.ButtonStyle.success if verb == "join" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=tr(lang, f"tournament.button.{verb}"),
                style=style,
                custom_id=f"nines:1:tourney:{verb}:{tournament_id}",
            )
        )
        self.verb = verb
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(match["verb"], int(match["id"]), language_of(interaction.locale))

    async def answer(self, _controller: object, interaction: Interaction) -> None:
        """As the extension's router answers every button of ours."""
        await self.callback(interaction)

    async def callback(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        runner = getattr(interaction.client, "tournaments", None)
        try:
            if runner is None:
                raise TournamentError("tournament.error.unknown")
            user = interaction.user
            if self.verb == "join":
                name = names.stored(user.display_name)
                first = await runner.join(self.tournament_id, user.id, name)
                key = "tournament.joined" if first == 1 else "tournament.joined_late"
                text = tr(lang, key, round=first)
            elif self.verb == "leave":
                await runner.leave(self.tournament_id, user.id)
                text = tr(lang, "tournament.left")
            else:
                await runner.check_in(self.tournament_id, user.id)
                text = tr(lang, "tournament.checked_in")
        except TournamentError as refusal:
            text = tr(lang, refusal.key, **refusal.values)
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.debug("could not answer a tournament click", exc_info=True)
        finally:
            discord_internals.release_interaction(interaction)


def registration_view(t: TournamentRow) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for verb in VERBS:
        view.add_item(TournamentButton(verb, t.id, t.language))
    return view


def registration_embed(t: TournamentRow, entrants: Sequence[Entrant]) -> discord.Embed:
    lang = t.language
    playing = [e for e in entrants if e.dropped_round is None]
    listed = ", ".join(
        names.in_text(e.name) + (" ✅" if e.checked_in else "") for e in playing
    ) or tr(lang, "tournament.nobody_yet")
    embed = discord.Embed(
        title=tr(lang, "tournament.title", name=names.in_text(t.name)),
        description=tr(
            lang,
            "tournament.summary",
            ruleset=t.ruleset,
            rounds=t.rounds,
            seats=t.seats,
            timer=t.move_timer,
            minutes=t.round_minutes,
            scoring=tr(lang, "tournament.duplicate" if t.duplicate else "tournament.by_place"),
        ),
    )
    status = tr(lang, f"tournament.status.{t.status}", round=t.current_round, rounds=t.rounds)
    embed.add_field(name=tr(lang, "tournament.players", count=len(playing)), value=listed[:1024])
    embed.add_field(name=tr(lang, "tournament.state"), value=status, inline=False)
    if t.start_at is not None and t.status == "registration":
        embed.add_field(name=tr(lang, "tournament.starts"), value=f"<t:{int(t.start_at)}:R>")
    embed.set_footer(text=tr(lang, "tournament.footer", id=t.id))
    return embed


def standings_embed(
    t: TournamentRow,
    rows: Sequence[Standing],
    entrants: Sequence[Entrant],
    final: bool,
    *,
    so_far: bool = False,
    games: Mapping[str, Sequence[int]] | None = None,
) -> discord.Embed:
    """The standings: at a round's end, at the end (``final``), or asked for (``so_far``);
    with ``games``, each person's games by number (for ``/nines record``)."""
    lang = t.language
    who = {str(e.user_id): e for e in entrants}
    places = ranking(rows)
    lines = []
    for row in rows[:25]:
        entrant = who.get(row.person)
        name = names.in_text(entrant.name) if entrant else "?"
        dropped = " ✗" if entrant is not None and entrant.dropped_round is not None else ""
        played = (games or {}).get(row.person, ())
        line = tr(
            lang,
            "tournament.standing",
            place=places[row.person],
            name=name + dropped,
            points=shown_number(row.points),
            opponents=shown_number(row.opponents_points),
            games=row.games,
        )
        lines.append(line + "".join(f" · #{g}" for g in played))
    key = "tournament.final_title" if final else "tournament.round_title"
    if so_far and not final:
        key = "tournament.now_title"
    embed = discord.Embed(
        title=tr(lang, key, name=names.in_text(t.name), round=t.current_round),
        description="\n".join(lines) or tr(lang, "tournament.nobody_yet"),
    )
    embed.set_footer(text=tr(lang, "tournament.tiebreaks"))
    return embed


def shown_number(value: float) -> str:
    """Points as shown: at most two decimals (a three-seat table's 1.5, an average's 1.67)."""
    return f"{round(value, 2):g}"


class TournamentMessages:
    """The runner's presenter (``TournamentPresenter``) in Discord."""

    def __init__(self, bot: NinesBot) -> None:
        self.bot = bot

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(channel_id)

    async def open_thread(self, tournament: TournamentRow, table: PairedTable) -> int:
        """Discord's "Start Thread without Message" (POST /channels/{id}/threads, type 11: a
        public thread; needs Create Public Threads in the channel):
        https://discord.com/developers/docs/resources/channel#start-thread-without-message"""
        channel = await self._channel(tournament.channel_id)
        name = tr(
            tournament.language,
            "tournament.thread",
            name=names.shorten(names.clean(tournament.name, "?"), 60),
            round=table.round,
            table=table.table_no,
        )
        thread = await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        return int(thread.id)

    async def table_opened(
        self, tournament: TournamentRow, table: PairedTable, session: GameSession, change: Change
    ) -> None:
        """The table shown in its thread, then its people pinged there (a mention in a new
        message's content notifies, limited by allowed_mentions to those people)."""
        await self.bot.presenter.show(session, change)
        people = [p for p in table.players if p is not None]
        with contextlib.suppress(discord.HTTPException):
            thread = await self._channel(session.channel_id)
            await thread.send(
                tr(
                    tournament.language,
                    "tournament.table_call",
                    who=and_list(tournament.language, [f"<@{p}>" for p in people]),
                    round=table.round,
                    table=table.table_no,
                ),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(p) for p in people]
                ),
                nonce=nonce(tournament, f"c{table.round}.{table.table_no}"),
            )

    async def show_game(self, session: GameSession, change: Change) -> None:
        await self.bot.presenter.show(session, change)

    async def registration_changed(self, tournament: TournamentRow) -> None:
        t = await self.bot.storage.tournament(tournament.id)
        if t is None or t.registration_message_id is None:
            return
        entrants = await self.bot.storage.entrants(t.id)
        message = self.bot.get_partial_messageable(
            t.channel_id, guild_id=t.guild_id
        ).get_partial_message(t.registration_message_id)
        with contextlib.suppress(discord.HTTPException):
            await message.edit(embed=registration_embed(t, entrants), view=registration_view(t))

    async def standings(
        self, tournament: TournamentRow, rows: Sequence[Standing], final: bool
    ) -> None:
        entrants = await self.bot.storage.entrants(tournament.id)
        channel = self.bot.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        games: dict[str, list[int]] = {}
        if final:  # each person's games, to look up with /nines record
            for table in await self.bot.storage.tournament_tables(tournament.id):
                for person in table.players:
                    if person is not None and table.game_id is not None:
                        games.setdefault(str(person), []).append(table.game_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                embed=standings_embed(tournament, rows, entrants, final, games=games or None),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=nonce(tournament, f"s{tournament.current_round}"),
            )
        await self.registration_changed(tournament)
        if final and rows and tournament.champion_role_id is not None:
            await self.crown(tournament, int(rows[0].person))

    async def crown(self, tournament: TournamentRow, user_id: int) -> None:
        """Give the champion role: Discord's "Add Guild Member Role" needs Manage Roles, and
        the role must be below the bot's highest role ("Role Management": a bot may only
        assign roles lower than its own highest). Where it may not, the channel is told.
        https://discord.com/developers/docs/resources/guild#add-guild-member-role and
        https://discord.com/developers/docs/topics/permissions#permission-hierarchy"""
        guild = self.bot.get_guild(tournament.guild_id)
        role = None if guild is None else guild.get_role(tournament.champion_role_id or 0)
        channel = self.bot.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        lang = tournament.language
        if guild is None or role is None:
            return
        me = guild.me
        if me is None or not me.guild_permissions.manage_roles or role >= me.top_role:
            with contextlib.suppress(discord.HTTPException):
                await channel.send(tr(lang, "tournament.no_role", role=names.in_text(role.name)))
            return
        try:
            member = guild.get_member(user_id) or await guild.fetch_member(user_id)
            await member.add_roles(role, reason="Tournament champion")
        except discord.HTTPException:
            log.info("tournament %s: could not give the champion role", tournament.id)
            with contextlib.suppress(discord.HTTPException):
                await channel.send(tr(lang, "tournament.no_role", role=names.in_text(role.name)))
