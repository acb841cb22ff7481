"""Buttons: persistent ``DynamicItem``s parsed from their custom_id, and the views built of them.

Views hold only DynamicItems, so discord.py keeps no per-message state for them: any button of
any message, from before a restart too, is routed by its custom_id alone.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.i18n import card_label, tr
from bot.session import GameSession
from engine import Card, Exchange, SeatView, sort_hand

from . import ids

if TYPE_CHECKING:
    from .controller import Controller

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)


def controller(interaction: Interaction) -> Controller:
    cog: Any = interaction.client.get_cog("Nines")
    return cast("Controller", cog.controller)


class _Item(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"nines:1:never"):
    """Base of our buttons: the parsed custom_id fields, handed to the controller."""

    def __init__(self, button: discord.ui.Button[Any], fields: dict[str, str]) -> None:
        super().__init__(button)
        self.fields = fields

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> _Item:
        button = cast(discord.ui.Button[Any], item)
        return cls(discord.ui.Button(custom_id=button.custom_id), match.groupdict())

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self.handle(controller(interaction), interaction)
        except Exception:
            # Never "This interaction failed": log it, apologise privately, keep the game.
            log.exception("button %s failed", self.custom_id)
            await controller(interaction).apologise(interaction)
        finally:
            unlink(self.view)  # the view discord.py rebuilt from the clicked message
            release(interaction)

    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        raise NotImplementedError


class LobbyButton(_Item, template=ids.LOBBY.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.lobby_click(interaction, self.fields)


class HandButton(_Item, template=ids.HAND.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.hand_click(interaction, self.fields)


class PlayButton(_Item, template=ids.PLAY.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.play_click(interaction, self.fields)


class ExchangeButton(_Item, template=ids.EXCHANGE.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.exchange_click(interaction, self.fields)


class JokerButton(_Item, template=ids.JOKER.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.joker_click(interaction, self.fields)


class BackButton(_Item, template=ids.BACK.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.back_click(interaction, self.fields)


class RematchButton(_Item, template=ids.REMATCH.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.rematch_click(interaction, self.fields)


class ForgetButton(_Item, template=ids.FORGET.pattern):
    async def handle(self, ctl: Controller, interaction: Interaction) -> None:
        await ctl.forget_click(interaction, self.fields)


DYNAMIC_ITEMS = (
    LobbyButton,
    HandButton,
    PlayButton,
    ExchangeButton,
    JokerButton,
    BackButton,
    RematchButton,
    ForgetButton,
)


def button(
    kind: type[_Item],
    custom_id: str,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
) -> _Item:
    return kind(
        discord.ui.Button(
            label=label, custom_id=custom_id, style=style, disabled=disabled, row=row
        ),
        {},
    )


def unlink(view: discord.ui.view.BaseView | None) -> None:
    """Break a used view's reference cycles (view -> items -> view), so it is freed at once.

    Every click builds one view from the clicked message and answers with another: left to
    the cyclic garbage collector they made ~200,000 buttons of garbage a minute at 200 games,
    and its full collections stopped every game for 100-400 ms."""
    if view is None:
        return
    for child in list(view.walk_children()):
        inner = getattr(child, "item", None)  # a DynamicItem's own button
        if isinstance(inner, discord.ui.Item):
            inner._view = inner._parent = None
        child._parent = None
    view.clear_items()  # and each child's link back to the view


def release(interaction: Interaction) -> None:
    """Break an answered interaction's reference cycles (its response, follow-up webhook and
    original message each point back at it), so it is freed at once with the clicked message,
    its user and its components. Left to the collector they were ~25 objects of cyclic garbage
    a click, and what survived the young collections made the full ones run every 2 s at 200
    games (~120 ms each, every game stopped). Call only once the click is fully answered."""
    response = getattr(interaction, "_cs_response", None)
    if response is not None:
        response._parent = None
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_followup")
    interaction._original_response = None


class Buttons(discord.ui.View):
    """A view discord.py sends but never tracks: our buttons are routed by their DynamicItem
    patterns alone (registered once, ``bot.add_dynamic_items``), and every send and edit skips
    storing a finished view. Tracked, each private hand's view got a 15-minute timeout and was
    kept alive with a task and a timer for those 15 minutes (~480 of them after 30 s at 200
    games)."""

    def is_finished(self) -> bool:
        return True


def _view(items: list[_Item]) -> discord.ui.View:
    view = Buttons(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# -- views -------------------------------------------------------------------------------------


def lobby_view(lang: str, session: GameSession, default_level: str = "normal") -> discord.ui.View:
    g = session.id
    B = discord.ButtonStyle
    items = [
        button(
            LobbyButton,
            ids.LOBBY.format(game=g, verb="join"),
            tr(lang, "button.join"),
            style=B.primary,
            row=0,
        ),
        button(
            LobbyButton, ids.LOBBY.format(game=g, verb="leave"), tr(lang, "button.leave"), row=0
        ),
        button(
            LobbyButton,
            ids.LOBBY.format(game=g, verb="start"),
            tr(lang, "button.start"),
            style=B.success,
            row=0,
            disabled=len(session.seats) < session.players,
        ),
        button(
            LobbyButton,
            ids.LOBBY.format(game=g, verb="cancel"),
            tr(lang, "button.cancel"),
            style=B.danger,
            row=0,
        ),
    ]
    full = len(session.seats) >= session.players
    for level in ("easy", "normal", "hard"):
        items.append(
            button(
                LobbyButton,
                ids.LOBBY.format(game=g, verb=f"cpu-{level}"),
                tr(lang, "button.add_cpu", level=tr(lang, f"difficulty.{level}")),
                # the server's usual level (settings: difficulty) stands out
                style=B.primary if level == default_level else B.secondary,
                row=1,
                disabled=full,
            )
        )
    items.append(
        button(
            LobbyButton,
            ids.LOBBY.format(game=g, verb="uncpu"),
            tr(lang, "button.remove_cpu"),
            row=1,
            disabled=not any(s.is_computer for s in session.seats),
        )
    )
    return _view(items)


def table_view(lang: str, session: GameSession) -> discord.ui.View:
    items = [
        button(
            HandButton,
            ids.HAND.format(game=session.id),
            tr(lang, "button.my_hand"),
            style=discord.ButtonStyle.primary,
        )
    ]
    if any(s.away for s in session.seats):
        items.append(button(BackButton, ids.BACK.format(game=session.id), tr(lang, "button.back")))
    return _view(items)


def end_view(lang: str, session: GameSession) -> discord.ui.View:
    return _view(
        [
            button(
                RematchButton,
                ids.REMATCH.format(game=session.id),
                tr(lang, "button.rematch"),
                style=discord.ButtonStyle.success,
            )
        ]
    )


def _card_style(card: Card) -> discord.ButtonStyle:
    if card.suit is None:
        return discord.ButtonStyle.success
    return discord.ButtonStyle.danger if card.suit.is_red else discord.ButtonStyle.secondary


def hand_view(
    lang: str, session: GameSession, view: SeatView, *, joker_prompt: bool = False
) -> discord.ui.View:
    """The private hand: cards in suit order (5 a row), the legal ones enabled on your turn;
    Keep/Swap during the exchange; Win/Lose after the Joker; Refresh always."""
    g, n = session.id, session.n
    legal_cards = {getattr(a, "card", None) for a in view.legal}
    items: list[_Item] = []
    for i, card in enumerate(sort_hand(view.hand)):
        label = tr(lang, "button.joker") if card.suit is None else card_label(card, lang)
        items.append(
            button(
                PlayButton,
                ids.PLAY.format(game=g, n=n, card=str(card)),
                label,
                style=_card_style(card),
                row=i // 5,
                disabled=card not in legal_cards or joker_prompt,
            )
        )
    controls = 3
    if view.my_turn and view.table.phase == "exchange":
        for choice in ("keep", "swap"):
            items.append(
                button(
                    ExchangeButton,
                    ids.EXCHANGE.format(game=g, n=n, choice=choice),
                    tr(lang, f"button.{choice}"),
                    style=discord.ButtonStyle.primary,
                    row=controls,
                )
            )
    if joker_prompt:
        for call in ("win", "lose"):
            items.append(
                button(
                    JokerButton,
                    ids.JOKER.format(game=g, n=n, call=call),
                    tr(lang, f"button.joker_{call}"),
                    style=discord.ButtonStyle.primary,
                    row=controls,
                )
            )
    items.append(
        button(HandButton, ids.HAND.format(game=g), tr(lang, "button.refresh"), row=controls)
    )
    return _view(items)


def has_exchange_choice(view: SeatView) -> bool:
    return any(isinstance(a, Exchange) for a in view.legal)
