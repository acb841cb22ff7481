"""The ``/nines`` group and the game's own commands: start, hand, stop, the rankings, the rules,
autoplay and forget-me. Each checks, calls a session or storage, and answers. The settings
(``settings.py``) and the records (``records.py``) are cogs of their own under the same group.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.game import GameSession, Sessions
from bot.storage import GameKind, player_key
from bot.words import in_text, language_of, tr
from engine import RULESETS, Rules, game_type

from . import render, replies, ui
from .controller import Controller
from .lobbies import Lobbies
from .options import (
    CARD_KINDS,
    GAME_CHOICES,
    ON_OFF,
    RULE_HELP,
    RULE_NAMES,
    SORT_ORDERS,
    RuleValues,
    with_rule_options,
)
from .setting_values import RULE_KEYS

if TYPE_CHECKING:
    from .table import NinesBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


def rule_defaults(settings: dict[str, Any]) -> dict[str, Any]:
    """The server's stored rule settings (trumps, start, ...), without its table settings."""
    return {k: v for k, v in settings.items() if k in RULE_KEYS}


#: What a person's on/off preference says of itself, on and off.
AUTOPLAY_SAID: Final = ("autoplay.on", "autoplay.off")
SORT_SAID: Final = ("sort.trumps", "sort.suits")
CARDS_SAID: Final = ("cards.text", "cards.faces")


async def switch(
    interaction: Interaction,
    wanted: bool | None,
    read: Callable[[list[int]], Awaitable[set[int]]],
    write: Callable[[int, bool], Awaitable[None]],
    said: tuple[str, str],
) -> None:
    """A person's on/off preference, kept by user id alone (the same in every server): set to
    ``wanted``, or only read when None. Either way the answer says what it does now."""
    user_id = interaction.user.id
    if wanted is None:
        on = user_id in await read([user_id])
    else:
        on = wanted
        await write(user_id, on)
    await replies.private(interaction, tr(language_of(interaction.locale), said[0 if on else 1]))


