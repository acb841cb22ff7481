"""``/nines tournament``: create a tournament in this channel, start it, pause, resume, remove a
player, cancel, the standings and the rules of pairing and scoring. The host's commands need
Manage Server (checked at run time: Discord does not gate subcommands)."""

from __future__ import annotations

import logging
import random
import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.storage.tournament_values import TournamentRow, TournamentSpec
from bot.tournament import TournamentError, TournamentRunner
from bot.words import language_of, names, tr
from engine import SettingError

from . import replies
from .options import ON_OFF, RULESET_CHOICES
from .tournament_messages import registration_embed, registration_view, standings_embed

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


class TournamentGroup(app_commands.Group):
    """Added to the ``nines`` group by the extension."""

    def __init__(self, bot: NinesBot) -> None:
        super().__init__(
            name=_("tournament", key="cmd.tournament"),
            description=_(
                "Swiss tournaments at tables of three or four", key="cmd.tournament.desc"
            ),
            guild_only=True,
        )
        self.bot = bot

    @property
    def runner(self) -> TournamentRunner:
        assert self.bot.tournaments is not None
        return self.bot.tournaments

    async def on_error(
        self, interaction: Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        original = getattr(error, "original", error)
        lang = language_of(interaction.locale)
        if isinstance(original, TournamentError):
            await replies.private(interaction, tr(lang, original.key, **original.values))
        elif isinstance(original, SettingError):
            await replies.private(interaction, str(original))
        else:
            await replies.command_failed(interaction, error)

    async def _host(self, interaction: Interaction) -> None:
        """Manage Server, or the role the server named (``/nines settings set
        tournament_role``)."""
        if interaction.permissions.manage_guild:
            return
        settings = await self.bot.storage.get_guild_settings(interaction.guild_id or 0)
        role = int(settings.get("tournament_role") or 0)
        roles = getattr(interaction.user, "roles", [])
        if not role or all(r.id != role for r in roles):
            raise TournamentError("tournament.error.host_only")

    async def _here(self, interaction: Interaction) -> TournamentRow:
        """The open tournament of this channel (the newest)."""
        found = [
            t
            for t in await self.bot.storage.open_tournaments(interaction.guild_id or 0)
            if t.channel_id == interaction.channel_id
        ]
        if not found:
            raise TournamentError("tournament.error.none_here")
        return found[-1]

    @app_commands.command(
        name=_("create", key="cmd.tournament.create"),
        description=_("Open a tournament's registration here", key="cmd.tournament.create.desc"),
    )
    @app_commands.rename(
        name=_("name", key="opt.tournament.title.name"),
        ruleset=_("ruleset", key="opt.tournament.ruleset.name"),
        rounds=_("rounds", key="opt.tournament.rounds.name"),
        seats=_("seats", key="opt.tournament.seats.name"),
        timer=_("timer", key="opt.tournament.timer.name"),
        round_minutes=_("minutes", key="opt.tournament.round_minutes.name"),
        duplicate=_("duplicate", key="opt.tournament.duplicate.name"),
        champion=_("champion_role", key="opt.tournament.champion.name"),
        start_in=_("start_in", key="opt.tournament.start_in.name"),
        break_minutes=_("break", key="opt.tournament.break.name"),
    )
    @app_commands.describe(
        name=_("The tournament's name", key="opt.tournament.title"),
        ruleset=_("The game and its rules", key="opt.tournament.ruleset"),
        rounds=_("How many rounds", key="opt.tournament.rounds"),
        seats=_(
            "Seats per table (the ruleset's; four-player seats a remainder"
            " at classic tables of three)",
            key="opt.tournament.seats",
        ),
        timer=_("Seconds for each move", key="opt.tournament.timer"),
        round_minutes=_(
            "Minutes a round may last; then computers finish it",
            key="opt.tournament.round_minutes",
        ),
        duplicate=_("The same deals at every table of a round", key="opt.tournament.duplicate"),
        champion=_("A role for the winner", key="opt.tournament.champion"),
        start_in=_(
            "Start by itself in this many minutes (else the host starts it)",
            key="opt.tournament.start_in",
        ),
        break_minutes=_(
            "Minutes between rounds (0: the next round starts when the last table ends)",
            key="opt.tournament.break",
        ),
    )
    @app_commands.choices(ruleset=RULESET_CHOICES, duplicate=ON_OFF)
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 80],
        ruleset: str,
        rounds: app_commands.Range[int, 1, 20] = 3,
        seats: app_commands.Range[int, 3, 4] = 3,
        timer: app_commands.Range[int, 10, 3600] = 120,
        round_minutes: app_commands.Range[int, 5, 1440] = 60,
        duplicate: str = "off",
        champion: discord.Role | None = None,
        start_in: app_commands.Range[int, 1, 10080] | None = None,
        break_minutes: app_commands.Range[int, 0, 1440] = 0,
    ) -> None:
        await self._host(interaction)
        perms = interaction.app_permissions
        if not perms.create_public_threads or not perms.send_messages_in_threads:
            raise TournamentError("tournament.error.threads")
        settings = await self.bot.storage.get_guild_settings(interaction.guild_id or 0)
        spec = TournamentSpec(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            name=names.stored(name),
            ruleset=ruleset,
            seats=seats,
            rounds=rounds,
            move_timer=timer,
            round_minutes=round_minutes,
            duplicate=duplicate == "on",
            seed=random.SystemRandom().getrandbits(62),
            language=replies.public_language(interaction, settings),
            champion_role_id=None if champion is None else champion.id,
            start_at=None if start_in is None else time.time() + start_in * 60,
            break_minutes=break_minutes,
        )
        t = await self.runner.create(spec)
        callback = await interaction.response.send_message(
            embed=registration_embed(t, []), view=registration_view(t)
        )
        message_id = getattr(callback, "message_id", None)
        if message_id is not None:
            await self.bot.storage.set_tournament_messages(
                t.id, registration_message_id=int(message_id)
            )
        if t.start_at is not None and interaction.app_permissions.manage_events:
            await self.offer_event(interaction, t)

    async def offer_event(self, interaction: Interaction, t: TournamentRow) -> None:
        """The start offered as the server's scheduled event, an external one at this channel:
        Discord's "Create Guild Scheduled Event" needs Manage Events (apps cannot hold Create
        Events yet: discord-api-docs #6578), and an external event needs a location and an end
        time. Without the permission, the registration message alone gives the time.
        https://discord.com/developers/docs/resources/guild-scheduled-event#create-guild-scheduled-event
        and https://github.com/discord/discord-api-docs/pull/6578"""
        guild = interaction.guild
        if guild is None or t.start_at is None:
            return
        start = datetime.fromtimestamp(t.start_at, UTC)
        end = start + timedelta(minutes=t.rounds * t.round_minutes)
        try:
            event = await guild.create_scheduled_event(
                name=names.shorten(names.clean(t.name, "?"), 100),
                start_time=start,
                end_time=end,
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=f"<#{t.channel_id}>",
            )
        except discord.HTTPException:
            log.info("tournament %s: could not create its scheduled event", t.id)
            return
        await self.bot.storage.set_tournament_messages(t.id, event_id=event.id)

    @app_commands.command(
        name=_("start", key="cmd.tournament.start"),
        description=_("Close registration and play round one", key="cmd.tournament.start.desc"),
    )
    async def start(self, interaction: Interaction) -> None:
        await self._host(interaction)
        t = await self._here(interaction)
        await interaction.response.send_message(
            tr(language_of(interaction.locale), "tournament.starting"), ephemeral=True
        )
        await self.runner.start(t.id)

    @app_commands.command(
        name=_("pause", key="cmd.tournament.pause"),
        description=_("No new round, no deadline until resumed", key="cmd.tournament.pause.desc"),
    )
    async def pause(self, interaction: Interaction) -> None:
        await self._host(interaction)
        t = await self._here(interaction)
        await self.runner.pause(t.id)
        await replies.private(interaction, tr(language_of(interaction.locale), "tournament.paused"))

    @app_commands.command(
        name=_("resume", key="cmd.tournament.resume"),
        description=_("Carry on a paused tournament", key="cmd.tournament.resume.desc"),
    )
    async def resume(self, interaction: Interaction) -> None:
        await self._host(interaction)
        t = await self._here(interaction)
        await interaction.response.send_message(
            tr(language_of(interaction.locale), "tournament.resumed"), ephemeral=True
        )
        await self.runner.resume_play(t.id)

    @app_commands.command(
        name=_("remove", key="cmd.tournament.remove"),
        description=_("Take a player out (their games stand)", key="cmd.tournament.remove.desc"),
    )
    @app_commands.rename(member=_("member", key="opt.member.name"))
    @app_commands.describe(member=_("Who leaves the tournament", key="opt.tournament.member"))
    async def remove(self, interaction: Interaction, member: discord.Member) -> None:
        await self._host(interaction)
        t = await self._here(interaction)
        await self.runner.remove(t.id, member.id)
        who = names.in_text(member.display_name)
        lang = language_of(interaction.locale)
        await replies.private(interaction, tr(lang, "tournament.removed", who=who))

    @app_commands.command(
        name=_("cancel", key="cmd.tournament.cancel"),
        description=_("End the tournament for good", key="cmd.tournament.cancel.desc"),
    )
    async def cancel(self, interaction: Interaction) -> None:
        await self._host(interaction)
        t = await self._here(interaction)
        await interaction.response.send_message(
            tr(t.language, "tournament.cancelled", name=names.in_text(t.name)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.runner.cancel(t.id)
        await self.runner.presenter.registration_changed(t)

    @app_commands.command(
        name=_("standings", key="cmd.tournament.standings"),
        description=_("The standings so far", key="cmd.tournament.standings.desc"),
    )
    async def standings(self, interaction: Interaction) -> None:
        t = await self._here(interaction)
        t, rows = await self.runner.standings_now(t.id)
        entrants = await self.bot.storage.entrants(t.id)
        await interaction.response.send_message(
            embed=standings_embed(t, rows, entrants, t.status == "finished", so_far=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=_("help", key="cmd.tournament.help"),
        description=_("How tables are paired and scored", key="cmd.tournament.help.desc"),
    )
    async def help(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        text = "\n\n".join(
            tr(lang, key) for key in ("tournament.help.pairing", "tournament.help.scoring")
        )
        await interaction.response.send_message(text, ephemeral=True)
