"""The ``/nines`` slash commands. Each checks, calls a session or storage, and answers."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import table_model
from bot.failpoints import failpoint
from bot.i18n import language_of, tr
from bot.session import DEFAULT_TURN_SECONDS, GameSession, SeatInfo, SessionError, Sessions
from bot.storage import ChannelBusy, GameKind, player_key
from engine import RULESETS, TRUMP_PRESETS, Rules

from . import render, ui
from .controller import Controller, member_name
from .options import GAMES, ON_OFF, RULE_CHOICES, RULE_HELP, RULE_NAMES
from .settings import RULE_KEYS, SettingsInvalid, validate

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def rule_defaults(settings: dict[str, Any]) -> dict[str, Any]:
    """The server's stored rule settings (trumps, start, ...), without its table settings."""
    return {k: v for k, v in settings.items() if k in RULE_KEYS}


class NinesCog(commands.Cog, name="Nines"):
    nines = app_commands.Group(
        name=_("nines", key="cmd.nines"),
        description=_("Play Nines, the Quebec card game", key="cmd.nines.desc"),
        guild_only=True,
    )

    def __init__(self, bot: NinesBot) -> None:
        self.bot = bot
        self.controller = Controller(bot)
        from .records import records_commands
        from .settings import SettingsGroup

        self.nines.add_command(SettingsGroup(self))
        for command in records_commands(self):
            self.nines.add_command(command)

    @property
    def sessions(self) -> Sessions:
        return self.bot.sessions

    # -- helpers -------------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return dict(await self.bot.storage.get_guild_settings(guild_id))

    def public_language(self, interaction: Interaction, settings: dict[str, Any]) -> str:
        chosen = str(settings.get("language") or "")
        return chosen if chosen in ("en", "fr") else language_of(interaction.guild_locale)

    async def default_level(self, session: GameSession) -> str:
        """The server's usual computer level (settings: difficulty)."""
        return str((await self.guild_settings(session.guild_id)).get("difficulty") or "normal")

    async def server_language(self, interaction: Interaction) -> str:
        """The language of public messages here: the server's setting, else its locale."""
        settings = await self.guild_settings(interaction.guild_id or 0)
        return self.public_language(interaction, settings)

    async def private(self, interaction: Interaction, text: str) -> None:
        await self.controller.private(interaction, text)

    def can_post(self, interaction: Interaction) -> bool:
        perms = interaction.app_permissions
        return perms.view_channel and perms.send_messages and perms.embed_links

    # -- /nines start --------------------------------------------------------------------------

    @nines.command(
        name=_("start", key="cmd.start"),
        description=_("Open a game of Nines in this channel", key="cmd.start.desc"),
    )
    @app_commands.rename(**RULE_NAMES)
    @app_commands.describe(
        ruleset=_(
            "The game: Nines (classic, partnership, four players) or Nein Nine",
            key="opt.ruleset.start",
        ),
        **RULE_HELP,
    )
    @app_commands.choices(**RULE_CHOICES)
    async def start_command(
        self,
        interaction: Interaction,
        ruleset: str | None = None,
        trumps: str | None = None,
        exchange: str | None = None,
        ties: str | None = None,
        instant_win: str | None = None,
        start: app_commands.Range[int, 3, 21] | None = None,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        limit: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        lang = language_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            await self.private(interaction, tr(lang, "error.guild_only"))
            return
        settings = await self.guild_settings(interaction.guild_id)
        chosen = {
            k: v
            for k, v in {
                "trumps": trumps,
                "exchange": exchange,
                "ties": ties,
                "instant_win": instant_win,
                "start": start,
                "rounds": rounds,
                "limit": limit,
            }.items()
            if v is not None
        }
        name = ruleset or str(settings.get("ruleset") or "classic")
        try:
            chosen = validate(chosen, lang)  # read, and refused, in the caller's words
        except SettingsInvalid as invalid:
            await self.private(interaction, tr(lang, invalid.key, **invalid.params))
            return
        # The server's values were checked when saved, in the engine's words ("C" is clubs).
        rules = Rules.from_settings(name, {**rule_defaults(settings), **chosen})
        await self.open_lobby(interaction, rules=rules, seats=None)

    async def open_lobby(
        self,
        interaction: Interaction,
        *,
        rules: Rules,
        seats: list[SeatInfo] | None,
    ) -> None:
        """Post a lobby in the interaction's channel: for /nines start and Rematch."""
        lang = language_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            await self.private(interaction, tr(lang, "error.guild_only"))
            return
        if not self.can_post(interaction):
            await self.private(interaction, tr(lang, "error.cannot_post"))
            return
        existing = self.sessions.in_channel(interaction.channel_id)
        if existing is not None:
            await self.private(
                interaction,
                self.busy_text(lang, interaction, existing.id, existing.lobby_message_id),
            )
            return
        settings = await self.guild_settings(interaction.guild_id)
        user = interaction.user
        try:
            session = await self.sessions.open_lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                thread_id=None,
                rules=rules,
                host_id=user.id,
                host_name=member_name(user),
                language=self.public_language(interaction, settings),
                turn_seconds=float(settings.get("turn_timer") or DEFAULT_TURN_SECONDS),
            )
        except ChannelBusy as busy:
            await self.private(interaction, self.busy_text(lang, interaction, busy.game_id, None))
            return
        called: list[int] = []  # a rematch's people seated by the clicker: told they are
        if seats:
            others = [s for s in seats if s.user_id != user.id][: session.players - 1]
            session.seats.extend(SeatInfo(s.name, s.user_id, s.difficulty) for s in others)
            await session._save_seats()
            called = [s.user_id for s in others if s.user_id is not None]
        failpoint("lobby_opened")
        plang = session.language
        level = str(settings.get("difficulty") or "normal")
        call: dict[str, Any] = {}
        if called:
            # A mention in the content of a new message notifies (Discord: "Allowed Mentions
            # Object"); only the people called, nobody else a name could reach.
            who = ", ".join(f"<@{user_id}>" for user_id in called)
            call = {
                "content": tr(plang, "lobby.rematch_call", who=who),
                "allowed_mentions": discord.AllowedMentions(
                    everyone=False,
                    roles=False,
                    users=[discord.Object(user_id) for user_id in called],
                ),
            }
        shown = table_model.build_lobby(session)
        callback = await interaction.response.send_message(
            embed=render.lobby_embed(plang, shown),
            view=ui.lobby_view(plang, shown, level),
            **call,
        )
        message_id = getattr(callback, "message_id", None)
        if message_id is not None:
            session.lobby_message_id = int(message_id)
            await self.bot.storage.update_game(
                session.id, fence=session.fence, lobby_message_id=int(message_id)
            )
            if settings.get("threads") == "on":
                await self.open_thread(interaction, session)

    async def open_thread(self, interaction: Interaction, session: GameSession) -> None:
        """Run the game's table in a thread opened from its lobby message (server setting
        ``threads``); stay in the channel when the bot may not create threads there."""
        channel_type = getattr(interaction.channel, "type", None)
        if channel_type in THREAD_TYPES or session.lobby_message_id is None:
            return
        if not interaction.app_permissions.create_public_threads:
            log.info("game %s: no permission to create threads; playing in the channel", session.id)
            return
        lobby = self.bot.get_partial_messageable(
            session.lobby_channel_id, guild_id=session.guild_id
        ).get_partial_message(session.lobby_message_id)
        name = tr(
            session.language,
            "thread.name",
            game=render.game_title(session.language, session.rules),
            host=session.seats[0].name,
        )
        try:
            thread = await lobby.create_thread(name=name[:100], auto_archive_duration=1440)
        except discord.HTTPException:
            log.info("game %s: could not open a thread; playing in the channel", session.id)
            return
        await self.bot.storage.update_game(session.id, fence=session.fence, thread_id=thread.id)
        self.sessions.move_to_thread(session, thread.id)
        shown = table_model.build_lobby(session)
        level = await self.default_level(session)
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(
                embed=render.lobby_embed(session.language, shown),
                view=ui.lobby_view(session.language, shown, level),
            )

    def busy_text(
        self, lang: str, interaction: Interaction, game_id: int, message_id: int | None
    ) -> str:
        if message_id is not None and interaction.guild_id and interaction.channel_id:
            link = (
                f"https://discord.com/channels/{interaction.guild_id}/"
                f"{interaction.channel_id}/{message_id}"
            )
            return tr(lang, "error.channel_busy_link", link=link)
        return tr(lang, "error.channel_busy")

    # -- /nines hand, stop ---------------------------------------------------------------------

    def session_of(self, interaction: Interaction) -> GameSession | None:
        """The caller's game: the one in this channel, else any of theirs in this server."""
        here = self.sessions.in_channel(interaction.channel_id or 0)
        if here is not None and here.seat_of(interaction.user.id) is not None:
            return here
        for session in self.sessions.all():
            if (
                session.guild_id == interaction.guild_id
                and session.seat_of(interaction.user.id) is not None
            ):
                return session
        return here

    @nines.command(
        name=_("hand", key="cmd.hand"),
        description=_("Show your cards again (only you see them)", key="cmd.hand.desc"),
    )
    async def hand_command(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        session = self.session_of(interaction)
        if session is None:
            await self.private(interaction, tr(lang, "error.no_game"))
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await self.private(interaction, tr(lang, "error.not_seated"))
        elif session.game is None:
            await self.private(interaction, tr(lang, "error.not_live"))
        else:
            await self.controller.show_hand(interaction, session, seat)

    @nines.command(
        name=_("stop", key="cmd.stop"),
        description=_("End the game in this channel (not rated)", key="cmd.stop.desc"),
    )
    async def stop_command(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        session = self.sessions.in_channel(interaction.channel_id or 0)
        if session is None:
            await self.private(interaction, tr(lang, "error.no_game_here"))
            return
        perms = interaction.permissions
        if interaction.user.id != session.host_id and not perms.manage_messages:
            await self.private(interaction, tr(lang, "error.stop_denied"))
            return
        async with session.lock:
            if session.closed:
                await self.private(interaction, tr(lang, "error.unknown_game"))
                return
            await session.abandon("stopped")
            await interaction.response.send_message(
                # A name: a mention shows as <@id> where its member is not loaded, and no
                # notification is meant here.
                tr(session.language, "end.stopped_by", who=member_name(interaction.user)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.bot.presenter.ended_early(
                session, "stopped", by=interaction.user.display_name
            )

    # -- /nines leaderboard, stats, rules ------------------------------------------------------

    @nines.command(
        name=_("leaderboard", key="cmd.leaderboard"),
        description=_("This server's ranking", key="cmd.leaderboard.desc"),
    )
    @app_commands.rename(game=_("game", key="opt.game.name"), page=_("page", key="opt.page.name"))
    @app_commands.describe(game=_("Which game", key="opt.game"), page=_("Page", key="opt.page"))
    @app_commands.choices(game=GAMES)
    async def leaderboard_command(
        self,
        interaction: Interaction,
        game: str | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        lang = await self.server_language(interaction)  # a public message
        guild_id = interaction.guild_id or 0
        kind: GameKind = "nein-nine" if game == "nein-nine" else "nines"
        per_page = 10
        rows, total = await self.bot.storage.leaderboard(guild_id, kind, page, per_page)
        computers, _count = await self.bot.storage.leaderboard(guild_id, kind, 1, 5, computers=True)
        pages = (total + per_page - 1) // per_page
        embed = render.leaderboard_embed(
            lang, kind, page, pages, rows, computers, first_rank=(page - 1) * per_page + 1
        )
        await interaction.response.send_message(embed=embed)

    @nines.command(
        name=_("stats", key="cmd.stats"),
        description=_("A player's record in this server", key="cmd.stats.desc"),
    )
    @app_commands.rename(
        member=_("member", key="opt.member.name"), game=_("game", key="opt.game.name")
    )
    @app_commands.describe(
        member=_("Whose record (you by default)", key="opt.member"),
        game=_("Which game", key="opt.game"),
    )
    @app_commands.choices(game=GAMES)
    async def stats_command(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        lang = await self.server_language(interaction)  # a public message
        who = member or interaction.user
        kind: GameKind = "nein-nine" if game == "nein-nine" else "nines"
        row = await self.bot.storage.stats(
            interaction.guild_id or 0, kind, player_key(who.id, None)
        )
        await interaction.response.send_message(
            embed=render.stats_embed(lang, who.display_name, kind, row)
        )

    @nines.command(
        name=_("rules", key="cmd.rules"),
        description=_("The rules in short, as this server plays them", key="cmd.rules.desc"),
    )
    @app_commands.rename(game=_("game", key="opt.game.name"))
    @app_commands.describe(game=_("Which game", key="opt.game"))
    @app_commands.choices(game=GAMES)
    async def rules_command(self, interaction: Interaction, game: str | None = None) -> None:
        lang = language_of(interaction.locale)
        await interaction.response.send_message(
            embed=render.rules_embed(lang, await self.rules_here(interaction, game)),
            ephemeral=True,
        )

    async def rules_here(self, interaction: Interaction, game: str | None) -> Rules:
        """The rules a game here will be played by: the game open in this channel, if it is
        of the game asked about; else the server's settings for that game."""
        session = self.sessions.in_channel(interaction.channel_id or 0)
        if session is not None and game in (None, session.rules.game):
            return session.rules
        settings = await self.guild_settings(interaction.guild_id or 0)
        name = str(settings.get("ruleset") or "classic")
        if game is not None and RULESETS[name].game != game:
            name = "nein-nine" if game == "nein-nine" else "classic"
        return Rules.from_settings(name, rule_defaults(settings))

    # -- /nines autoplay ----------------------------------------------------------------------

    @nines.command(
        name=_("autoplay", key="cmd.autoplay"),
        description=_(
            "Play your forced cards by themselves, in every server (off by default)",
            key="cmd.autoplay.desc",
        ),
    )
    @app_commands.rename(choice=_("choice", key="opt.autoplay.name"))
    @app_commands.describe(
        choice=_("On: a turn with only one card you may play plays it at once", key="opt.autoplay")
    )
    @app_commands.choices(choice=ON_OFF)
    async def autoplay_command(self, interaction: Interaction, choice: str | None = None) -> None:
        """The person's own preference, kept by user id alone (the same in every server);
        without a choice, what it is now. Either way the answer says what it does."""
        lang = language_of(interaction.locale)
        user_id = interaction.user.id
        if choice is None:
            on = user_id in await self.bot.storage.autoplay_users([user_id])
        else:
            on = choice == "on"
            await self.bot.storage.set_autoplay(user_id, on)
        await self.private(interaction, tr(lang, "autoplay.on" if on else "autoplay.off"))
        if choice is not None:
            for session, change in await self.sessions.autoplay_changed(user_id, on):
                await self.bot.presenter.show(session, change)

    # -- /nines forget-me ----------------------------------------------------------------------

    @nines.command(
        name=_("forget-me", key="cmd.forget"),
        description=_(
            "Delete your statistics and ratings in this server, and your preferences",
            key="cmd.forget.desc",
        ),
    )
    async def forget_command(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        if self.controller.seated_in_open_game(interaction) is not None:
            await self.private(interaction, tr(lang, "forget.seated"))
            return
        await interaction.response.send_message(
            tr(lang, "forget.confirm"),
            view=ui.forget_view(lang, interaction.user.id),
            ephemeral=True,
        )

    # -- errors --------------------------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        lang = language_of(interaction.locale)
        original = getattr(error, "original", error)
        if isinstance(original, SessionError):
            await self.controller.refuse(interaction, original)
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await self.private(interaction, tr(lang, "error.guild_only"))
            return
        log.error(
            "command %s failed", interaction.command and interaction.command.name, exc_info=original
        )
        with contextlib.suppress(discord.HTTPException):
            await self.private(interaction, tr(lang, "error.unexpected"))


__all__ = ["TRUMP_PRESETS", "NinesCog"]