class NinesCog(commands.Cog, name="Nines"):
    nines = app_commands.Group(
        name=_("nines", key="cmd.nines"),
        description=_("Play Nines, the Quebec card game", key="cmd.nines.desc"),
        guild_only=True,
    )

    def __init__(self, bot: NinesBot, controller: Controller, lobbies: Lobbies) -> None:
        self.bot = bot
        self.controller = controller
        self.lobbies = lobbies

    @property
    def sessions(self) -> Sessions:
        return self.bot.sessions

    # -- helpers -------------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        return dict(await self.bot.storage.get_guild_settings(guild_id))

    async def server_language(self, interaction: Interaction) -> str:
        """The language of public messages here: the server's setting, else its locale."""
        settings = await self.guild_settings(interaction.guild_id or 0)
        return replies.public_language(interaction, settings)

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
    @app_commands.rename(duplicate=_("duplicate", key="opt.duplicate.name"))
    @app_commands.describe(
        duplicate=_(
            "On: the deals are played again with the seats rotated, scored hand by hand",
            key="opt.duplicate",
        )
    )
    @app_commands.choices(duplicate=ON_OFF)
    @with_rule_options
    async def start_command(
        self, interaction: Interaction, rules: RuleValues, duplicate: str | None = None
    ) -> None:
        """The options were read, and refused, in the caller's words (``RuleOption``); the
        server's values were checked when saved, in the engine's words ("C" is clubs).
        ``duplicate`` on: a duplicate match (bot/game/duplicate_match.py)."""
        lang = language_of(interaction.locale)
        if interaction.guild_id is None or interaction.channel_id is None:
            await replies.private(interaction, tr(lang, "error.guild_only"))
            return
        settings = await self.guild_settings(interaction.guild_id)
        name = str(rules.pop("ruleset", None) or settings.get("ruleset") or "classic")
        chosen = Rules.from_settings(name, {**rule_defaults(settings), **rules})
        before = self.sessions.in_channel(interaction.channel_id)
        await self.lobbies.open_lobby(interaction, rules=chosen, seats=None)
        session = self.sessions.in_channel(interaction.channel_id)
        if duplicate == "on" and session is not None and session is not before:
            await self.bot.duplicates.begin(session)
            await interaction.followup.send(
                tr(session.language, "duplicate.lobby", games=session.players),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    # -- /nines hand, stop ---------------------------------------------------------------------

    def session_of(self, interaction: Interaction) -> GameSession | None:
        """The caller's game: the one in this channel, else any of theirs in this server."""
        here = self.sessions.in_channel(interaction.channel_id or 0)
        if here is not None and here.seat_of(interaction.user.id) is not None:
            return here
        return self.sessions.seated(interaction.guild_id, interaction.user.id) or here

    @nines.command(
        name=_("hand", key="cmd.hand"),
        description=_("Show your cards again (only you see them)", key="cmd.hand.desc"),
    )
    async def hand_command(self, interaction: Interaction) -> None:
        lang = language_of(interaction.locale)
        session = self.session_of(interaction)
        if session is None:
            await replies.private(interaction, tr(lang, "error.no_game"))
            return
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            await replies.private(interaction, tr(lang, "error.not_seated"))
        elif session.game is None:
            await replies.private(interaction, tr(lang, "error.not_live"))
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
            await replies.private(interaction, tr(lang, "error.no_game_here"))
            return
        perms = interaction.permissions
        if interaction.user.id != session.host_id and not perms.manage_messages:
            await replies.private(interaction, tr(lang, "error.stop_denied"))
            return
        async with session.lock:
            if session.closed:
                await replies.private(interaction, tr(lang, "error.unknown_game"))
                return
            await session.abandon("stopped")
            await interaction.response.send_message(
                # A name: a mention shows as <@id> where its member is not loaded, and no
                # notification is meant here.
                tr(session.language, "end.stopped_by", who=in_text(interaction.user.display_name)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.controller.chat.ended_early(
                session, "stopped", by=in_text(interaction.user.display_name)
            )

    # -- /nines leaderboard, stats, rules ------------------------------------------------------

    @nines.command(
        name=_("leaderboard", key="cmd.leaderboard"),
        description=_("This server's ranking", key="cmd.leaderboard.desc"),
    )
    @app_commands.rename(game=_("game", key="opt.game.name"), page=_("page", key="opt.page.name"))
    @app_commands.describe(
        game=_("Which game", key="opt.game"),
        page=_("Page of the ranking to show (10 players a page)", key="opt.page"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard_command(
        self,
        interaction: Interaction,
        game: str | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        lang = await self.server_language(interaction)  # a public message
        guild_id = interaction.guild_id or 0
        kind: GameKind = game_type(game or "nines").name
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
    @app_commands.choices(game=GAME_CHOICES)
    async def stats_command(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        lang = await self.server_language(interaction)  # a public message
        who = member or interaction.user
        kind: GameKind = game_type(game or "nines").name
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
    @app_commands.choices(game=GAME_CHOICES)
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
            name = next(r.name for r in RULESETS.values() if r.game == game)  # its first
        return Rules.from_settings(name, rule_defaults(settings))

    # -- /nines autoplay ----------------------------------------------------------------------

    @nines.command(
        name=_("autoplay", key="cmd.autoplay"),
        description=_(
            "When you may play only one card, it is played at once for you"
            " (every server; off by default)",
            key="cmd.autoplay.desc",
        ),
    )
    @app_commands.rename(choice=_("choice", key="opt.autoplay.name"))
    @app_commands.describe(
        choice=_("On: a turn with only one card you may play plays it at once", key="opt.autoplay")
    )
    @app_commands.choices(choice=ON_OFF)
    async def autoplay_command(self, interaction: Interaction, choice: str | None = None) -> None:
        """The person's own preference; their games in play follow it at once (a forced
        card already due plays now)."""
        storage = self.bot.storage
        on = None if choice is None else choice == "on"
        await switch(interaction, on, storage.autoplay_users, storage.set_autoplay, AUTOPLAY_SAID)
        if on is not None:
            for session, change in await self.sessions.autoplay_changed(interaction.user.id, on):
                await self.controller.presenter.show(session, change)

    # -- /nines sort --------------------------------------------------------------------------

    @nines.command(
        name=_("sort", key="cmd.sort"),
        description=_(
            "How your hand is sorted: by suit, or trumps first (every server; by suit by default)",
            key="cmd.sort.desc",
        ),
    )
    @app_commands.rename(order=_("order", key="opt.sort.name"))
    @app_commands.describe(
        order=_("Trumps first: the trump suit's cards at the left of your hand", key="opt.sort")
    )
    @app_commands.choices(order=SORT_ORDERS)
    async def sort_command(self, interaction: Interaction, order: str | None = None) -> None:
        """The person's own preference, like autoplay. Their hands in play are redrawn at once:
        the table model orders the cards (``HandModel.cards``), so chat and the web table
        agree."""
        storage = self.bot.storage
        first = None if order is None else order == "trumps"
        await switch(
            interaction, first, storage.trumps_first_users, storage.set_trumps_first, SORT_SAID
        )
        if first is not None:
            user_id = interaction.user.id
            for session, seat in await self.sessions.trumps_first_changed(user_id, first):
                await self.controller.chat.hands.redraw(session, seat)

    # -- /nines cards --------------------------------------------------------------------------

    @nines.command(
        name=_("cards", key="cmd.cards"),
        description=_(
            "How your hand shows its cards: drawn faces, or text (every server; faces by default)",
            key="cmd.cards.desc",
        ),
    )
    @app_commands.rename(kind=_("kind", key="opt.cards.name"))
    @app_commands.describe(
        kind=_(
            "Text: each card as its rank and suit sign, as a screen reader says it", key="opt.cards"
        )
    )
    @app_commands.choices(kind=CARD_KINDS)
    async def cards_command(self, interaction: Interaction, kind: str | None = None) -> None:
        """The person's own preference, like sort (issue 46): their hands in play are redrawn
        at once."""
        storage = self.bot.storage
        text = None if kind is None else kind == "text"
        await switch(
            interaction, text, storage.text_cards_users, storage.set_text_cards, CARDS_SAID
        )
        if text is not None:
            user_id = interaction.user.id
            for session, seat in await self.sessions.text_cards_changed(user_id, text):
                await self.controller.chat.hands.redraw(session, seat)

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
        if self.sessions.seated(interaction.guild_id, interaction.user.id) is not None:
            await replies.private(interaction, tr(lang, "forget.seated"))
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
        await replies.command_failed(interaction, error)


__all__ = ["NinesCog"]
