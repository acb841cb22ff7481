"""Clicks on our buttons, mapped onto the game sessions.

Every click is answered exactly once and in time: with the updated message (lobby, hand), or
privately with what went wrong in the clicker's language. Nothing here trusts a custom_id: it
only names a game; who acts always comes from the interaction's user. The buttons reach the
controller through the extension's router (``cogs.nines.setup``), which hands it each click.
A move's click is played by the bot's one move use case (``bot.game.moves``, as a web table's tap
is); the controller only turns it into a ``Move`` and the answer into the clicker's hand
(``ClickReply``). It is given what it uses when the extension is set up (``cogs.nines.setup``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, assert_never

import discord

from bot.base import discord_internals
from bot.game import Answer, Move, Moves, Sessions
from bot.game.session import GameSession, Presenter, SeatInfo, SessionError, stored_rules
from bot.storage import Storage
from bot.table import table_model, table_models
from bot.words import distinct, tr
from engine import JOKER, Action, Play

from . import ids, render, replies, ui
from .activity import open_table_button
from .lobbies import Lobbies, member_name
from .opening import Opening
from .private_hands import with_embed
from .render.cards import CardStyle

if TYPE_CHECKING:
    from .table import DiscordPresenter

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

#: What marks a computer's name as a computer's, before its own short name.
ROBOT: Final = "🤖"


def computer_name(lang: str, difficulty: str, seats: Sequence[SeatInfo]) -> str:
    """A new computer seat's name: "🤖 " and the first of its level's names in the game's
    language (``computer.names.<level>``: "🤖 Max", "🤖 Gaston") that no seat has, compared as
    ``names.distinct`` compares names. Short, one word and no number, so a card shown beside
    it ("🤖 Max 2♥") cannot be read as part of it (issue 38); different first letters, so the
    score sheet's short codes differ too. Stored with the seat: a game keeps the names it was
    started with, and ratings key on the level (``cpu:<level>``), never on this name."""
    names = [s.name for s in seats]
    computers = [s.is_computer for s in seats]
    for given in tr(lang, f"computer.names.{difficulty}").split(", "):
        candidate = f"{ROBOT} {given}"
        if distinct([*names, candidate], [*computers, True])[-1] == candidate:
            return candidate
    # Every name of the level taken (people may call themselves anything): the level's own
    # name, which ``distinct`` tells apart where it is shown.
    return tr(lang, f"computer.name.{difficulty}")


@dataclass(frozen=True, slots=True)
class ClickReply:
    """A move's click answered (``bot.game.moves.Reply``): the clicker's hand, updated in place,
    with a refusal shown in it."""

    controller: Controller
    interaction: Interaction
    game_id: int
    session: GameSession
    seat: int
    style: CardStyle

    async def waiting(self) -> None:
        await replies.defer_while_busy(self.interaction)

    async def gone(self) -> None:
        await self.controller.unknown_game(self.interaction, self.game_id)

    async def refused(self, error: SessionError) -> None:
        interaction, session = self.interaction, self.session
        if session.game is None:
            await replies.refuse(interaction, error)
        else:
            notice = replies.error_text(interaction, error)
            await self.controller.show_hand(interaction, session, self.seat, notice=notice)

    async def made_before(self) -> None:
        # A click carries no key: never called; the hand as it is would answer it.
        await self.controller.show_hand(self.interaction, self.session, self.seat)

    def accepted(self, session: GameSession) -> Answer:
        answer = self.controller.hand_answer(self.interaction, session, self.seat, style=self.style)
        return Answer(
            functools.partial(self.controller.answer_move, self.interaction, session, answer),
            shows_game=True,
        )


class Controller(Opening):
    """Each click, opened on its game (``Opening``), checked and applied by the session, and
    answered. ``lobbies`` opens a Rematch's lobby, as ``/nines start`` does."""

    def __init__(
        self,
        *,
        sessions: Sessions,
        storage: Storage,
        serves: Callable[[int], bool] | None,
        moves: Moves,
        presenter: Presenter,
        chat: DiscordPresenter,
        lobbies: Lobbies,
        web_table: bool,
    ) -> None:
        super().__init__(sessions, storage, serves)
        self.moves = moves
        #: What the sessions are shown through (``NinesBot.presenter``): with the Activity on,
        #: the fan-out that tells the web tables too. A change the controller makes is shown
        #: through it.
        self.presenter = presenter
        #: The chat's own presenter, for what only it does: the clicker's hand, its token.
        self.chat = chat
        self.lobbies = lobbies
        #: Whether the Activity is served: the lobby offers its "Open the table" button.
        self.web_table = web_table

    def hand_answer(
        self,
        interaction: Interaction,
        session: GameSession,
        seat: int,
        *,
        notice: str | None = None,
        joker_prompt: bool = False,
        style: CardStyle,
    ) -> tuple[str, ui.Buttons]:
        """The clicker's hand as it is now: its text and buttons (render under the lock),
        cards as faces in ``style`` (``presenter.card_style``)."""
        words = replies.lang(interaction)
        model = table_models.table(session, seat)
        content = render.hand_content(words, model, notice, joker_prompt=joker_prompt, style=style)
        # The bot need not bring this person's hand up to date until the game moves on.
        self.chat.hand_shown(session, interaction.user.id)
        return content, ui.hand_view(words, model, joker_prompt=joker_prompt, style=style)

    async def send_hand(
        self,
        interaction: Interaction,
        session: GameSession,
        content: str,
        components: ui.Buttons,
    ) -> None:
        """Send a rendered hand: updated in place when clicked from it, else a new private
        one; either way the message the bot updates when the turn comes back."""
        message = interaction.message
        deferred = (
            interaction.response.type is discord.InteractionResponseType.deferred_message_update
        )
        sent: int | None = None  # the message's id if not the interaction's own
        # A daily's hand carries its table (it is shown nowhere else); a public game's none.
        table = await self.chat.daily.hand_table(session)
        if message is not None and message.flags.ephemeral and not interaction.response.is_done():
            await discord_internals.update_clicked(
                interaction, content=content, embed=table, view=components
            )
        elif message is not None and message.flags.ephemeral and deferred:
            await interaction.edit_original_response(content=content, embed=table, view=components)
        elif interaction.response.is_done():
            followup = await interaction.followup.send(
                content, view=components, ephemeral=True, wait=True, **with_embed(table)
            )
            sent = followup.id
        else:
            await interaction.response.send_message(
                content, view=components, ephemeral=True, **with_embed(table)
            )
        self.chat.remember_hand(session, interaction, sent)

    async def show_hand(
        self,
        interaction: Interaction,
        session: GameSession,
        seat: int,
        *,
        notice: str | None = None,
        joker_prompt: bool = False,
    ) -> None:
        """The clicker's hand: updated in place when clicked from it, else a new private one."""
        style = await self.chat.card_style(session)
        content, components = self.hand_answer(
            interaction, session, seat, notice=notice, joker_prompt=joker_prompt, style=style
        )
        await self.send_hand(interaction, session, content, components)

    # -- the clicks ----------------------------------------------------------------------------

    async def on_click(self, interaction: Interaction, click: ids.Click) -> None:
        """One click on one of our buttons, parsed from its custom_id, to its handler."""
        match click:
            case ids.LobbyClick():
                await self.lobby_click(interaction, click)
            case ids.HandClick():
                await self.hand_click(interaction, click)
            case ids.PlayClick():
                await self.play_click(interaction, click)
            case ids.ExchangeClick() | ids.JokerClick():
                await self.act(interaction, click, click.action)
            case ids.BackClick():
                await self.back_click(interaction, click)
            case ids.RematchClick():
                await self.rematch_click(interaction, click)
            case ids.ForgetClick():
                await self.forget_click(interaction, click)
            case _:
                assert_never(click)

    # -- the lobby -----------------------------------------------------------------------------

    async def lobby_click(self, interaction: Interaction, click: ids.LobbyClick) -> None:
        session = await self.opened(interaction, click.game)
        if session is None:
            return
        user = interaction.user
        verb = click.verb
        lang = session.language
        shown: asyncio.Future[None] | None = None
        async with self.hold(interaction, session):
            try:
                if verb == "join":
                    await session.lobby.join(user.id, member_name(user))
                    # This click's token can send them their first hand at the start.
                    self.chat.remember_click(session, interaction)
                elif verb == "leave":
                    await session.lobby.leave(user.id)
                elif click.level is not None:
                    level = click.level
                    await session.lobby.add_computer(
                        user.id, level, computer_name(lang, level, session.seats)
                    )
                elif verb == "uncpu":
                    await session.lobby.remove_computer(user.id)
                elif verb == "cancel":
                    if user.id != session.host_id:
                        raise SessionError("error.host_only")
                    if session.status != "lobby":
                        raise SessionError("error.not_lobby")
                    await session.abandon("cancelled")
                    self.presenter.lobby_changed(session)  # the web tables hear it too
                    await replies.update(
                        interaction,
                        embed=render.lobby_embed(
                            lang, table_model.build_lobby(session), note=tr(lang, "lobby.cancelled")
                        ),
                        view=None,
                    )
                    await self.chat.announced(session)
                    return
                elif verb == "start":
                    change = await session.lobby.start(user.id)
                    self.chat.remember_click(session, interaction)
                    # The draw's cards as faces, as every card of the game (issue 46, item 11).
                    style = await self.chat.card_style(session)
                    await replies.update(
                        interaction,
                        content=render.draw_line(lang, table_model.build(session, None), style),
                        embed=render.lobby_embed(
                            lang, table_model.build_lobby(session), note=tr(lang, "lobby.started")
                        ),
                        view=None,
                    )
                    change.extend(await session.run_computers())
                    # Shown after the lock is released (as a move's, bot/game/moves.py): a table
                    # slowed by Discord's rate limits must not hold up the game's next click.
                    shown = asyncio.ensure_future(self.presenter.show(session, change))
            except SessionError as error:
                await replies.refuse(interaction, error)
                return
            if shown is None:
                settings = await self.storage.get_guild_settings(session.guild_id)
                level = str(settings.get("difficulty") or "normal")
                lobby = table_model.build_lobby(session)
                await replies.update(
                    interaction,
                    embed=render.lobby_embed(lang, lobby),
                    view=ui.lobby_view(
                        lang,
                        lobby,
                        level,
                        open_table=open_table_button(self.web_table, lang, lobby.game_id),
                    ),
                )
        if shown is not None:
            await shown

    # -- hands and moves -----------------------------------------------------------------------

    async def hand_click(self, interaction: Interaction, click: ids.HandClick) -> None:
        seated = await self.seated(interaction, click.game)
        if seated is None:
            return
        session, seat = seated
        if session.game is None:
            await replies.private(interaction, tr(replies.lang(interaction), "error.not_live"))
        else:
            await self.show_hand(interaction, session, seat)

    async def play_click(self, interaction: Interaction, click: ids.PlayClick) -> None:
        if click.card is JOKER:
            await self.joker_prompt(interaction, click)
            return
        await self.act(interaction, click, Play(click.card))

    async def joker_prompt(self, interaction: Interaction, click: ids.PlayClick) -> None:
        """Nein Nine: the Joker asks Win or Lose in the same private message."""
        seated = await self.seated(interaction, click.game)
        if seated is None:
            return
        session, seat = seated
        try:
            session.check_turn(interaction.user.id, click.n)
        except SessionError as error:
            notice = replies.error_text(interaction, error)
            await self.show_hand(interaction, session, seat, notice=notice)
            return
        if not any(getattr(a, "card", None) is JOKER for a in session.view(seat).legal):
            # A forged Joker click (a Nines game has none, or it is not in this hand).
            notice = tr(replies.lang(interaction), "error.not_in_hand")
            await self.show_hand(interaction, session, seat, notice=notice)
            return
        await self.show_hand(interaction, session, seat, joker_prompt=True)

    async def act(self, interaction: Interaction, click: ids.MoveClick, action: Action) -> None:
        """A move clicked in a hand, played by the one move use case (bot/game/moves.py) and
        answered with the clicker's hand, refusals shown in it."""
        seated = await self.seated(interaction, click.game)
        if seated is None:
            return
        session, seat = seated
        style = await self.chat.card_style(session)
        reply = ClickReply(self, interaction, click.game, session, seat, style)
        move = Move(interaction.user.id, click.n, action)
        shown = await self.moves.play(session, move, reply)
        if shown is not None:
            await shown

    async def answer_move(
        self,
        interaction: Interaction,
        session: GameSession,
        answer: tuple[str, ui.Buttons],
    ) -> None:
        try:
            await self.send_hand(interaction, session, *answer)
        except discord.HTTPException:
            # The move is stored and stands; the player can reopen the hand any time.
            log.info("could not answer a move in game %s", session.id, exc_info=True)

    async def back_click(self, interaction: Interaction, click: ids.BackClick) -> None:
        session = await self.opened(interaction, click.game)
        if session is None:
            return
        async with self.hold(interaction, session):
            try:
                await session.come_back(interaction.user.id)
            except SessionError as error:
                await replies.refuse(interaction, error)
                return
            await replies.private(interaction, tr(replies.lang(interaction), "back.welcome"))
            change = await session.run_computers()
            await self.presenter.show(session, change)

    async def rematch_click(self, interaction: Interaction, click: ids.RematchClick) -> None:
        """A new lobby with the same players; whoever clicks hosts it."""
        words = replies.lang(interaction)
        finished = await self.storage.game_result(click.game)
        row = await self.storage.game(click.game)
        if row is None or finished is None:
            await replies.private(interaction, tr(words, "error.unknown_game"))
            return
        seats = await self.storage.seats(row.id)
        if not any(s.user_id == interaction.user.id for s in seats):
            await replies.private(interaction, tr(words, "error.rematch_players_only"))
            return
        here = self.sessions.in_channel(interaction.channel_id or 0)
        if here is not None and here.seat_of(interaction.user.id) is not None:
            # A second click (theirs or another player's): they have their seat already.
            link = f"https://discord.com/channels/{here.guild_id}/{here.lobby_channel_id}"
            if here.lobby_message_id is not None:
                link += f"/{here.lobby_message_id}"
            await replies.private(interaction, tr(words, "error.rematch_seated", link=link))
            return
        await self.lobbies.open_lobby(
            interaction,
            rules=stored_rules(row),
            seats=[
                SeatInfo(s.name, s.user_id, s.difficulty)
                for s in seats
                if s.user_id is not None or s.is_computer
            ],
        )

    async def forget_click(self, interaction: Interaction, click: ids.ForgetClick) -> None:
        words = replies.lang(interaction)
        if click.user != interaction.user.id or interaction.guild_id is None:
            await replies.private(interaction, tr(words, "error.not_yours"))
            return
        # Only the confirmation itself is edited into the answer: the same id forged onto
        # another message (the user's private hand) would replace that message.
        if not ui.clicked_on_message(interaction):
            await replies.private(interaction, tr(words, "error.unknown_button"))
            return
        # An open game still needs the seat's name and id (its table, its result): forgetting
        # waits until the player has left it or it ended.
        if self.sessions.seated(interaction.guild_id, interaction.user.id) is not None:
            await interaction.response.edit_message(content=tr(words, "forget.seated"), view=None)
            return
        changed = await self.storage.forget_player(interaction.guild_id, interaction.user.id)
        await interaction.response.edit_message(
            content=tr(words, "forget.done", rows=changed), view=None
        )


__all__ = ["Controller"]
